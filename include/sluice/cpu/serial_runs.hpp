// CPU backend, "serial" variants of the runs family (unique, unique_by_key, run_length_encode,
// non_trivial_runs): one thread, one pass, the reference the three-phase variant is checked against.
// A run is a maximal stretch of elements equal by operator== (NaN != NaN: each NaN is its own run).
// Each writes at most its outputs' size and returns the full number of runs. Every element is read before
// anything at or after its position is written, so out may be in (and out_values values): in place is allowed.
#pragma once
#include <cstdint>
#include <span>

namespace sluice::cpu {

// The first element of each run, in order.
template <class T>
std::uint64_t unique_serial(std::span<const T> in, std::span<T> out) {
  const std::uint64_t n = in.size(), cap = out.size();
  if (n == 0) return 0;
  T prev = in[0];
  if (cap > 0) out[0] = prev;
  std::uint64_t k = 1;
  for (std::uint64_t i = 1; i < n; ++i) {
    const T x = in[i];
    if (!(x == prev)) {
      if (k < cap) out[k] = x;
      ++k;
    }
    prev = x;
  }
  return k;
}

// unique on keys, each run's first value beside its key.
template <class K, class V>
std::uint64_t unique_by_key_serial(std::span<const K> keys, std::span<const V> values, std::span<K> out_keys, std::span<V> out_values) {
  const std::uint64_t n = keys.size(), cap = out_keys.size();
  if (n == 0) return 0;
  K prev = keys[0];
  std::uint64_t k = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const K x = keys[i];
    if (i == 0 || !(x == prev)) {
      if (k < cap) {
        const V v = values[i];
        out_keys[k] = x;
        out_values[k] = v;
      }
      ++k;
    }
    prev = x;
  }
  return k;
}

// Each run's element and length. A run's length is written when the next run starts (or the input ends).
template <class T>
std::uint64_t run_length_encode_serial(std::span<const T> in, std::span<T> out_unique, std::span<std::uint64_t> out_counts) {
  const std::uint64_t n = in.size(), cap = out_unique.size();
  if (n == 0) return 0;
  T prev = in[0];
  if (cap > 0) out_unique[0] = prev;
  std::uint64_t k = 1, head = 0;
  for (std::uint64_t i = 1; i < n; ++i) {
    const T x = in[i];
    if (!(x == prev)) {
      if (k - 1 < cap) out_counts[k - 1] = i - head;
      if (k < cap) out_unique[k] = x;
      ++k;
      head = i;
    }
    prev = x;
  }
  if (k - 1 < cap) out_counts[k - 1] = n - head;
  return k;
}

// The offset and length of each run longer than one element.
template <class T>
std::uint64_t non_trivial_runs_serial(std::span<const T> in, std::span<std::uint64_t> out_offsets, std::span<std::uint64_t> out_lengths) {
  const std::uint64_t n = in.size(), cap = out_offsets.size();
  std::uint64_t k = 0, head = 0;
  const auto close = [&](std::uint64_t end) {  // the run [head, end) ends
    if (end - head > 1) {
      if (k < cap) out_offsets[k] = head, out_lengths[k] = end - head;
      ++k;
    }
  };
  for (std::uint64_t i = 1; i < n; ++i)
    if (!(in[i] == in[i - 1])) close(i), head = i;
  if (n > 0) close(n);
  return k;
}

}  // namespace sluice::cpu
