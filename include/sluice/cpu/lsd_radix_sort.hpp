// CPU radix sort, "lsd-serial": least-significant-digit first, 8-bit digits, one stable counting sort per
// digit over the order-preserving key image (detail/radix_key.hpp). Moves keys (and values) 2 x passes.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <vector>

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
