// Element types, built-in operators and predicates shared by every primitive.
#pragma once
#include <cstdint>
#include <type_traits>

#include "sluice/detail/hd.hpp"
#include "sluice/detail/radix_key.hpp"

namespace sluice {

// The 16-byte element of the precompiled library (a float4- or particle-sized record).
struct alignas(16) vec4u {
  std::uint32_t x, y, z, w;
  SLUICE_HD friend bool operator==(const vec4u& a, const vec4u& b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }
  SLUICE_HD friend bool operator!=(const vec4u& a, const vec4u& b) { return !(a == b); }
};

// Built-in associative operators. Signed integer sums and products wrap modulo 2^bits
// (computed in unsigned arithmetic), so every backend and the reference agree exactly.
struct sum {
  template <class T>
  SLUICE_HD T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      using U = std::common_type_t<unsigned, std::make_unsigned_t<T>>;
      return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    } else {
      return a + b;
    }
  }
};
struct product {
  template <class T>
  SLUICE_HD T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      using U = std::common_type_t<unsigned, std::make_unsigned_t<T>>;
      return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
    } else {
      return a * b;
    }
  }
};
// For floating point, min/max keep the left operand when either side is NaN: NaN makes them non-associative.
struct minimum {
  template <class T>
  SLUICE_HD T operator()(T a, T b) const { return b < a ? b : a; }
};
struct maximum {
  template <class T>
  SLUICE_HD T operator()(T a, T b) const { return a < b ? b : a; }
};

// Built-in predicate of the precompiled library: compare each element with a threshold.
enum class compare : std::uint8_t { less, less_equal, greater, greater_equal, equal, not_equal };

template <class T>
struct threshold {
  compare op;
  T value;
  SLUICE_HD bool operator()(const T& x) const {
    switch (op) {
      case compare::less: return x < value;
      case compare::less_equal: return x <= value;
      case compare::greater: return x > value;
      case compare::greater_equal: return x >= value;
      case compare::equal: return x == value;
      case compare::not_equal: return x != value;
    }
    return false;
  }
};
template <class T> constexpr threshold<T> less_than(T v) { return {compare::less, v}; }
template <class T> constexpr threshold<T> at_most(T v) { return {compare::less_equal, v}; }
template <class T> constexpr threshold<T> greater_than(T v) { return {compare::greater, v}; }
template <class T> constexpr threshold<T> at_least(T v) { return {compare::greater_equal, v}; }
template <class T> constexpr threshold<T> equal_to(T v) { return {compare::equal, v}; }
template <class T> constexpr threshold<T> not_equal_to(T v) { return {compare::not_equal, v}; }

// Sort direction and the key bits a radix sort looks at ([begin, end), -1 meaning the key's width).
// Bits are those of the order-preserving unsigned image of the key (see docs/guide/api.md).
enum class order { ascending, descending };
struct bit_range {
  int begin = 0;
  int end = -1;
};

// The built-in bucket function of split: bits [shift, shift + bits) of the order-preserving unsigned image of
// the key (radix_sort's image: negative before positive, floats by value), bits in [1, 8]: ids below 2^bits.
struct radix_digit {
  int shift = 0;
  int bits = 8;
  template <class T>
  SLUICE_HD std::uint32_t operator()(const T& x) const {
    using key = detail::radix_key<T>;
    return static_cast<std::uint32_t>(key::window(key::to_bits(x, false), shift, shift + bits));
  }
};

}  // namespace sluice
