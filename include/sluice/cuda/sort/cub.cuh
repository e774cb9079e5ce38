// radix_sort "cub": cub::DeviceRadixSort (Onesweep) on the order-preserving unsigned image of the keys
// (detail/radix_key.hpp). With values, it sorts (image, input index) pairs and then gathers the values once,
// so any value type costs one gather. Stable; keys and values are rewritten in place.
#pragma once
#include <cub/device/device_radix_sort.cuh>

#include "sluice/cuda/cub_call.cuh"
#include "sluice/cuda/sort/key_image.cuh"

namespace sluice::cuda_backend::cub_peer {

struct radix_sort_variant {
  template <class K>
  static void keys(std::span<K> keys, bool descending, int begin, int end, cudaStream_t s, const char* fn) {
    const u64 n = keys.size();
    sort_common::sort_keys_by_image(keys, descending, s, fn, [&](auto* a, auto* b) {
      cub_call([&](void* t, std::size_t& bytes) { return cub::DeviceRadixSort::SortKeys(t, bytes, a, b, n, begin, end, s); }, s, fn,
               "cub::DeviceRadixSort::SortKeys");
      return b;
    });
  }
  template <class K, class V, class I>
  static void pairs(std::span<K> keys, std::span<V> values, bool descending, int begin, int end, cudaStream_t s, const char* fn) {
    using B = sort_common::bits_of<K>;
    const u64 n = keys.size();
    scratch a(n * sizeof(B), s, fn), b(n * sizeof(B), s, fn), ia(n * sizeof(I), s, fn), ib(n * sizeof(I), s, fn);
    sort_common::to_image(keys.data(), a.as<B>(), n, descending, s, fn);
    sort_common::iota_kernel<<<sort_common::elementwise_grid(n), 256, 0, s>>>(ia.as<I>(), n);
    check_launch(fn, "sort_common::iota_kernel");
    cub_call([&](void* t, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(t, bytes, a.as<B>(), b.as<B>(), ia.as<I>(), ib.as<I>(), n, begin, end, s);
    }, s, fn, "cub::DeviceRadixSort::SortPairs");
    sort_common::from_image(b.as<B>(), keys.data(), n, descending, s, fn);
    sort_common::permute_values(values, ib.as<I>(), s, fn);
  }
};

template <class K, class V>
void radix_sort(std::span<K> keys, std::span<V> values, bool descending, int begin, int end, cudaStream_t s, const char* fn) {
  sort_common::run<radix_sort_variant>(keys, values, descending, begin, end, s, fn);
}

}  // namespace sluice::cuda_backend::cub_peer
