// scan "kogge-stone" (GPU Teaching Kit, Module 10.2, "A Work-Inefficient Scan Kernel"; Hillis and Steele):
// one element per thread; for stride = 1, 2, 4, ..., thread j combines XY[j - stride] with XY[j]. Here
// double-buffered (read one array, write the other), so one barrier per step instead of the kit's two.
// O(n log n) operations in log n steps. Runs inside the Module 10.4 multi-block scan (hierarchical.cuh).
#pragma once
#include "sluice/cuda/scan/hierarchical.cuh"

namespace sluice::cuda_backend::kogge_stone {

// The recursive doubling itself, double-buffered (also Moreira et al. 2009 Algorithm 1): inclusive scans of
// src[0 .. valid), one element per thread, within aligned segments of local_mask + 1 elements (a power of
// two; ~0u for one segment). Call after a barrier that published src; returns the buffer holding the result
// (after a barrier, unless no step was needed).
template <class T, class Op>
__device__ const T* recursive_doubling(T* src, T* dst, unsigned valid, Op op, unsigned local_mask = ~0u) {
  const unsigned j = threadIdx.x;
  for (unsigned stride = 1; stride < valid && stride <= local_mask; stride *= 2) {
    if (j < valid) dst[j] = (j & local_mask) >= stride ? op(src[j - stride], src[j]) : src[j];
    __syncthreads();
    T* t = src;
    src = dst;
    dst = t;
  }
  return src;
}

// Section = threads (parameter `threads`, default 1024): one element per thread, two buffers.
struct block_scan {
  unsigned threads = 1024;
  __host__ __device__ unsigned section() const { return threads; }
  template <class T>
  std::size_t shared_bytes() const { return 2 * std::size_t{threads} * sizeof(T); }
  // Inclusive scan of xy[0 .. valid); returns the buffer holding the result.
  template <class T, class Op>
  __device__ const T* scan(T* xy, unsigned valid, Op op) const {
    return recursive_doubling(xy, xy + threads, valid, op);
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

}  // namespace sluice::cuda_backend::kogge_stone
