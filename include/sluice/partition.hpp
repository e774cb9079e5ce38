// Stream split (stable partition): kept elements first in input order, then the rejected ones in input order.
#pragma once
#include "sluice/cpu/dispatch.hpp"
#include "sluice/detail/api.hpp"
#include "sluice/detail/select.hpp"

namespace sluice {

namespace detail {
template <class T, class Sel, class... Extra>
void partition_run(const char* fn, std::span<const T> in, std::span<T> out, Sel sel, std::uint64_t* count,
                   const options& opt, Extra... extra) {
  const auto& algo = prepare(fn, primitive::partition, opt, std::pair{"in", in}, std::pair{"out", out}, extra...);
  check_capacity(fn, "out", out.size(), in.size());
  check_overlap(fn, "in", in, "out", out, /*in_place_ok=*/false);
  if (count == nullptr) throw error(errc::invalid_argument, arg_error(fn, "count", "is null"));
  out = out.first(in.size());
  if (opt.device == device::cpu) {
    *count = cpu::partition(algo, ::sluice::detail::spec_of(algo, opt), in, out, sel, fn);
    return;
  }
  if constexpr (config::has_cuda) {
    cuda_backend::check_device_pointer(fn, "count", count);
    if constexpr (std::is_same_v<Sel, flag_select>) {  // flags: bits only move, on storage words
      require_precompiled_storage<T>(fn);
      if constexpr (precompiled_storage_v<sizeof(T), alignof(T)>)
        cuda_backend::partition(::sluice::detail::spec_of(algo, opt), as_storage(in), as_storage(out), sel, count, opt.stream);
    } else if constexpr (cuda_predicate_v<T, decltype(sel.pred)>) {
      cuda_backend::partition(::sluice::detail::spec_of(algo, opt), in, out, sel, count, opt.stream);
    } else {
      no_cuda_kernels(fn, "element type and predicate");
    }
  }
}

template <class In, class Flags, class Out>
void partition_flagged_run(const char* fn, const In& in, const Flags& flags, Out&& out, std::uint64_t* count,
                           const options& opt) {
  const auto si = as_const_span(in);
  const auto sf = as_const_span(flags);
  static_assert(std::is_same_v<element_t<Flags>, std::uint8_t>, "sluice: flags are bytes (std::uint8_t)");
  check_same_size(fn, "flags", sf.size(), "in", si.size());
  partition_run(fn, si, as_span(out), flag_select{sf.data()}, count, opt, std::pair{"flags", sf});
}
}  // namespace detail

// Split in into out (out.size() >= in.size()): pred(x) true first, then false; return the split point.
template <detail::span_like In, class Out, class Pred>
std::uint64_t partition(const In& in, Out&& out, Pred pred, const options& opt = {}) {
  return detail::counted("partition", opt, [&](std::uint64_t* c) {
    detail::partition_run("partition", detail::as_const_span(in), detail::as_span(out), detail::pred_select<Pred>{pred}, c, opt);
  });
}
template <detail::span_like In, class Out, class Pred>
void partition_async(const In& in, Out&& out, Pred pred, std::uint64_t* count, const options& opt = {}) {
  detail::partition_run("partition_async", detail::as_const_span(in), detail::as_span(out),
                        detail::pred_select<Pred>{pred}, count, opt);
}

// The same split by flag bytes (non-zero first).
template <detail::span_like In, detail::span_like Flags, class Out>
std::uint64_t partition_flagged(const In& in, const Flags& flags, Out&& out, const options& opt = {}) {
  return detail::counted("partition_flagged", opt, [&](std::uint64_t* c) {
    detail::partition_flagged_run("partition_flagged", in, flags, out, c, opt);
  });
}
template <detail::span_like In, detail::span_like Flags, class Out>
void partition_flagged_async(const In& in, const Flags& flags, Out&& out, std::uint64_t* count, const options& opt = {}) {
  detail::partition_flagged_run("partition_flagged_async", in, flags, out, count, opt);
}

}  // namespace sluice
