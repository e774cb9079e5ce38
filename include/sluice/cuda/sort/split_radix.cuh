// radix_sort "split-radix" (Billeter et al. 2009, Sec. 5.3): "invoke the stream split operation once for each
// bit in the radix sort key". Each split is the stable scan-scatter partition (zeros first) of the
// order-preserving key image, LSB first, so the sort is stable. With values it splits interleaved
// (image, input index) records, as the paper's interleaved key-value form, and gathers the values once at
// the end. Moves per bit: the records read twice and written once (3 launches); simple, not fast.
#pragma once
#include "sluice/cuda/compact/scan_scatter.cuh"
#include "sluice/cuda/sort/key_image.cuh"

namespace sluice::cuda_backend::split_radix {

template <class B, class I>
struct record {  // interleaved key image and input index
  B key;
  I index;
};

struct zero_bit {  // the split's validity: bit `bit` of the image is 0
  int bit;
  template <class E>
  __device__ bool operator()(u64, const E& e) const {
    if constexpr (std::is_integral_v<E>) return ((e >> bit) & 1) == 0;  // keys only: the image itself
    else return ((e.key >> bit) & 1) == 0;
  }
};

template <class K, class R>
__global__ void to_records_kernel(const K* keys, R* recs, u64 n, bool descending) {
  for (u64 i = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; i < n; i += static_cast<u64>(gridDim.x) * blockDim.x)
    recs[i] = R{sluice::detail::radix_key<K>::to_bits(keys[i], descending), static_cast<decltype(R::index)>(i)};
}
template <class K, class R, class I>
__global__ void from_records_kernel(const R* recs, K* keys, I* index, u64 n, bool descending) {
  for (u64 i = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; i < n; i += static_cast<u64>(gridDim.x) * blockDim.x) {
    keys[i] = sluice::detail::radix_key<K>::from_bits(recs[i].key, descending);
    index[i] = recs[i].index;
  }
}

// One stable split per bit of [begin, end), ping-ponging between a and b; returns where the result is.
template <class E>
E* split_bits(E* a, E* b, u64 n, int begin, int end, cudaStream_t s, const char* fn) {
  scratch count(sizeof(u64), s, fn);
  for (int bit = begin; bit < end; ++bit) {
    scan_scatter::partition(std::span<const E>(a, n), std::span<E>(b, n), zero_bit{bit}, count.as<u64>(), s, fn);
    std::swap(a, b);
  }
  return a;
}

struct variant {
  template <class K>
  static void keys(std::span<K> keys, bool descending, int begin, int end, cudaStream_t s, const char* fn) {
    const u64 n = keys.size();
    sort_common::sort_keys_by_image(keys, descending, s, fn, [&](auto* a, auto* b) { return split_bits(a, b, n, begin, end, s, fn); });
  }
  template <class K, class V, class I>
  static void pairs(std::span<K> keys, std::span<V> values, bool descending, int begin, int end, cudaStream_t s, const char* fn) {
    using R = record<sort_common::bits_of<K>, I>;
    const u64 n = keys.size();
    scratch a(n * sizeof(R), s, fn), b(n * sizeof(R), s, fn), index(n * sizeof(I), s, fn);
    to_records_kernel<<<sort_common::elementwise_grid(n), 256, 0, s>>>(keys.data(), a.as<R>(), n, descending);
    check_launch(fn, "split_radix::to_records_kernel");
    const R* sorted = split_bits(a.as<R>(), b.as<R>(), n, begin, end, s, fn);
    from_records_kernel<<<sort_common::elementwise_grid(n), 256, 0, s>>>(sorted, keys.data(), index.as<I>(), n, descending);
    check_launch(fn, "split_radix::from_records_kernel");
    sort_common::permute_values(values, index.as<I>(), s, fn);
  }
};

template <class K, class V>
void radix_sort(std::span<K> keys, std::span<V> values, bool descending, int begin, int end, cudaStream_t s, const char* fn) {
  sort_common::run<variant>(keys, values, descending, begin, end, s, fn);
}

}  // namespace sluice::cuda_backend::split_radix
