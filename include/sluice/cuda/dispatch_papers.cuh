// Definitions of the papers' compaction and split variants (declared in dispatch.cuh): each registry name
// to its variant, with the parameters written after the name ("roger:s=128") passed on to its policy.
#pragma once
#include "sluice/cuda/compact/billeter.cuh"
#include "sluice/cuda/compact/horn.cuh"
#include "sluice/cuda/compact/jumping_jack.cuh"
#include "sluice/cuda/compact/roger.cuh"
#include "sluice/cuda/compact/sort_compact.cuh"
#include "sluice/cuda/dispatch.cuh"
#include "sluice/cuda/partition/split.cuh"

namespace sluice::cuda_backend {

template <class T, class Sel>
void compact_papers(std::string_view algo, std::span<const T> in, std::span<T> out, Sel sel, std::uint64_t* count, CUstream_st* stream) {
  constexpr const char* fn = "compact";
  const std::string_view name = sluice::detail::base_name(algo);
  if (name == "horn") return horn::compact(in, out, sel, count, stream, fn);
  if (name == "roger") return roger::compact(in, out, sel, count, stream, fn, algo);
  if (name == "jumping-jack") return jumping_jack::compact(in, out, sel, count, stream, fn, algo);
  if (name == "billeter") return billeter::compact(in, out, sel, count, stream, fn, algo, billeter::output::selective);
  if (name == "billeter-staged") return billeter::compact(in, out, sel, count, stream, fn, algo, billeter::output::staged);
  if (name == "billeter-scattered") return billeter::compact(in, out, sel, count, stream, fn, algo, billeter::output::scattered);
  if (name == "billeter-buffered") return billeter::compact(in, out, sel, count, stream, fn, algo, billeter::output::buffered);
  if (name == "sort-compact") return sort_compact::compact(in, out, sel, count, stream, fn);
  no_variant(fn, algo);
}

template <class T, class Sel>
void partition_papers(std::string_view algo, std::span<const T> in, std::span<T> out, Sel sel, std::uint64_t* count, CUstream_st* stream) {
  constexpr const char* fn = "partition";
  if (sluice::detail::base_name(algo) == "split") return stream_split::partition(in, out, sel, count, stream, fn, algo);
  no_variant(fn, algo);
}

}  // namespace sluice::cuda_backend
