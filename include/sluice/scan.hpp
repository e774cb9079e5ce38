// Prefix sums (scans) under any associative operator. On the GPU they are stream ordered: no host sync.
#pragma once
#include "sluice/cpu/dispatch.hpp"
#include "sluice/detail/api.hpp"

namespace sluice {

namespace detail {
template <class In, class Out, class T, class Op>
void scan(const char* fn, const In& in, Out&& out, bool inclusive, T init, Op op, const options& opt) {
  const auto si = as_const_span(in);
  const auto so = as_span(out);
  static_assert(std::is_same_v<typename decltype(so)::element_type, T>, "sluice: scan output must have the input's element type");
  const auto& algo = prepare(fn, primitive::scan, opt, std::pair{"in", si}, std::pair{"out", so});
  check_capacity(fn, "out", so.size(), si.size());
  check_overlap(fn, "in", si, "out", so, /*in_place_ok=*/true);
  if (opt.device == device::cpu) return cpu::scan(algo, ::sluice::detail::spec_of(algo, opt), si, so.first(si.size()), inclusive, init, op, fn);
  if constexpr (config::has_cuda) {
    if constexpr (cuda_reduce_v<T, Op>) cuda_backend::scan<T, Op>(::sluice::detail::spec_of(algo, opt), si, so.first(si.size()), inclusive, init, op, opt.stream);
    else no_cuda_kernels(fn, "element type and operator");
  }
}
}  // namespace detail

// out[i] = in[0] op ... op in[i] for i < in.size(). out may be in (in place).
template <detail::span_like In, class Out, class Op = sum>
void inclusive_scan(const In& in, Out&& out, Op op = {}, const options& opt = {}) {
  using T = detail::element_t<In>;
  detail::scan("inclusive_scan", in, out, true, T{}, op, opt);
}

// out[i] = init op in[0] op ... op in[i-1] for i < in.size(). out may be in (in place).
template <detail::span_like In, class Out, class T = detail::element_t<In>, class Op = sum>
void exclusive_scan(const In& in, Out&& out, T init = T{}, Op op = {}, const options& opt = {}) {
  detail::scan("exclusive_scan", in, out, false, init, op, opt);
}

}  // namespace sluice
