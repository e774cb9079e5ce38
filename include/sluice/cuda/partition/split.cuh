// partition "split" (Billeter, Olsson, Assarsson 2009, Sec. 5.3, stream split): two compactions that share
// phases 1 and 2 of `billeter` (compact/billeter.cuh): the counts and offsets give processor p both where
// its valid elements go (offsets[p]) and where its invalid ones go (kept + first element of its range -
// offsets[p]). Phase 3 splits every row inside the warp through shared memory, valid elements (ranked by
// ballot + POPC) to the front of the staging row and invalid ones after them, and writes both runs with
// coalesced stores. Stable on both sides; not in place. Parameters: P, simd=popc|prefix.
// Moves: reads the flags (or elements) twice and the elements once, writes every element once.
#pragma once
#include "sluice/cuda/compact/billeter.cuh"

namespace sluice::cuda_backend::stream_split {

using billeter::policy;

template <class T, unsigned E, billeter::simd How, class Sel>
__global__ void __launch_bounds__(policy::warps_per_block * 32)
    split_kernel(const T* in, Sel sel, u64 n, u64 P, const u64* offsets, const u64* kept_total, T* out) {
  constexpr unsigned W = policy::S * E;
  using warp_scan = cub::WarpScan<unsigned>;
  __shared__ typename warp_scan::TempStorage scan_storage[policy::warps_per_block];
  __shared__ alignas(T) unsigned char buffer_bytes[policy::warps_per_block][W * sizeof(T)];
  const unsigned w = threadIdx.x / 32, lane = threadIdx.x & 31u;
  const u64 p = static_cast<u64>(blockIdx.x) * policy::warps_per_block + w;
  if (p >= P) return;
  T* buf = reinterpret_cast<T*>(buffer_bytes[w]);
  const billeter::ranges r(n, W, P);
  const u64 first = r.first(p), last = r.last(p);
  u64 j = offsets[p];                                  // next valid slot
  u64 jinv = *kept_total + (first * W < n ? first * W : n) - j;  // next invalid slot
  for (u64 k = first; k < last; ++k) {
    const billeter::lane_row<T, E, Sel> a(in, sel, k * W, lane, n);
    const billeter::compact_simd<How, E> c(a.keep, lane, &scan_storage[w]);
    const unsigned in_row = static_cast<unsigned>(n - k * W < W ? n - k * W : W);
#pragma unroll
    for (unsigned e = 0; e < E; ++e) {
      const unsigned q = lane * E + e;  // position in the row
      if (q < in_row) buf[a.keep[e] ? c.rank[e] : c.valid + (q - c.rank[e])] = a.x[e];
    }
    __syncwarp();
    for (unsigned q = lane; q < in_row; q += 32) out[q < c.valid ? j + q : jinv + (q - c.valid)] = buf[q];
    __syncwarp();
    j += c.valid;
    jinv += in_row - c.valid;
  }
}

template <class T, unsigned E, class Sel>
void split_rows(std::span<const T> in, std::span<T> out, Sel sel, u64* count, const policy& pol, cudaStream_t s, const char* fn) {
  scratch counts(pol.P * sizeof(u64), s, fn), offsets(pol.P * sizeof(u64), s, fn);
  billeter::count_and_offsets<T, E>(in.data(), sel, in.size(), pol.P, counts.as<u64>(), offsets.as<u64>(), count, s, fn);
  const unsigned blocks = static_cast<unsigned>(ceil_div(pol.P, policy::warps_per_block));
  if (pol.compact_simd == billeter::simd::popc)
    split_kernel<T, E, billeter::simd::popc, Sel><<<blocks, policy::warps_per_block * 32, 0, s>>>(in.data(), sel, in.size(), pol.P,
                                                                                                 offsets.as<u64>(), count, out.data());
  else
    split_kernel<T, E, billeter::simd::prefix, Sel><<<blocks, policy::warps_per_block * 32, 0, s>>>(in.data(), sel, in.size(), pol.P,
                                                                                                   offsets.as<u64>(), count, out.data());
  check_launch(fn, "stream_split::split_kernel");
}

template <class T, class Sel>
void partition(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn, std::string_view spec) {
  const auto pol = policy::parse(spec, fn, billeter::output::staged);
  if (in.empty()) return check_cuda(cudaMemsetAsync(count, 0, sizeof(u64), s), fn, "cudaMemsetAsync");
  if constexpr (billeter::elems_per_lane<T> == 2) {
    if (reinterpret_cast<std::uintptr_t>(in.data()) % 8 == 0) return split_rows<T, 2>(in, out, sel, count, pol, s, fn);
  }
  split_rows<T, 1>(in, out, sel, count, pol, s, fn);
}

}  // namespace sluice::cuda_backend::stream_split
