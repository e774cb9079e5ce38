// How a CPU call runs: "serial" variants run their loop; the others (the defaults) make a plan (threads,
// SIMD level) and run the P x S algorithm, with the precompiled SIMD kernels for the listed element types,
// operators and predicates (src/cpu/instantiate.cpp), and the portable kernels on P threads for the rest.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

#include "sluice/algorithms.hpp"
#include "sluice/cpu/backend.hpp"
#include "sluice/cpu/billeter.hpp"
#include "sluice/cpu/billeter_scan.hpp"
#include "sluice/cpu/lsd_radix_sort.hpp"
#include "sluice/cpu/msd_radix_sort.hpp"
#include "sluice/cpu/serial.hpp"
#include "sluice/cpu/split.hpp"
#include "sluice/cpu/vectorized_reduce.hpp"
#include "sluice/cuda/backend.hpp"  // before the instantiation list, which names its templates
#include "sluice/detail/instantiations.hpp"
#include "sluice/detail/select.hpp"
#include "sluice/detail/storage.hpp"

namespace sluice::cpu_backend {
// The precompiled entry points (src/cpu/instantiate.cpp): the SIMD level of the plan, on its threads.
template <class T, class Op>
T reduce(const plan& p, std::span<const T> in, T init, Op op);
template <class T, class Op>
void scan(const plan& p, std::span<const T> in, std::span<T> out, bool inclusive, T init, Op op);
template <class T, class Sel>
std::uint64_t compact(const plan& p, std::span<const T> in, std::span<T> out, Sel sel);
template <class T, class Sel>
std::uint64_t partition(const plan& p, std::span<const T> in, std::span<T> out, Sel sel, bool unordered);
}  // namespace sluice::cpu_backend

namespace sluice::detail {
template <class T, class Op>
inline constexpr bool cpu_reduce_precompiled_v = numeric_v<T> && one_of_v<Op, sum, product, minimum, maximum>;
template <class T, class Sel>
inline constexpr bool cpu_select_precompiled_v =
    (std::is_same_v<Sel, flag_select> && one_of_v<T, storage<1, 1>, storage<2, 2>, storage<4, 4>, storage<8, 8>, storage<8, 4>,
                                                  storage<16, 16>, storage<16, 8>, storage<16, 4>>) ||
    ((numeric_v<T> || std::is_same_v<T, std::uint8_t>) && std::is_same_v<Sel, pred_select<threshold<T>>>);
}  // namespace sluice::detail

#if !defined(SLUICE_INSTANTIATING)
namespace sluice::cpu_backend {
#define SLUICE_CPU_EXTERN_OP(T, Op)                                                                            \
  extern template T reduce<T, Op>(const plan&, std::span<const T>, T, Op);                                     \
  extern template void scan<T, Op>(const plan&, std::span<const T>, std::span<T>, bool, T, Op);
#define SLUICE_CPU_EXTERN_OPS(T) SLUICE_OPS(SLUICE_CPU_EXTERN_OP, T)
SLUICE_NUMERIC_TYPES(SLUICE_CPU_EXTERN_OPS)
#define SLUICE_CPU_EXTERN_SEL(T, Sel)                                                                          \
  extern template std::uint64_t compact<T, Sel>(const plan&, std::span<const T>, std::span<T>, Sel);           \
  extern template std::uint64_t partition<T, Sel>(const plan&, std::span<const T>, std::span<T>, Sel, bool);
#define SLUICE_CPU_EXTERN_PRED(T) SLUICE_CPU_EXTERN_SEL(T, ::sluice::detail::pred_select<::sluice::threshold<T>>)
SLUICE_PREDICATE_TYPES(SLUICE_CPU_EXTERN_PRED)
#define SLUICE_CPU_EXTERN_STORAGE(S, A)                                                                        \
  extern template std::uint64_t compact<::sluice::detail::storage<S, A>, ::sluice::detail::flag_select>(         \
      const plan&, std::span<const ::sluice::detail::storage<S, A>>, std::span<::sluice::detail::storage<S, A>>, \
      ::sluice::detail::flag_select);                                                                           \
  extern template std::uint64_t partition<::sluice::detail::storage<S, A>, ::sluice::detail::flag_select>(       \
      const plan&, std::span<const ::sluice::detail::storage<S, A>>, std::span<::sluice::detail::storage<S, A>>, \
      ::sluice::detail::flag_select, bool);
SLUICE_STORAGE(SLUICE_CPU_EXTERN_STORAGE)
}  // namespace sluice::cpu_backend
#endif

