// scan "three-phase-coarsened" (GPU Teaching Kit, Module 10.4, "Thread Granularity Adjustment"): each thread
// owns a contiguous run of `items` elements of the section in shared memory; (1) each thread scans its run
// sequentially, (2) the threads scan their runs' totals together (Kogge-Stone, double-buffered), (3) each
// thread combines the previous thread's prefix into its run. Inside the Module 10.4 multi-block scan.
#pragma once
#include "sluice/cuda/scan/hierarchical.cuh"
#include "sluice/cuda/scan/kogge_stone.cuh"

namespace sluice::cuda_backend::three_phase_coarsened {

struct block_scan {
  static constexpr int threads = 256;
  static constexpr int items = 8;  // the coarsening factor
  static constexpr int section = threads * items;
  template <class T>
  struct storage {
    T xy[section];
    T totals[threads];
    T other[threads];
  };
  template <class T, class Op>
  __device__ static const T* scan(storage<T>& s, unsigned valid, Op op) {
    const unsigned t = threadIdx.x, first = t * items;
    const unsigned mine = first >= valid ? 0 : (valid - first < items ? valid - first : items);
    const unsigned busy = (valid + items - 1) / items;  // threads with at least one element
    // 1. Sequential scan of this thread's run.
    for (unsigned k = 1; k < mine; ++k) s.xy[first + k] = op(s.xy[first + k - 1], s.xy[first + k]);
    if (mine) s.totals[t] = s.xy[first + mine - 1];
    __syncthreads();
    // 2. Parallel (Kogge-Stone) scan of the runs' totals.
    const T* src = kogge_stone::recursive_doubling(s.totals, s.other, busy, op);
    // 3. The previous thread's prefix into this run.
    if (t > 0 && mine) {
      const T prefix = src[t - 1];
      for (unsigned k = 0; k < mine; ++k) s.xy[first + k] = op(prefix, s.xy[first + k]);
    }
    return s.xy;
  }
};

template <class T, class Op>
void run(const T* in, T* out, u64 n, bool inclusive, T init, Op op, cudaStream_t s, const char* fn) {
  hierarchical::run<block_scan>(in, out, n, inclusive, init, op, s, fn);
}

}  // namespace sluice::cuda_backend::three_phase_coarsened
