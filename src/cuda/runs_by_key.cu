// unique_by_key instances: every run key type with every storage word of values.
#include "sluice/cuda/dispatch_runs.cuh"
#include "instantiate.cuh"
#define V(K, S, A)                                                                                                       \
  template void sluice::cuda_backend::unique<K, sluice::detail::storage<S, A>>(                                        \
      std::string_view, std::span<const K>, std::span<const sluice::detail::storage<S, A>>, std::span<K>,              \
      std::span<sluice::detail::storage<S, A>>, std::uint64_t*, CUstream_st*);
#define X(K) V(K, 1, 1) V(K, 2, 2) V(K, 4, 4) V(K, 8, 8) V(K, 8, 4) V(K, 16, 16) V(K, 16, 8) V(K, 16, 4)
SLUICE_RUN_KEY_TYPES(X)
