// Stream compaction: keep the selected elements, drop the rest.
// Every form writes at most out.size() elements. The synchronous forms throw invalid_argument when more are
// selected than out holds (out then holds the first out.size() of them); the _async forms write the full
// count to *count (device memory on cuda) and never sync the host, so the caller compares it with out.size().
#pragma once
#include "sluice/cpu/dispatch.hpp"
#include "sluice/detail/api.hpp"
#include "sluice/detail/select.hpp"
#include "sluice/gl/dispatch.hpp"

namespace sluice {

namespace detail {
// The one path of every compaction: checks, then the backend writes *count.
template <class T, class Sel, class... Extra>
void compact_run(const char* fn, primitive prim, std::span<const T> in, std::span<T> out, Sel sel,
                 std::uint64_t* count, const options& opt, Extra... extra) {
  const auto& algo = prepare(fn, prim, opt, std::pair{"in", in}, std::pair{"out", out}, extra...);
  check_overlap(fn, "in", in, "out", out, /*in_place_ok=*/opt.device != device::cuda);
  (check_disjoint(fn, extra.first, extra.second, "out", out), ...);  // the flags
  if (count == nullptr) throw error(errc::invalid_argument, arg_error(fn, "count", "is null"));
  if (opt.device == device::cpu) {
    *count = cpu::compact(algo, ::sluice::detail::spec_of(algo, opt), in, out, sel, fn);
    return;
  }
  if (opt.device == device::gl) {
    *count = gl_compact(::sluice::detail::spec_of(algo, opt), prim == primitive::compact_unordered, in, out, sel, fn);
    return;
  }
  if constexpr (config::has_cuda) {
    cuda_backend::check_device_pointer(fn, "count", count);
    if constexpr (std::is_same_v<Sel, flag_select>) {  // flags: bits only move, on storage words
      require_precompiled_storage<T>(fn);
      if constexpr (precompiled_storage_v<sizeof(T), alignof(T)>)
        cuda_backend::compact(::sluice::detail::spec_of(algo, opt), as_storage(in), as_storage(out), sel, count, opt.stream);
    } else if constexpr (cuda_predicate_v<T, decltype(sel.pred)>) {
      cuda_backend::compact(::sluice::detail::spec_of(algo, opt), in, out, sel, count, opt.stream);
    } else {
      no_cuda_kernels(fn, "element type and predicate");
    }
  }
}

template <class F>
std::uint64_t run_counted(const char* fn, std::uint64_t capacity, const options& opt, F&& run, std::optional<primitive> direct = std::nullopt) {
  const std::uint64_t n = counted(fn, opt, run, direct);
  if (n > capacity)
    throw error(errc::invalid_argument, arg_error(fn, "out", "holds " + std::to_string(capacity) + " elements but " +
                                                            std::to_string(n) + " were selected"));
  return n;
}

template <class In, class Flags, class Out>
void compact_flagged(const char* fn, primitive prim, const In& in, const Flags& flags, Out&& out, std::uint64_t* count,
                     const options& opt) {
  const auto si = as_const_span(in);
  const auto sf = as_const_span(flags);
  static_assert(std::is_same_v<element_t<Flags>, std::uint8_t>, "sluice: flags are bytes (std::uint8_t)");
  check_same_size(fn, "flags", sf.size(), "in", si.size());
  compact_run(fn, prim, si, as_span(out), flag_select{sf.data()}, count, opt, std::pair{"flags", sf});
}
}  // namespace detail

// Copy the elements whose flag byte is non-zero to the front of out, in input order; return how many.
template <detail::span_like In, detail::span_like Flags, class Out>
std::uint64_t compact(const In& in, const Flags& flags, Out&& out, const options& opt = {}) {
  return detail::run_counted(
      "compact", std::ranges::size(out), opt, [&](std::uint64_t* c) { detail::compact_flagged("compact", primitive::compact, in, flags, out, c, opt); },
      detail::direct_if_any(in, primitive::compact));
}
template <detail::span_like In, detail::span_like Flags, class Out>
void compact_async(const In& in, const Flags& flags, Out&& out, std::uint64_t* count, const options& opt = {}) {
  detail::compact_flagged("compact_async", primitive::compact, in, flags, out, count, opt);
}

// Copy the elements x with pred(x) true to the front of out, in input order; return how many.
template <detail::span_like In, class Out, class Pred>
std::uint64_t compact_if(const In& in, Out&& out, Pred pred, const options& opt = {}) {
  return detail::run_counted(
      "compact_if", std::ranges::size(out), opt,
      [&](std::uint64_t* c) {
        detail::compact_run("compact_if", primitive::compact, detail::as_const_span(in), detail::as_span(out),
                            detail::pred_select<Pred>{pred}, c, opt);
      },
      detail::direct_if_any(in, primitive::compact));
}
template <detail::span_like In, class Out, class Pred>
void compact_if_async(const In& in, Out&& out, Pred pred, std::uint64_t* count, const options& opt = {}) {
  detail::compact_run("compact_if_async", primitive::compact, detail::as_const_span(in), detail::as_span(out),
                      detail::pred_select<Pred>{pred}, count, opt);
}

// As compact, but the kept elements may land in any order (the same set, possibly faster).
template <detail::span_like In, detail::span_like Flags, class Out>
std::uint64_t compact_unordered(const In& in, const Flags& flags, Out&& out, const options& opt = {}) {
  return detail::run_counted("compact_unordered", std::ranges::size(out), opt, [&](std::uint64_t* c) {
    detail::compact_flagged("compact_unordered", primitive::compact_unordered, in, flags, out, c, opt);
  });
}
template <detail::span_like In, detail::span_like Flags, class Out>
void compact_unordered_async(const In& in, const Flags& flags, Out&& out, std::uint64_t* count, const options& opt = {}) {
  detail::compact_flagged("compact_unordered_async", primitive::compact_unordered, in, flags, out, count, opt);
}
template <detail::span_like In, class Out, class Pred>
std::uint64_t compact_unordered_if(const In& in, Out&& out, Pred pred, const options& opt = {}) {
  return detail::run_counted("compact_unordered_if", std::ranges::size(out), opt, [&](std::uint64_t* c) {
    detail::compact_run("compact_unordered_if", primitive::compact_unordered, detail::as_const_span(in),
                        detail::as_span(out), detail::pred_select<Pred>{pred}, c, opt);
  });
}
template <detail::span_like In, class Out, class Pred>
void compact_unordered_if_async(const In& in, Out&& out, Pred pred, std::uint64_t* count, const options& opt = {}) {
  detail::compact_run("compact_unordered_if_async", primitive::compact_unordered, detail::as_const_span(in), detail::as_span(out),
                      detail::pred_select<Pred>{pred}, count, opt);
}

}  // namespace sluice
