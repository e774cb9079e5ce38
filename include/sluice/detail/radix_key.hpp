// Order-preserving maps from sort keys to unsigned integers (and back), shared by every backend.
// Signed integers: flip the sign bit. Floats: flip the sign bit of positives, all bits of negatives, so
// -inf < negatives < -0.0 < +0.0 < positives < +inf, negative NaNs first and positive NaNs last.
// Descending order sorts the complement ascending, which keeps equal keys in input order (stable).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "sluice/detail/hd.hpp"

namespace sluice::detail {

template <class K>
struct radix_key {
  static_assert(std::is_arithmetic_v<K> && (sizeof(K) == 4 || sizeof(K) == 8), "radix_sort keys: u32, i32, f32, u64, i64, f64");
  using bits_t = std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>;
  static constexpr int width = sizeof(K) * 8;
  static constexpr bits_t sign = bits_t(1) << (width - 1);

  SLUICE_HD static bits_t to_bits(K k, bool descending) {
    bits_t b;
    std::memcpy(&b, &k, sizeof b);
    if constexpr (std::is_floating_point_v<K>) b = (b & sign) ? ~b : (b | sign);
    else if constexpr (std::is_signed_v<K>) b ^= sign;
    return descending ? bits_t(~b) : b;
  }
  SLUICE_HD static K from_bits(bits_t b, bool descending) {
    if (descending) b = ~b;
    if constexpr (std::is_floating_point_v<K>) b = (b & sign) ? (b & ~sign) : bits_t(~b);
    else if constexpr (std::is_signed_v<K>) b ^= sign;
    K k;
    std::memcpy(&k, &b, sizeof b);
    return k;
  }
  // The digit window [begin, end) of the image, shifted down.
  SLUICE_HD static bits_t window(bits_t b, int begin, int end) {
    if (begin >= width || end <= begin) return 0;  // an empty window (a shift by the width would be undefined)
    const int w = end - begin;
    bits_t v = b >> begin;
    return w >= width ? v : (v & ((bits_t(1) << w) - 1));
  }
};

}  // namespace sluice::detail