namespace sluice::cpu {

inline bool is_serial(const algorithm_info& a) noexcept { return a.name == "serial" || a.name == "lsd-serial"; }

template <class T, class Op>
T reduce(const algorithm_info& a, std::string_view spec, std::span<const T> in, T init, Op op, const char* fn) {
  if (is_serial(a)) return reduce_serial(in, init, op);
  const auto p = cpu_backend::make_plan(spec, fn);
  if constexpr (detail::cpu_reduce_precompiled_v<T, Op>) return cpu_backend::reduce(p, in, init, op);
  else return vectorized_reduce<portable_kernels>(p.threads, in, init, op);
}

template <class T, class Op>
void scan(const algorithm_info& a, std::string_view spec, std::span<const T> in, std::span<T> out, bool inclusive, T init,
          Op op, const char* fn) {
  if (is_serial(a)) return scan_serial(in, out, inclusive, init, op);
  const auto p = cpu_backend::make_plan(spec, fn);
  if constexpr (detail::cpu_reduce_precompiled_v<T, Op>) cpu_backend::scan(p, in, out, inclusive, init, op);
  else billeter_scan<portable_kernels>(p.threads, in, out, inclusive, init, op);
}

// Flag-driven movement runs on storage words, as on CUDA: any element of a precompiled size and alignment.
template <class T, class Sel>
std::uint64_t compact(const algorithm_info& a, std::string_view spec, std::span<const T> in, std::span<T> out, Sel sel,
                      const char* fn) {
  // In place (out is in): the blocks' threads would write their runs over input that earlier blocks are still
  // reading. One thread writes each element at or before the place it reads it from.
  const bool in_place = out.data() < in.data() + in.size() && in.data() < out.data() + out.size();
  if (is_serial(a) || in_place) return compact_serial(in, out, sel);
  const auto p = cpu_backend::make_plan(spec, fn);
  if constexpr (std::is_same_v<Sel, detail::flag_select> && detail::precompiled_storage_v<sizeof(T), alignof(T)>) {
    return cpu_backend::compact(p, detail::as_storage(in), detail::as_storage(out), sel);
  } else if constexpr (detail::cpu_select_precompiled_v<T, Sel>) {
    return cpu_backend::compact(p, in, out, sel);
  } else {
    return billeter_compact<portable_kernels>(p.threads, in, out, sel);
  }
}

// unordered: partition_unordered (its split moves each block right after counting it; serial: the stable loop).
template <class T, class Sel>
std::uint64_t partition(const algorithm_info& a, std::string_view spec, std::span<const T> in, std::span<T> out, Sel sel,
                        const char* fn, bool unordered = false) {
  if (is_serial(a)) return partition_serial(in, out, sel);
  const auto p = cpu_backend::make_plan(spec, fn);
  if constexpr (std::is_same_v<Sel, detail::flag_select> && detail::precompiled_storage_v<sizeof(T), alignof(T)>) {
    return cpu_backend::partition(p, detail::as_storage(in), detail::as_storage(out), sel, unordered);
  } else if constexpr (detail::cpu_select_precompiled_v<T, Sel>) {
    return cpu_backend::partition(p, in, out, sel, unordered);
  } else {
    return split_partition<portable_kernels>(p.threads, in, out, sel, unordered);
  }
}

template <class K, class V>
void radix_sort(const algorithm_info& a, std::string_view spec, std::span<K> keys, std::span<V> values, bool descending,
                int begin, int end, const char* fn) {
  if (is_serial(a)) return radix_sort_lsd_serial(keys, values, descending, begin, end);
  const auto p = cpu_backend::make_plan(spec, fn);  // threads only: the sorts have no SIMD kernels
  if (a.name == "msd-lsd") radix_sort_msd_lsd(p.threads, keys, values, descending, begin, end);
  else radix_sort_lsd_parallel(p.threads, keys, values, descending, begin, end);
}

}  // namespace sluice::cpu
