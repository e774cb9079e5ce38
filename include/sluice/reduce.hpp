// reduce: one value from a stream.
#pragma once
#include "sluice/cpu/dispatch.hpp"
#include "sluice/detail/api.hpp"
#include "sluice/gl/dispatch.hpp"

namespace sluice {

// Return init op in[0] op in[1] op ... op in[n-1]. The GPU may associate differently (floating point: see docs/guide/api.md).
template <detail::span_like In, class T = detail::element_t<In>, class Op = sum>
T reduce(const In& in, T init = T{}, Op op = {}, const options& opt = {});

namespace detail {
template <class In, class T, class Op>
void reduce_run(const char* fn, const In& in, T* result, T init, Op op, const options& opt) {
  static_assert(std::is_same_v<T, element_t<In>>, "sluice::reduce: init must have the element type");
  const auto s = as_const_span(in);
  const auto& algo = prepare(fn, primitive::reduce, opt, std::pair{"in", s});
  if (result == nullptr) throw error(errc::invalid_argument, arg_error(fn, "result", "is null"));
  if (opt.device == device::cpu) {
    *result = cpu::reduce(algo, ::sluice::detail::spec_of(algo, opt), s, init, op, fn);
    return;
  }
  if (opt.device == device::gl) {
    *result = gl_reduce(::sluice::detail::spec_of(algo, opt), s, init, op, fn);
    return;
  }
  if constexpr (config::has_cuda) {
    cuda_backend::check_device_pointer(fn, "result", result);
    if constexpr (cuda_reduce_v<T, Op>) cuda_backend::reduce<T, Op>(::sluice::detail::spec_of(algo, opt), s, result, init, op, opt.stream);
    else no_cuda_kernels(fn, "element type and operator");
  }
}
}  // namespace detail

// The same, with the result written to *result (device memory on cuda, host memory on cpu and gl); on cuda it
// runs in stream order and never syncs the host.
template <detail::span_like In, class T = detail::element_t<In>, class Op = sum>
void reduce_async(const In& in, T* result, T init = T{}, Op op = {}, const options& opt = {}) {
  detail::reduce_run("reduce_async", in, result, init, op, opt);
}

template <detail::span_like In, class T, class Op>
T reduce(const In& in, T init, Op op, const options& opt) {
  if (opt.device != device::cuda) {  // host memory
    T r;
    detail::reduce_run("reduce", in, &r, init, op, opt);
    return r;
  }
  const auto s = detail::as_const_span(in);
  const auto& algo = detail::prepare("reduce", primitive::reduce, opt, std::pair{"in", s});
  if constexpr (config::has_cuda && detail::cuda_reduce_v<T, Op> && sizeof(T) <= cuda_backend::host_slot_bytes) {
    // The default's kernels store the result once, plainly, last: into a mapped host slot, with no copy (10.6-15 us
    // a call where copying took 16-25, measured on an H100, 2026-11), read as soon as it lands there where it is one
    // store of at most 8 bytes (0.57-0.66x CUB's time at 2^16 where waiting for the stream took 0.65-0.69x, measured
    // on an H200, 2026-11), else once the stream is done.
    if (algo.name == "vectorized")
      if (const auto r = cuda_backend::through_host_slot<T, sizeof(T) <= 8 ? cuda_backend::watch::always : cuda_backend::watch::none>(opt.stream, "reduce", [&](T* slot) {
            cuda_backend::reduce<T, Op>(::sluice::detail::spec_of(algo, opt), s, slot, init, op, opt.stream);
          }))
        return *r;
  }
  cuda_backend::scratch result(sizeof(T), opt.stream, "reduce");
  detail::reduce_run("reduce", in, result.as<T>(), init, op, opt);
  T host;
  cuda_backend::copy_to_host(&host, result.as<T>(), sizeof host, opt.stream, "reduce");
  return host;
}

}  // namespace sluice
