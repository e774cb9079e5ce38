// scan "three-phase-coarsened" (GPU Teaching Kit, Module 10.4, "Thread Granularity Adjustment"): each thread
// owns a contiguous run of `items` elements of the section in shared memory; (1) each thread scans its run
// sequentially, (2) the threads scan their runs' totals together (Kogge-Stone, double-buffered), (3) each
// thread combines the previous thread's prefix into its run. Inside the Module 10.4 multi-block scan.
#pragma once
#include "sluice/cuda/scan/hierarchical.cuh"
#include "sluice/cuda/scan/kogge_stone.cuh"

namespace sluice::cuda_backend::three_phase_coarsened {

// Section = threads x items (parameters `threads`, default 256, and `items`, the coarsening factor, default 8).
struct block_scan {
  unsigned threads = 256;
  unsigned items = 8;
  __host__ __device__ unsigned section() const { return threads * items; }
  // xy[section], then the runs' totals and the Kogge-Stone's second buffer.
  template <class T>
  std::size_t shared_bytes() const { return (std::size_t{section()} + 2 * std::size_t{threads}) * sizeof(T); }
  template <class T, class Op>
  __device__ const T* scan(T* xy, unsigned valid, Op op) const {
    T* totals = xy + section();
    T* other = totals + threads;
    const unsigned t = threadIdx.x, first = t * items;
    const unsigned mine = first >= valid ? 0 : (valid - first < items ? valid - first : items);
    const unsigned busy = (valid + items - 1) / items;  // threads with at least one element
    // 1. Sequential scan of this thread's run.
    for (unsigned k = 1; k < mine; ++k) xy[first + k] = op(xy[first + k - 1], xy[first + k]);
    if (mine) totals[t] = xy[first + mine - 1];
    __syncthreads();
    // 2. Parallel (Kogge-Stone) scan of the runs' totals.
    const T* src = kogge_stone::recursive_doubling(totals, other, busy, op);
    // 3. The previous thread's prefix into this run.
    if (t > 0 && mine) {
      const T prefix = src[t - 1];
      for (unsigned k = 0; k < mine; ++k) xy[first + k] = op(prefix, xy[first + k]);
    }
    return xy;
  }
  static block_scan from(std::string_view spec, const char* fn) {
    sluice::detail::params p(spec, fn);
    const unsigned threads = hierarchical::threads_param(p, 256);
    const block_scan bs{threads, static_cast<unsigned>(p.number("items", 8, 1, 64))};
    p.done("threads, items");
    return bs;
  }
};

template <class T, class Op>
void run(const T* in, T* out, u64 n, bool inclusive, T init, Op op, cudaStream_t s, const char* fn, std::string_view spec) {
  hierarchical::run(block_scan::from(spec, fn), in, out, n, inclusive, init, op, s, fn);
}

}  // namespace sluice::cuda_backend::three_phase_coarsened
