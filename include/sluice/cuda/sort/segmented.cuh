// segmented_radix_sort "tiered": every segment [offsets[s], offsets[s + 1]) sorted on its own, stably, by the
// order-preserving image of its keys (detail/radix_key.hpp), with the tool that suits its length.
//   1. classify_kernel: one thread a segment checks the offsets (where they decrease, whether they pass the
//      keys) and lists the segments longer than a block's tile. The call reads that back (it waits for the
//      check, as the segmented scans do) and throws before anything is written.
//   2. Short segments (at most `tile` keys): one thread block each sorts it in shared memory
//      (cub::BlockRadixSort over the image, 4-bit digits), keys padded with the largest image so that the pads
//      sort last; a tier of one-warp blocks takes segments of at most `warp_tile` keys. Blocks stride over the
//      segments, skipping those of other tiers.
//   3. Long segments, when at most `few_long`: each by the device-wide onesweep sort of its keys.
//      When more: every segment at once by two stable sorts, (image, position) by onesweep, then
//      (segment number, position) by onesweep over the segment numbers' bits, and one gather of the keys and
//      values by the positions; the short tiers are then not run.
// Elements outside every segment are not touched.
#pragma once
#include <cub/block/block_radix_sort.cuh>

#include <algorithm>
#include <bit>
#include <string>
#include <type_traits>
#include <vector>

#include "sluice/cuda/common.cuh"
#include "sluice/cuda/sort/key_image.cuh"
#include "sluice/detail/storage.hpp"

