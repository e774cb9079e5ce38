// What the precompiled library instantiates. One list serves the explicit instantiations (src/cuda/*.cu)
// and the `extern template` declarations that keep users' translation units from re-instantiating them.
#pragma once
#include <cstdint>
#include <type_traits>

#include "sluice/config.hpp"
#include "sluice/detail/select.hpp"
#include "sluice/detail/storage.hpp"
#include "sluice/types.hpp"

// Element types of reduce and scan.
#define SLUICE_NUMERIC_TYPES(X) X(std::int32_t) X(std::uint32_t) X(std::int64_t) X(std::uint64_t) X(float) X(double)
// Element types of compact_if / partition with the threshold predicate.
#define SLUICE_PREDICATE_TYPES(X) X(std::uint8_t) SLUICE_NUMERIC_TYPES(X)
#define SLUICE_OPS(X, T) X(T, ::sluice::sum) X(T, ::sluice::product) X(T, ::sluice::minimum) X(T, ::sluice::maximum)
#define SLUICE_KEY_TYPES(X) X(std::uint32_t) X(std::int32_t) X(float) X(std::uint64_t) X(std::int64_t) X(double)
// Key types of the runs family (unique, run_length_encode, ...); their values are storage words.
#define SLUICE_RUN_KEY_TYPES(X) X(std::uint8_t) SLUICE_KEY_TYPES(X)
// Key types of reduce_by_key and the scans by key; their values and operators are those of reduce and scan.
#define SLUICE_BY_KEY_TYPES(X) X(std::int32_t) X(std::uint32_t) X(std::int64_t) X(std::uint64_t)
// Every (value, operator) of reduce and scan, for a key K: X(K, V, Op).
#define SLUICE_BY_KEY_V(X, K, V) X(K, V, ::sluice::sum) X(K, V, ::sluice::product) X(K, V, ::sluice::minimum) X(K, V, ::sluice::maximum)
#define SLUICE_BY_KEY_VALUES(X, K)                                                                             \
  SLUICE_BY_KEY_V(X, K, std::int32_t) SLUICE_BY_KEY_V(X, K, std::uint32_t) SLUICE_BY_KEY_V(X, K, std::int64_t) \
  SLUICE_BY_KEY_V(X, K, std::uint64_t) SLUICE_BY_KEY_V(X, K, float) SLUICE_BY_KEY_V(X, K, double)
// Storage words (size, alignment) of flagged compaction, partition and sort values.
#define SLUICE_STORAGE(X) \
  X(1, 1) X(2, 2) X(4, 4) X(8, 8) X(8, 4) X(16, 16) X(16, 8) X(16, 4)

namespace sluice::detail {
template <class T, class... U>
inline constexpr bool one_of_v = (std::is_same_v<T, U> || ...);

// True where the precompiled library holds the CUDA kernels, or where <sluice/cuda.cuh> was included
// before this header, so that any operator or predicate compiles for the GPU in the caller's own nvcc build.
#if defined(SLUICE_CUDA_TEMPLATES)
inline constexpr bool cuda_templates_visible = true;
#else
inline constexpr bool cuda_templates_visible = false;
#endif
template <class T>
inline constexpr bool numeric_v = one_of_v<T, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
template <class T, class Op>
inline constexpr bool cuda_reduce_v = cuda_templates_visible || (numeric_v<T> && one_of_v<Op, sum, product, minimum, maximum>);
template <class T, class Pred>
inline constexpr bool cuda_predicate_v = cuda_templates_visible || ((numeric_v<T> || std::is_same_v<T, std::uint8_t>) && std::is_same_v<Pred, threshold<T>>);

template <class K, class V, class Op>
inline constexpr bool cuda_by_key_v = cuda_templates_visible || (one_of_v<K, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t> &&
                                                                 numeric_v<V> && one_of_v<Op, sum, product, minimum, maximum>);
template <class K>
inline constexpr bool cuda_runs_v =
    cuda_templates_visible || one_of_v<K, std::uint8_t, std::uint32_t, std::int32_t, float, std::uint64_t, std::int64_t, double>;

// split: elements of radix_sort's key types by radix_digit.
template <class T, class Bucket>
inline constexpr bool cuda_split_v =
    cuda_templates_visible || (one_of_v<T, std::uint32_t, std::int32_t, float, std::uint64_t, std::int64_t, double> && std::is_same_v<Bucket, radix_digit>);

template <std::size_t Size, std::size_t Align>
inline constexpr bool precompiled_storage_v =
    (Size == 1 && Align == 1) || (Size == 2 && Align == 2) || (Size == 4 && Align == 4) ||
    (Size == 8 && (Align == 8 || Align == 4)) || (Size == 16 && (Align == 16 || Align == 8 || Align == 4));
}

