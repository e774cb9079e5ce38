// What every public function shares: ranges in, spans inside, device checks before any work.
#pragma once
#define SLUICE_API_INCLUDED 1
#include <concepts>
#include <cstdint>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <type_traits>

#include "sluice/algorithms.hpp"
#include "sluice/config.hpp"
#include "sluice/cuda/backend.hpp"
#include "sluice/gl/backend.hpp"
#include "sluice/detail/checks.hpp"
#include "sluice/detail/instantiations.hpp"
#include "sluice/error.hpp"
#include "sluice/options.hpp"
#include "sluice/types.hpp"

namespace sluice::detail {

// Any contiguous sized range: std::vector, std::array, std::span, sluice::device_buffer, ...
template <class R>
concept span_like = std::ranges::contiguous_range<R> && std::ranges::sized_range<R>;

template <class R>
using element_t = std::remove_cv_t<std::ranges::range_value_t<R>>;

template <span_like R>
auto as_const_span(const R& r) {
  return std::span<const element_t<R>>(std::ranges::data(r), std::ranges::size(r));
}
template <span_like R>
auto as_span(R&& r) {
  using E = std::remove_reference_t<decltype(*std::ranges::data(r))>;
  static_assert(!std::is_const_v<E>, "sluice: an output range must be writable");
  return std::span<E>(std::ranges::data(r), std::ranges::size(r));
}

// Resolve the algorithm and, on CUDA, check the build, the device and that every pointer is device memory.
template <class... Spans>
const algorithm_info& prepare(const char* fn, primitive prim, const options& opt, std::pair<const char*, Spans>... spans) {
  (check_span(fn, spans.first, spans.second), ...);
  if (opt.device == device::cuda) {
    if constexpr (!config::has_cuda) {
      throw error(errc::no_device, std::string("sluice::") + fn + ": the cuda device was asked for, but this sluice was built without CUDA");
    } else {
      cuda_backend::require_device(fn);
      (cuda_backend::check_device_pointer(fn, spans.first, spans.second.data()), ...);
    }
  } else if (opt.device == device::gl) {
    gl_backend::require_device(fn);
  }
  return find_algorithm(prim, opt.device, opt.algorithm, fn);
}

// What the backend receives: the registry name, or the caller's "name:key=value,..." when it has parameters.
inline std::string_view spec_of(const algorithm_info& a, const options& opt) noexcept {
  return base_name(opt.algorithm).size() != opt.algorithm.size() ? opt.algorithm : a.name;
}

// Flagged data movement runs on storage words in the precompiled CUDA library.
template <class T>
void require_precompiled_storage(const char* fn) {
  if constexpr (!precompiled_storage_v<sizeof(T), alignof(T)>)
    throw error(errc::unsupported, std::string("sluice::") + fn + ": the CUDA library has no kernels for elements of " +
                                       std::to_string(sizeof(T)) + " bytes aligned to " + std::to_string(alignof(T)));
}

[[noreturn]] inline void no_cuda_kernels(const char* fn, const char* what) {
  throw error(errc::unsupported, std::string("sluice::") + fn + ": this " + what +
                                     " has no CUDA kernels in the precompiled library; compile the caller with nvcc and "
                                     "include <sluice/cuda.cuh> before any other sluice header");
}

// counted()'s `direct` for a call on `in`: prim where in has elements, else none.
template <class In>
std::optional<primitive> direct_if_any(const In& in, primitive prim) {
  return std::ranges::size(in) > 0 ? std::optional<primitive>{prim} : std::nullopt;
}

// The synchronous form of a counted call: run(count) writes the count (host memory on cpu and gl; on CUDA a
// scratch word in device memory, brought back with one stream sync). direct: the call's primitive, given only
// for a non-empty input (direct_if_any). Where a compact, partition or partition_unordered call resolves to
// `decoupled-lookback`, whose kernels only store the count, once and plainly (no atomics on it, no zeroing memset,
// which an empty input takes; the stable partition's pipelined pass, whose reversal reads it back, keeps it in
// device memory and copies it into the slot), the count goes straight into a mapped host slot
// (cuda_backend::through_host_slot: no copy after the kernel, measured on an H100 and an H200, 2026-11; see
// docs/design/sync.md), read as soon as it lands where the call's path stores it last (watch::where_permitted: the
// look-back's single grid; 0.3-4.2 us less a call on an H200, 2026-11).
template <class F>
std::uint64_t counted(const char* fn, const options& opt, F&& run, std::optional<primitive> direct = std::nullopt) {
  std::uint64_t host = 0;
  if (opt.device != device::cuda) {  // host memory
    run(&host);
    return host;
  }
  if constexpr (config::has_cuda)
    if (direct && (*direct == primitive::compact || *direct == primitive::partition || *direct == primitive::partition_unordered) &&
        find_algorithm(*direct, device::cuda, opt.algorithm, fn).name == "decoupled-lookback")
      if (const auto c = cuda_backend::through_host_slot<std::uint64_t, cuda_backend::watch::where_permitted>(opt.stream, fn, run)) return *c;
  cuda_backend::scratch count(sizeof(std::uint64_t), opt.stream, fn);
  run(count.as<std::uint64_t>());
  cuda_backend::copy_to_host(&host, count.as<std::uint64_t>(), sizeof host, opt.stream, fn);
  return host;
}

}  // namespace sluice::detail