namespace sluice::cuda_backend::segmented_sort {

struct policy {
  static constexpr unsigned threads = 256, items = 8, tile = threads * items;  // the block tier: segments of up to 2048 keys
  static constexpr unsigned warp_threads = 32, warp_items = 4, warp_tile = warp_threads * warp_items;  // the warp tier: up to 128
  static constexpr u64 few_long = 16;  // more long segments than this: the two whole-range sorts
  static constexpr unsigned max_blocks = 1u << 16;  // blocks of a tier's launch; they stride over the segments
};

// found[0]: the first s where offsets[s + 1] < offsets[s] (else ~0); found[1]: 1 where the last offset passes n;
// found[2]: how many segments are longer than tile, the first `capacity` of them listed in longs (any order).
// (A template: defined in a header, built in several units.)
template <class = void>
__global__ void classify_kernel(const u64* offsets, u64 segments, u64 n, u64 tile, unsigned long long* found, u64* longs, u64 capacity) {
  for (u64 s = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; s < segments; s += static_cast<u64>(gridDim.x) * blockDim.x) {
    const u64 a = offsets[s], b = offsets[s + 1];
    if (b < a) {
      atomicMin(found, static_cast<unsigned long long>(s + 1));
      continue;
    }
    if (b - a > tile) {
      const unsigned long long slot = atomicAdd(found + 2, 1ull);
      if (slot < capacity) longs[slot] = s;
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0 && offsets[segments] > n) found[1] = 1;
}

// One tier: blocks of Threads x Items sort the segments of length (lower, Threads x Items], one at a time.
template <class K, class V, unsigned Threads, unsigned Items>
__global__ void __launch_bounds__(Threads) tier_kernel(K* keys, V* values, const u64* offsets, u64 segments, u64 lower, bool descending, int begin,
                                                       int end) {
  using rk = sluice::detail::radix_key<K>;
  using B = typename rk::bits_t;
  constexpr bool pairs = !std::is_same_v<V, std::nullptr_t>;
  using W = std::conditional_t<pairs, V, cub::NullType>;
  using sorter = cub::BlockRadixSort<B, Threads, Items, W>;
  __shared__ typename sorter::TempStorage temp;
  constexpr u64 tile = u64{Threads} * Items;
  for (u64 s = blockIdx.x; s < segments; s += gridDim.x) {
    const u64 a = offsets[s], m = offsets[s + 1] - a;
    if (m <= lower || m > tile || m < 2) continue;  // uniform across the block: no thread waits at a barrier alone
    B k[Items];
    W v[Items];
#pragma unroll
    for (unsigned i = 0; i < Items; ++i) {  // blocked: thread t holds positions t x Items + i, pads last
      const u64 j = u64{threadIdx.x} * Items + i;
      k[i] = j < m ? rk::to_bits(keys[a + j], descending) : static_cast<B>(~B{0});
      if constexpr (pairs) if (j < m) v[i] = values[a + j];
    }
    if constexpr (pairs) sorter(temp).SortBlockedToStriped(k, v, begin, end);
    else sorter(temp).SortBlockedToStriped(k, begin, end);
#pragma unroll
    for (unsigned i = 0; i < Items; ++i) {  // striped: rank i x Threads + t, coalesced
      const u64 j = u64{i} * Threads + threadIdx.x;
      if (j < m) {
        keys[a + j] = rk::from_bits(k[i], descending);
        if constexpr (pairs) values[a + j] = v[i];
      }
    }
    __syncthreads();  // temp is reused by the next segment
  }
}

// A device-wide onesweep sort of unsigned keys carrying positions (the library's precompiled radix_sort).
template <class B, class I>
void device_sort(std::span<B> keys, std::span<I> pos, bool descending, int begin, int end, cudaStream_t s) {
  cuda_backend::radix_sort<B, sluice::detail::storage_of<I>>("onesweep", keys, sluice::detail::as_storage(pos), descending, begin, end, s);
}

// The segment number of every sorted position: seg[j] = the s with offsets[s] <= lo + pos[j] < offsets[s + 1].
template <class I, class S>
__global__ void segment_of_kernel(const I* pos, const u64* offsets, u64 segments, u64 lo, S* seg, u64 m) {
  for (u64 j = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; j < m; j += static_cast<u64>(gridDim.x) * blockDim.x) {
    const u64 x = lo + pos[j];
    u64 first = 0, count = segments;  // the last s with offsets[s] <= x: upper bound, minus one
    while (count > 0) {
      const u64 step = count / 2;
      if (offsets[first + step + 1] <= x) first += step + 1, count -= step + 1;
      else count = step;
    }
    seg[j] = static_cast<S>(first);
  }
}

template <class T, class I>
__global__ void gather_range_kernel(const T* from, const I* pos, T* to, u64 m) {
  for (u64 j = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; j < m; j += static_cast<u64>(gridDim.x) * blockDim.x) to[j] = from[pos[j]];
}

template <class T, class I>
void gather_back(T* data, const I* pos, u64 m, cudaStream_t s, const char* fn) {  // data[j] = data[pos[j]], j < m
  scratch moved(m * sizeof(T), s, fn);
  gather_range_kernel<<<sort_common::elementwise_grid(m), 256, 0, s>>>(data, pos, moved.as<T>(), m);
  check_launch(fn, "segmented_sort::gather_range_kernel");
  check_cuda(cudaMemcpyAsync(data, moved.as<T>(), m * sizeof(T), cudaMemcpyDeviceToDevice, s), fn, "cudaMemcpyAsync");
}

// Every segment of [lo, hi) at once: positions sorted by image, then stably by segment number.
template <class K, class V, class I, class S>
void whole_range(K* keys, V* values, const u64* offsets, u64 segments, u64 lo, u64 hi, bool descending, int begin, int end, cudaStream_t s,
                 const char* fn) {
  using B = sort_common::bits_of<K>;
  const u64 m = hi - lo;
  scratch image(m * sizeof(B), s, fn), pos(m * sizeof(I), s, fn), seg(m * sizeof(S), s, fn);
  sort_common::to_image(keys + lo, image.as<B>(), m, descending, s, fn);
  sort_common::iota_kernel<<<sort_common::elementwise_grid(m), 256, 0, s>>>(pos.as<I>(), m);
  check_launch(fn, "sort_common::iota_kernel");
  device_sort(std::span<B>(image.as<B>(), m), std::span<I>(pos.as<I>(), m), false, begin, end, s);
  segment_of_kernel<<<sort_common::elementwise_grid(m), 256, 0, s>>>(pos.as<I>(), offsets, segments, lo, seg.as<S>(), m);
  check_launch(fn, "segmented_sort::segment_of_kernel");
  const int seg_bits = static_cast<int>(std::bit_width(segments - 1));
  if (seg_bits > 0) device_sort(std::span<S>(seg.as<S>(), m), std::span<I>(pos.as<I>(), m), false, 0, seg_bits, s);
  gather_back(keys + lo, pos.as<I>(), m, s, fn);
  if constexpr (!std::is_same_v<V, std::nullptr_t>) gather_back(values + lo, pos.as<I>(), m, s, fn);
}

template <class K, class V, unsigned Threads, unsigned Items>
void launch_tier(K* keys, V* values, const u64* offsets, u64 segments, u64 lower, bool descending, int begin, int end, cudaStream_t s,
                 const char* fn) {
  const unsigned grid = static_cast<unsigned>(std::min<u64>(segments, policy::max_blocks));
  tier_kernel<K, V, Threads, Items><<<grid, Threads, 0, s>>>(keys, values, offsets, segments, lower, descending, begin, end);
  check_launch(fn, "segmented_sort::tier_kernel");
}

// The offsets checked on the device (the call waits for the check: invalid_argument before anything is
// written); returns how many segments are longer than a block's tile, listed in longs (any order).
inline u64 classify(std::span<const u64> offsets, u64 n, scratch& longs, cudaStream_t s, const char* fn) {
  const u64 segments = offsets.size() - 1;
  const u64 capacity = std::min<u64>(segments, n / (policy::tile + 1) + 1);
  scratch found_buf(3 * sizeof(u64), s, fn);
  longs = scratch(capacity * sizeof(u64), s, fn);
  auto* const found = found_buf.as<unsigned long long>();
  const unsigned long long init[3] = {~0ull, 0, 0};
  check_cuda(cudaMemcpyAsync(found, init, sizeof init, cudaMemcpyHostToDevice, s), fn, "cudaMemcpyAsync");
  const unsigned grid = static_cast<unsigned>(std::clamp<u64>(ceil_div(segments, 256), 1, 4096));
  classify_kernel<><<<grid, 256, 0, s>>>(offsets.data(), segments, n, policy::tile, found, longs.as<u64>(), capacity);
  check_launch(fn, "segmented_sort::classify_kernel");
  unsigned long long got[3];
  copy_to_host(got, found, sizeof got, s, fn);
  if (got[0] != ~0ull) throw error(errc::invalid_argument, std::string("sluice::") + fn + ": 'offsets' decreases at " + std::to_string(got[0]));
  if (got[1]) throw error(errc::invalid_argument, std::string("sluice::") + fn + ": 'offsets' ends past the " + std::to_string(n) + " values");
  return got[2];
}

template <class K, class V>
void segmented_radix_sort(std::span<K> keys, std::span<V> values, std::span<const u64> offsets, bool descending, int begin, int end, cudaStream_t s,
                          const char* fn) {
  using P = policy;
  constexpr bool pairs = !std::is_same_v<V, std::nullptr_t>;
  const u64 n = keys.size(), segments = offsets.size() - 1;
  if (segments == 0) return;
  scratch longs;
  const u64 long_count = classify(offsets, n, longs, s, fn);
  if (n < 2 || begin == end) return;
  if (long_count > P::few_long) {
    u64 range[2];  // the segments' span [offsets[0], offsets[segments])
    copy_to_host(&range[0], offsets.data(), sizeof(u64), s, fn);
    copy_to_host(&range[1], offsets.data() + segments, sizeof(u64), s, fn);
    auto run = [&]<class I, class S>() {
      whole_range<K, V, I, S>(keys.data(), pairs ? values.data() : nullptr, offsets.data(), segments, range[0], range[1], descending, begin, end, s, fn);
    };
    const bool small_i = range[1] - range[0] <= (u64{1} << 32), small_s = segments <= (u64{1} << 32);
    if (small_i && small_s) run.template operator()<std::uint32_t, std::uint32_t>();
    else if (small_i) run.template operator()<std::uint32_t, u64>();
    else if (small_s) run.template operator()<u64, std::uint32_t>();
    else run.template operator()<u64, u64>();
    return;
  }
  V* const vals = pairs ? values.data() : nullptr;
  launch_tier<K, V, P::warp_threads, P::warp_items>(keys.data(), vals, offsets.data(), segments, 0, descending, begin, end, s, fn);
  launch_tier<K, V, P::threads, P::items>(keys.data(), vals, offsets.data(), segments, P::warp_tile, descending, begin, end, s, fn);
  if (long_count == 0) return;
  std::vector<u64> ids(long_count);
  copy_to_host(ids.data(), longs.as<u64>(), long_count * sizeof(u64), s, fn);
  std::sort(ids.begin(), ids.end());
  for (const u64 id : ids) {
    u64 ab[2];
    copy_to_host(ab, offsets.data() + id, sizeof ab, s, fn);
    const u64 a = ab[0], m = ab[1] - ab[0];
    if constexpr (pairs) cuda_backend::radix_sort<K, V>("onesweep", keys.subspan(a, m), values.subspan(a, m), descending, begin, end, s);
    else cuda_backend::radix_sort<K, V>("onesweep", keys.subspan(a, m), values, descending, begin, end, s);
  }
}

}  // namespace sluice::cuda_backend::segmented_sort
