// Top-k on the GPU by radix selection, as on the CPU (cpu/radix_select.hpp): the k largest (or smallest) keys
// are those whose order-preserving image r (complemented for the largest) is among the k smallest, and the k-th
// smallest image t is found one 11-bit digit at a time from the top, with every step's state on the device
// (no host round trip, so the whole call is stream ordered):
//   1. Select: histogram_kernel counts the digit over the elements whose higher digits match those chosen so
//      far (a shared-memory histogram per block, added into one in global memory); choose_kernel, one block,
//      finds the bucket that holds the k-th element, adds the buckets below it to `less`, appends the digit to
//      the prefix and clears the histogram for the next digit. 32-bit keys take 3 digits (11 + 11 + 10),
//      64-bit keys 6; each reads the input once.
//   2. Compact, Billeter's three phases with the threshold as the predicate: count_kernel counts per tile the
//      images below t and equal to it; scan_kernel, one block, turns the counts into each tile's first place
//      and first equal rank; move_kernel ranks each tile's elements (block scans, input order) and writes every
//      element with r < t and the first k - less with r == t (ties go to the lower position), with its
//      position, in input order.
//   3. Order (sorted output): the k keys (with their positions) sorted by onesweep, stably, so ties stay in
//      position order.
// Bytes through memory: the keys read 3 (6) times to find t and twice to compact; k keys and positions written.
#pragma once
#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include <span>

#include "sluice/cuda/common.cuh"
#include "sluice/detail/radix_key.hpp"
#include "sluice/detail/storage.hpp"

