// How a CPU call of the by-key and segmented family runs: "serial" its loop, "three-phase" (the default) on the
// plan's threads. No SIMD kernels: the plan's simd level is accepted and unused. reduce_by_key in place (an
// output is its input) runs the serial loop, which reads each element before it writes at or before its
// position; the scans run in place on the plan's threads (each block writes only its own elements).
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

#include "sluice/algorithms.hpp"
#include "sluice/cpu/backend.hpp"
#include "sluice/cpu/dispatch.hpp"
#include "sluice/cpu/serial_segmented.hpp"
#include "sluice/cpu/three_phase_segmented.hpp"

namespace sluice::cpu {

namespace detail_segmented {
template <class A, class B>
bool overlap(std::span<A> a, std::span<B> b) {
  const auto* a0 = reinterpret_cast<const char*>(a.data());
  const auto* b0 = reinterpret_cast<const char*>(b.data());
  return !a.empty() && !b.empty() && a0 < b0 + b.size_bytes() && b0 < a0 + a.size_bytes();
}
}  // namespace detail_segmented

template <class K, class V, class Op>
std::uint64_t reduce_by_key(const algorithm_info& a, std::string_view spec, std::span<const K> keys, std::span<const V> values,
                            std::span<K> out_keys, std::span<V> out_values, Op op, const char* fn) {
  if (is_serial(a) || detail_segmented::overlap(keys, out_keys) || detail_segmented::overlap(values, out_values))
    return reduce_by_key_serial(keys, values, out_keys, out_values, op);
  const auto p = cpu_backend::make_plan(spec, fn);
  return three_phase_reduce_by_key(p.threads, keys, values, out_keys, out_values, op);
}

// out holds keys.size() elements.
template <class K, class V, class Op>
void scan_by_key(const algorithm_info& a, std::string_view spec, std::span<const K> keys, std::span<const V> values, std::span<V> out,
                 bool inclusive, V init, Op op, const char* fn) {
  if (is_serial(a)) return scan_by_key_serial(keys, values, out, inclusive, init, op);
  const auto p = cpu_backend::make_plan(spec, fn);
  three_phase_scan_by_heads(p.threads, sizeof(K) + sizeof(V), detail_segmented::key_heads<K>{keys.data()}, values, out, inclusive, init, op);
}

// offsets: checked (at least one entry, non-decreasing, within values); out holds offsets.size() - 1 elements.
template <class T, class Op>
void segmented_reduce(const algorithm_info& a, std::string_view spec, std::span<const T> values, std::span<const std::uint64_t> offsets,
                      std::span<T> out, T init, Op op, const char* fn) {
  if (is_serial(a)) return segmented_reduce_serial(values, offsets, out, init, op);
  const auto p = cpu_backend::make_plan(spec, fn);
  three_phase_segmented_reduce(p.threads, values, offsets, out, init, op);
}

// offsets: checked; out holds values.size() elements.
template <class T, class Op>
void segmented_scan(const algorithm_info& a, std::string_view spec, std::span<const T> values, std::span<const std::uint64_t> offsets,
                    std::span<T> out, bool inclusive, T init, Op op, const char* fn) {
  if (is_serial(a)) return segmented_scan_serial(values, offsets, out, inclusive, init, op);
  const auto p = cpu_backend::make_plan(spec, fn);
  three_phase_segmented_scan(p.threads, values, offsets, out, inclusive, init, op);
}

}  // namespace sluice::cpu
