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

// Per run of equal keys (runs above): the run's first key and the left fold of its values (no init).
template <class K, class V, class Op>
std::pair<std::vector<K>, std::vector<V>> reduce_by_key(const std::vector<K>& keys, const std::vector<V>& values, Op op) {
  std::pair<std::vector<K>, std::vector<V>> out;
  for (const auto& [first, length] : runs(keys)) {
    V acc = values[first];
    for (std::uint64_t i = first + 1; i < first + length; ++i) acc = op(acc, values[i]);
    out.first.push_back(keys[first]);
    out.second.push_back(acc);
  }
  return out;
}

// The scan of each run of equal keys: inclusive, or exclusive from init.
template <class K, class V, class Op>
std::vector<V> scan_by_key(const std::vector<K>& keys, const std::vector<V>& values, bool inclusive, V init, Op op) {
  std::vector<V> out(values.size());
  for (const auto& [first, length] : runs(keys))
    for (std::uint64_t i = first; i < first + length; ++i)
      out[i] = i == first ? (inclusive ? values[i] : init) : inclusive ? op(out[i - 1], values[i]) : op(out[i - 1], values[i - 1]);
  return out;
}

// init and the left fold of each segment [offsets[s], offsets[s + 1]).
template <class T, class Op>
std::vector<T> segmented_reduce(const std::vector<T>& values, const std::vector<std::uint64_t>& offsets, T init, Op op) {
  std::vector<T> out;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    T acc = init;
    for (std::uint64_t i = offsets[s]; i < offsets[s + 1]; ++i) acc = op(acc, values[i]);
    out.push_back(acc);
  }
  return out;
}

// The scan of each segment into a copy of `around` (whose elements outside every segment stay as they are).
template <class T, class Op>
std::vector<T> segmented_scan(const std::vector<T>& values, const std::vector<std::uint64_t>& offsets, std::vector<T> around, bool inclusive,
                              T init, Op op) {
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    for (std::uint64_t i = offsets[s]; i < offsets[s + 1]; ++i)
      around[i] = i == offsets[s] ? (inclusive ? values[i] : init) : inclusive ? op(around[i - 1], values[i]) : op(around[i - 1], values[i - 1]);
  return around;
}

// The k-way split: the elements of bucket 0 in input order, then bucket 1's, ... (ids outside [0, k) left out);
// offsets[b] where bucket b starts, offsets[k] the elements kept.
template <class T>
std::pair<std::vector<T>, std::vector<std::uint64_t>> split(const std::vector<T>& in, const std::vector<std::uint64_t>& bucket, std::uint64_t k) {
  std::vector<std::vector<T>> buckets(k);
  for (std::size_t i = 0; i < in.size(); ++i)
    if (bucket[i] < k) buckets[bucket[i]].push_back(in[i]);
  std::pair<std::vector<T>, std::vector<std::uint64_t>> r;
  for (const auto& b : buckets) {
    r.second.push_back(r.first.size());
    r.first.insert(r.first.end(), b.begin(), b.end());
  }
  r.second.push_back(r.first.size());
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

// Top-k: the positions of the k largest (descending) or smallest keys by image, ties to the lower position; in
// sorted order (by image, then position) or in input order.
template <class K>
std::vector<std::uint64_t> top_k(const std::vector<K>& keys, std::uint64_t k, bool largest, bool sorted) {
  auto perm = sort_permutation(keys, largest, 0, int(sizeof(K) * 8));
  perm.resize(k);
  if (!sorted) std::sort(perm.begin(), perm.end());
  return perm;
}

}  // namespace sluice::reference
