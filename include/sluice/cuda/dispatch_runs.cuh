// Definitions of the runs family on CUDA (declared in backend.hpp): unique, unique_by_key, run_length_encode,
// non_trivial_runs, reduce_by_key, the scans by key and the segmented reduce and scans, each registry name to its
// path. Kept apart from dispatch.cuh so that the precompiled library
// builds them in their own translation units (src/cuda/runs*.cu).
#pragma once
#include <cstddef>
#include <type_traits>

#include "sluice/cuda/compact/decoupled_lookback.cuh"
#include "sluice/cuda/dispatch.cuh"
#include "sluice/cuda/runs/by_key.cuh"
#include "sluice/cuda/runs/decoupled_lookback.cuh"
#include "sluice/cuda/runs/segmented.cuh"

namespace sluice::cuda_backend {

template <class K, class V>
void unique(std::string_view algo, std::span<const K> keys, std::span<const V> values, std::span<K> out_keys, std::span<V> out_values,
            std::uint64_t* count, CUstream_st* stream) {
  constexpr const char* fn = "unique";
  if (algo != "decoupled-lookback") no_variant(fn, algo);
  if constexpr (std::is_same_v<V, std::nullptr_t>)
    select_lookback::run<select_lookback::mode::compact>(keys, out_keys, runs_lookback::head_select<K>{keys.data()}, count, stream, fn);
  else
    runs_lookback::run<runs_lookback::kind::unique>(keys.data(), values.data(),
                                                    runs_lookback::outputs<K, V>{out_keys.data(), out_values.data(), nullptr, nullptr, out_keys.size()},
                                                    keys.size(), count, stream, fn);
}

template <class K>
void run_length_encode(std::string_view algo, std::span<const K> in, std::span<K> out_unique, std::span<std::uint64_t> out_counts,
                       std::uint64_t* count, CUstream_st* stream) {
  constexpr const char* fn = "run_length_encode";
  if (algo != "decoupled-lookback") no_variant(fn, algo);
  runs_lookback::run<runs_lookback::kind::encode>(
      in.data(), static_cast<const std::nullptr_t*>(nullptr),
      runs_lookback::outputs<K, std::nullptr_t>{out_unique.data(), nullptr, out_counts.data(), nullptr, out_unique.size()}, in.size(), count,
      stream, fn);
}

template <class K>
void non_trivial_runs(std::string_view algo, std::span<const K> in, std::span<std::uint64_t> out_offsets,
                      std::span<std::uint64_t> out_lengths, std::uint64_t* count, CUstream_st* stream) {
  constexpr const char* fn = "non_trivial_runs";
  if (algo != "decoupled-lookback") no_variant(fn, algo);
  runs_lookback::run<runs_lookback::kind::non_trivial>(
      in.data(), static_cast<const std::nullptr_t*>(nullptr),
      runs_lookback::outputs<K, std::nullptr_t>{nullptr, nullptr, out_offsets.data(), out_lengths.data(), out_offsets.size()}, in.size(),
      count, stream, fn);
}

template <class K, class V, class Op>
void reduce_by_key(std::string_view algo, std::span<const K> keys, std::span<const V> values, std::span<K> out_keys, std::span<V> out_values,
                   std::uint64_t* count, Op op, CUstream_st* stream) {
  constexpr const char* fn = "reduce_by_key";
  if (algo != "decoupled-lookback") no_variant(fn, algo);
  by_key::run<true>(keys.data(), values.data(), by_key::outputs<K, V>{out_keys.data(), out_values.data(), out_keys.size(), count}, keys.size(),
                    op, true, V{}, stream, fn);
}

template <class K, class V, class Op>
void scan_by_key(std::string_view algo, std::span<const K> keys, std::span<const V> values, std::span<V> out, bool inclusive, V init, Op op,
                 CUstream_st* stream) {
  constexpr const char* fn = "scan_by_key";
  if (algo != "decoupled-lookback") no_variant(fn, algo);
  by_key::run<false>(keys.data(), values.data(), by_key::outputs<K, V>{nullptr, out.data(), out.size(), nullptr}, keys.size(), op, inclusive,
                     init, stream, fn);
}

template <class T, class Op>
void segmented_reduce(std::string_view algo, std::span<const T> values, std::span<const std::uint64_t> offsets, std::span<T> out, T init, Op op,
                      CUstream_st* stream) {
  constexpr const char* fn = "segmented_reduce";
  if (algo != "decoupled-lookback") no_variant(fn, algo);
  by_key::segmented<true>(values.data(), values.size(), offsets.data(), offsets.size(), out.data(), op, true, init, stream, fn);
}

template <class T, class Op>
void segmented_scan(std::string_view algo, std::span<const T> values, std::span<const std::uint64_t> offsets, std::span<T> out, bool inclusive,
                    T init, Op op, CUstream_st* stream) {
  constexpr const char* fn = "segmented_scan";
  if (algo != "decoupled-lookback") no_variant(fn, algo);
  by_key::segmented<false>(values.data(), values.size(), offsets.data(), offsets.size(), out.data(), op, inclusive, init, stream, fn);
}

}  // namespace sluice::cuda_backend
