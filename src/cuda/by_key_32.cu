// reduce_by_key and the scans by key of 32-bit keys, every value type and operator of reduce and scan.
#include "sluice/cuda/dispatch_runs.cuh"
#include "instantiate.cuh"
#define X(K, V, Op)                                                                                                     \
  template void sluice::cuda_backend::reduce_by_key<K, V, Op>(std::string_view, std::span<const K>, std::span<const V>, \
                                                              std::span<K>, std::span<V>, std::uint64_t*, Op, CUstream_st*); \
  template void sluice::cuda_backend::scan_by_key<K, V, Op>(std::string_view, std::span<const K>, std::span<const V>,   \
                                                            std::span<V>, bool, V, Op, CUstream_st*);
SLUICE_BY_KEY_VALUES(X, std::int32_t)
SLUICE_BY_KEY_VALUES(X, std::uint32_t)
