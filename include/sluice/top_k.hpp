// Top-k: the k largest (order::descending) or smallest (order::ascending) keys of in, and optionally their
// positions, as torch.topk and CUB's DeviceTopK give them.
//   Keys: u32, i32, f32, u64, i64, f64, compared by their order-preserving image as radix_sort compares them:
//   -0.0 < +0.0, and NaNs by their bits (a positive NaN above +inf, a negative one below -inf).
//   Ties: the lower position wins. Among equal keys (the same image) the selection takes the first in input
//   order, and sorted output lists them in input order. Every call, on any thread count, gives the same answer.
//   Output: output_order::sorted (the default) lists the k largest first for descending, the smallest first for
//   ascending; output_order::input lists them in input order (positions increasing).
//   Sizes: 0 <= k <= in.size() (k = 0 writes nothing); out.size() >= k and indices.size() >= k, indices of
//   std::uint64_t or std::int64_t. in may not overlap out or indices.
// CPU: radix-select (the default: an 8-bit histogram per digit narrows the k-th key, then one stable
// compaction pass and, for sorted output, a sort of the k) and serial (Hoare's selection, std::nth_element).
// CUDA: radix-select (11-bit digits chosen on the device, the same compaction and the onesweep sort of the k;
// stream ordered, no host sync). No gl algorithm: asking for it is an `unsupported` error.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

#include "sluice/cpu/backend.hpp"
#include "sluice/cpu/radix_select.hpp"
#include "sluice/detail/api.hpp"

namespace sluice {

// How top_k lists what it selected.
enum class output_order { sorted, input };

namespace detail {
template <class K, class I>
void top_k_run(const char* fn, std::span<const K> in, std::uint64_t k, std::span<K> out, std::span<I> indices, order ord, output_order arrange,
               const options& opt) {
  static_assert(std::is_arithmetic_v<K> && (sizeof(K) == 4 || sizeof(K) == 8), "sluice::top_k: keys are u32, i32, f32, u64, i64 or f64");
  static_assert(std::is_same_v<I, std::nullptr_t> || std::is_same_v<I, std::uint64_t> || std::is_same_v<I, std::int64_t>,
                "sluice::top_k: indices are std::uint64_t or std::int64_t");
  constexpr bool with_indices = !std::is_same_v<I, std::nullptr_t>;
  const algorithm_info* algo = nullptr;
  if constexpr (with_indices) algo = &prepare(fn, primitive::top_k, opt, std::pair{"in", in}, std::pair{"out", out}, std::pair{"indices", indices});
  else algo = &prepare(fn, primitive::top_k, opt, std::pair{"in", in}, std::pair{"out", out});
  if (k > in.size())
    throw error(errc::invalid_argument, arg_error(fn, "k", "is " + std::to_string(k) + " but in holds " + std::to_string(in.size()) + " elements"));
  check_capacity(fn, "out", out.size(), k);
  check_overlap(fn, "in", in, "out", out, /*in_place_ok=*/false);
  if constexpr (with_indices) {
    check_capacity(fn, "indices", indices.size(), k);
    check_disjoint(fn, "in", in, "indices", indices);
    check_disjoint(fn, "out", out, "indices", indices);
  }
  if (k == 0) return;
  const bool largest = ord == order::descending, sorted = arrange == output_order::sorted;
  using Idx = std::conditional_t<with_indices, I, std::uint64_t>;
  const std::span<Idx> idx = [&] {
    if constexpr (with_indices) return indices;
    else return std::span<Idx>{};
  }();
  if (opt.device == device::cuda) {
    if constexpr (config::has_cuda)
      cuda_backend::top_k(spec_of(*algo, opt), in, k, out.data(), with_indices ? reinterpret_cast<std::uint64_t*>(idx.data()) : nullptr, largest, sorted,
                          opt.stream);
    return;
  }
  if (algo->name == "serial") return cpu::top_k_serial(in, k, out, idx, largest, sorted);
  const auto p = cpu_backend::make_plan(spec_of(*algo, opt), fn);
  cpu::top_k_radix_select(p.threads, in, k, out, idx, largest, sorted);
}
}  // namespace detail

// The k largest (descending) or smallest (ascending) keys of in into out[0, k).
template <detail::span_like In, detail::span_like Out>
void top_k(const In& in, std::uint64_t k, Out&& out, order ord = order::descending, output_order arrange = output_order::sorted,
           const options& opt = {}) {
  detail::top_k_run("top_k", detail::as_const_span(in), k, detail::as_span(out), std::span<std::nullptr_t>{}, ord, arrange, opt);
}
// As top_k, and the position in in of each key into indices[0, k).
template <detail::span_like In, detail::span_like Out, detail::span_like Indices>
void top_k(const In& in, std::uint64_t k, Out&& out, Indices&& indices, order ord = order::descending, output_order arrange = output_order::sorted,
           const options& opt = {}) {
  detail::top_k_run("top_k", detail::as_const_span(in), k, detail::as_span(out), detail::as_span(indices), ord, arrange, opt);
}

}  // namespace sluice
