// How a CPU call of the runs family runs: "serial" its loop, "three-phase" (the default) on the plan's threads.
// No SIMD kernels: the plan's simd level is accepted and unused. In place (an output is its input) runs the
// serial loop, which reads each element before it writes at or before its position.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

#include "sluice/algorithms.hpp"
#include "sluice/cpu/backend.hpp"
#include "sluice/cpu/dispatch.hpp"
#include "sluice/cpu/serial_runs.hpp"
#include "sluice/cpu/three_phase_runs.hpp"

namespace sluice::cpu {

namespace detail_runs {
template <class A, class B>
bool overlap(std::span<A> a, std::span<B> b) {
  const auto* a0 = reinterpret_cast<const char*>(a.data());
  const auto* b0 = reinterpret_cast<const char*>(b.data());
  return !a.empty() && !b.empty() && a0 < b0 + b.size_bytes() && b0 < a0 + a.size_bytes();
}
}  // namespace detail_runs

template <class T>
std::uint64_t unique(const algorithm_info& a, std::string_view spec, std::span<const T> in, std::span<T> out, const char* fn) {
  if (is_serial(a) || detail_runs::overlap(in, out)) return unique_serial(in, out);
  const auto p = cpu_backend::make_plan(spec, fn);
  return three_phase_unique(p.threads, in, out.size(), [&](std::uint64_t i, std::uint64_t k) { out[k] = in[i]; });
}

template <class K, class V>
std::uint64_t unique_by_key(const algorithm_info& a, std::string_view spec, std::span<const K> keys, std::span<const V> values,
                            std::span<K> out_keys, std::span<V> out_values, const char* fn) {
  if (is_serial(a) || detail_runs::overlap(keys, out_keys) || detail_runs::overlap(values, out_values))
    return unique_by_key_serial(keys, values, out_keys, out_values);
  const auto p = cpu_backend::make_plan(spec, fn);
  return three_phase_unique(p.threads, keys, out_keys.size(), [&](std::uint64_t i, std::uint64_t k) {
    out_keys[k] = keys[i];
    out_values[k] = values[i];
  });
}

template <class T>
std::uint64_t run_length_encode(const algorithm_info& a, std::string_view spec, std::span<const T> in, std::span<T> out_unique,
                                std::span<std::uint64_t> out_counts, const char* fn) {
  if (is_serial(a) || detail_runs::overlap(in, out_unique)) return run_length_encode_serial(in, out_unique, out_counts);
  const auto p = cpu_backend::make_plan(spec, fn);
  return three_phase_runs(
      p.threads, in, out_unique.size(), /*non_trivial=*/false, [&](std::uint64_t i, std::uint64_t k) { out_unique[k] = in[i]; },
      [&](std::uint64_t k, std::uint64_t len) { out_counts[k] = len; });
}

template <class T>
std::uint64_t non_trivial_runs(const algorithm_info& a, std::string_view spec, std::span<const T> in, std::span<std::uint64_t> out_offsets,
                               std::span<std::uint64_t> out_lengths, const char* fn) {
  if (is_serial(a)) return non_trivial_runs_serial(in, out_offsets, out_lengths);
  const auto p = cpu_backend::make_plan(spec, fn);
  return three_phase_runs(
      p.threads, in, out_offsets.size(), /*non_trivial=*/true, [&](std::uint64_t i, std::uint64_t k) { out_offsets[k] = i; },
      [&](std::uint64_t k, std::uint64_t len) { out_lengths[k] = len; });
}

}  // namespace sluice::cpu
