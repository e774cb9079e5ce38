// segmented_radix_sort instances of 32-bit keys (segmented_sort_wide.cu: 64-bit keys), split for a parallel
// build. The device-wide sorts inside come from sort.cu and sort_wide.cu.
#include <string>

#include "sluice/cuda/sort/segmented.cuh"
#include "sluice/cuda/sort/segmented_cub.cuh"
#include "sluice/detail/storage.hpp"

namespace sluice::cuda_backend {
template <class K, class V>
void segmented_radix_sort(std::string_view algo, std::span<K> keys, std::span<V> values, std::span<const std::uint64_t> offsets, bool descending,
                          int begin_bit, int end_bit, CUstream_st* stream) {
  constexpr const char* fn = "segmented_radix_sort";
  if (algo == "tiered") return segmented_sort::segmented_radix_sort(keys, values, offsets, descending, begin_bit, end_bit, stream, fn);
  if (algo == "cub") return segmented_sort::cub_peer(keys, values, offsets, descending, begin_bit, end_bit, stream, fn);
  throw error(errc::unsupported, std::string("sluice::") + fn + ": no CUDA variant named '" + std::string(algo) + "'");
}
}  // namespace sluice::cuda_backend

#ifndef SLUICE_SEGMENTED_SORT_WIDE
#define SLUICE_SEGMENTED_SORT_KEYS(X) X(std::uint32_t) X(std::int32_t) X(float)
#else
#define SLUICE_SEGMENTED_SORT_KEYS(X) X(std::uint64_t) X(std::int64_t) X(double)
#endif
#define SLUICE_SEGSORT(K, V)                                                                                                  \
  template void sluice::cuda_backend::segmented_radix_sort<K, V>(std::string_view, std::span<K>, std::span<V>, std::span<const std::uint64_t>, \
                                                                 bool, int, int, CUstream_st*);
#define S(K, Sz, A)                                                                                                           \
  template void sluice::cuda_backend::segmented_radix_sort<K, sluice::detail::storage<Sz, A>>(                                   \
      std::string_view, std::span<K>, std::span<sluice::detail::storage<Sz, A>>, std::span<const std::uint64_t>, bool, int, int, CUstream_st*);
#define X(K) SLUICE_SEGSORT(K, std::nullptr_t) S(K, 1, 1) S(K, 2, 2) S(K, 4, 4) S(K, 8, 8) S(K, 8, 4) S(K, 16, 16) S(K, 16, 8) S(K, 16, 4)
SLUICE_SEGMENTED_SORT_KEYS(X)
