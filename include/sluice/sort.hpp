// Radix sort, in place and stable, of u32, i32, f32, u64, i64 and f64 keys, optionally carrying values.
#pragma once
#include "sluice/cpu/dispatch.hpp"
#include "sluice/detail/api.hpp"

namespace sluice {

namespace detail {
template <class K, class V>
void radix_sort_run(const char* fn, std::span<K> keys, std::span<V> values, order ord, bit_range bits, const options& opt) {
  static_assert(std::is_arithmetic_v<K> && (sizeof(K) == 4 || sizeof(K) == 8),
                "sluice::radix_sort: keys are u32, i32, f32, u64, i64 or f64");
  constexpr int width = sizeof(K) * 8;
  const int end = bits.end == -1 ? width : bits.end;  // -1, and no other negative end, is the key's width
  if (bits.begin < 0 || end < 0 || end > width || bits.begin > end)
    throw error(errc::invalid_argument, arg_error(fn, "bits", "is [" + std::to_string(bits.begin) + ", " + std::to_string(bits.end) +
                                                          ") but the key has " + std::to_string(width) + " bits" +
                                                          (bits.end < -1 ? " (only an end of -1 means the key's width)" : "")));
  const bool desc = ord == order::descending;
  if constexpr (std::is_same_v<V, std::nullptr_t>) {
    const auto& algo = prepare(fn, primitive::radix_sort, opt, std::pair{"keys", keys});
    if (opt.device == device::cpu) return cpu::radix_sort(algo, ::sluice::detail::spec_of(algo, opt), keys, values, desc, bits.begin, end, fn);
    if constexpr (config::has_cuda) cuda_backend::radix_sort(::sluice::detail::spec_of(algo, opt), keys, values, desc, bits.begin, end, opt.stream);
  } else {
    const auto& algo = prepare(fn, primitive::radix_sort, opt, std::pair{"keys", keys}, std::pair{"values", values});
    check_same_size(fn, "values", values.size(), "keys", keys.size());
    check_overlap(fn, "keys", keys, "values", values, false);
    if (opt.device == device::cpu) return cpu::radix_sort(algo, ::sluice::detail::spec_of(algo, opt), keys, values, desc, bits.begin, end, fn);
    if constexpr (config::has_cuda) {
      require_precompiled_storage<V>(fn);
      if constexpr (precompiled_storage_v<sizeof(V), alignof(V)>)
        cuda_backend::radix_sort(::sluice::detail::spec_of(algo, opt), keys, as_storage(values), desc, bits.begin, end, opt.stream);
    }
  }
}
}  // namespace detail

// Sort keys in place, stably, by the order-preserving image of the key restricted to bits [begin, end).
template <detail::span_like Keys>
void radix_sort(Keys&& keys, order ord = order::ascending, bit_range bits = {}, const options& opt = {}) {
  detail::radix_sort_run("radix_sort", detail::as_span(keys), std::span<std::nullptr_t>{}, ord, bits, opt);
}

// Sort keys in place and apply the same permutation to values (values.size() == keys.size()).
template <detail::span_like Keys, detail::span_like Values>
void radix_sort(Keys&& keys, Values&& values, order ord = order::ascending, bit_range bits = {}, const options& opt = {}) {
  static_assert(detail::movable_element_v<detail::element_t<Values>>, "sluice::radix_sort: values must be trivially copyable, of 1, 2, 4, 8 or 16 bytes");
  detail::radix_sort_run("radix_sort", detail::as_span(keys), detail::as_span(values), ord, bits, opt);
}

}  // namespace sluice
