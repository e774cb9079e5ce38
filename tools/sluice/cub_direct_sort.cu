// CUB's radix sorts called directly: the sort suite's split rows, the quick suite's top-k and segmented rows
// (cub_direct.hpp).
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "cub_direct.cuh"

namespace sluice::tool::cub_direct {

template <class K>
call sort_keys_bits(const K* in, K* out, std::uint64_t n, int begin_bit, int end_bit) {
  return make(n, "cub::DeviceRadixSort::SortKeys", [=](void* t, std::size_t& b, auto items) {
    return cub::DeviceRadixSort::SortKeys(t, b, in, out, items, begin_bit, end_bit);
  });
}

template call sort_keys_bits<std::uint32_t>(const std::uint32_t*, std::uint32_t*, std::uint64_t, int, int);

__global__ void iota_kernel(int* p, std::uint64_t n) {
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x)
    p[i] = static_cast<int>(i);
}

template <class K>
call top_k_by_sort(const K* in, K* out, std::uint64_t* indices, std::uint64_t n, std::uint64_t k) {
  // Pairs (key, position) sorted by key, largest first and stably: the first k are the top k with ties to the
  // lower position. Positions as int, as a CUB user keeps them; the iota and the buffers made once here.
  auto keys = std::make_shared<device_block>(n * sizeof(K)), from = std::make_shared<device_block>(n * sizeof(int)),
       to = std::make_shared<device_block>(n * sizeof(int));
  iota_kernel<<<1024, 256>>>(static_cast<int*>(from->p), n);
  check(cudaDeviceSynchronize(), "iota_kernel");
  auto sort = make(n, "cub::DeviceRadixSort::SortPairsDescending",
                   [k2 = static_cast<K*>(keys->p), f = static_cast<const int*>(from->p), t = static_cast<int*>(to->p), in](void* temp, std::size_t& b, auto items) {
                     return cub::DeviceRadixSort::SortPairsDescending(temp, b, in, k2, f, t, items);
                   });
  // The k keys and their positions where the caller wants them (positions as they came: int).
  return [sort, keys, from, to, out, indices, k] {
    sort();
    check(cudaMemcpyAsync(out, keys->p, k * sizeof(K), cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
    check(cudaMemcpyAsync(indices, to->p, k * sizeof(int), cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
  };
}

template <class K>
call segmented_sort_keys(const K* in, K* out, std::uint64_t n, const std::uint64_t* offsets, std::uint64_t segments) {
  return make(n, "cub::DeviceSegmentedSort::StableSortKeys", [=](void* t, std::size_t& b, auto items) {
    return cub::DeviceSegmentedSort::StableSortKeys(t, b, in, out, static_cast<std::int64_t>(items), static_cast<std::int64_t>(segments), offsets,
                                                    offsets + 1);
  });
}

template call segmented_sort_keys<std::uint32_t>(const std::uint32_t*, std::uint32_t*, std::uint64_t, const std::uint64_t*, std::uint64_t);
template call top_k_by_sort<std::uint32_t>(const std::uint32_t*, std::uint32_t*, std::uint64_t*, std::uint64_t, std::uint64_t);

}  // namespace sluice::tool::cub_direct