namespace sluice::cuda_backend::radix_select {

inline constexpr unsigned digit_bits = 11, bins = 1u << digit_bits;
inline constexpr unsigned threads = 256, items = 16, tile = threads * items;  // compaction tiles of 4096 keys
inline constexpr unsigned histogram_blocks_per_sm = 8;
inline constexpr unsigned scan_threads = 1024;

template <class K>
using bits_t = typename sluice::detail::radix_key<K>::bits_t;

// The selection's state: the digits chosen so far (prefix, under mask), the rank still sought among the
// elements that match them (1-based), and the elements below them.
template <class B>
struct state {
  B prefix, mask;
  u64 rank, less;
};

template <class K>
__device__ __forceinline__ bits_t<K> image(const K& x, bool largest) {
  return sluice::detail::radix_key<K>::to_bits(x, largest);
}

template <class K>
__global__ void init_kernel(state<bits_t<K>>* st, u64 k) {
  *st = state<bits_t<K>>{0, 0, k, 0};
}

template <class K>
__global__ void __launch_bounds__(threads) histogram_kernel(const K* in, u64 n, bool largest, const state<bits_t<K>>* st, unsigned shift,
                                                            unsigned long long* hist) {
  __shared__ unsigned h[bins];
  for (unsigned i = threadIdx.x; i < bins; i += threads) h[i] = 0;
  __syncthreads();
  const bits_t<K> prefix = st->prefix, mask = st->mask;
  for (u64 i = blockIdx.x * static_cast<u64>(threads) + threadIdx.x; i < n; i += static_cast<u64>(gridDim.x) * threads) {
    const bits_t<K> r = image(in[i], largest);
    if ((r & mask) == prefix) atomicAdd(&h[static_cast<unsigned>(r >> shift) & (bins - 1)], 1u);
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < bins; i += threads)
    if (h[i]) atomicAdd(&hist[i], static_cast<unsigned long long>(h[i]));
}

// One block of `threads`: the bucket of the digit (width `width` at `shift`) that holds the sought rank.
template <class K>
__global__ void __launch_bounds__(threads) choose_kernel(state<bits_t<K>>* st, unsigned shift, unsigned width, unsigned long long* hist) {
  using scan_t = cub::BlockScan<u64, threads>;
  __shared__ typename scan_t::TempStorage temp;
  constexpr unsigned per = bins / threads;
  u64 mine[per], sum = 0;
  for (unsigned j = 0; j < per; ++j) sum += (mine[j] = hist[threadIdx.x * per + j]);
  u64 before;
  scan_t(temp).ExclusiveSum(sum, before);
  const u64 rank = st->rank;
  __syncthreads();  // every thread has read the state before one writes it
  if (before < rank && rank <= before + sum) {
    u64 at = before;
    for (unsigned j = 0; j < per; ++j) {
      if (rank <= at + mine[j]) {
        const bits_t<K> digit = static_cast<bits_t<K>>(threadIdx.x * per + j);
        const bits_t<K> field = static_cast<bits_t<K>>(((bits_t<K>{1} << width) - 1) << shift);
        st->prefix |= digit << shift;
        st->mask |= field;
        st->rank = rank - at;
        st->less += at;
        break;
      }
      at += mine[j];
    }
  }
  for (unsigned j = 0; j < per; ++j) hist[threadIdx.x * per + j] = 0;  // ready for the next digit
}

// Per tile: the images below t (counts[2 tile]) and equal to it (counts[2 tile + 1]).
template <class K>
__global__ void __launch_bounds__(threads) count_kernel(const K* in, u64 n, bool largest, const state<bits_t<K>>* st, u64* counts) {
  using reduce_t = cub::BlockReduce<unsigned, threads>;
  __shared__ typename reduce_t::TempStorage temp;
  const bits_t<K> t = st->prefix;
  const u64 first = static_cast<u64>(blockIdx.x) * tile;
  unsigned below = 0, equal = 0;
  for (unsigned j = 0; j < items; ++j) {
    const u64 i = first + j * threads + threadIdx.x;
    if (i < n) {
      const bits_t<K> r = image(in[i], largest);
      below += r < t;
      equal += r == t;
    }
  }
  // Both counts in one word (each at most 4096).
  const unsigned both = reduce_t(temp).Sum(below | (equal << 16));
  if (threadIdx.x == 0) {
    counts[2 * static_cast<u64>(blockIdx.x)] = both & 0xffffu;
    counts[2 * static_cast<u64>(blockIdx.x) + 1] = both >> 16;
  }
}

// One block: counts become exclusive prefixes over the tiles, both kinds.
__global__ void __launch_bounds__(scan_threads) scan_kernel(u64* counts, u64 tiles) {
  using scan_t = cub::BlockScan<ulonglong2, scan_threads>;
  __shared__ typename scan_t::TempStorage temp;
  struct add2 {
    __device__ ulonglong2 operator()(const ulonglong2& a, const ulonglong2& b) const { return make_ulonglong2(a.x + b.x, a.y + b.y); }
  };
  ulonglong2 carry = make_ulonglong2(0, 0);
  for (u64 base = 0; base < tiles; base += scan_threads) {
    const u64 i = base + threadIdx.x;
    const ulonglong2 mine = i < tiles ? make_ulonglong2(counts[2 * i], counts[2 * i + 1]) : make_ulonglong2(0, 0);
    ulonglong2 before, total;
    scan_t(temp).ExclusiveScan(mine, before, make_ulonglong2(0, 0), add2{}, total);
    if (i < tiles) {
      counts[2 * i] = carry.x + before.x;
      counts[2 * i + 1] = carry.y + before.y;
    }
    carry = add2{}(carry, total);
    __syncthreads();  // temp reused
  }
}

// Each tile's kept elements, in input order, to their places: those below t, and the equal ones whose rank
// among all equal ones is below k - less.
template <class K>
__global__ void __launch_bounds__(threads) move_kernel(const K* in, u64 n, bool largest, const state<bits_t<K>>* st, const u64* offsets, u64 k,
                                                       K* out, u64* indices) {
  using load_t = cub::BlockLoad<K, threads, items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using scan_t = cub::BlockScan<unsigned, threads>;
  __shared__ union {
    typename load_t::TempStorage load;
    typename scan_t::TempStorage scan;
  } temp;
  const bits_t<K> t = st->prefix;
  const u64 take = k - st->less;
  const u64 first = static_cast<u64>(blockIdx.x) * tile;
  const u64 base = offsets[2 * static_cast<u64>(blockIdx.x)], equal_base = offsets[2 * static_cast<u64>(blockIdx.x) + 1];
  const unsigned valid = n - first < tile ? static_cast<unsigned>(n - first) : tile;
  K keys[items];
  load_t(temp.load).Load(in + first, keys, valid);
  __syncthreads();
  // Blocked: thread x holds positions first + x * items + j, in input order.
  unsigned eq[items], keep[items];
  for (unsigned j = 0; j < items; ++j) {
    const bool inside = threadIdx.x * items + j < valid;
    const bits_t<K> r = image(keys[j], largest);
    eq[j] = inside && r == t;
    keep[j] = inside && r < t;
  }
  unsigned eq_rank[items];
  scan_t(temp.scan).ExclusiveSum(eq, eq_rank);
  __syncthreads();
  for (unsigned j = 0; j < items; ++j) keep[j] |= eq[j] && equal_base + eq_rank[j] < take;
  unsigned place[items];
  scan_t(temp.scan).ExclusiveSum(keep, place);
  // Kept before this tile: every element below t, and the equal ones up to take.
  const u64 before = base + (equal_base < take ? equal_base : take);
  for (unsigned j = 0; j < items; ++j)
    if (keep[j]) {
      const u64 at = before + place[j];
      out[at] = keys[j];
      if (indices) indices[at] = first + threadIdx.x * items + j;
    }
}

// out[0, k) (and indices[0, k) where not null): 1 <= k <= in.size().
template <class K>
void top_k(std::span<const K> in, u64 k, K* out, u64* indices, bool largest, bool sorted, cudaStream_t s, const char* fn) {
  using B = bits_t<K>;
  constexpr unsigned width = sizeof(K) * 8;
  const u64 n = in.size();
  const u64 tiles = ceil_div(n, tile);
  scratch st(sizeof(state<B>), s, fn), hist(bins * sizeof(unsigned long long), s, fn), counts(2 * tiles * sizeof(u64), s, fn);
  init_kernel<K><<<1, 1, 0, s>>>(st.as<state<B>>(), k);
  check_launch(fn, "radix_select::init_kernel");
  check_cuda(cudaMemsetAsync(hist.as<unsigned long long>(), 0, bins * sizeof(unsigned long long), s), fn, "cudaMemsetAsync");
  const u64 cap = static_cast<u64>(multiprocessor_count(fn)) * histogram_blocks_per_sm;
  const u64 want = ceil_div(n, u64{threads} * 16);
  const unsigned grid = static_cast<unsigned>(want < cap ? want : cap);
  // Digits from the top: the first takes what is left over 11-bit digits below it.
  for (int top = width; top > 0;) {
    const unsigned w = (top % digit_bits) ? static_cast<unsigned>(top % digit_bits) : digit_bits;
    const unsigned shift = static_cast<unsigned>(top) - w;
    histogram_kernel<K><<<grid, threads, 0, s>>>(in.data(), n, largest, st.as<state<B>>(), shift, hist.as<unsigned long long>());
    check_launch(fn, "radix_select::histogram_kernel");
    choose_kernel<K><<<1, threads, 0, s>>>(st.as<state<B>>(), shift, w, hist.as<unsigned long long>());
    check_launch(fn, "radix_select::choose_kernel");
    top -= static_cast<int>(w);
  }
  count_kernel<K><<<static_cast<unsigned>(tiles), threads, 0, s>>>(in.data(), n, largest, st.as<state<B>>(), counts.as<u64>());
  check_launch(fn, "radix_select::count_kernel");
  scan_kernel<<<1, scan_threads, 0, s>>>(counts.as<u64>(), tiles);
  check_launch(fn, "radix_select::scan_kernel");
  move_kernel<K><<<static_cast<unsigned>(tiles), threads, 0, s>>>(in.data(), n, largest, st.as<state<B>>(), counts.as<u64>(), k, out, indices);
  check_launch(fn, "radix_select::move_kernel");
  if (!sorted) return;
  // Ties are equal images, equal keys: sorting keys alone needs no stability; with positions it keeps them in
  // input order.
  using P = sluice::detail::storage<8, 8>;
  if (indices)
    radix_sort<K, P>("onesweep", std::span<K>(out, k), std::span<P>(reinterpret_cast<P*>(indices), k), largest, 0, static_cast<int>(width), s);
  else
    radix_sort<K, std::nullptr_t>("onesweep", std::span<K>(out, k), std::span<std::nullptr_t>(), largest, 0, static_cast<int>(width), s);
}

}  // namespace sluice::cuda_backend::radix_select
