// radix_sort instances of 32-bit keys (sort_wide.cu: 64-bit keys), split for a parallel build.
#include "instantiate.cuh"
#define V(K, S, A) \
  template void sluice::cuda_backend::radix_sort<K, sluice::detail::storage<S, A>>(std::string_view, std::span<K>, std::span<sluice::detail::storage<S, A>>, bool, int, int, CUstream_st*);
#define X(K) SLUICE_INST_SORT(K, std::nullptr_t) V(K, 1, 1) V(K, 2, 2) V(K, 4, 4) V(K, 8, 8) V(K, 8, 4) V(K, 16, 16) V(K, 16, 8) V(K, 16, 4)
X(std::uint32_t) X(std::int32_t) X(float)
