// The serial reference of every primitive. Every test and `sluice verify` compare against it, forever:
// keep it obviously right, not fast. Floating-point results are also computed in double (see ref_*_f64).
#pragma once
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "sluice/detail/radix_key.hpp"

namespace sluice::reference {

template <class T, class Op>
T reduce(const std::vector<T>& in, T init, Op op) {
  T acc = init;
  for (const T& x : in) acc = op(acc, x);
  return acc;
}

template <class T, class Op>
std::vector<T> inclusive_scan(const std::vector<T>& in, Op op) {
  std::vector<T> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = i == 0 ? in[0] : op(out[i - 1], in[i]);
  return out;
}

template <class T, class Op>
std::vector<T> exclusive_scan(const std::vector<T>& in, T init, Op op) {
  std::vector<T> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = i == 0 ? init : op(out[i - 1], in[i - 1]);
  return out;
}

// Elements whose keep[i] is true, in input order.
template <class T>
std::vector<T> compact(const std::vector<T>& in, const std::vector<bool>& keep) {
  std::vector<T> out;
  for (std::size_t i = 0; i < in.size(); ++i)
    if (keep[i]) out.push_back(in[i]);
  return out;
}

// Kept elements in order, then rejected elements in order.
template <class T>
std::vector<T> partition(const std::vector<T>& in, const std::vector<bool>& keep) {
  std::vector<T> out = compact(in, keep);
  for (std::size_t i = 0; i < in.size(); ++i)
    if (!keep[i]) out.push_back(in[i]);
  return out;
}

// The runs of in, maximal stretches of elements equal by operator== (NaN != NaN), as (offset, length).
template <class T>
std::vector<std::pair<std::uint64_t, std::uint64_t>> runs(const std::vector<T>& in) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> r;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (i == 0 || !(in[i] == in[i - 1])) r.push_back({i, 0});
    ++r.back().second;
  }
  return r;
}

// Stable sort by the key image's bit window; returns the permutation (input positions in sorted order).
template <class K>
std::vector<std::uint64_t> sort_permutation(const std::vector<K>& keys, bool descending, int begin, int end) {
  using rk = detail::radix_key<K>;
  std::vector<std::pair<typename rk::bits_t, std::uint64_t>> d(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) d[i] = {rk::window(rk::to_bits(keys[i], descending), begin, end), i};
  std::stable_sort(d.begin(), d.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::uint64_t> perm(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) perm[i] = d[i].second;
  return perm;
}

}  // namespace sluice::reference
