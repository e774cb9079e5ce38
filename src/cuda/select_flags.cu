#include "instantiate.cuh"
#define Y(S, A) SLUICE_INST_DATA_S(S, A)
#define SLUICE_INST_DATA_S(S, A)                                                                              \
  template void sluice::cuda_backend::compact<sluice::detail::storage<S, A>, sluice::detail::flag_select>(     \
      std::string_view, std::span<const sluice::detail::storage<S, A>>, std::span<sluice::detail::storage<S, A>>, \
      sluice::detail::flag_select, std::uint64_t*, CUstream_st*);                                               \
  template void sluice::cuda_backend::partition<sluice::detail::storage<S, A>, sluice::detail::flag_select>(   \
      std::string_view, std::span<const sluice::detail::storage<S, A>>, std::span<sluice::detail::storage<S, A>>, \
      sluice::detail::flag_select, std::uint64_t*, CUstream_st*);                                               \
  template void sluice::cuda_backend::partition_unordered<sluice::detail::storage<S, A>, sluice::detail::flag_select>( \
      std::string_view, std::span<const sluice::detail::storage<S, A>>, std::span<sluice::detail::storage<S, A>>, \
      sluice::detail::flag_select, std::uint64_t*, CUstream_st*);
SLUICE_STORAGE(Y)