#if SLUICE_HAS_CUDA && !defined(SLUICE_INSTANTIATING)
namespace sluice::cuda_backend {
#define SLUICE_EXTERN_REDUCE(T, Op)                                                                            \
  extern template void reduce<T, Op>(std::string_view, std::span<const T>, T*, T, Op, CUstream_st*);          \
  extern template void scan<T, Op>(std::string_view, std::span<const T>, std::span<T>, bool, T, Op, CUstream_st*);
#define SLUICE_EXTERN_REDUCE_T(T) SLUICE_OPS(SLUICE_EXTERN_REDUCE, T)
SLUICE_NUMERIC_TYPES(SLUICE_EXTERN_REDUCE_T)
#define SLUICE_EXTERN_PRED(T)                                                                                    \
  extern template void compact<T, ::sluice::detail::pred_select<::sluice::threshold<T>>>(                        \
      std::string_view, std::span<const T>, std::span<T>, ::sluice::detail::pred_select<::sluice::threshold<T>>, \
      std::uint64_t*, CUstream_st*);                                                                             \
  extern template void partition<T, ::sluice::detail::pred_select<::sluice::threshold<T>>>(                      \
      std::string_view, std::span<const T>, std::span<T>, ::sluice::detail::pred_select<::sluice::threshold<T>>, \
      std::uint64_t*, CUstream_st*);
SLUICE_PREDICATE_TYPES(SLUICE_EXTERN_PRED)
#define SLUICE_EXTERN_STORAGE(S, A)                                                                            \
  extern template void compact<::sluice::detail::storage<S, A>, ::sluice::detail::flag_select>(                \
      std::string_view, std::span<const ::sluice::detail::storage<S, A>>,                                      \
      std::span<::sluice::detail::storage<S, A>>, ::sluice::detail::flag_select, std::uint64_t*, CUstream_st*); \
  extern template void partition<::sluice::detail::storage<S, A>, ::sluice::detail::flag_select>(              \
      std::string_view, std::span<const ::sluice::detail::storage<S, A>>,                                      \
      std::span<::sluice::detail::storage<S, A>>, ::sluice::detail::flag_select, std::uint64_t*, CUstream_st*);
SLUICE_STORAGE(SLUICE_EXTERN_STORAGE)
#define SLUICE_EXTERN_SORT_V(K, S, A)                                                                          \
  extern template void radix_sort<K, ::sluice::detail::storage<S, A>>(                                         \
      std::string_view, std::span<K>, std::span<::sluice::detail::storage<S, A>>, bool, int, int, CUstream_st*);
#define SLUICE_EXTERN_SORT(K)                                                                                  \
  extern template void radix_sort<K, std::nullptr_t>(std::string_view, std::span<K>, std::span<std::nullptr_t>, \
                                                     bool, int, int, CUstream_st*);                            \
  SLUICE_EXTERN_SORT_V(K, 1, 1) SLUICE_EXTERN_SORT_V(K, 2, 2) SLUICE_EXTERN_SORT_V(K, 4, 4)                    \
  SLUICE_EXTERN_SORT_V(K, 8, 8) SLUICE_EXTERN_SORT_V(K, 8, 4) SLUICE_EXTERN_SORT_V(K, 16, 16)                  \
  SLUICE_EXTERN_SORT_V(K, 16, 8) SLUICE_EXTERN_SORT_V(K, 16, 4)
SLUICE_KEY_TYPES(SLUICE_EXTERN_SORT)
#define SLUICE_EXTERN_RUNS_V(K, S, A)                                                                           \
  extern template void unique<K, ::sluice::detail::storage<S, A>>(                                              \
      std::string_view, std::span<const K>, std::span<const ::sluice::detail::storage<S, A>>, std::span<K>,     \
      std::span<::sluice::detail::storage<S, A>>, std::uint64_t*, CUstream_st*);
#define SLUICE_EXTERN_RUNS(K)                                                                                   \
  extern template void unique<K, std::nullptr_t>(std::string_view, std::span<const K>, std::span<const std::nullptr_t>, \
                                                 std::span<K>, std::span<std::nullptr_t>, std::uint64_t*, CUstream_st*); \
  extern template void run_length_encode<K>(std::string_view, std::span<const K>, std::span<K>,                 \
                                            std::span<std::uint64_t>, std::uint64_t*, CUstream_st*);             \
  extern template void non_trivial_runs<K>(std::string_view, std::span<const K>, std::span<std::uint64_t>,      \
                                           std::span<std::uint64_t>, std::uint64_t*, CUstream_st*);              \
  SLUICE_EXTERN_RUNS_V(K, 1, 1) SLUICE_EXTERN_RUNS_V(K, 2, 2) SLUICE_EXTERN_RUNS_V(K, 4, 4)                    \
  SLUICE_EXTERN_RUNS_V(K, 8, 8) SLUICE_EXTERN_RUNS_V(K, 8, 4) SLUICE_EXTERN_RUNS_V(K, 16, 16)                  \
  SLUICE_EXTERN_RUNS_V(K, 16, 8) SLUICE_EXTERN_RUNS_V(K, 16, 4)
SLUICE_RUN_KEY_TYPES(SLUICE_EXTERN_RUNS)
#define SLUICE_EXTERN_BY_KEY(K, V, Op)                                                                          \
  extern template void reduce_by_key<K, V, Op>(std::string_view, std::span<const K>, std::span<const V>,        \
                                               std::span<K>, std::span<V>, std::uint64_t*, Op, CUstream_st*);    \
  extern template void scan_by_key<K, V, Op>(std::string_view, std::span<const K>, std::span<const V>,          \
                                             std::span<V>, bool, V, Op, CUstream_st*);
#define SLUICE_EXTERN_BY_KEY_K(K) SLUICE_BY_KEY_VALUES(SLUICE_EXTERN_BY_KEY, K)
SLUICE_BY_KEY_TYPES(SLUICE_EXTERN_BY_KEY_K)
#define SLUICE_EXTERN_SEGMENTED(T, Op)                                                                          \
  extern template void segmented_reduce<T, Op>(std::string_view, std::span<const T>, std::span<const std::uint64_t>, \
                                               std::span<T>, T, Op, CUstream_st*);                               \
  extern template void segmented_scan<T, Op>(std::string_view, std::span<const T>, std::span<const std::uint64_t>, \
                                             std::span<T>, bool, T, Op, CUstream_st*);
#define SLUICE_EXTERN_SEGMENTED_T(T) SLUICE_OPS(SLUICE_EXTERN_SEGMENTED, T)
SLUICE_NUMERIC_TYPES(SLUICE_EXTERN_SEGMENTED_T)
#define SLUICE_EXTERN_SPLIT(T)                                                                                  \
  extern template void split<T, ::sluice::radix_digit>(std::string_view, std::span<const T>, ::sluice::radix_digit, std::uint32_t, \
                                                       std::span<T>, std::span<std::uint64_t>, CUstream_st*);
SLUICE_KEY_TYPES(SLUICE_EXTERN_SPLIT)
}  // namespace sluice::cuda_backend
#endif
