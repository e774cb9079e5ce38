// Top-k on the CPU by radix selection. The k largest (or smallest) of n keys are those whose order-preserving
// image r (detail/radix_key.hpp, complemented for the largest) is among the k smallest; the k-th smallest image
// t is found one 8-bit digit at a time from the top, as a radix sort's most significant digit pass would bucket
// it, without moving anything:
//   1. Select: a histogram of the digit over the elements that match the digits chosen so far; the digit whose
//      bucket holds the k-th element is chosen, the elements of the buckets below it counted as `less`. Once a
//      bucket holds at most 1/16 of the input, its elements' images are gathered, per block, and the later
//      digits read only them (random keys: the input is read twice in all for the threshold).
//   2. Compact: every element with r < t, and the first k - less with r == t (ties go to the lower index), in
//      input order: a count per block, a prefix over the blocks, each block moved (Billeter's stream
//      compaction with the threshold as its predicate). The count comes from the first histogram and the
//      gathered images where they exist, so random keys read the input three times in all.
//   3. Order (sorted output): the k selected pairs sorted by image, stably (cpu/msd_radix_sort.hpp), so ties
//      stay in index order.
// `serial` is the classic alternative, Hoare's selection (std::nth_element) over (image, index) pairs.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

#include "sluice/cpu/billeter.hpp"
#include "sluice/cpu/msd_radix_sort.hpp"
#include "sluice/cpu/three_phase.hpp"
#include "sluice/detail/radix_key.hpp"

