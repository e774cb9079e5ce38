// By key and segmented: reductions and scans restarted at every run of equal keys (reduce_by_key,
// inclusive_scan_by_key, exclusive_scan_by_key) or at every segment of an offsets array (segmented_reduce,
// segmented_inclusive_scan, segmented_exclusive_scan), under any associative operator; on the cpu device.
// Runs are those of the runs family (runs.hpp): maximal stretches of keys equal by operator== (each NaN key a
// run of its own). Segment s is [offsets[s], offsets[s + 1]): offsets holds n_segments + 1 std::uint64_t entries,
// non-decreasing, the last at most values.size() (else invalid_argument, before anything is written); one entry
// is zero segments. The segmented scans write out only in [offsets[0], offsets.back()): out's elements before
// and after are left as they were.
// Every form writes at most its outputs' size. reduce_by_key throws invalid_argument when there are more runs
// than the outputs hold (they then hold the first ones); reduce_by_key_async writes the full count to *count
// (host memory on the cpu) and the caller compares it with the outputs' size.
// In place: the scans' out may be values (cpu and cuda); on the cpu reduce_by_key's out_keys may be keys and
// out_values values. Keys and offsets never share memory with an output.
// Floating point: the serial variant folds each run or segment left to right; the default (three-phase) folds
// within fixed blocks and combines the blocks left to right, so its results repeat bit for bit from run to run
// and whatever the thread count, and may differ from serial's where a run or segment spans blocks.
// On cuda (decoupled-lookback) the same, the _async count in device memory; the offsets are checked on the
// device before any work, and the call waits for that check. Floats repeat bit for bit from run to run there
// too. The precompiled CUDA kernels take the values and operators of reduce and scan, and (by key) keys i32,
// u32, i64, u64; include <sluice/cuda.cuh> first (nvcc) for others. gl has none of these algorithms.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

#include "sluice/cpu/segmented_dispatch.hpp"
#include "sluice/detail/api.hpp"
#include "sluice/runs.hpp"

