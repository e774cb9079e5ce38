// CPU backend, "serial" variants of the by-key and segmented family (reduce_by_key, inclusive_scan_by_key,
// exclusive_scan_by_key, segmented_reduce, segmented_inclusive_scan, segmented_exclusive_scan): one thread, one
// pass, a left fold, the reference the three-phase variants are checked against.
// By key: a run is a maximal stretch of keys equal by operator== (NaN != NaN: each NaN key is its own run).
// Segmented: segment s is [offsets[s], offsets[s + 1]) (the caller checked offsets: non-decreasing, within the
// values); the scans write only [offsets[0], offsets.back()).
// Every element is read before anything at or after its position is written, so out may be values (and
// reduce_by_key's out_keys keys, out_values values): in place is allowed.
#pragma once
#include <cstdint>
#include <span>

namespace sluice::cpu {

// Each run's first key and the fold of its values; writes at most out_keys.size() runs, returns the full count.
template <class K, class V, class Op>
std::uint64_t reduce_by_key_serial(std::span<const K> keys, std::span<const V> values, std::span<K> out_keys, std::span<V> out_values, Op op) {
  const std::uint64_t n = keys.size(), cap = out_keys.size();
  if (n == 0) return 0;
  K prev = keys[0];
  V acc = values[0];
  if (cap > 0) out_keys[0] = prev;
  std::uint64_t k = 1;
  for (std::uint64_t i = 1; i < n; ++i) {
    const K x = keys[i];
    const V v = values[i];
    if (!(x == prev)) {  // run k - 1 ends: its value is known
      if (k - 1 < cap) out_values[k - 1] = acc;
      if (k < cap) out_keys[k] = x;
      ++k;
      acc = v;
    } else {
      acc = op(acc, v);
    }
    prev = x;
  }
  if (k - 1 < cap) out_values[k - 1] = acc;
  return k;
}

// The scan restarted at each run head; exclusive: the head gets init, and init leads every run's fold.
template <class K, class V, class Op>
void scan_by_key_serial(std::span<const K> keys, std::span<const V> values, std::span<V> out, bool inclusive, V init, Op op) {
  const std::uint64_t n = keys.size();
  if (n == 0) return;
  K prev = keys[0];
  V acc = init;
  for (std::uint64_t i = 0; i < n; ++i) {
    const K x = keys[i];
    const V v = values[i];
    const bool head = i == 0 || !(x == prev);
    if (inclusive) {
      acc = head ? v : op(acc, v);
      out[i] = acc;
    } else {
      if (head) acc = init;
      out[i] = acc;
      acc = op(acc, v);
    }
    prev = x;
  }
}

// out[s] = init op values[offsets[s]] op ... for each of the offsets.size() - 1 segments (empty ones: init).
template <class T, class Op>
void segmented_reduce_serial(std::span<const T> values, std::span<const std::uint64_t> offsets, std::span<T> out, T init, Op op) {
  for (std::uint64_t s = 0; s + 1 < offsets.size(); ++s) {
    T acc = init;
    for (std::uint64_t i = offsets[s]; i < offsets[s + 1]; ++i) acc = op(acc, values[i]);
    out[s] = acc;
  }
}

// The scan restarted at each segment's start; elements outside [offsets[0], offsets.back()) are not written.
template <class T, class Op>
void segmented_scan_serial(std::span<const T> values, std::span<const std::uint64_t> offsets, std::span<T> out, bool inclusive, T init, Op op) {
  for (std::uint64_t s = 0; s + 1 < offsets.size(); ++s) {
    const std::uint64_t b = offsets[s], e = offsets[s + 1];
    T acc = init;
    for (std::uint64_t i = b; i < e; ++i) {
      const T v = values[i];
      if (inclusive) {
        acc = i == b ? v : op(acc, v);
        out[i] = acc;
      } else {
        out[i] = acc;
        acc = op(acc, v);
      }
    }
  }
}

}  // namespace sluice::cpu
