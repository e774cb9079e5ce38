// Definitions of the runs family on CUDA (declared in backend.hpp): unique, unique_by_key, run_length_encode and
// non_trivial_runs, each registry name to its path. Kept apart from dispatch.cuh so that the precompiled library
// builds them in their own translation units (src/cuda/runs*.cu).
#pragma once
#include <cstddef>
#include <type_traits>

#include "sluice/cuda/compact/decoupled_lookback.cuh"
#include "sluice/cuda/dispatch.cuh"
#include "sluice/cuda/runs/decoupled_lookback.cuh"

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

}  // namespace sluice::cuda_backend
