// Definitions of the CUDA backend (declared in cuda/backend.hpp): each registry name to its variant.
// Adding a variant: its file, its registry line (algorithms.hpp) and its line here.
#pragma once
#if defined(SLUICE_API_INCLUDED) && !defined(SLUICE_INSTANTIATING)
#error "include <sluice/cuda.cuh> before any other sluice header, so your own operators get CUDA kernels"
#endif
#define SLUICE_CUDA_TEMPLATES 1
#include <string>

#include "sluice/cuda/compact/cub.cuh"
#include "sluice/cuda/compact/decoupled_lookback.cuh"
#include "sluice/cuda/compact/scan_scatter.cuh"
#include "sluice/cuda/compact/warp_atomic.cuh"
#include "sluice/cuda/partition/cub.cuh"
#include "sluice/cuda/reduce/cub.cuh"
#include "sluice/cuda/reduce/goddeke_multipass.cuh"
#include "sluice/cuda/reduce/partition_summarize.cuh"
#include "sluice/cuda/reduce/tree_contiguous.cuh"
#include "sluice/cuda/reduce/tree_interleaved.cuh"
#include "sluice/cuda/reduce/two_pass.cuh"
#include "sluice/cuda/reduce/vectorized.cuh"
#include "sluice/cuda/scan/billeter_scan.cuh"
#include "sluice/cuda/scan/brent_kung.cuh"
#include "sluice/cuda/scan/cub.cuh"
#include "sluice/cuda/scan/decoupled_lookback.cuh"
#include "sluice/cuda/scan/kogge_stone.cuh"
#include "sluice/cuda/scan/streaming.cuh"
#include "sluice/cuda/scan/three_phase_coarsened.cuh"
#include "sluice/cuda/scan/reduce_then_scan.cuh"
#include "sluice/cuda/sort/cub.cuh"
#include "sluice/cuda/split/multisplit.cuh"
#include "sluice/cuda/sort/onesweep.cuh"
#include "sluice/cuda/sort/split_radix.cuh"
#include "sluice/detail/params.hpp"
#include "sluice/error.hpp"

