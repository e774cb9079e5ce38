// radix_sort "split-radix" (Billeter et al. 2009, Sec. 5.3): "invoke the stream split operation once for each
// bit in the radix sort key". Each split is Billeter's stream split (partition/split.cuh: phases 1 and 2 of
// the three-phase compaction, then both runs moved), zeros first, of the order-preserving key image, LSB
// first, so the sort is stable. With values it splits interleaved (image, value) records, the paper's
// interleaved key-value form, after a pre-processing step that interleaves the caller's separate arrays
// and before one that separates them again ("separate" in Table 5). Records wider than 16 bytes travel as
// (image, input index) and the values are gathered once at the end.
// Moves per bit: the records read twice and written once (2 launches + 1 tiny scan); simple, not fast.
#pragma once
#include <cstddef>
#include "sluice/cuda/partition/split.cuh"
#include "sluice/cuda/sort/key_image.cuh"

namespace sluice::cuda_backend::split_radix {

template <class B, class I>
struct record {  // interleaved key image and its value (or input index)
  B key;
  I payload;
};

struct zero_bit {  // the split's validity: bit `bit` of the image is 0
  int bit;
  template <class E>
  __device__ bool operator()(u64, const E& e) const {
    if constexpr (std::is_integral_v<E>) return ((e >> bit) & 1) == 0;  // keys only: the image itself
    else return ((e.key >> bit) & 1) == 0;
  }
};

// Interleave: record i = (image of key i, values[i]), or (image, i) for V = std::nullptr_t (the index form).
// Records are written whole, padding bytes zeroed, since the splits copy them whole.
template <class K, class R, class V>
__global__ void to_records_kernel(const K* keys, const V* values, R* recs, u64 n, bool descending) {
  struct alignas(R) raw_t {
    unsigned char bytes[sizeof(R)];
  };
  for (u64 i = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; i < n; i += static_cast<u64>(gridDim.x) * blockDim.x) {
    const auto key = sluice::detail::radix_key<K>::to_bits(keys[i], descending);
    decltype(R::payload) payload;
    if constexpr (!std::is_same_v<V, std::nullptr_t>) payload = values[i];
    else payload = static_cast<decltype(R::payload)>(i);
    raw_t raw{};
    memcpy(raw.bytes + offsetof(R, key), &key, sizeof key);
    memcpy(raw.bytes + offsetof(R, payload), &payload, sizeof payload);
    reinterpret_cast<raw_t*>(recs)[i] = raw;
  }
}
template <class K, class R, class V>
__global__ void from_records_kernel(const R* recs, K* keys, V* values, u64 n, bool descending) {
  for (u64 i = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; i < n; i += static_cast<u64>(gridDim.x) * blockDim.x) {
    keys[i] = sluice::detail::radix_key<K>::from_bits(recs[i].key, descending);
    values[i] = recs[i].payload;
  }
}

// One stable split per bit of [begin, end), ping-ponging between a and b; returns where the result is.
template <class E>
E* split_bits(E* a, E* b, u64 n, int begin, int end, cudaStream_t s, const char* fn) {
  scratch count(sizeof(u64), s, fn);
  for (int bit = begin; bit < end; ++bit) {
    stream_split::partition(std::span<const E>(a, n), std::span<E>(b, n), zero_bit{bit}, count.as<u64>(), s, fn, "");
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
  // Records of (image, W): W = V itself (interleaved) or the input index I (values gathered after).
  template <class K, class W, class V>
  static void split_records(std::span<K> keys, const V* values, W* out, bool descending, int begin, int end, cudaStream_t s, const char* fn) {
    using R = record<sort_common::bits_of<K>, W>;
    const u64 n = keys.size();
    scratch a(n * sizeof(R), s, fn), b(n * sizeof(R), s, fn);
    to_records_kernel<<<sort_common::elementwise_grid(n), 256, 0, s>>>(keys.data(), values, a.as<R>(), n, descending);
    check_launch(fn, "split_radix::to_records_kernel");
    const R* sorted = split_bits(a.as<R>(), b.as<R>(), n, begin, end, s, fn);
    from_records_kernel<<<sort_common::elementwise_grid(n), 256, 0, s>>>(sorted, keys.data(), out, n, descending);
    check_launch(fn, "split_radix::from_records_kernel");
  }
  template <class K, class V, class I>
  static void pairs(std::span<K> keys, std::span<V> values, bool descending, int begin, int end, cudaStream_t s, const char* fn) {
    if constexpr (sizeof(record<sort_common::bits_of<K>, V>) <= 16) {
      split_records<K, V>(keys, values.data(), values.data(), descending, begin, end, s, fn);
    } else {
      scratch index(keys.size() * sizeof(I), s, fn);
      split_records<K, I>(keys, static_cast<const std::nullptr_t*>(nullptr), index.as<I>(), descending, begin, end, s, fn);
      sort_common::permute_values(values, index.as<I>(), s, fn);
    }
  }
};

template <class K, class V>
void radix_sort(std::span<K> keys, std::span<V> values, bool descending, int begin, int end, cudaStream_t s, const char* fn) {
  sort_common::run<variant>(keys, values, descending, begin, end, s, fn);
}

}  // namespace sluice::cuda_backend::split_radix