namespace sluice::cpu {

namespace detail_select {

inline constexpr int digit_bits = 8;
inline constexpr std::uint64_t gather_fraction = 16;  // gather a bucket's images once it holds at most n / 16
inline constexpr std::uint64_t serial_below = std::uint64_t{1} << 16;  // candidates handled by one thread

template <class K>
using bits_t = typename sluice::detail::radix_key<K>::bits_t;

// The k-th smallest image t; `less` images are below it; `take` of those equal to it are selected (the first by
// index). block_hist[j] holds block j's histogram of the top digit and block_cand[j] its images in the top
// digit's chosen bucket, when they were gathered after the first digit (else both empty).
template <class K>
struct threshold {
  bits_t<K> t = 0;
  std::uint64_t less = 0, take = 0;
  unsigned top_digit = 0;
  std::vector<std::array<std::uint64_t, 256>> block_hist;
  std::vector<std::vector<bits_t<K>>> block_cand;
};

template <class K>
bits_t<K> image(const K& x, bool largest) {
  return sluice::detail::radix_key<K>::to_bits(x, largest);
}

// The digit whose bucket holds the kk-th element (1-based) of h; kk becomes its rank inside the bucket and
// `less` grows by the elements of the buckets below.
inline unsigned choose(const std::array<std::uint64_t, 256>& h, std::uint64_t& kk, std::uint64_t& less) {
  unsigned d = 0;
  while (h[d] < kk) {
    kk -= h[d];
    less += h[d];
    ++d;
  }
  return d;
}

template <class K>
threshold<K> find_threshold(int P, std::span<const K> in, std::uint64_t k, bool largest) {
  using B = bits_t<K>;
  constexpr int width = sizeof(K) * 8;
  const std::uint64_t n = in.size(), block = block_elements<K>();
  threshold<K> th;
  std::uint64_t kk = k;
  B prefix = 0, mask = 0;
  int shift = width - digit_bits;
  // The top digit over every element, a histogram per block (kept for the count of step 2).
  th.block_hist = blocked_values<std::array<std::uint64_t, 256>>(P, n, block, [&](std::uint64_t b, std::uint64_t e) {
    std::array<std::uint64_t, 256> h{};
    for (std::uint64_t i = b; i < e; ++i) ++h[static_cast<unsigned>(image(in[i], largest) >> shift) & 255u];
    return h;
  });
  std::array<std::uint64_t, 256> h{};
  for (const auto& bh : th.block_hist)
    for (int d = 0; d < 256; ++d) h[d] += bh[d];
  th.top_digit = choose(h, kk, th.less);
  std::uint64_t bucket = h[th.top_digit];
  prefix = static_cast<B>(B(th.top_digit) << shift);
  mask = static_cast<B>(B(255) << shift);
  if (bucket * gather_fraction <= n) {
    // Gather the chosen bucket's images, block by block; the later digits read only them.
    th.block_cand.resize(th.block_hist.size());
    blocked_each(P, n, block, [&](std::uint64_t blk, std::uint64_t b, std::uint64_t e, std::uint64_t) {
      auto& c = th.block_cand[blk];
      c.reserve(th.block_hist[blk][th.top_digit]);
      for (std::uint64_t i = b; i < e; ++i) {
        const B r = image(in[i], largest);
        if ((r & mask) == prefix) c.push_back(r);
      }
    });
  } else {
    th.block_hist.clear();
  }
  const bool gathered = !th.block_cand.empty();
  for (shift -= digit_bits; shift >= 0; shift -= digit_bits) {
    const auto digit_of = [&](B r) { return static_cast<unsigned>(r >> shift) & 255u; };
    if (gathered) {
      std::vector<std::array<std::uint64_t, 256>> parts;
      const auto count_cand = [&](std::uint64_t b, std::uint64_t e) {
        std::array<std::uint64_t, 256> hc{};
        for (std::uint64_t j = b; j < e; ++j)
          for (B r : th.block_cand[j])
            if ((r & mask) == prefix) ++hc[digit_of(r)];
        return hc;
      };
      const std::uint64_t blocks = th.block_cand.size();
      parts = bucket <= serial_below ? std::vector<std::array<std::uint64_t, 256>>{count_cand(0, blocks)}
                                     : blocked_values<std::array<std::uint64_t, 256>>(P, blocks, 1, count_cand);
      h.fill(0);
      for (const auto& p : parts)
        for (int d = 0; d < 256; ++d) h[d] += p[d];
    } else {
      const auto parts = blocked_values<std::array<std::uint64_t, 256>>(P, n, block, [&](std::uint64_t b, std::uint64_t e) {
        std::array<std::uint64_t, 256> hc{};
        for (std::uint64_t i = b; i < e; ++i) {
          const B r = image(in[i], largest);
          if ((r & mask) == prefix) ++hc[digit_of(r)];
        }
        return hc;
      });
      h.fill(0);
      for (const auto& p : parts)
        for (int d = 0; d < 256; ++d) h[d] += p[d];
    }
    const unsigned d = choose(h, kk, th.less);
    bucket = h[d];
    prefix = static_cast<B>(prefix | (B(d) << shift));
    mask = static_cast<B>(mask | (B(255) << shift));
  }
  th.t = prefix;
  th.take = kk;
  return th;
}

}  // namespace detail_select

// The k largest (largest) or smallest of in, 1 <= k <= n, into out[0, k) and, unless indices is empty, their
// positions into indices[0, k): in input order, or sorted (largest first when largest; ties by position).
template <class K, class I>
void top_k_radix_select(int threads, std::span<const K> in, std::uint64_t k, std::span<K> out, std::span<I> indices, bool largest, bool sorted) {
  using namespace detail_select;
  using B = bits_t<K>;
  const std::uint64_t n = in.size(), block = block_elements<K>();
  const int P = threads_for<K>(threads, n);
  auto th = find_threshold(P, in, k, largest);
  const B t = th.t;
  // 2. Compact: each block's count of images below t and equal to it.
  const std::uint64_t blocks = detail_three_phase::block_count(n, block);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> counts(blocks);
  if (!th.block_cand.empty()) {
    for (std::uint64_t j = 0; j < blocks; ++j) {
      std::uint64_t lt = 0, eq = 0;
      for (unsigned d = 0; d < th.top_digit; ++d) lt += th.block_hist[j][d];
      for (B r : th.block_cand[j]) {
        lt += r < t;
        eq += r == t;
      }
      counts[j] = {lt, eq};
    }
  } else {
    counts = blocked_values<std::pair<std::uint64_t, std::uint64_t>>(P, n, block, [&](std::uint64_t b, std::uint64_t e) {
      std::uint64_t lt = 0, eq = 0;
      for (std::uint64_t i = b; i < e; ++i) {
        const B r = image(in[i], largest);
        lt += r < t;
        eq += r == t;
      }
      return std::pair{lt, eq};
    });
  }
  th.block_hist = {};
  th.block_cand = {};
  // Block j starts at `start[j]` in out and may take `ties[j]` of its elements equal to t.
  std::vector<std::uint64_t> start(blocks), ties(blocks);
  std::uint64_t pos = 0, eq_left = th.take;
  for (std::uint64_t j = 0; j < blocks; ++j) {
    start[j] = pos;
    ties[j] = std::min(counts[j].second, eq_left);
    eq_left -= ties[j];
    pos += counts[j].first + ties[j];
  }
  const bool with_indices = !indices.empty();
  blocked_each(P, n, block, [&](std::uint64_t blk, std::uint64_t b, std::uint64_t e, std::uint64_t) {
    std::uint64_t o = start[blk], tie = ties[blk];
    if (o == (blk + 1 < blocks ? start[blk + 1] : k)) return;  // nothing selected here
    for (std::uint64_t i = b; i < e; ++i) {
      const B r = image(in[i], largest);
      if (r < t || (r == t && tie > 0)) {
        tie -= r == t;
        out[o] = in[i];
        if (with_indices) indices[o] = static_cast<I>(i);
        ++o;
      }
    }
  });
  // 3. Order: a stable sort of the k by image keeps ties in index order.
  if (sorted) {
    if (with_indices) radix_sort_msd_lsd(threads, out.first(k), indices.first(k), largest, 0, int(sizeof(K) * 8));
    else radix_sort_msd_lsd(threads, out.first(k), std::span<std::nullptr_t>{}, largest, 0, int(sizeof(K) * 8));
  }
}

// Hoare's selection on one thread: (image, position) pairs, std::nth_element, then the k ordered by pair (sorted)
// or by position (input order). n pairs of scratch.
template <class K, class I>
void top_k_serial(std::span<const K> in, std::uint64_t k, std::span<K> out, std::span<I> indices, bool largest, bool sorted) {
  using B = detail_select::bits_t<K>;
  std::vector<std::pair<B, std::uint64_t>> p(in.size());
  for (std::uint64_t i = 0; i < in.size(); ++i) p[i] = {detail_select::image(in[i], largest), i};
  const auto kth = p.begin() + static_cast<std::ptrdiff_t>(k);
  if (k < p.size()) std::nth_element(p.begin(), kth - 1, p.end());
  if (sorted) std::sort(p.begin(), kth);
  else std::sort(p.begin(), kth, [](const auto& a, const auto& b) { return a.second < b.second; });
  for (std::uint64_t j = 0; j < k; ++j) {
    out[j] = in[p[j].second];
    if (!indices.empty()) indices[j] = static_cast<I>(p[j].second);
  }
}

}  // namespace sluice::cpu
