// compact "billeter", "billeter-staged", "billeter-scattered", "billeter-buffered" (Billeter, Olsson,
// Assarsson 2009, "Efficient stream compaction on wide SIMD many-core architectures", Sec. 3-4): P virtual
// processors of S = 32 SIMD lanes (one warp each), each owning a contiguous range of whole rows of S x E
// elements (E = 2 for 32-bit data, read as 64-bit words, Sec. 4.3; else 1).
//   Phase 1 (Listing 3): every lane counts the valid elements it meets; a warp reduction per processor.
//   Phase 2 (Listing 2, l. 10): an exclusive prefix sum over the P counts gives each processor its offset.
//   Phase 3 (Listing 4): every row is compacted inside the warp by compactSIMD, by ballot + POPC
//     (Listing 6; the ballot builds the mask that Sec. 4.2 had to assemble by hand) or by a warp prefix sum
//     (Listing 5, Hillis-Steele: cub::WarpScan), and written out:
//       staged     through shared memory, then a coalesced copy of the row's valid elements (Sec. 4.2);
//       scattered  each valid lane writes its own elements (Sec. 4.2);
//       buffered   Listing 7: a shared buffer flushed only in whole, aligned rows (Sec. 3.5);
//       selective  per processor, staged when its range's valid ratio is at least t%, else scattered
//                  (Sec. 4.2, "a heuristic involving the per-range ratio of valid elements").
// Stable; not in place. Parameters: P (default: every warp slot of the device), simd=popc|prefix, and for
// selective t (percent). Moves: reads the flags (or elements) twice and the elements once, writes the kept
// elements once; scratch O(P).
#pragma once
#include <cub/warp/warp_scan.cuh>
#include <span>
#include <string_view>

#include "sluice/cuda/scan/reduce_then_scan.cuh"
#include "sluice/detail/params.hpp"

namespace sluice::cuda_backend::billeter {

enum class output { staged, scattered, buffered, selective };
enum class simd { popc, prefix };

struct policy {
  static constexpr unsigned S = 32;               // functional SIMD width: a warp (Sec. 4.1)
  static constexpr unsigned warps_per_block = 4;  // Sec. 4.1: "thread blocks with four warps each"
  static constexpr unsigned warps_per_sm = 64;    // default P fills every warp slot of an H100/A100 SM
  static constexpr unsigned default_selective_percent = 30;
  u64 P;
  output mode;
  simd compact_simd;
  unsigned selective_percent;  // selective: staged at or above this valid ratio (percent), else scattered

  // The parameter P: by default every warp slot of the device (Sec. 4.1: enough warps to hide latency).
  static u64 processors(sluice::detail::params& p, const char* fn) {
    return p.number("P", static_cast<u64>(multiprocessor_count(fn)) * warps_per_sm, 1, u64{1} << 26);
  }

