// Explicit instantiation of the CUDA backend for the precompiled library (lists in detail/instantiations.hpp).
#pragma once
#define SLUICE_INSTANTIATING 1
#include "sluice/cuda/dispatch.cuh"
#include "sluice/detail/instantiations.hpp"

#define SLUICE_INST_REDUCE(T, Op) \
  template void sluice::cuda_backend::reduce<T, Op>(std::string_view, std::span<const T>, T*, T, Op, CUstream_st*);
#define SLUICE_INST_SCAN(T, Op)                                                                                    \
  template void sluice::cuda_backend::scan<T, Op>(std::string_view, std::span<const T>, std::span<T>, bool, T, Op, \
                                                  CUstream_st*);
#define SLUICE_INST_DATA(T, Sel)                                                                                       \
  template void sluice::cuda_backend::compact<T, Sel>(std::string_view, std::span<const T>, std::span<T>, Sel,        \
                                                      std::uint64_t*, CUstream_st*);                                  \
  template void sluice::cuda_backend::partition<T, Sel>(std::string_view, std::span<const T>, std::span<T>, Sel,      \
                                                        std::uint64_t*, CUstream_st*);                                \
  template void sluice::cuda_backend::partition_unordered<T, Sel>(std::string_view, std::span<const T>, std::span<T>,  \
                                                                  Sel, std::uint64_t*, CUstream_st*);
#define SLUICE_INST_SORT(K, V)                                                                                          \
  template void sluice::cuda_backend::radix_sort<K, V>(std::string_view, std::span<K>, std::span<V>, bool, int, int, \
                                                       CUstream_st*);
// The papers' variants (include sluice/cuda/dispatch_papers.cuh first; only papers_*.cu do).
#define SLUICE_INST_PAPERS(T, Sel)                                                                            \
  template void sluice::cuda_backend::compact_papers<T, Sel>(std::string_view, std::span<const T>, std::span<T>, Sel, \
                                                             std::uint64_t*, CUstream_st*);                         \
  template void sluice::cuda_backend::partition_papers<T, Sel>(std::string_view, std::span<const T>, std::span<T>, Sel, \
                                                               std::uint64_t*, CUstream_st*);
