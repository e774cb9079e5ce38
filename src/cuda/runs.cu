// The runs family's keys-only instances: unique, run_length_encode, non_trivial_runs (runs_by_key.cu: unique_by_key).
#include "sluice/cuda/dispatch_runs.cuh"
#include "instantiate.cuh"
#define X(K)                                                                                                            \
  template void sluice::cuda_backend::unique<K, std::nullptr_t>(std::string_view, std::span<const K>,                 \
                                                                std::span<const std::nullptr_t>, std::span<K>,       \
                                                                std::span<std::nullptr_t>, std::uint64_t*, CUstream_st*); \
  template void sluice::cuda_backend::run_length_encode<K>(std::string_view, std::span<const K>, std::span<K>,        \
                                                           std::span<std::uint64_t>, std::uint64_t*, CUstream_st*);  \
  template void sluice::cuda_backend::non_trivial_runs<K>(std::string_view, std::span<const K>, std::span<std::uint64_t>, \
                                                          std::span<std::uint64_t>, std::uint64_t*, CUstream_st*);
SLUICE_RUN_KEY_TYPES(X)
