// The k-way split on the CPU: Billeter et al. 2009, Sec. 5.3's stream split generalised from two buckets to k
// ("multisplit"), on P threads over cache-sized blocks:
//   1. Count: each block's histogram of bucket_of over its elements (one slot more for ids >= k);
//   2. Prefix: bucket-major over (bucket, block), so that bucket b of block j starts after every element of the
//      buckets before b and after bucket b's elements in the blocks before j: the split is stable;
//   3. Move: each block writes each element at its bucket's cursor.
// Every block is counted before any moves (as the stable two-way split, cpu/split.hpp): the input is read twice
// and written once. Ids at or above k are counted apart, so that a call that must refuse them (split) refuses
// before it writes, and one that may drop them (split_async) writes the others where they belong.
#pragma once
#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sluice/cpu/billeter.hpp"
#include "sluice/cpu/three_phase.hpp"
#include "sluice/error.hpp"

namespace sluice::cpu {

namespace detail_split {
// The first element whose bucket is not below k, for the error message.
template <class T, class Bucket>
[[noreturn]] void refuse(const char* fn, std::span<const T> in, Bucket& bucket_of, std::uint32_t k) {
  for (std::uint64_t i = 0; i < in.size(); ++i) {
    const auto b = static_cast<std::uint64_t>(bucket_of(in[i]));
    if (b >= k)
      throw error(errc::invalid_argument, std::string("sluice::") + fn + ": bucket_of(in[" + std::to_string(i) + "]) is " +
                                              std::to_string(static_cast<std::int64_t>(b)) + ", not in [0, k = " + std::to_string(k) + ")");
  }
  throw error(errc::invalid_argument, std::string("sluice::") + fn + ": bucket_of gave an id outside [0, k = " + std::to_string(k) +
                                          ") once and not again: it must depend on the element alone");
}

// offsets[b] from the totals per bucket; offsets[k] = the elements in [0, k).
inline void bucket_starts(const std::vector<std::uint64_t>& totals, std::uint32_t k, std::span<std::uint64_t> offsets) {
  std::uint64_t start = 0;
  for (std::uint32_t b = 0; b < k; ++b) {
    offsets[b] = start;
    start += totals[b];
  }
  offsets[k] = start;
}
}  // namespace detail_split

// One thread: count, then place. strict: an id >= k throws invalid_argument before anything is written;
// otherwise such elements are left out. Returns the elements written (offsets[k]).
template <class T, class Bucket>
std::uint64_t split_serial(std::span<const T> in, Bucket bucket_of, std::uint32_t k, std::span<T> out,
                           std::span<std::uint64_t> offsets, bool strict, const char* fn) {
  std::vector<std::uint64_t> totals(k + 1, 0);
  for (const T& x : in) ++totals[std::min<std::uint64_t>(static_cast<std::uint64_t>(bucket_of(x)), k)];
  if (strict && totals[k] != 0) detail_split::refuse(fn, in, bucket_of, k);
  detail_split::bucket_starts(totals, k, offsets);
  std::vector<std::uint64_t> cursor(offsets.begin(), offsets.begin() + k);
  for (const T& x : in) {
    const auto b = static_cast<std::uint64_t>(bucket_of(x));
    if (b < k) out[cursor[b]++] = x;
  }
  return offsets[k];
}

// P threads over blocks of block_elements<T>() (the two-way split's, cpu/split.hpp), claimed in order.
template <class T, class Bucket>
std::uint64_t multisplit(int threads, std::span<const T> in, Bucket bucket_of, std::uint32_t k, std::span<T> out,
                         std::span<std::uint64_t> offsets, bool strict, const char* fn) {
  const std::uint64_t n = in.size(), block = block_elements<T>(), blocks = (n + block - 1) / block;
  const std::uint32_t slots = k + 1;  // slot k: ids >= k
  if (blocks <= 1 || threads_for<T>(threads, n) == 1) return split_serial(in, bucket_of, k, out, offsets, strict, fn);
  const int P = threads_for<T>(threads, n);
  // 1. Count: block j's histogram at counts[j * slots, (j + 1) * slots).
  std::vector<std::uint64_t> counts(blocks * slots);
  blocked_each(P, n, block, [&](std::uint64_t blk, std::uint64_t b, std::uint64_t e, std::uint64_t) {
    std::uint32_t h[257] = {};
    for (std::uint64_t i = b; i < e; ++i) ++h[std::min<std::uint64_t>(static_cast<std::uint64_t>(bucket_of(in[i])), k)];
    std::copy(h, h + slots, counts.begin() + static_cast<std::ptrdiff_t>(blk * slots));
  });
  // 2. Prefix, bucket-major: each count becomes its (bucket, block)'s first position in out.
  std::vector<std::uint64_t> totals(slots, 0);
  for (std::uint64_t j = 0; j < blocks; ++j)
    for (std::uint32_t b = 0; b < slots; ++b) totals[b] += counts[j * slots + b];
  if (strict && totals[k] != 0) detail_split::refuse(fn, in, bucket_of, k);
  detail_split::bucket_starts(totals, k, offsets);
  std::vector<std::uint64_t> start(offsets.begin(), offsets.begin() + k);
  for (std::uint64_t j = 0; j < blocks; ++j)
    for (std::uint32_t b = 0; b < k; ++b) {
      const std::uint64_t c = counts[j * slots + b];
      counts[j * slots + b] = start[b];
      start[b] += c;
    }
  // 3. Move: each block from its cursors, in input order.
  blocked_each(P, n, block, [&](std::uint64_t blk, std::uint64_t b, std::uint64_t e, std::uint64_t) {
    std::uint64_t* cursor = counts.data() + blk * slots;
    T* o = out.data();
    for (std::uint64_t i = b; i < e; ++i) {
      const T x = in[i];
      const auto d = static_cast<std::uint64_t>(bucket_of(x));
      if (d < k) o[cursor[d]++] = x;
    }
  });
  return offsets[k];
}

}  // namespace sluice::cpu
