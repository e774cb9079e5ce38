// CPU radix sorts. "lsd-serial": least-significant-digit first, 8-bit digits, one stable counting sort per
// digit over the order-preserving key image (detail/radix_key.hpp). Moves keys (and values) 2 x passes.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "sluice/cpu/backend.hpp"
#include "sluice/detail/radix_key.hpp"

namespace sluice::cpu {

inline constexpr int lsd_digit_bits = 8;

template <class K, class V>  // V = std::nullptr_t: keys only
void radix_sort_lsd_serial(std::span<K> keys, std::span<V> values, bool descending, int begin, int end) {
  using rk = detail::radix_key<K>;
  using bits_t = typename rk::bits_t;
  constexpr bool with_values = !std::is_same_v<V, std::nullptr_t>;
  const std::size_t n = keys.size();
  if (n < 2 || begin == end) return;
  std::vector<bits_t> a(n), b(n);
  std::vector<std::uint64_t> ia, ib;  // value permutation: values move once, at the end
  for (std::size_t i = 0; i < n; ++i) a[i] = rk::to_bits(keys[i], descending);
  if constexpr (with_values) {
    ia.resize(n);
    ib.resize(n);
    for (std::size_t i = 0; i < n; ++i) ia[i] = i;
  }
  for (int shift = begin; shift < end; shift += lsd_digit_bits) {
    const int width = end - shift < lsd_digit_bits ? end - shift : lsd_digit_bits;
    const bits_t mask = (bits_t(1) << width) - 1;
    std::array<std::uint64_t, (1 << lsd_digit_bits) + 1> count{};
    for (std::size_t i = 0; i < n; ++i) ++count[((a[i] >> shift) & mask) + 1];
    for (std::size_t d = 1; d < count.size(); ++d) count[d] += count[d - 1];
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t dst = count[(a[i] >> shift) & mask]++;
      b[dst] = a[i];
      if constexpr (with_values) ib[dst] = ia[i];
    }
    a.swap(b);
    if constexpr (with_values) ia.swap(ib);
  }
  for (std::size_t i = 0; i < n; ++i) keys[i] = rk::from_bits(a[i], descending);
  if constexpr (with_values) {
    std::vector<V> moved(n);
    for (std::size_t i = 0; i < n; ++i) moved[i] = values[ia[i]];
    for (std::size_t i = 0; i < n; ++i) values[i] = moved[i];
  }
}

}  // namespace sluice::cpu

// CPU radix sort, "lsd-parallel": the same LSD sort with Billeter's three phases per 8-bit digit on P threads
// (Sec. 5.3 generalised from one bit to 256 buckets). Count: each thread histograms its contiguous part of
// the stream; prefix: over (digit, thread), so that every thread owns a run of each bucket; move: each
// thread scatters its part in order, which keeps the sort stable. One read of the keys first finds the
// digits on which all keys agree: those passes are skipped. Keys and values move together, in 2 buffers.
namespace sluice::cpu {

template <class K, class V>  // V = std::nullptr_t: keys only
void radix_sort_lsd_parallel(int threads, std::span<K> keys, std::span<V> values, bool descending, int begin, int end) {
  using rk = detail::radix_key<K>;
  using bits_t = typename rk::bits_t;
  constexpr bool with_values = !std::is_same_v<V, std::nullptr_t>;
  constexpr int R = 1 << lsd_digit_bits;
  using value_t = std::conditional_t<with_values, V, char>;
  const std::size_t n = keys.size();
  if (n < 2 || begin == end) return;
  const int P = n < (std::size_t{1} << 16) ? 1 : threads;

  std::vector<bits_t> a(n), b(n);
  std::vector<value_t> va(with_values ? n : 0), vb(with_values ? n : 0);
  std::vector<int> shifts;
  for (int s = begin; s < end; s += lsd_digit_bits) shifts.push_back(s);
  const int passes = static_cast<int>(shifts.size());
  // hist[t][pass][digit]: first the whole-stream counts of every pass (one read), then per pass the counts of
  // thread t's part, turned into its write offsets.
  std::vector<std::uint64_t> hist(static_cast<std::size_t>(P) * passes * R);
  std::vector<char> skip(passes, 0);

  struct ctx_t {
    std::span<K> keys;
    std::span<V> values;
    bits_t *a, *b;
    value_t *va, *vb;
    std::size_t n;
    bool descending;
    int begin, end, passes;
    const int* shifts;
    std::uint64_t* hist;
    char* skip;
  } c{keys, values, a.data(), b.data(), va.data(), vb.data(), n, descending, begin, end, passes, shifts.data(), hist.data(), skip.data()};

  cpu_backend::run_parallel(P, [](void* p, int t, int nt) {
    auto& c = *static_cast<ctx_t*>(p);
    const std::size_t lo = c.n * t / nt, hi = c.n * (t + 1) / nt;
    auto digit = [&](bits_t x, int pass) {
      const int s = c.shifts[pass], e = s + lsd_digit_bits < c.end ? s + lsd_digit_bits : c.end;
      return static_cast<int>(rk::window(x, s, e));
    };
    std::uint64_t* mine = c.hist + static_cast<std::size_t>(t) * c.passes * R;
    // The image of the keys (and the values) into the first buffer, and every pass's histogram of this part.
    for (std::size_t i = lo; i < hi; ++i) {
      const bits_t x = rk::to_bits(c.keys[i], c.descending);
      c.a[i] = x;
      if constexpr (with_values) c.va[i] = c.values[i];
      for (int q = 0; q < c.passes; ++q) ++mine[q * R + digit(x, q)];
    }
    cpu_backend::barrier();
    if (t == 0)  // a pass where one digit holds every key moves nothing
      for (int q = 0; q < c.passes; ++q)
        for (int d = 0; d < R; ++d) {
          std::uint64_t all = 0;
          for (int u = 0; u < nt; ++u) all += c.hist[(static_cast<std::size_t>(u) * c.passes + q) * R + d];
          if (all == c.n) c.skip[q] = 1;
        }
    cpu_backend::barrier();
    bits_t *from = c.a, *to = c.b;
    value_t *vfrom = c.va, *vto = c.vb;
    for (int q = 0; q < c.passes; ++q) {
      if (c.skip[q]) continue;
      std::uint64_t* h = mine + q * R;  // count: this part's digits (the first read's counts are stale after a pass)
      for (int d = 0; d < R; ++d) h[d] = 0;
      for (std::size_t i = lo; i < hi; ++i) ++h[digit(from[i], q)];
      cpu_backend::barrier();
      std::uint64_t offset[R];  // prefix over (digit, thread)
      std::uint64_t base = 0;
      for (int d = 0; d < R; ++d) {
        for (int u = 0; u < nt; ++u) {
          if (u == t) offset[d] = base;
          base += c.hist[(static_cast<std::size_t>(u) * c.passes + q) * R + d];
        }
      }
      for (std::size_t i = lo; i < hi; ++i) {  // move, in order: stable
        const std::uint64_t dst = offset[digit(from[i], q)]++;
        to[dst] = from[i];
        if constexpr (with_values) vto[dst] = vfrom[i];
      }
      cpu_backend::barrier();
      std::swap(from, to);
      std::swap(vfrom, vto);
    }
    for (std::size_t i = lo; i < hi; ++i) {
      c.keys[i] = rk::from_bits(from[i], c.descending);
      if constexpr (with_values) c.values[i] = vfrom[i];
    }
  }, &c);
}

}  // namespace sluice::cpu
