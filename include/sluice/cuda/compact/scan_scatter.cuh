// compact "scan-scatter" (GPU Teaching Kit, stream compaction by scan; the CUDPP method the papers compare
// against): an exclusive scan of the keep flags gives every kept element its output position, and the
// element is scattered there. Here the scatter is the scan's store step, so positions never touch memory.
// Stable; not in place. Reads the input 2x (+ flags), writes the kept elements once.
#pragma once
#include <span>

#include "sluice/cuda/scan/reduce_then_scan.cuh"

namespace sluice::cuda_backend::scan_scatter {

template <class T, class Sel>
struct keep_load {
  const T* in;
  Sel sel;
  __device__ u64 operator()(u64 i) const { return sel(i, in[i]) ? 1 : 0; }
};

template <class T, class Sel>
struct scatter_store {
  const T* in;
  T* out;
  Sel sel;
  u64 n, capacity;
  u64* count;
  __device__ void operator()(u64 i, u64 position) const {
    const T x = in[i];
    const bool keep = sel(i, x);
    if (keep && position < capacity) out[position] = x;
    if (i == n - 1) *count = position + keep;
  }
};

// Two-sided scatter of the stream split: kept elements at their position, rejected ones after all kept.
template <class T, class Sel>
struct split_store {
  const T* in;
  T* out;
  Sel sel;
  const u64* kept_total;
  u64* count;
  __device__ void operator()(u64 i, u64 position) const {
    const T x = in[i];
    const u64 kept = *kept_total;
    out[sel(i, x) ? position : kept + (i - position)] = x;
    if (i == 0) *count = kept;
  }
};

template <class T, class Sel>
void compact(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn) {
  const u64 n = in.size();
  if (n == 0) return check_cuda(cudaMemsetAsync(count, 0, sizeof(u64), s), fn, "cudaMemsetAsync");
  reduce_then_scan::run<u64>(keep_load<T, Sel>{in.data(), sel}, scatter_store<T, Sel>{in.data(), out.data(), sel, n, out.size(), count},
                             n, /*inclusive=*/false, u64{0}, sluice::sum{}, s, fn);
}

template <class T, class Sel>
void partition(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn) {
  const u64 n = in.size();
  if (n == 0) return check_cuda(cudaMemsetAsync(count, 0, sizeof(u64), s), fn, "cudaMemsetAsync");
  const u64 chunks = reduce_then_scan::chunk_count(n, fn);
  scratch totals(chunks * sizeof(u64), s, fn);
  reduce_then_scan::run<u64>(keep_load<T, Sel>{in.data(), sel},
                             split_store<T, Sel>{in.data(), out.data(), sel, totals.as<u64>() + chunks - 1, count}, n,
                             /*inclusive=*/false, u64{0}, sluice::sum{}, s, fn, totals.as<u64>());
}

}  // namespace sluice::cuda_backend::scan_scatter
