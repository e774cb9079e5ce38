// What both SIMD kernel files share, compiled into each for its own instruction set (an anonymous
// namespace: no copy can stand in for the other).
#pragma once
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "sluice/types.hpp"

namespace sluice::cpu_simd {
namespace {

constexpr int float_imm(compare c) {  // ordered and quiet, except != (true for NaN, as in C++)
  switch (c) {
    case compare::less: return _CMP_LT_OQ;
    case compare::less_equal: return _CMP_LE_OQ;
    case compare::greater: return _CMP_GT_OQ;
    case compare::greater_equal: return _CMP_GE_OQ;
    case compare::equal: return _CMP_EQ_OQ;
    case compare::not_equal: return _CMP_NEQ_UQ;
  }
  return 0;
}

// Calls f with the predicate's comparison as a compile-time constant.
template <class T, class F>
decltype(auto) with_compare(threshold<T> p, F&& f) {
  switch (p.op) {
    case compare::less: return f(std::integral_constant<compare, compare::less>{});
    case compare::less_equal: return f(std::integral_constant<compare, compare::less_equal>{});
    case compare::greater: return f(std::integral_constant<compare, compare::greater>{});
    case compare::greater_equal: return f(std::integral_constant<compare, compare::greater_equal>{});
    case compare::equal: return f(std::integral_constant<compare, compare::equal>{});
    default: return f(std::integral_constant<compare, compare::not_equal>{});
  }
}

// The next block's input, prefetched into L2 at the pace of the current move: element i of this block
// prefetches byte i x scale of the next (a null start: no next block).
struct ahead_t {
  const char* start;
  unsigned scale;
  void operator()(std::uint64_t i) const {
    if (start != nullptr) _mm_prefetch(start + i * scale, _MM_HINT_T1);
  }
};
inline ahead_t ahead_of(const void* start, std::size_t scale) { return {static_cast<const char*>(start), static_cast<unsigned>(scale)}; }

// The operator's identity: padding lanes and empty accumulators.
template <class T, class Op>
T identity() {
  if constexpr (std::is_same_v<Op, sum>) {
    if constexpr (std::is_floating_point_v<T>) return -T(0);  // -0 + x == x for every x, -0 included
    else return T(0);
  } else if constexpr (std::is_same_v<Op, product>) {
    return T(1);
  } else if constexpr (std::is_same_v<Op, minimum>) {
    if constexpr (std::is_floating_point_v<T>) return __builtin_inf();
    else return static_cast<T>(std::is_signed_v<T> ? ~(T(1) << (sizeof(T) * 8 - 1)) : ~T(0));
  } else {
    if constexpr (std::is_floating_point_v<T>) return -__builtin_inf();
    else return static_cast<T>(std::is_signed_v<T> ? (T(1) << (sizeof(T) * 8 - 1)) : T(0));
  }
}

}  // namespace
}  // namespace sluice::cpu_simd
