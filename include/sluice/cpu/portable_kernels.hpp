// The block kernels of the CPU algorithms in plain C++: any element type, operator and selector. They are
// the `simd=scalar` level of the precompiled types and the only level of every other type.
// sel(i, x) takes the element's index in the whole stream (flags are indexed by it).
#pragma once
#include <cstdint>

namespace sluice::cpu {

struct portable_kernels {
  template <class T, class Sel>
  static std::uint64_t count(const T* in, std::uint64_t first, std::uint64_t n, Sel& sel) {
    std::uint64_t k = 0;
    for (std::uint64_t i = 0; i < n; ++i) k += sel(first + i, in[i]) ? 1 : 0;
    return k;
  }
  // Writes the selected elements of [in, in + n) to out, at most `cap` of them.
  template <class T, class Sel>
  static void compact_capped(const T* in, std::uint64_t first, std::uint64_t n, Sel& sel, T* out, std::uint64_t cap) {
    std::uint64_t k = 0;
    for (std::uint64_t i = 0; i < n && k < cap; ++i)
      if (sel(first + i, in[i])) out[k++] = in[i];
  }
  // The trailing arguments (stream, and where the next block starts: element pointer and index) are hints the
  // SIMD kernels use; here they change nothing.
  template <class T, class Sel>
  static void compact(const T* in, std::uint64_t first, std::uint64_t n, Sel& sel, T* out, bool, const T*, std::uint64_t) {
    compact_capped(in, first, n, sel, out, ~std::uint64_t{0});
  }
  template <class T, class Sel>
  static void split(const T* in, std::uint64_t first, std::uint64_t n, Sel& sel, T* kept, T* rejected, bool, const T*,
                    std::uint64_t) {
    for (std::uint64_t i = 0; i < n; ++i) {
      if (sel(first + i, in[i])) *kept++ = in[i];
      else *rejected++ = in[i];
    }
  }
  // Left fold of n >= 1 elements.
  template <class T, class Op>
  static T reduce(const T* in, std::uint64_t n, Op& op) {
    T acc = in[0];
    for (std::uint64_t i = 1; i < n; ++i) acc = op(acc, in[i]);
    return acc;
  }
  // out[i] = carry op in[0] op ... op in[i] (inclusive) or carry op in[0] op ... op in[i-1] (exclusive, where
  // carry is never null). in == out allowed.
  template <class T, class Op>
  static void scan(const T* in, T* out, std::uint64_t n, const T* carry, bool inclusive, Op& op, bool, const T*) {
    if (n == 0) return;
    std::uint64_t i = 0;
    T acc = carry ? *carry : in[0];
    if (!carry) out[i++] = acc;  // inclusive, first block
    for (; i < n; ++i) {
      const T x = in[i];
      if (inclusive) {
        acc = op(acc, x);
        out[i] = acc;
      } else {
        out[i] = acc;
        acc = op(acc, x);
      }
    }
  }
};

}  // namespace sluice::cpu
