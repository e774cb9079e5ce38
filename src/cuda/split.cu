// split instances: radix_sort's key types by radix_digit.
#include "instantiate.cuh"
#define X(T)                                                                                                          \
  template void sluice::cuda_backend::split<T, sluice::radix_digit>(std::string_view, std::span<const T>, sluice::radix_digit, \
                                                                    std::uint32_t, std::span<T>, std::span<std::uint64_t>, CUstream_st*);
SLUICE_KEY_TYPES(X)
