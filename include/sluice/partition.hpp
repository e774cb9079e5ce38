// Stream split (stable partition): kept elements first in input order, then the rejected ones in input order.
// partition_unordered: the kept elements first in input order, then the rejected ones in an order not promised
// (on CUDA by predicate in one pass over the input; docs/guide/api.md says which order each backend writes).
#pragma once
#include "sluice/cpu/dispatch.hpp"
#include "sluice/detail/api.hpp"
#include "sluice/detail/select.hpp"

namespace sluice {

namespace detail {
template <class T, class Sel, class... Extra>
void partition_run(const char* fn, primitive prim, std::span<const T> in, std::span<T> out, Sel sel, std::uint64_t* count,
                   const options& opt, Extra... extra) {
  const auto& algo = prepare(fn, prim, opt, std::pair{"in", in}, std::pair{"out", out}, extra...);
  [[maybe_unused]] const bool unordered = prim == primitive::partition_unordered;
  check_capacity(fn, "out", out.size(), in.size());
  check_overlap(fn, "in", in, "out", out, /*in_place_ok=*/false);
  (check_disjoint(fn, extra.first, extra.second, "out", out), ...);  // the flags
  if (count == nullptr) throw error(errc::invalid_argument, arg_error(fn, "count", "is null"));
  out = out.first(in.size());
  if (opt.device == device::cpu) {
    *count = cpu::partition(algo, ::sluice::detail::spec_of(algo, opt), in, out, sel, fn, unordered);
    return;
  }
  if constexpr (config::has_cuda) {
    cuda_backend::check_device_pointer(fn, "count", count);
    if constexpr (std::is_same_v<Sel, flag_select>) {  // flags: bits only move, on storage words
      require_precompiled_storage<T>(fn);
      if constexpr (precompiled_storage_v<sizeof(T), alignof(T)>) {
        if (unordered)
          cuda_backend::partition_unordered(::sluice::detail::spec_of(algo, opt), as_storage(in), as_storage(out), sel, count, opt.stream);
        else
          cuda_backend::partition(::sluice::detail::spec_of(algo, opt), as_storage(in), as_storage(out), sel, count, opt.stream);
      }
    } else if constexpr (cuda_predicate_v<T, decltype(sel.pred)>) {
      if (unordered)
        cuda_backend::partition_unordered(::sluice::detail::spec_of(algo, opt), in, out, sel, count, opt.stream);
      else
        cuda_backend::partition(::sluice::detail::spec_of(algo, opt), in, out, sel, count, opt.stream);
    } else {
      no_cuda_kernels(fn, "element type and predicate");
    }
  }
}

template <class In, class Flags, class Out>
void partition_flagged_run(const char* fn, primitive prim, const In& in, const Flags& flags, Out&& out, std::uint64_t* count,
                           const options& opt) {
  const auto si = as_const_span(in);
  const auto sf = as_const_span(flags);
  static_assert(std::is_same_v<element_t<Flags>, std::uint8_t>, "sluice: flags are bytes (std::uint8_t)");
  check_same_size(fn, "flags", sf.size(), "in", si.size());
  partition_run(fn, prim, si, as_span(out), flag_select{sf.data()}, count, opt, std::pair{"flags", sf});
}
}  // namespace detail

// Split in into out (out.size() >= in.size()): pred(x) true first, then false; return the split point.
template <detail::span_like In, class Out, class Pred>
std::uint64_t partition(const In& in, Out&& out, Pred pred, const options& opt = {}) {
  return detail::counted(
      "partition", opt,
      [&](std::uint64_t* c) {
        detail::partition_run("partition", primitive::partition, detail::as_const_span(in), detail::as_span(out), detail::pred_select<Pred>{pred}, c, opt);
      },
      detail::direct_if_any(in, primitive::partition));
}
template <detail::span_like In, class Out, class Pred>
void partition_async(const In& in, Out&& out, Pred pred, std::uint64_t* count, const options& opt = {}) {
  detail::partition_run("partition_async", primitive::partition, detail::as_const_span(in), detail::as_span(out),
                        detail::pred_select<Pred>{pred}, count, opt);
}

// The same split by flag bytes (non-zero first).
template <detail::span_like In, detail::span_like Flags, class Out>
std::uint64_t partition_flagged(const In& in, const Flags& flags, Out&& out, const options& opt = {}) {
  return detail::counted(
      "partition_flagged", opt,
      [&](std::uint64_t* c) { detail::partition_flagged_run("partition_flagged", primitive::partition, in, flags, out, c, opt); },
      detail::direct_if_any(in, primitive::partition));
}
template <detail::span_like In, detail::span_like Flags, class Out>
void partition_flagged_async(const In& in, const Flags& flags, Out&& out, std::uint64_t* count, const options& opt = {}) {
  detail::partition_flagged_run("partition_flagged_async", primitive::partition, in, flags, out, count, opt);
}

// As partition, but the rejected elements may land in any order after the kept ones (those keep input order):
// on CUDA one pass over the input, where the stable split by predicate reads it twice or moves the rejected
// run twice. Returns the split point.
template <detail::span_like In, class Out, class Pred>
std::uint64_t partition_unordered(const In& in, Out&& out, Pred pred, const options& opt = {}) {
  return detail::counted(
      "partition_unordered", opt,
      [&](std::uint64_t* c) {
        detail::partition_run("partition_unordered", primitive::partition_unordered, detail::as_const_span(in), detail::as_span(out),
                              detail::pred_select<Pred>{pred}, c, opt);
      },
      detail::direct_if_any(in, primitive::partition_unordered));
}
template <detail::span_like In, class Out, class Pred>
void partition_unordered_async(const In& in, Out&& out, Pred pred, std::uint64_t* count, const options& opt = {}) {
  detail::partition_run("partition_unordered_async", primitive::partition_unordered, detail::as_const_span(in), detail::as_span(out),
                        detail::pred_select<Pred>{pred}, count, opt);
}

// The same by flag bytes (non-zero first).
template <detail::span_like In, detail::span_like Flags, class Out>
std::uint64_t partition_unordered_flagged(const In& in, const Flags& flags, Out&& out, const options& opt = {}) {
  return detail::counted(
      "partition_unordered_flagged", opt,
      [&](std::uint64_t* c) { detail::partition_flagged_run("partition_unordered_flagged", primitive::partition_unordered, in, flags, out, c, opt); },
      detail::direct_if_any(in, primitive::partition_unordered));
}
template <detail::span_like In, detail::span_like Flags, class Out>
void partition_unordered_flagged_async(const In& in, const Flags& flags, Out&& out, std::uint64_t* count, const options& opt = {}) {
  detail::partition_flagged_run("partition_unordered_flagged_async", primitive::partition_unordered, in, flags, out, count, opt);
}

}  // namespace sluice
