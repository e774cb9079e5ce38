// scan "brent-kung" (GPU Teaching Kit, Lecture 10.3, "A Work-Efficient Parallel Scan Kernel"; Blelloch's
// up-sweep/down-sweep): a section of 2 x blockDim elements; the reduction phase combines
// XY[index - stride] into XY[index], index = (t + 1) x stride x 2 - 1, for stride = 1 .. blockDim; the
// post-reduction reverse phase combines XY[index] into XY[index + stride] for stride = blockDim / 2 .. 1.
// At most 2 (n - 1) operations. Operands keep their order (XY[left] op XY[right]), so any associative
// operator works; a partial section only touches its valid prefix. Inside the Module 10.4 multi-block scan.
#pragma once
#include "sluice/cuda/scan/hierarchical.cuh"

namespace sluice::cuda_backend::brent_kung {

// Section = 2 x threads (parameter `threads`, default 1024).
struct block_scan {
  unsigned threads = 1024;
  __host__ __device__ unsigned section() const { return 2 * threads; }
  template <class T>
  std::size_t shared_bytes() const { return 2 * std::size_t{threads} * sizeof(T); }
  template <class T, class Op>
  __device__ const T* scan(T* xy, unsigned valid, Op op) const {
    const unsigned t = threadIdx.x;
    // Reduction phase.
    for (unsigned stride = 1; stride <= threads; stride *= 2) {
      const unsigned index = (t + 1) * stride * 2 - 1;
      if (index < valid) xy[index] = op(xy[index - stride], xy[index]);
      __syncthreads();
    }
    // Post-reduction reverse phase.
    for (unsigned stride = threads / 2; stride > 0; stride /= 2) {
      __syncthreads();
      const unsigned index = (t + 1) * stride * 2 - 1;
      if (index + stride < valid) xy[index + stride] = op(xy[index], xy[index + stride]);
    }
    return xy;
  }
  static block_scan from(std::string_view spec, const char* fn) {
    sluice::detail::params p(spec, fn);
    const block_scan bs{hierarchical::threads_param(p, 1024)};
    p.done("threads");
    return bs;
  }
};

template <class T, class Op>
void run(const T* in, T* out, u64 n, bool inclusive, T init, Op op, cudaStream_t s, const char* fn, std::string_view spec) {
  hierarchical::run(block_scan::from(spec, fn), in, out, n, inclusive, init, op, s, fn);
}

}  // namespace sluice::cuda_backend::brent_kung
