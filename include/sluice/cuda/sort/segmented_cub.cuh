// segmented_radix_sort "cub": cub::DeviceSegmentedSort::StableSortPairs over (image, position) pairs, as the
// peer. CUB's segmented sort takes no bit range and no float order of radix_key.hpp, so the keys go as their
// order-preserving image restricted to bits [begin, end), each carrying its position; keys and values are then
// gathered by position over [offsets[0], offsets.back()). Stable.
#pragma once
#include <cub/device/device_segmented_sort.cuh>

#include <type_traits>

#include "sluice/cuda/cub_call.cuh"
#include "sluice/cuda/sort/key_image.cuh"
#include "sluice/cuda/sort/segmented.cuh"

namespace sluice::cuda_backend::segmented_sort {

template <class K>
__global__ void masked_image_kernel(const K* keys, sort_common::bits_of<K>* image, u64 n, bool descending, int begin, int end) {
  using rk = sluice::detail::radix_key<K>;
  for (u64 i = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; i < n; i += static_cast<u64>(gridDim.x) * blockDim.x)
    image[i] = rk::window(rk::to_bits(keys[i], descending), begin, end);
}

template <class T>
__global__ void gather_at_kernel(const T* from, const std::uint32_t* pos, T* to, u64 lo, u64 hi) {
  for (u64 i = lo + blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; i < hi; i += static_cast<u64>(gridDim.x) * blockDim.x)
    to[i] = from[pos[i]];
}

template <class T>
void gather_at(T* data, const std::uint32_t* pos, u64 n, u64 lo, u64 hi, cudaStream_t s, const char* fn) {  // data[i] = data[pos[i]], i in [lo, hi)
  scratch moved(n * sizeof(T), s, fn);
  gather_at_kernel<<<sort_common::elementwise_grid(hi - lo), 256, 0, s>>>(data, pos, moved.as<T>(), lo, hi);
  check_launch(fn, "segmented_sort::gather_at_kernel");
  check_cuda(cudaMemcpyAsync(data + lo, moved.as<T>() + lo, (hi - lo) * sizeof(T), cudaMemcpyDeviceToDevice, s), fn, "cudaMemcpyAsync");
}

template <class K, class V>
void cub_peer(std::span<K> keys, std::span<V> values, std::span<const u64> offsets, bool descending, int begin, int end, cudaStream_t s,
              const char* fn) {
  using B = sort_common::bits_of<K>;
  const u64 n = keys.size(), segments = offsets.size() - 1;
  if (n > (u64{1} << 31) - 1) throw error(errc::unsupported, std::string("sluice::") + fn + ": the cub variant takes at most 2^31 - 1 keys");
  if (segments == 0) return;
  scratch longs;
  (void)classify(offsets, n, longs, s, fn);  // the offsets checked as the tiered variant checks them
  if (n < 2 || begin == end) return;
  u64 range[2];
  copy_to_host(&range[0], offsets.data(), sizeof(u64), s, fn);
  copy_to_host(&range[1], offsets.data() + segments, sizeof(u64), s, fn);
  scratch image(n * sizeof(B), s, fn), sorted(n * sizeof(B), s, fn), pos(n * sizeof(std::uint32_t), s, fn), pos_out(n * sizeof(std::uint32_t), s, fn);
  masked_image_kernel<<<sort_common::elementwise_grid(n), 256, 0, s>>>(keys.data(), image.as<B>(), n, descending, begin, end);
  check_launch(fn, "segmented_sort::masked_image_kernel");
  sort_common::iota_kernel<<<sort_common::elementwise_grid(n), 256, 0, s>>>(pos.as<std::uint32_t>(), n);
  check_launch(fn, "sort_common::iota_kernel");
  cub_call([&](void* t, std::size_t& bytes) {
    return cub::DeviceSegmentedSort::StableSortPairs(t, bytes, image.as<B>(), sorted.as<B>(), pos.as<std::uint32_t>(), pos_out.as<std::uint32_t>(),
                                                     static_cast<std::int64_t>(n), static_cast<std::int64_t>(segments), offsets.data(),
                                                     offsets.data() + 1, s);
  }, s, fn, "cub::DeviceSegmentedSort::StableSortPairs");
  gather_at(keys.data(), pos_out.as<std::uint32_t>(), n, range[0], range[1], s, fn);
  if constexpr (!std::is_same_v<V, std::nullptr_t>) gather_at(values.data(), pos_out.as<std::uint32_t>(), n, range[0], range[1], s, fn);
}

}  // namespace sluice::cuda_backend::segmented_sort
