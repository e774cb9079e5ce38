// segmented_reduce and the segmented scans: every value type and operator of reduce and scan.
#include "sluice/cuda/dispatch_runs.cuh"
#include "instantiate.cuh"
#define X(T, Op)                                                                                                         \
  template void sluice::cuda_backend::segmented_reduce<T, Op>(std::string_view, std::span<const T>,                     \
                                                              std::span<const std::uint64_t>, std::span<T>, T, Op, CUstream_st*); \
  template void sluice::cuda_backend::segmented_scan<T, Op>(std::string_view, std::span<const T>,                       \
                                                            std::span<const std::uint64_t>, std::span<T>, bool, T, Op, CUstream_st*);
#define Y(T) SLUICE_OPS(X, T)
SLUICE_NUMERIC_TYPES(Y)
