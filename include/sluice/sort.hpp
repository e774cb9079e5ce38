// Radix sort, in place and stable, of u32, i32, f32, u64, i64 and f64 keys, optionally carrying values; and the
// segmented sort, which sorts each segment [offsets[s], offsets[s + 1]) of the keys on its own.
// Segmented: offsets holds n_segments + 1 std::uint64_t entries, non-decreasing, the last at most keys.size()
// (else invalid_argument before anything is written; on cuda the offsets are checked on the device and the call
// waits for that check). Keys outside every segment are left as they are.
#pragma once
#include "sluice/cpu/dispatch.hpp"
#include "sluice/cpu/segmented_sort.hpp"
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

template <class K, class V>
void segmented_radix_sort_run(const char* fn, std::span<K> keys, std::span<V> values, std::span<const std::uint64_t> offsets, order ord,
                              bit_range bits, const options& opt) {
  static_assert(std::is_arithmetic_v<K> && (sizeof(K) == 4 || sizeof(K) == 8),
                "sluice::segmented_radix_sort: keys are u32, i32, f32, u64, i64 or f64");
  constexpr bool with_values = !std::is_same_v<V, std::nullptr_t>;
  constexpr int width = sizeof(K) * 8;
  const int end = bits.end == -1 ? width : bits.end;
  if (bits.begin < 0 || end < 0 || end > width || bits.begin > end)
    throw error(errc::invalid_argument, arg_error(fn, "bits", "is [" + std::to_string(bits.begin) + ", " + std::to_string(bits.end) +
                                                          ") but the key has " + std::to_string(width) + " bits" +
                                                          (bits.end < -1 ? " (only an end of -1 means the key's width)" : "")));
  const algorithm_info* algo = nullptr;
  if constexpr (with_values) {
    algo = &prepare(fn, primitive::segmented_radix_sort, opt, std::pair{"keys", keys}, std::pair{"values", values}, std::pair{"offsets", offsets});
    check_same_size(fn, "values", values.size(), "keys", keys.size());
    check_overlap(fn, "keys", keys, "values", values, false);
    check_disjoint(fn, "offsets", offsets, "values", values);
  } else {
    algo = &prepare(fn, primitive::segmented_radix_sort, opt, std::pair{"keys", keys}, std::pair{"offsets", offsets});
  }
  check_disjoint(fn, "offsets", offsets, "keys", keys);
  check_offsets(fn, offsets, keys.size(), opt);
  const bool desc = ord == order::descending;
  if (opt.device == device::cpu) {
    if (cpu::is_serial(*algo)) return cpu::segmented_radix_sort_serial(keys, values, offsets, desc, bits.begin, end);
    const auto p = cpu_backend::make_plan(spec_of(*algo, opt), fn);
    return cpu::segmented_radix_sort_msd_lsd(p.threads, keys, values, offsets, desc, bits.begin, end);
  }
  if constexpr (config::has_cuda) {
    if constexpr (!with_values) {
      cuda_backend::segmented_radix_sort(spec_of(*algo, opt), keys, values, offsets, desc, bits.begin, end, opt.stream);
    } else {
      require_precompiled_storage<V>(fn);
      if constexpr (precompiled_storage_v<sizeof(V), alignof(V)>)
        cuda_backend::segmented_radix_sort(spec_of(*algo, opt), keys, as_storage(values), offsets, desc, bits.begin, end, opt.stream);
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

// Sort each segment [offsets[s], offsets[s + 1]) of keys in place, stably, on its own.
template <detail::span_like Keys, detail::span_like Offsets>
void segmented_radix_sort(Keys&& keys, const Offsets& offsets, order ord = order::ascending, bit_range bits = {}, const options& opt = {}) {
  static_assert(std::is_same_v<detail::element_t<Offsets>, std::uint64_t>, "sluice::segmented_radix_sort: offsets are std::uint64_t");
  detail::segmented_radix_sort_run("segmented_radix_sort", detail::as_span(keys), std::span<std::nullptr_t>{}, detail::as_const_span(offsets), ord,
                                   bits, opt);
}

// As above, applying each segment's permutation to the same segment of values (values.size() == keys.size()).
template <detail::span_like Keys, detail::span_like Values, detail::span_like Offsets>
void segmented_radix_sort(Keys&& keys, Values&& values, const Offsets& offsets, order ord = order::ascending, bit_range bits = {},
                          const options& opt = {}) {
  static_assert(std::is_same_v<detail::element_t<Offsets>, std::uint64_t>, "sluice::segmented_radix_sort: offsets are std::uint64_t");
  static_assert(detail::movable_element_v<detail::element_t<Values>>, "sluice::segmented_radix_sort: values must be trivially copyable, of 1, 2, 4, 8 or 16 bytes");
  detail::segmented_radix_sort_run("segmented_radix_sort", detail::as_span(keys), detail::as_span(values), detail::as_const_span(offsets), ord,
                                   bits, opt);
}

}  // namespace sluice
