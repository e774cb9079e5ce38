// top_k instances: radix_sort's key types (the sort of the k comes from sort.cu and sort_wide.cu).
#include <string>

#include "sluice/cuda/top_k/radix_select.cuh"

namespace sluice::cuda_backend {
template <class K>
void top_k(std::string_view algo, std::span<const K> in, std::uint64_t k, K* out, std::uint64_t* indices, bool largest, bool sorted,
           CUstream_st* stream) {
  constexpr const char* fn = "top_k";
  if (algo == "radix-select") return radix_select::top_k(in, k, out, indices, largest, sorted, stream, fn);
  throw error(errc::unsupported, std::string("sluice::") + fn + ": no CUDA variant named '" + std::string(algo) + "'");
}
}  // namespace sluice::cuda_backend

#define X(K)                                                                                                                     \
  template void sluice::cuda_backend::top_k<K>(std::string_view, std::span<const K>, std::uint64_t, K*, std::uint64_t*, bool, bool, \
                                               CUstream_st*);
X(std::uint32_t) X(std::int32_t) X(float) X(std::uint64_t) X(std::int64_t) X(double)