namespace sluice::cuda_backend {

// The papers' compaction and split variants (dispatch_papers.cuh): kept in their own function so the
// precompiled library builds them in their own translation units.
template <class T, class Sel>
void compact_papers(std::string_view algo, std::span<const T> in, std::span<T> out, Sel sel, std::uint64_t* count, CUstream_st* stream);
template <class T, class Sel>
void partition_papers(std::string_view algo, std::span<const T> in, std::span<T> out, Sel sel, std::uint64_t* count, CUstream_st* stream);

[[noreturn]] inline void no_variant(const char* fn, std::string_view algo) {
  throw error(errc::unsupported, std::string("sluice::") + fn + ": no CUDA variant named '" + std::string(algo) + "'");
}

template <class T, class Op>
void reduce(std::string_view algo, std::span<const T> in, T* result, T init, Op op, CUstream_st* stream) {
  constexpr const char* fn = "reduce";
  if (sluice::detail::base_name(algo) == "vectorized")
    return vectorized::run(in.data(), in.size(), result, init, op, stream, fn, vectorized::parse(algo, fn));
  if (algo == "two-pass") return two_pass::run(ptr_load<T>{in.data()}, in.size(), result, init, op, stream, fn);
  if (algo == "cub") return cub_peer::reduce(in, result, init, op, stream, fn);
  if (algo == "goddeke-multipass") return goddeke_multipass::run(in.data(), in.size(), result, init, op, stream, fn);
  if (algo == "tree-interleaved") return tree_interleaved::run(in.data(), in.size(), result, init, op, stream, fn);
  if (algo == "tree-contiguous") return tree_contiguous::run(in.data(), in.size(), result, init, op, stream, fn);
  if (algo == "partition-summarize") return partition_summarize::run(in.data(), in.size(), result, init, op, stream, fn);
  no_variant(fn, algo);
}

template <class T, class Op>
void scan(std::string_view algo, std::span<const T> in, std::span<T> out, bool inclusive, T init, Op op, CUstream_st* stream) {
  constexpr const char* fn = "scan";
  const std::string_view base = sluice::detail::base_name(algo);
  if (base == "decoupled-lookback") {  // the look-back carries 4- and 8-byte values; others take reduce-then-scan
    const auto pl = decoupled_lookback::parse_pipelining(algo, fn);
    if constexpr (sizeof(T) == 4 || sizeof(T) == 8)
      return decoupled_lookback::run(in.data(), out.data(), in.size(), inclusive, init, op, stream, fn, pl);
  }
  if (algo == "reduce-then-scan" || base == "decoupled-lookback")
    return reduce_then_scan::run(ptr_load<T>{in.data()}, ptr_store<T>{out.data()}, in.size(), inclusive, init, op, stream, fn);
  if (algo == "cub") return cub_peer::scan(in, out, inclusive, init, op, stream, fn);
  if (base == "kogge-stone") return kogge_stone::run(in.data(), out.data(), in.size(), inclusive, init, op, stream, fn, algo);
  if (base == "brent-kung") return brent_kung::run(in.data(), out.data(), in.size(), inclusive, init, op, stream, fn, algo);
  if (base == "three-phase-coarsened") return three_phase_coarsened::run(in.data(), out.data(), in.size(), inclusive, init, op, stream, fn, algo);
  if (base == "streaming") return streaming::run(in.data(), out.data(), in.size(), inclusive, init, op, stream, fn, algo);
  if (base == "billeter-scan")
    return billeter_scan::run(in.data(), out.data(), in.size(), inclusive, init, op, stream, fn, algo);
  no_variant(fn, algo);
}

template <class T, class Sel>
void compact(std::string_view algo, std::span<const T> in, std::span<T> out, Sel sel, std::uint64_t* count, CUstream_st* stream) {
  constexpr const char* fn = "compact";
  const std::string_view base = sluice::detail::base_name(algo);
  if (base == "decoupled-lookback") return select_lookback::compact(in, out, sel, count, stream, fn, algo);
  if (algo == "tile-atomic") return select_lookback::compact_unordered(in, out, sel, count, stream, fn);
  if (algo == "scan-scatter") return scan_scatter::compact(in, out, sel, count, stream, fn);
  if (algo == "warp-atomic") return warp_atomic::compact(in, out, sel, count, stream, fn);
  if (algo == "cub") return cub_peer::compact(in, out, sel, count, stream, fn);
  compact_papers(algo, in, out, sel, count, stream);
}

template <class T, class Sel>
void partition(std::string_view algo, std::span<const T> in, std::span<T> out, Sel sel, std::uint64_t* count, CUstream_st* stream) {
  constexpr const char* fn = "partition";
  if (sluice::detail::base_name(algo) == "decoupled-lookback") return select_lookback::partition(in, out, sel, count, stream, fn, algo);
  if (algo == "scan-scatter") return scan_scatter::partition(in, out, sel, count, stream, fn);
  if (algo == "cub") return cub_peer::partition(in, out, sel, count, stream, fn);
  partition_papers(algo, in, out, sel, count, stream);
}

template <class T, class Sel>
void partition_unordered(std::string_view algo, std::span<const T> in, std::span<T> out, Sel sel, std::uint64_t* count,
                         CUstream_st* stream) {
  constexpr const char* fn = "partition_unordered";
  if (sluice::detail::base_name(algo) == "decoupled-lookback")
    return select_lookback::partition_unordered(in, out, sel, count, stream, fn, algo);
  if (algo == "cub") return cub_peer::partition(in, out, sel, count, stream, fn, /*flip=*/false);
  throw error(errc::unsupported, std::string("sluice::") + fn + ": no CUDA variant named '" + std::string(algo) + "'");
}

template <class K, class V>
void radix_sort(std::string_view algo, std::span<K> keys, std::span<V> values, bool descending, int begin_bit, int end_bit,
                CUstream_st* stream) {
  constexpr const char* fn = "radix_sort";
  if (sluice::detail::base_name(algo) == "onesweep")
    return onesweep::radix_sort(keys, values, descending, begin_bit, end_bit, stream, fn, onesweep::parse_portion(algo, fn));
  if (algo == "cub") return cub_peer::radix_sort(keys, values, descending, begin_bit, end_bit, stream, fn);
  if (algo == "split-radix") return split_radix::radix_sort(keys, values, descending, begin_bit, end_bit, stream, fn);
  no_variant(fn, algo);
}

template <class T, class Bucket>
void split(std::string_view algo, std::span<const T> in, Bucket bucket_of, std::uint32_t k, std::span<T> out, std::span<std::uint64_t> offsets,
           CUstream_st* stream) {
  constexpr const char* fn = "split";
  if (sluice::detail::base_name(algo) == "multisplit") return multisplit::split(in, bucket_of, k, out, offsets, stream, fn, onesweep::parse_portion(algo, fn));
  no_variant(fn, algo);
}

}  // namespace sluice::cuda_backend
