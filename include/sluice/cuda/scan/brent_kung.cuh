// scan "brent-kung" (GPU Teaching Kit, Lecture 10.3, "A Work-Efficient Parallel Scan Kernel"; Blelloch's
// up-sweep/down-sweep): a section of 2 x blockDim elements; the reduction phase combines
// XY[index - stride] into XY[index], index = (t + 1) x stride x 2 - 1, for stride = 1 .. blockDim; the
// post-reduction reverse phase combines XY[index] into XY[index + stride] for stride = blockDim / 2 .. 1.
// At most 2 (n - 1) operations. Operands keep their order (XY[left] op XY[right]), so any associative
// operator works; a partial section only touches its valid prefix. Inside the Module 10.4 multi-block scan.
#pragma once
#include "sluice/cuda/scan/hierarchical.cuh"

namespace sluice::cuda_backend::brent_kung {

struct block_scan {
  static constexpr int threads = 1024;
  static constexpr int section = 2 * threads;
  template <class T>
  struct storage {
    T xy[section];
  };
  template <class T, class Op>
  __device__ static const T* scan(storage<T>& s, unsigned valid, Op op) {
    T* xy = s.xy;
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
};

template <class T, class Op>
void run(const T* in, T* out, u64 n, bool inclusive, T init, Op op, cudaStream_t s, const char* fn) {
  hierarchical::run<block_scan>(in, out, n, inclusive, init, op, s, fn);
}

}  // namespace sluice::cuda_backend::brent_kung
