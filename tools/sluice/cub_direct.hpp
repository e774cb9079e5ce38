// The production suite's CUB rows: CUB called as its own users call it, not through sluice's API (whose `cub`
// algorithm pays sluice's argument checks, dispatch and scratch pool on every call: 1.8-6 us a call at 2^16 on
// an H100 in 2026-11, docs/design/measurement.md). Each function sets up one case and returns the call to time: one
// CUB device-wide algorithm on the default stream, its temporary storage allocated once here (freed with the
// last copy of the returned function), the count as an int where n fits (CUB's faster kernels), the sum as
// cuda::std::plus. With `to_host` the call then copies the count (or the sum) to a host variable with
// cudaMemcpy, the synchronous form a CUB user writes; without it the result stays in device memory.
// Partition is cub::DevicePartition, which writes the rejected elements last to first at the tail: with
// `stable`, a second kernel then reverses that run (sluice's reverse_tail_kernel, as sluice's `cub` partition
// does), so that the result is sluice's stable partition; without it, CUB's own result.
// Built with the CUDA backend (cub_direct_*.cu; a call throws sluice::error on a CUDA error); without it there
// is no CUB, and every function returns an empty call.
#pragma once
#include <cstdint>
#include <functional>

#include "sluice/config.hpp"

#if SLUICE_HAS_CUDA
#define SLUICE_CUB_DIRECT_BODY ;
#else
#define SLUICE_CUB_DIRECT_BODY \
  { return {}; }
#endif

namespace sluice::tool::cub_direct {

using call = std::function<void()>;

template <class T>
call reduce_sum(const T* in, std::uint64_t n, T* result, bool to_host) SLUICE_CUB_DIRECT_BODY
template <class T>
call inclusive_sum(const T* in, T* out, std::uint64_t n) SLUICE_CUB_DIRECT_BODY
template <class T>
call exclusive_sum(const T* in, T* out, std::uint64_t n) SLUICE_CUB_DIRECT_BODY

// Selection and partition by flag bytes (nonzero: kept), and by the predicate x < bound.
template <class T>
call select_flagged(const T* in, const std::uint8_t* flags, T* out, std::uint64_t n, std::uint64_t* count, bool to_host) SLUICE_CUB_DIRECT_BODY
template <class T>
call partition_flagged(const T* in, const std::uint8_t* flags, T* out, std::uint64_t n, std::uint64_t* count, bool to_host,
                       bool stable) SLUICE_CUB_DIRECT_BODY
template <class T>
call select_below(const T* in, T* out, std::uint64_t n, T bound, std::uint64_t* count, bool to_host) SLUICE_CUB_DIRECT_BODY
template <class T>
call partition_below(const T* in, T* out, std::uint64_t n, T bound, std::uint64_t* count, bool to_host, bool stable) SLUICE_CUB_DIRECT_BODY

// The runs (u64 counts and lengths, as sluice writes them).
template <class K>
call unique(const K* in, K* out, std::uint64_t n, std::uint64_t* count, bool to_host) SLUICE_CUB_DIRECT_BODY
template <class K, class V>
call unique_by_key(const K* keys, const V* values, K* out_keys, V* out_values, std::uint64_t n, std::uint64_t* count,
                   bool to_host) SLUICE_CUB_DIRECT_BODY
template <class K>
call run_length_encode(const K* in, K* out_unique, std::uint64_t* out_lengths, std::uint64_t n, std::uint64_t* count,
                       bool to_host) SLUICE_CUB_DIRECT_BODY

// The keys sorted out of place by bits [begin_bit, end_bit) alone (cub::DeviceRadixSort::SortKeys): a stable
// split by that digit, the peer of sluice::split with radix_digit.
template <class K>
call sort_keys_bits(const K* in, K* out, std::uint64_t n, int begin_bit, int end_bit) SLUICE_CUB_DIRECT_BODY
// Top-k as a CUB 3.0 user writes it (CCCL 3.0 has no DeviceTopK): SortPairsDescending of (key, int position),
// then the first k keys and positions copied out (the positions as int, into the first 4k bytes of indices).
template <class K>
call top_k_by_sort(const K* in, K* out, std::uint64_t* indices, std::uint64_t n, std::uint64_t k) SLUICE_CUB_DIRECT_BODY
// Each segment [offsets[s], offsets[s + 1]) of in sorted into out (cub::DeviceSegmentedSort::StableSortKeys).
template <class K>
call segmented_sort_keys(const K* in, K* out, std::uint64_t n, const std::uint64_t* offsets, std::uint64_t segments) SLUICE_CUB_DIRECT_BODY

// By key (sums, as cuda::std::plus) and segmented sums over offsets[s], offsets[s + 1].
template <class K, class V>
call reduce_by_key_sum(const K* keys, const V* values, K* out_keys, V* out_values, std::uint64_t n, std::uint64_t* count,
                       bool to_host) SLUICE_CUB_DIRECT_BODY
template <class K, class V>
call inclusive_sum_by_key(const K* keys, const V* values, V* out, std::uint64_t n) SLUICE_CUB_DIRECT_BODY
template <class T>
call segmented_sum(const T* in, T* out, const std::uint64_t* offsets, std::uint64_t segments) SLUICE_CUB_DIRECT_BODY

}  // namespace sluice::tool::cub_direct

#undef SLUICE_CUB_DIRECT_BODY