namespace sluice {

namespace detail {
template <class K, class V, class Op>
void reduce_by_key_run(const char* fn, std::span<const K> keys, std::span<const V> values, std::span<K> out_keys, std::span<V> out_values,
                       std::uint64_t* count, Op op, const options& opt) {
  const auto& algo = prepare(fn, primitive::reduce_by_key, opt, std::pair{"keys", keys}, std::pair{"values", values},
                             std::pair{"out_keys", out_keys}, std::pair{"out_values", out_values});
  const bool in_place_ok = opt.device != device::cuda;  // on cuda a tile writes while later tiles still read
  check_same_size(fn, "values", values.size(), "keys", keys.size());
  check_same_size(fn, "out_values", out_values.size(), "out_keys", out_keys.size());
  check_overlap(fn, "keys", keys, "out_keys", out_keys, in_place_ok);
  check_overlap(fn, "values", values, "out_values", out_values, in_place_ok);
  check_disjoint(fn, "keys", keys, "out_values", out_values);
  check_disjoint(fn, "values", values, "out_keys", out_keys);
  check_disjoint(fn, "out_keys", out_keys, "out_values", out_values);
  check_count(fn, count, opt);
  if (opt.device == device::cpu) {
    *count = cpu::reduce_by_key(algo, spec_of(algo, opt), keys, values, out_keys, out_values, op, fn);
    return;
  }
  if constexpr (config::has_cuda) {
    if constexpr (cuda_by_key_v<K, V, Op>)
      cuda_backend::reduce_by_key(spec_of(algo, opt), keys, values, out_keys, out_values, count, op, opt.stream);
    else
      no_cuda_kernels(fn, "key type, value type and operator");
  }
}

template <class K, class V, class Op>
void scan_by_key_run(const char* fn, std::span<const K> keys, std::span<const V> values, std::span<V> out, bool inclusive, V init, Op op,
                     const options& opt) {
  const auto& algo = prepare(fn, primitive::scan_by_key, opt, std::pair{"keys", keys}, std::pair{"values", values}, std::pair{"out", out});
  check_same_size(fn, "values", values.size(), "keys", keys.size());
  check_capacity(fn, "out", out.size(), values.size());
  check_overlap(fn, "values", values, "out", out, /*in_place_ok=*/true);
  check_disjoint(fn, "keys", keys, "out", out);
  if (opt.device == device::cpu) return cpu::scan_by_key(algo, spec_of(algo, opt), keys, values, out.first(values.size()), inclusive, init, op, fn);
  if constexpr (config::has_cuda) {
    if constexpr (cuda_by_key_v<K, V, Op>)
      cuda_backend::scan_by_key(spec_of(algo, opt), keys, values, out.first(values.size()), inclusive, init, op, opt.stream);
    else
      no_cuda_kernels(fn, "key type, value type and operator");
  }
}

template <class T, class Op>
void segmented_reduce_run(const char* fn, std::span<const T> values, std::span<const std::uint64_t> offsets, std::span<T> out, T init, Op op,
                          const options& opt) {
  const auto& algo = prepare(fn, primitive::segmented_reduce, opt, std::pair{"values", values}, std::pair{"offsets", offsets},
                             std::pair{"out", out});
  check_offsets(fn, offsets, values.size(), opt);
  check_capacity(fn, "out", out.size(), offsets.size() - 1);
  check_disjoint(fn, "values", values, "out", out);
  check_disjoint(fn, "offsets", offsets, "out", out);
  if (opt.device == device::cpu) return cpu::segmented_reduce(algo, spec_of(algo, opt), values, offsets, out.first(offsets.size() - 1), init, op, fn);
  if constexpr (config::has_cuda) {
    if constexpr (cuda_reduce_v<T, Op>)
      cuda_backend::segmented_reduce(spec_of(algo, opt), values, offsets, out.first(offsets.size() - 1), init, op, opt.stream);
    else
      no_cuda_kernels(fn, "element type and operator");
  }
}

template <class T, class Op>
void segmented_scan_run(const char* fn, std::span<const T> values, std::span<const std::uint64_t> offsets, std::span<T> out, bool inclusive,
                        T init, Op op, const options& opt) {
  const auto& algo = prepare(fn, primitive::segmented_scan, opt, std::pair{"values", values}, std::pair{"offsets", offsets},
                             std::pair{"out", out});
  check_offsets(fn, offsets, values.size(), opt);
  check_capacity(fn, "out", out.size(), values.size());
  check_overlap(fn, "values", values, "out", out, /*in_place_ok=*/true);
  check_disjoint(fn, "offsets", offsets, "out", out);
  if (opt.device == device::cpu) return cpu::segmented_scan(algo, spec_of(algo, opt), values, offsets, out.first(values.size()), inclusive, init, op, fn);
  if constexpr (config::has_cuda) {
    if constexpr (cuda_reduce_v<T, Op>)
      cuda_backend::segmented_scan(spec_of(algo, opt), values, offsets, out.first(values.size()), inclusive, init, op, opt.stream);
    else
      no_cuda_kernels(fn, "element type and operator");
  }
}

template <class Offsets>
constexpr void check_u64_offsets() {
  static_assert(std::is_same_v<element_t<Offsets>, std::uint64_t>, "sluice: offsets are std::uint64_t");
}
}  // namespace detail

// Each run of equal keys' first key to out_keys and the op-fold of its values, left to right, to out_values,
// in input order; return how many runs.
template <detail::span_like Keys, detail::span_like Values, detail::span_like OutKeys, detail::span_like OutValues, class Op = sum>
std::uint64_t reduce_by_key(const Keys& keys, const Values& values, OutKeys&& out_keys, OutValues&& out_values, Op op = {},
                            const options& opt = {}) {
  detail::check_same_element<Keys, OutKeys>();
  detail::check_same_element<Values, OutValues>();
  return detail::runs_counted("reduce_by_key", "out_keys", std::ranges::size(out_keys), opt, [&](std::uint64_t* c) {
    detail::reduce_by_key_run("reduce_by_key", detail::as_const_span(keys), detail::as_const_span(values), detail::as_span(out_keys),
                              detail::as_span(out_values), c, op, opt);
  });
}
template <detail::span_like Keys, detail::span_like Values, detail::span_like OutKeys, detail::span_like OutValues, class Op = sum>
void reduce_by_key_async(const Keys& keys, const Values& values, OutKeys&& out_keys, OutValues&& out_values, std::uint64_t* count, Op op = {},
                         const options& opt = {}) {
  detail::check_same_element<Keys, OutKeys>();
  detail::check_same_element<Values, OutValues>();
  detail::reduce_by_key_run("reduce_by_key_async", detail::as_const_span(keys), detail::as_const_span(values), detail::as_span(out_keys),
                            detail::as_span(out_values), count, op, opt);
}

// out[i] = values[h] op ... op values[i], h the head of i's run of equal keys, for i < values.size(). out may be values.
template <detail::span_like Keys, detail::span_like Values, detail::span_like Out, class Op = sum>
void inclusive_scan_by_key(const Keys& keys, const Values& values, Out&& out, Op op = {}, const options& opt = {}) {
  using V = detail::element_t<Values>;
  detail::check_same_element<Values, Out>();
  detail::scan_by_key_run("inclusive_scan_by_key", detail::as_const_span(keys), detail::as_const_span(values), detail::as_span(out), true,
                          V{}, op, opt);
}

// out[i] = init op values[h] op ... op values[i-1], h the head of i's run of equal keys (out[h] = init). out may be values.
template <detail::span_like Keys, detail::span_like Values, detail::span_like Out, class V = detail::element_t<Values>, class Op = sum>
void exclusive_scan_by_key(const Keys& keys, const Values& values, Out&& out, V init = V{}, Op op = {}, const options& opt = {}) {
  detail::check_same_element<Values, Out>();
  static_assert(std::is_same_v<V, detail::element_t<Values>>, "sluice::exclusive_scan_by_key: init must have the values' type");
  detail::scan_by_key_run("exclusive_scan_by_key", detail::as_const_span(keys), detail::as_const_span(values), detail::as_span(out), false,
                          init, op, opt);
}

// out[s] = init op values[offsets[s]] op ... op values[offsets[s+1]-1] (init for an empty segment), for the
// offsets.size() - 1 segments.
template <detail::span_like Values, detail::span_like Offsets, detail::span_like Out, class T = detail::element_t<Values>, class Op = sum>
void segmented_reduce(const Values& values, const Offsets& offsets, Out&& out, T init = T{}, Op op = {}, const options& opt = {}) {
  detail::check_u64_offsets<Offsets>();
  detail::check_same_element<Values, Out>();
  static_assert(std::is_same_v<T, detail::element_t<Values>>, "sluice::segmented_reduce: init must have the values' type");
  detail::segmented_reduce_run("segmented_reduce", detail::as_const_span(values), detail::as_const_span(offsets), detail::as_span(out), init,
                               op, opt);
}

// The inclusive scan of each segment into out at the same positions; out may be values.
template <detail::span_like Values, detail::span_like Offsets, detail::span_like Out, class Op = sum>
void segmented_inclusive_scan(const Values& values, const Offsets& offsets, Out&& out, Op op = {}, const options& opt = {}) {
  using T = detail::element_t<Values>;
  detail::check_u64_offsets<Offsets>();
  detail::check_same_element<Values, Out>();
  detail::segmented_scan_run("segmented_inclusive_scan", detail::as_const_span(values), detail::as_const_span(offsets), detail::as_span(out),
                             true, T{}, op, opt);
}

// The exclusive scan of each segment, each starting from init, into out at the same positions; out may be values.
template <detail::span_like Values, detail::span_like Offsets, detail::span_like Out, class T = detail::element_t<Values>, class Op = sum>
void segmented_exclusive_scan(const Values& values, const Offsets& offsets, Out&& out, T init = T{}, Op op = {}, const options& opt = {}) {
  detail::check_u64_offsets<Offsets>();
  detail::check_same_element<Values, Out>();
  static_assert(std::is_same_v<T, detail::element_t<Values>>, "sluice::segmented_exclusive_scan: init must have the values' type");
  detail::segmented_scan_run("segmented_exclusive_scan", detail::as_const_span(values), detail::as_const_span(offsets), detail::as_span(out),
                             false, init, op, opt);
}

}  // namespace sluice
