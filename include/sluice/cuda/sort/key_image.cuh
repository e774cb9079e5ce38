// What every CUDA radix sort shares: keys to their order-preserving image and back (detail/radix_key.hpp),
// input indices, the one gather that moves values after a sort of (image, index), and the driver that picks
// a 32-bit index where n allows.
#pragma once
#include <span>

#include "sluice/cuda/common.cuh"
#include "sluice/detail/radix_key.hpp"

namespace sluice::cuda_backend::sort_common {

template <class K>
using bits_of = typename sluice::detail::radix_key<K>::bits_t;

inline unsigned elementwise_grid(u64 n) { return static_cast<unsigned>(ceil_div(n < (u64{1} << 24) ? (n ? n : 1) : (u64{1} << 24), 256)); }

template <class K>
__global__ void to_image_kernel(const K* keys, bits_of<K>* image, u64 n, bool descending) {
  for (u64 i = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; i < n; i += static_cast<u64>(gridDim.x) * blockDim.x)
    image[i] = sluice::detail::radix_key<K>::to_bits(keys[i], descending);
}
template <class K>
__global__ void from_image_kernel(const bits_of<K>* image, K* keys, u64 n, bool descending) {
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

template <class K>
void to_image(const K* keys, bits_of<K>* image, u64 n, bool descending, cudaStream_t s, const char* fn) {
  to_image_kernel<<<elementwise_grid(n), 256, 0, s>>>(keys, image, n, descending);
  check_launch(fn, "sort_common::to_image_kernel");
}
template <class K>
void from_image(const bits_of<K>* image, K* keys, u64 n, bool descending, cudaStream_t s, const char* fn) {
  from_image_kernel<<<elementwise_grid(n), 256, 0, s>>>(image, keys, n, descending);
  check_launch(fn, "sort_common::from_image_kernel");
}
// values[i] = values[idx[i]] for all i, through scratch.
template <class V, class I>
void permute_values(std::span<V> values, const I* idx, cudaStream_t s, const char* fn) {
  const u64 n = values.size();
  scratch moved(n * sizeof(V), s, fn);
  gather_kernel<<<elementwise_grid(n), 256, 0, s>>>(values.data(), idx, moved.as<V>(), n);
  check_launch(fn, "sort_common::gather_kernel");
  check_cuda(cudaMemcpyAsync(values.data(), moved.as<V>(), n * sizeof(V), cudaMemcpyDeviceToDevice, s), fn, "cudaMemcpyAsync");
}

// A keys-only sort on the image: keys to their image in a, sort_image(a, b) sorts it (a and b hold n words)
// and returns the buffer holding the result, which goes back to the keys.
template <class K, class SortImage>
void sort_keys_by_image(std::span<K> keys, bool descending, cudaStream_t s, const char* fn, SortImage&& sort_image) {
  using B = bits_of<K>;
  const u64 n = keys.size();
  scratch a(n * sizeof(B), s, fn), b(n * sizeof(B), s, fn);
  to_image(keys.data(), a.as<B>(), n, descending, s, fn);
  from_image(sort_image(a.as<B>(), b.as<B>()), keys.data(), n, descending, s, fn);
}

// The driver of a sort variant: nothing to do for n < 2 or an empty bit range; keys alone go to
// Variant::keys<K>(...); pairs go to Variant::pairs<K, V, I>(...) with I = u32 where n allows, else u64.
template <class Variant, class K, class V>
void run(std::span<K> keys, std::span<V> values, bool descending, int begin, int end, cudaStream_t s, const char* fn) {
  const u64 n = keys.size();
  if (n < 2 || begin == end) return;
  if constexpr (std::is_same_v<V, std::nullptr_t>) Variant::template keys<K>(keys, descending, begin, end, s, fn);
  else if (n <= (u64{1} << 32)) Variant::template pairs<K, V, std::uint32_t>(keys, values, descending, begin, end, s, fn);
  else Variant::template pairs<K, V, std::uint64_t>(keys, values, descending, begin, end, s, fn);
}

}  // namespace sluice::cuda_backend::sort_common
