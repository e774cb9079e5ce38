// CPU backend, "serial" variants: one thread, one pass. The multi-core SIMD variants are "best"; these stay as
// the simplest CPU variants. Each writes at most out.size()
// elements and returns the number selected.
#pragma once
#include <cstdint>
#include <span>

namespace sluice::cpu {

template <class T, class Op>
T reduce_serial(std::span<const T> in, T init, Op op) {
  T acc = init;
  for (const T& x : in) acc = op(acc, x);
  return acc;
}

// inclusive: out[i] = in[0] op ... op in[i]; exclusive: out[i] = init op in[0] op ... op in[i-1]. In place allowed.
template <class T, class Op>
void scan_serial(std::span<const T> in, std::span<T> out, bool inclusive, T init, Op op) {
  if (in.empty()) return;
  T acc = inclusive ? in[0] : init;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const T x = in[i];  // read before the write: in place is allowed
    if (inclusive) {
      if (i > 0) acc = op(acc, x);
      out[i] = acc;
    } else {
      out[i] = acc;
      acc = op(acc, x);
    }
  }
}

template <class T, class Sel>
std::uint64_t compact_serial(std::span<const T> in, std::span<T> out, Sel sel) {
  std::uint64_t k = 0;
  for (std::uint64_t i = 0; i < in.size(); ++i) {
    if (!sel(i, in[i])) continue;
    if (k < out.size()) out[k] = in[i];
    ++k;
  }
  return k;
}

// Stable split: kept elements in order, then the rejected ones in order. Needs out.size() >= in.size().
template <class T, class Sel>
std::uint64_t partition_serial(std::span<const T> in, std::span<T> out, Sel sel) {
  std::uint64_t kept = 0;
  for (std::uint64_t i = 0; i < in.size(); ++i) kept += sel(i, in[i]) ? 1 : 0;
  std::uint64_t front = 0, back = kept;
  for (std::uint64_t i = 0; i < in.size(); ++i) out[sel(i, in[i]) ? front++ : back++] = in[i];
  return kept;
}

}  // namespace sluice::cpu
