// radix_sort "cub": cub::DeviceRadixSort (Onesweep). Integer keys go to CUB as they are (its own bit
// transform for signed keys is the sign flip of detail/radix_key.hpp), with their values, through CUB's
// double buffers, and come back by one copy only where the result ends in the scratch half: so u32 keys
// cost exactly what CUB costs. Float keys sort as their order-preserving image (so -0.0 < +0.0 and NaNs
// are placed as radix_key.hpp says) with (image, input index) pairs and one gather of the values.
// Stable; keys and values are rewritten in place.
#pragma once
#include <cub/device/device_radix_sort.cuh>

#include "sluice/cuda/cub_call.cuh"
#include "sluice/cuda/sort/key_image.cuh"

namespace sluice::cuda_backend::cub_peer {

// Integer keys: CUB on the keys (and values) themselves.
template <class K, class V>
void direct(std::span<K> keys, std::span<V> values, bool descending, int begin, int end, cudaStream_t s, const char* fn) {
  constexpr bool pairs = !std::is_same_v<V, std::nullptr_t>;
  const u64 n = keys.size();
  if (n < 2 || begin == end) return;
  scratch alt(n * sizeof(K), s, fn), alt_values(pairs ? n * sizeof(V) : 0, s, fn);
  cub::DoubleBuffer<K> k(keys.data(), alt.as<K>());
  if constexpr (pairs) {
    using W = typename cub_word<V>::type;  // the values' storage word as CUB's own type (cub_call.cuh)
    cub::DoubleBuffer<W> v(cub_ptr(values.data()), cub_ptr(alt_values.as<V>()));
    with_cub_count(n, [&](auto items) {
      cub_call([&](void* t, std::size_t& bytes) {
        return descending ? cub::DeviceRadixSort::SortPairsDescending(t, bytes, k, v, items, begin, end, s)
                          : cub::DeviceRadixSort::SortPairs(t, bytes, k, v, items, begin, end, s);
      }, s, fn, "cub::DeviceRadixSort::SortPairs");
    });
    if (v.Current() != cub_ptr(values.data()))
      check_cuda(cudaMemcpyAsync(values.data(), v.Current(), n * sizeof(V), cudaMemcpyDeviceToDevice, s), fn, "cudaMemcpyAsync");
  } else {
    with_cub_count(n, [&](auto items) {
      cub_call([&](void* t, std::size_t& bytes) {
        return descending ? cub::DeviceRadixSort::SortKeysDescending(t, bytes, k, items, begin, end, s)
                          : cub::DeviceRadixSort::SortKeys(t, bytes, k, items, begin, end, s);
      }, s, fn, "cub::DeviceRadixSort::SortKeys");
    });
  }
  if (k.Current() != keys.data())
    check_cuda(cudaMemcpyAsync(keys.data(), k.Current(), n * sizeof(K), cudaMemcpyDeviceToDevice, s), fn, "cudaMemcpyAsync");
}

struct radix_sort_variant {
  template <class K>
  static void keys(std::span<K> keys, bool descending, int begin, int end, cudaStream_t s, const char* fn) {
    const u64 n = keys.size();
    sort_common::sort_keys_by_image(keys, descending, s, fn, [&](auto* a, auto* b) {
      with_cub_count(n, [&](auto items) {
        cub_call([&](void* t, std::size_t& bytes) { return cub::DeviceRadixSort::SortKeys(t, bytes, a, b, items, begin, end, s); }, s, fn,
                 "cub::DeviceRadixSort::SortKeys");
      });
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
    with_cub_count(n, [&](auto items) {
      cub_call([&](void* t, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(t, bytes, a.as<B>(), b.as<B>(), ia.as<I>(), ib.as<I>(), items, begin, end, s);
      }, s, fn, "cub::DeviceRadixSort::SortPairs");
    });
    sort_common::from_image(b.as<B>(), keys.data(), n, descending, s, fn);
    sort_common::permute_values(values, ib.as<I>(), s, fn);
  }
};

template <class K, class V>
void radix_sort(std::span<K> keys, std::span<V> values, bool descending, int begin, int end, cudaStream_t s, const char* fn) {
  if constexpr (std::is_integral_v<K>) direct(keys, values, descending, begin, end, s, fn);
  else sort_common::run<radix_sort_variant>(keys, values, descending, begin, end, s, fn);
}

}  // namespace sluice::cuda_backend::cub_peer
