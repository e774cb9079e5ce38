// Runs: maximal stretches of equal elements (operator==; NaN != NaN, so each NaN is a run of its own, and
// -0.0 == +0.0 joins them). unique, unique_by_key, run_length_encode and non_trivial_runs; on the cpu and cuda
// devices (gl has no runs algorithm: find_algorithm's unsupported error).
// Every form writes at most its outputs' size. The synchronous forms throw invalid_argument when there are more
// runs than the outputs hold (they then hold the first ones); the _async forms write the full count to *count
// (host memory on the cpu, device memory on cuda, where nothing syncs the host) and the caller compares it with
// the outputs' size.
// On the cpu, unique and run_length_encode may run in place (out is in; unique_by_key: out_keys is keys and
// out_values is values); on cuda no output may overlap an input. Lengths, counts and offsets never share memory
// with what is read.
// The precompiled CUDA kernels take keys of the types in SLUICE_RUN_KEY_TYPES (detail/instantiations.hpp) and
// values of 1, 2, 4, 8 or 16 bytes; include <sluice/cuda.cuh> first (nvcc) for any other key type.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

#include "sluice/cpu/runs_dispatch.hpp"
#include "sluice/detail/api.hpp"
#include "sluice/detail/storage.hpp"

namespace sluice {

namespace detail {
// The count: non-null, and device memory on cuda.
inline void check_count(const char* fn, const std::uint64_t* count, const options& opt) {
  if (count == nullptr) throw error(errc::invalid_argument, arg_error(fn, "count", "is null"));
  if constexpr (config::has_cuda)
    if (opt.device == device::cuda) cuda_backend::check_device_pointer(fn, "count", count);
}

// The synchronous form: the count, or invalid_argument when the outputs (`arg`, `capacity` elements) hold fewer.
template <class F>
std::uint64_t runs_counted(const char* fn, const char* arg, std::uint64_t capacity, const options& opt, F&& run) {
  const std::uint64_t n = counted(fn, opt, run);
  if (n > capacity)
    throw error(errc::invalid_argument, arg_error(fn, arg, "holds " + std::to_string(capacity) + " elements but the input has " +
                                                               std::to_string(n) + " runs"));
  return n;
}

// Whether the precompiled CUDA library (or the caller's nvcc build) has runs kernels for keys K.
template <class K>
void require_cuda_runs(const char* fn) {
  if constexpr (!cuda_runs_v<K>) no_cuda_kernels(fn, "key type");
}

template <class T>
void unique_run(const char* fn, std::span<const T> in, std::span<T> out, std::uint64_t* count, const options& opt) {
  const auto& algo = prepare(fn, primitive::unique, opt, std::pair{"in", in}, std::pair{"out", out});
  check_overlap(fn, "in", in, "out", out, /*in_place_ok=*/opt.device != device::cuda);
  check_count(fn, count, opt);
  if (opt.device == device::cpu) {
    *count = cpu::unique(algo, spec_of(algo, opt), in, out, fn);
    return;
  }
  if constexpr (config::has_cuda) {
    require_cuda_runs<T>(fn);
    if constexpr (cuda_runs_v<T>)
      cuda_backend::unique(spec_of(algo, opt), in, std::span<const std::nullptr_t>(), out, std::span<std::nullptr_t>(), count, opt.stream);
  }
}

template <class K, class V>
void unique_by_key_run(const char* fn, std::span<const K> keys, std::span<const V> values, std::span<K> out_keys, std::span<V> out_values,
                       std::uint64_t* count, const options& opt) {
  const auto& algo = prepare(fn, primitive::unique, opt, std::pair{"keys", keys}, std::pair{"values", values}, std::pair{"out_keys", out_keys},
                             std::pair{"out_values", out_values});
  const bool in_place_ok = opt.device != device::cuda;
  check_same_size(fn, "values", values.size(), "keys", keys.size());
  check_same_size(fn, "out_values", out_values.size(), "out_keys", out_keys.size());
  check_overlap(fn, "keys", keys, "out_keys", out_keys, in_place_ok);
  check_overlap(fn, "values", values, "out_values", out_values, in_place_ok);
  check_disjoint(fn, "keys", keys, "out_values", out_values);
  check_disjoint(fn, "values", values, "out_keys", out_keys);
  check_disjoint(fn, "out_keys", out_keys, "out_values", out_values);
  check_count(fn, count, opt);
  if (opt.device == device::cpu) {
    *count = cpu::unique_by_key(algo, spec_of(algo, opt), keys, values, out_keys, out_values, fn);
    return;
  }
  if constexpr (config::has_cuda) {
    require_cuda_runs<K>(fn);
    require_precompiled_storage<V>(fn);
    if constexpr (cuda_runs_v<K> && precompiled_storage_v<sizeof(V), alignof(V)>)
      cuda_backend::unique(spec_of(algo, opt), keys, as_storage(values), out_keys, as_storage(out_values), count, opt.stream);
  }
}

template <class T>
void run_length_encode_run(const char* fn, std::span<const T> in, std::span<T> out_unique, std::span<std::uint64_t> out_counts,
                           std::uint64_t* count, const options& opt) {
  const auto& algo = prepare(fn, primitive::run_length_encode, opt, std::pair{"in", in}, std::pair{"out_unique", out_unique},
                             std::pair{"out_counts", out_counts});
  check_same_size(fn, "out_counts", out_counts.size(), "out_unique", out_unique.size());
  check_overlap(fn, "in", in, "out_unique", out_unique, /*in_place_ok=*/opt.device != device::cuda);
  check_disjoint(fn, "in", in, "out_counts", out_counts);
  check_disjoint(fn, "out_unique", out_unique, "out_counts", out_counts);
  check_count(fn, count, opt);
  if (opt.device == device::cpu) {
    *count = cpu::run_length_encode(algo, spec_of(algo, opt), in, out_unique, out_counts, fn);
    return;
  }
  if constexpr (config::has_cuda) {
    require_cuda_runs<T>(fn);
    if constexpr (cuda_runs_v<T>) cuda_backend::run_length_encode(spec_of(algo, opt), in, out_unique, out_counts, count, opt.stream);
  }
}

template <class T>
void non_trivial_runs_run(const char* fn, std::span<const T> in, std::span<std::uint64_t> out_offsets, std::span<std::uint64_t> out_lengths,
                          std::uint64_t* count, const options& opt) {
  const auto& algo = prepare(fn, primitive::run_length_encode, opt, std::pair{"in", in}, std::pair{"out_offsets", out_offsets},
                             std::pair{"out_lengths", out_lengths});
  check_same_size(fn, "out_lengths", out_lengths.size(), "out_offsets", out_offsets.size());
  check_disjoint(fn, "in", in, "out_offsets", out_offsets);
  check_disjoint(fn, "in", in, "out_lengths", out_lengths);
  check_disjoint(fn, "out_offsets", out_offsets, "out_lengths", out_lengths);
  check_count(fn, count, opt);
  if (opt.device == device::cpu) {
    *count = cpu::non_trivial_runs(algo, spec_of(algo, opt), in, out_offsets, out_lengths, fn);
    return;
  }
  if constexpr (config::has_cuda) {
    require_cuda_runs<T>(fn);
    if constexpr (cuda_runs_v<T>) cuda_backend::non_trivial_runs(spec_of(algo, opt), in, out_offsets, out_lengths, count, opt.stream);
  }
}

template <class In, class Out>
constexpr void check_same_element() {
  static_assert(std::is_same_v<element_t<In>, element_t<Out>>, "sluice: the output's elements must be of the input's type");
}
template <class Out>
constexpr void check_u64_output() {
  static_assert(std::is_same_v<element_t<Out>, std::uint64_t>, "sluice: counts, offsets and lengths are std::uint64_t");
}
}  // namespace detail

// Copy the first element of each run of equal elements to the front of out, in input order; return how many runs.
template <detail::span_like In, detail::span_like Out>
std::uint64_t unique(const In& in, Out&& out, const options& opt = {}) {
  detail::check_same_element<In, Out>();
  return detail::runs_counted("unique", "out", std::ranges::size(out), opt, [&](std::uint64_t* c) {
    detail::unique_run("unique", detail::as_const_span(in), detail::as_span(out), c, opt);
  });
}
template <detail::span_like In, detail::span_like Out>
void unique_async(const In& in, Out&& out, std::uint64_t* count, const options& opt = {}) {
  detail::check_same_element<In, Out>();
  detail::unique_run("unique_async", detail::as_const_span(in), detail::as_span(out), count, opt);
}

// unique on keys: each run's first key and the value beside it; return how many runs.
template <detail::span_like Keys, detail::span_like Values, detail::span_like OutKeys, detail::span_like OutValues>
std::uint64_t unique_by_key(const Keys& keys, const Values& values, OutKeys&& out_keys, OutValues&& out_values, const options& opt = {}) {
  detail::check_same_element<Keys, OutKeys>();
  detail::check_same_element<Values, OutValues>();
  return detail::runs_counted("unique_by_key", "out_keys", std::ranges::size(out_keys), opt, [&](std::uint64_t* c) {
    detail::unique_by_key_run("unique_by_key", detail::as_const_span(keys), detail::as_const_span(values), detail::as_span(out_keys),
                              detail::as_span(out_values), c, opt);
  });
}
template <detail::span_like Keys, detail::span_like Values, detail::span_like OutKeys, detail::span_like OutValues>
void unique_by_key_async(const Keys& keys, const Values& values, OutKeys&& out_keys, OutValues&& out_values, std::uint64_t* count,
                         const options& opt = {}) {
  detail::check_same_element<Keys, OutKeys>();
  detail::check_same_element<Values, OutValues>();
  detail::unique_by_key_run("unique_by_key_async", detail::as_const_span(keys), detail::as_const_span(values), detail::as_span(out_keys),
                            detail::as_span(out_values), count, opt);
}

// Each run's element to out_unique and its length to out_counts, in input order; return how many runs.
template <detail::span_like In, detail::span_like Out, detail::span_like Counts>
std::uint64_t run_length_encode(const In& in, Out&& out_unique, Counts&& out_counts, const options& opt = {}) {
  detail::check_same_element<In, Out>();
  detail::check_u64_output<Counts>();
  return detail::runs_counted("run_length_encode", "out_unique", std::ranges::size(out_unique), opt, [&](std::uint64_t* c) {
    detail::run_length_encode_run("run_length_encode", detail::as_const_span(in), detail::as_span(out_unique), detail::as_span(out_counts),
                                  c, opt);
  });
}
template <detail::span_like In, detail::span_like Out, detail::span_like Counts>
void run_length_encode_async(const In& in, Out&& out_unique, Counts&& out_counts, std::uint64_t* count, const options& opt = {}) {
  detail::check_same_element<In, Out>();
  detail::check_u64_output<Counts>();
  detail::run_length_encode_run("run_length_encode_async", detail::as_const_span(in), detail::as_span(out_unique), detail::as_span(out_counts),
                                count, opt);
}

// The offset and length of each run longer than one element, in input order; return how many.
template <detail::span_like In, detail::span_like Offsets, detail::span_like Lengths>
std::uint64_t non_trivial_runs(const In& in, Offsets&& out_offsets, Lengths&& out_lengths, const options& opt = {}) {
  detail::check_u64_output<Offsets>();
  detail::check_u64_output<Lengths>();
  return detail::runs_counted("non_trivial_runs", "out_offsets", std::ranges::size(out_offsets), opt, [&](std::uint64_t* c) {
    detail::non_trivial_runs_run("non_trivial_runs", detail::as_const_span(in), detail::as_span(out_offsets), detail::as_span(out_lengths),
                                 c, opt);
  });
}
template <detail::span_like In, detail::span_like Offsets, detail::span_like Lengths>
void non_trivial_runs_async(const In& in, Offsets&& out_offsets, Lengths&& out_lengths, std::uint64_t* count, const options& opt = {}) {
  detail::check_u64_output<Offsets>();
  detail::check_u64_output<Lengths>();
  detail::non_trivial_runs_run("non_trivial_runs_async", detail::as_const_span(in), detail::as_span(out_offsets), detail::as_span(out_lengths),
                               count, opt);
}

}  // namespace sluice
