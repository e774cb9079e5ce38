// CPU segmented radix sort: every segment [offsets[s], offsets[s + 1]) sorted in place, stably, on its own.
//   "msd-lsd" (the default) uses the parts of the msd-lsd sort (msd_radix_sort.hpp):
//     Small segments (keys and values within msd_lsd::in_cache_bytes): the input is cut into chunks of
//     `chunk_elements`; a thread claims a chunk from an atomic counter and sorts every small segment that
//     starts in it, from the cache, as msd-lsd sorts a bucket (LSD passes over the digits the segment's keys
//     do not share, or MSD splits down to insertion sorts). A claim is at most a chunk plus one segment of
//     work, however the segments' lengths are spread, and a busy core claims fewer.
//     Large segments: one at a time, each by the whole msd-lsd sort on every thread.
//   "lsd-serial": each segment by the serial LSD sort, in turn, on one thread.
// Elements outside every segment (before offsets[0], after offsets.back()) are not touched.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "sluice/cpu/backend.hpp"
#include "sluice/cpu/lsd_radix_sort.hpp"
#include "sluice/cpu/msd_radix_sort.hpp"

namespace sluice::cpu {
namespace segmented_sort {
inline constexpr std::uint64_t chunk_elements = std::uint64_t{1} << 16;
}  // namespace segmented_sort

template <class K, class V>  // V = std::nullptr_t: keys only
void segmented_radix_sort_serial(std::span<K> keys, std::span<V> values, std::span<const std::uint64_t> offsets, bool descending, int begin,
                                 int end) {
  constexpr bool with_values = !std::is_same_v<V, std::nullptr_t>;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    const std::uint64_t a = offsets[s], m = offsets[s + 1] - a;
    if (m < 2) continue;
    if constexpr (with_values) radix_sort_lsd_serial(keys.subspan(a, m), values.subspan(a, m), descending, begin, end);
    else radix_sort_lsd_serial(keys.subspan(a, m), values, descending, begin, end);
  }
}

template <class K, class V>
void segmented_radix_sort_msd_lsd(int threads, std::span<K> keys, std::span<V> values, std::span<const std::uint64_t> offsets, bool descending,
                                  int begin, int end) {
  using namespace msd_lsd;
  constexpr bool with_values = !std::is_same_v<V, std::nullptr_t>;
  using W = std::conditional_t<with_values, V, char>;
  constexpr std::size_t item = sizeof(K) + (with_values ? sizeof(W) : 0);
  constexpr std::uint64_t small_max = in_cache_bytes / item;  // keys of a segment sorted from the cache by one thread
  if (offsets.size() < 2 || begin >= end) return;
  const std::uint64_t segments = offsets.size() - 1, lo = offsets.front(), hi = offsets.back();
  if (hi - lo < 2) return;

  // Small segments, a chunk of elements per claim: the segments that start in [lo + c x chunk, lo + (c + 1) x chunk).
  std::uint64_t largest_small = 0;
  bool any_large = false;
  for (std::uint64_t s = 0; s < segments; ++s) {
    const std::uint64_t m = offsets[s + 1] - offsets[s];
    if (m <= small_max) largest_small = std::max(largest_small, m);
    else any_large = true;
  }
  if (largest_small >= 2) {
    const std::uint64_t chunks = (hi - lo + segmented_sort::chunk_elements - 1) / segmented_sort::chunk_elements;
    const int P = static_cast<int>(std::clamp<std::uint64_t>(chunks, 1, static_cast<std::uint64_t>(std::max(threads, 1))));
    std::atomic<std::uint64_t> next{0};
    struct ctx_t {
      K* keys;
      W* vals;
      const std::uint64_t* offsets;
      std::uint64_t segments, lo, chunks, largest;
      image<K> im;
      int begin, end;
      std::atomic<std::uint64_t>* next;
    } c{keys.data(), with_values ? reinterpret_cast<W*>(values.data()) : nullptr, offsets.data(), segments, lo, chunks, largest_small,
        image<K>(descending), begin, end, &next};
    cpu_backend::run_parallel(P, [](void* p, int, int) {
      auto& c = *static_cast<ctx_t*>(p);
      thread_space<K, W> ts;
      ts.reserve(std::size_t{1} << lsd_bits, c.largest, with_values);
      raw_array<K> spare(c.largest);
      raw_array<W> vspare(with_values ? c.largest : 0);
      const bucket_job<K, W> job{c.im, c.begin, &ts};
      const std::uint64_t* const first = c.offsets;
      const std::uint64_t* const last = c.offsets + c.segments;  // begin offsets only
      for (std::uint64_t k; (k = c.next->fetch_add(1, std::memory_order_relaxed)) < c.chunks;) {
        const std::uint64_t from = c.lo + k * segmented_sort::chunk_elements, to = from + segmented_sort::chunk_elements;
        // Segments starting in [from, to); empty ones at the chunk's edges land in either chunk and sort nothing.
        for (const std::uint64_t* s = std::lower_bound(first, last, from); s != last && *s < to; ++s) {
          const std::uint64_t a = s[0], m = s[1] - a;
          if (m < 2 || m > small_max) continue;
          sort_bucket<with_values>(job, c.keys + a, with_values ? c.vals + a : c.vals, c.keys + a, with_values ? c.vals + a : c.vals, m, c.end,
                                   spare.get(), vspare.get());
        }
      }
      store_fence();
    }, &c);
  }
  if (!any_large) return;
  for (std::uint64_t s = 0; s < segments; ++s) {  // large segments, each on every thread
    const std::uint64_t a = offsets[s], m = offsets[s + 1] - a;
    if (m <= small_max) continue;
    if constexpr (with_values) radix_sort_msd_lsd(threads, keys.subspan(a, m), values.subspan(a, m), descending, begin, end);
    else radix_sort_msd_lsd(threads, keys.subspan(a, m), values, descending, begin, end);
  }
}

}  // namespace sluice::cpu
