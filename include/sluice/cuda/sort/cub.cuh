// radix_sort "cub": cub::DeviceRadixSort (Onesweep) on the order-preserving unsigned image of the keys
// (detail/radix_key.hpp). With values, it sorts (image, input index) pairs and then gathers the values once,
// so any value type costs one gather. Stable; keys and values are rewritten in place.
#pragma once
#include <cub/device/device_radix_sort.cuh>
#include <span>

#include "sluice/cuda/cub_call.cuh"
#include "sluice/detail/radix_key.hpp"

namespace sluice::cuda_backend::cub_peer {

template <class K>
__global__ void to_image_kernel(const K* keys, typename sluice::detail::radix_key<K>::bits_t* image, u64 n, bool descending) {
  for (u64 i = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; i < n; i += static_cast<u64>(gridDim.x) * blockDim.x)
    image[i] = sluice::detail::radix_key<K>::to_bits(keys[i], descending);
}
template <class K>
__global__ void from_image_kernel(const typename sluice::detail::radix_key<K>::bits_t* image, K* keys, u64 n, bool descending) {
  for (u64 i = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; i < n; i += static_cast<u64>(gridDim.x) * blockDim.x)
    keys[i] = sluice::detail::radix_key<K>::from_bits(image[i], descending);
}
template <class I>
__global__ void iota_kernel(I* idx, u64 n) {
  for (u64 i = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; i < n; i += static_cast<u64>(gridDim.x) * blockDim.x)
    idx[i] = static_cast<I>(i);
}
template <class V, class I>
__global__ void gather_kernel(const V* from, const I* idx, V* to, u64 n) {
  for (u64 i = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; i < n; i += static_cast<u64>(gridDim.x) * blockDim.x)
    to[i] = from[idx[i]];
}

inline unsigned elementwise_grid(u64 n) { return static_cast<unsigned>(ceil_div(n < (u64{1} << 24) ? n : (u64{1} << 24), 256)); }

template <class K, class V, class I>
void sort_pairs(std::span<K> keys, std::span<V> values, typename sluice::detail::radix_key<K>::bits_t* a,
                typename sluice::detail::radix_key<K>::bits_t* b, int begin, int end, cudaStream_t s, const char* fn) {
  const u64 n = keys.size();
  scratch ia(n * sizeof(I), s, fn), ib(n * sizeof(I), s, fn);
  iota_kernel<<<elementwise_grid(n), 256, 0, s>>>(ia.as<I>(), n);
  check_launch(fn, "cub_peer::iota_kernel");
  cub_call([&](void* t, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(t, bytes, a, b, ia.as<I>(), ib.as<I>(), n, begin, end, s);
  }, s, fn, "cub::DeviceRadixSort::SortPairs");
  scratch moved(n * sizeof(V), s, fn);
  gather_kernel<<<elementwise_grid(n), 256, 0, s>>>(values.data(), ib.as<I>(), moved.as<V>(), n);
  check_launch(fn, "cub_peer::gather_kernel");
  check_cuda(cudaMemcpyAsync(values.data(), moved.as<V>(), n * sizeof(V), cudaMemcpyDeviceToDevice, s), fn, "cudaMemcpyAsync");
}

template <class K, class V>
void radix_sort(std::span<K> keys, std::span<V> values, bool descending, int begin, int end, cudaStream_t s, const char* fn) {
  using bits_t = typename sluice::detail::radix_key<K>::bits_t;
  const u64 n = keys.size();
  if (n < 2 || begin == end) return;
  scratch a(n * sizeof(bits_t), s, fn), b(n * sizeof(bits_t), s, fn);
  to_image_kernel<<<elementwise_grid(n), 256, 0, s>>>(keys.data(), a.as<bits_t>(), n, descending);
  check_launch(fn, "cub_peer::to_image_kernel");
  if constexpr (std::is_same_v<V, std::nullptr_t>) {
    cub_call([&](void* t, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortKeys(t, bytes, a.as<bits_t>(), b.as<bits_t>(), n, begin, end, s);
    }, s, fn, "cub::DeviceRadixSort::SortKeys");
  } else if (n <= (u64{1} << 32)) {
    sort_pairs<K, V, std::uint32_t>(keys, values, a.as<bits_t>(), b.as<bits_t>(), begin, end, s, fn);
  } else {
    sort_pairs<K, V, std::uint64_t>(keys, values, a.as<bits_t>(), b.as<bits_t>(), begin, end, s, fn);
  }
  from_image_kernel<<<elementwise_grid(n), 256, 0, s>>>(b.as<bits_t>(), keys.data(), n, descending);
  check_launch(fn, "cub_peer::from_image_kernel");
}

}  // namespace sluice::cuda_backend::cub_peer