  static policy parse(std::string_view spec, const char* fn, output mode) {
    sluice::detail::params p(spec, fn);
    policy pol{processors(p, fn), mode, static_cast<simd>(p.choice("simd", {"popc", "prefix"}, 0)),
               default_selective_percent};
    if (mode == output::selective) pol.selective_percent = static_cast<unsigned>(p.number("t", default_selective_percent, 0, 100));
    p.done(mode == output::selective ? "P, simd, t" : "P, simd");
    return pol;
  }
};

// Elements per lane per row: two 32-bit elements in one 64-bit load (Sec. 4.3).
template <class T>
constexpr unsigned elems_per_lane = sizeof(T) == 4 ? 2 : 1;

// Processor p's rows: an even share of ceil(n / row) rows.
struct ranges {
  u64 rows, per, extra;
  __host__ __device__ ranges(u64 n, u64 row, u64 P) : rows(ceil_div(n, row)), per(rows / P), extra(rows % P) {}
  __device__ u64 first(u64 p) const { return p * per + (p < extra ? p : extra); }
  __device__ u64 last(u64 p) const { return first(p + 1); }  // one past
};

// One lane's E elements of the row at `base`: one 64-bit load where E = 2 and the pair lies in the stream.
template <class T, unsigned E, class Sel>
struct lane_row {
  T x[E];
  bool keep[E];
  __device__ lane_row(const T* in, Sel sel, u64 base, unsigned lane, u64 n) {
    const u64 i0 = base + static_cast<u64>(lane) * E;
    if constexpr (E == 2) {
      if (i0 + 1 < n) {
        const uint2 w = *reinterpret_cast<const uint2*>(in + i0);
        __builtin_memcpy(&x[0], &w.x, 4);
        __builtin_memcpy(&x[1], &w.y, 4);
        keep[0] = sel(i0, x[0]);
        keep[1] = sel(i0 + 1, x[1]);
        return;
      }
    }
#pragma unroll
    for (unsigned e = 0; e < E; ++e) {
      keep[e] = i0 + e < n;
      if (keep[e]) {
        x[e] = in[i0 + e];
        keep[e] = sel(i0 + e, x[e]);
      }
    }
  }
};

// compactSIMD: the rank of each kept element among the row's kept elements (lane-major order), and their number.
template <simd How, unsigned E>
struct compact_simd {
  unsigned rank[E];
  unsigned valid;
  using warp_scan = cub::WarpScan<unsigned>;
  __device__ compact_simd(const bool (&keep)[E], unsigned lane, typename warp_scan::TempStorage* scan_storage) {
    if constexpr (How == simd::popc) {  // Listing 6
      const unsigned before = (1u << lane) - 1u;
      unsigned ahead = 0;
      valid = 0;
#pragma unroll
      for (unsigned e = 0; e < E; ++e) {
        const unsigned m = __ballot_sync(0xffffffffu, keep[e]);
        ahead += __popc(m & before);
        valid += __popc(m);
      }
      rank[0] = ahead;
    } else {  // Listing 5: Hillis-Steele prefix sum across the lanes
      unsigned mine = 0;
#pragma unroll
      for (unsigned e = 0; e < E; ++e) mine += keep[e];
      warp_scan(*scan_storage).ExclusiveSum(mine, rank[0], valid);
    }
#pragma unroll
    for (unsigned e = 1; e < E; ++e) rank[e] = rank[e - 1] + keep[e - 1];
  }
};

// ---- Phase 1: count the valid elements of each processor's range (Listing 3). ----
template <class T, unsigned E, class Sel>
__global__ void __launch_bounds__(policy::warps_per_block * 32) count_kernel(const T* in, Sel sel, u64 n, u64 P, u64* counts) {
  const u64 p = (static_cast<u64>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x & 31u;
  if (p >= P) return;
  constexpr u64 row = policy::S * E;
  const ranges r(n, row, P);
  u64 count = 0;  // this lane's count[s]
  for (u64 k = r.first(p), end = r.last(p); k < end; ++k) {
    const lane_row<T, E, Sel> a(in, sel, k * row, lane, n);
#pragma unroll
    for (unsigned e = 0; e < E; ++e) count += a.keep[e];
  }
  for (unsigned d = 16; d > 0; d /= 2) count += __shfl_down_sync(0xffffffffu, count, d);  // reduce(+, count[0..S))
  if (lane == 0) counts[p] = count;
}

// Phases 1 and 2 (shared with the stream split): offsets[p] for each processor, *total = kept elements.
template <class T, unsigned E, class Sel>
void count_and_offsets(const T* in, Sel sel, u64 n, u64 P, u64* counts, u64* offsets, u64* total, cudaStream_t s, const char* fn) {
  const unsigned blocks = static_cast<unsigned>(ceil_div(P, policy::warps_per_block));
  count_kernel<T, E, Sel><<<blocks, policy::warps_per_block * 32, 0, s>>>(in, sel, n, P, counts);
  check_launch(fn, "billeter::count_kernel");
  // Phase 2: processorOffsets = exclusive prefix sum of processorCounts (Listing 2, line 10).
  reduce_then_scan::offsets_of(counts, P, offsets, total, s, fn);
}

// ---- Phase 3: move the valid elements (Listing 4; Listing 7 when buffered). ----
template <class T, unsigned E, simd How, class Sel>
__global__ void __launch_bounds__(policy::warps_per_block * 32)
    move_kernel(const T* in, Sel sel, u64 n, u64 P, const u64* counts, const u64* offsets, T* out, u64 capacity, output mode,
                unsigned selective_percent, bool vector_out) {
  constexpr unsigned W = policy::S * E;  // elements per row
  using warp_scan = cub::WarpScan<unsigned>;
  __shared__ typename warp_scan::TempStorage scan_storage[policy::warps_per_block];
  __shared__ alignas(T) unsigned char buffer_bytes[policy::warps_per_block][2 * W * sizeof(T)];
  const unsigned w = threadIdx.x / 32, lane = threadIdx.x & 31u;
  const u64 p = static_cast<u64>(blockIdx.x) * policy::warps_per_block + w;
  if (p >= P) return;
  T* buf = reinterpret_cast<T*>(buffer_bytes[w]);
  const ranges r(n, W, P);
  const u64 first = r.first(p), last = r.last(p);
  u64 j = offsets[p];
  if (mode == output::selective) {  // per-range ratio from phase 1
    const u64 elems = (last * W < n ? last * W : n) - (first * W < n ? first * W : n);
    mode = counts[p] * 100 >= elems * selective_percent && elems ? output::staged : output::scattered;
  }
  // Buffered: align the output to rows of W (alignOutput): the buffer starts with `head` slots that belong
  // to the previous processor and are never written.
  unsigned head = 0, buffered = 0;
  if (mode == output::buffered) {
    head = static_cast<unsigned>(j % W);
    buffered = head;
    j -= head;
  }
  for (u64 k = first; k < last; ++k) {
    const lane_row<T, E, Sel> a(in, sel, k * W, lane, n);
    const compact_simd<How, E> c(a.keep, lane, &scan_storage[w]);
    if (mode == output::scattered) {
#pragma unroll
      for (unsigned e = 0; e < E; ++e)
        if (a.keep[e] && j + c.rank[e] < capacity) out[j + c.rank[e]] = a.x[e];
      j += c.valid;
    } else if (mode == output::staged) {
#pragma unroll
      for (unsigned e = 0; e < E; ++e)
        if (a.keep[e]) buf[c.rank[e]] = a.x[e];
      __syncwarp();
      for (unsigned q = lane; q < c.valid; q += 32)
        if (j + q < capacity) out[j + q] = buf[q];
      __syncwarp();
      j += c.valid;
    } else {  // buffered (Listing 7)
#pragma unroll
      for (unsigned e = 0; e < E; ++e)
        if (a.keep[e]) buf[buffered + c.rank[e]] = a.x[e];
      buffered += c.valid;
      __syncwarp();
      if (buffered >= W) {  // flush one whole, aligned row
        const unsigned q = lane * E;
        if (E == 2 && vector_out && q >= head && j + q + 1 < capacity) {
          uint2 v;
          __builtin_memcpy(&v.x, &buf[q], 4);
          __builtin_memcpy(&v.y, &buf[q + 1], 4);
          *reinterpret_cast<uint2*>(out + j + q) = v;
        } else {
#pragma unroll
          for (unsigned e = 0; e < E; ++e)
            if (q + e >= head && j + q + e < capacity) out[j + q + e] = buf[q + e];
        }
        head = 0;
        j += W;
        buffered -= W;
        __syncwarp();
        for (unsigned m = lane; m < buffered; m += 32) buf[m] = buf[W + m];  // overflow to the front
        __syncwarp();
      }
    }
  }
  if (mode == output::buffered)  // the last, partial row
    for (unsigned q = head + lane; q < buffered; q += 32)
      if (j + q < capacity) out[j + q] = buf[q];
}

template <class T, unsigned E, simd How, class Sel>
void move(std::span<const T> in, std::span<T> out, Sel sel, const policy& pol, const u64* counts, const u64* offsets, cudaStream_t s,
          const char* fn) {
  const bool vector_out = reinterpret_cast<std::uintptr_t>(out.data()) % 8 == 0;
  const unsigned blocks = static_cast<unsigned>(ceil_div(pol.P, policy::warps_per_block));
  move_kernel<T, E, How, Sel><<<blocks, policy::warps_per_block * 32, 0, s>>>(in.data(), sel, in.size(), pol.P, counts, offsets,
                                                                             out.data(), out.size(), pol.mode, pol.selective_percent,
                                                                             vector_out);
  check_launch(fn, "billeter::move_kernel");
}

template <class T, unsigned E, class Sel>
void run(std::span<const T> in, std::span<T> out, Sel sel, u64* count, const policy& pol, cudaStream_t s, const char* fn) {
  scratch counts(pol.P * sizeof(u64), s, fn), offsets(pol.P * sizeof(u64), s, fn);
  count_and_offsets<T, E>(in.data(), sel, in.size(), pol.P, counts.as<u64>(), offsets.as<u64>(), count, s, fn);
  if (pol.compact_simd == simd::popc) move<T, E, simd::popc>(in, out, sel, pol, counts.as<u64>(), offsets.as<u64>(), s, fn);
  else move<T, E, simd::prefix>(in, out, sel, pol, counts.as<u64>(), offsets.as<u64>(), s, fn);
}

template <class T, class Sel>
void compact(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn, std::string_view spec,
             output mode) {
  const auto pol = policy::parse(spec, fn, mode);
  if (in.empty()) return check_cuda(cudaMemsetAsync(count, 0, sizeof(u64), s), fn, "cudaMemsetAsync");
  if constexpr (elems_per_lane<T> == 2) {
    if (reinterpret_cast<std::uintptr_t>(in.data()) % 8 == 0) return run<T, 2>(in, out, sel, count, pol, s, fn);
  }
  run<T, 1>(in, out, sel, count, pol, s, fn);  // 64-bit loads need 64-bit alignment (Sec. 4.3)
}

}  // namespace sluice::cuda_backend::billeter
