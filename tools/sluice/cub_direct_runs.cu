// CUB's runs, by-key and segmented algorithms called directly, for the runs suite (cub_direct.hpp).
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>

#include "cub_direct.cuh"

namespace sluice::tool::cub_direct {

template <class K>
call unique(const K* in, K* out, std::uint64_t n, std::uint64_t* count, bool to_host) {
  return make(
      n, "cub::DeviceSelect::Unique",
      [=](void* t, std::size_t& b, auto items) { return cub::DeviceSelect::Unique(t, b, in, out, count, items); },
      to_host ? count : nullptr, sizeof *count);
}

template <class K, class V>
call unique_by_key(const K* keys, const V* values, K* out_keys, V* out_values, std::uint64_t n, std::uint64_t* count, bool to_host) {
  return make(
      n, "cub::DeviceSelect::UniqueByKey",
      [=](void* t, std::size_t& b, auto items) {
        return cub::DeviceSelect::UniqueByKey(t, b, keys, values, out_keys, out_values, count, items);
      },
      to_host ? count : nullptr, sizeof *count);
}

template <class K>
call run_length_encode(const K* in, K* out_unique, std::uint64_t* out_lengths, std::uint64_t n, std::uint64_t* count, bool to_host) {
  return make(
      n, "cub::DeviceRunLengthEncode::Encode",
      [=](void* t, std::size_t& b, auto items) { return cub::DeviceRunLengthEncode::Encode(t, b, in, out_unique, out_lengths, count, items); },
      to_host ? count : nullptr, sizeof *count);
}

template <class K, class V>
call reduce_by_key_sum(const K* keys, const V* values, K* out_keys, V* out_values, std::uint64_t n, std::uint64_t* count, bool to_host) {
  return make(
      n, "cub::DeviceReduce::ReduceByKey",
      [=](void* t, std::size_t& b, auto items) {
        return cub::DeviceReduce::ReduceByKey(t, b, keys, out_keys, values, out_values, count, ::cuda::std::plus<>{}, items);
      },
      to_host ? count : nullptr, sizeof *count);
}

template <class K, class V>
call inclusive_sum_by_key(const K* keys, const V* values, V* out, std::uint64_t n) {
  return make(n, "cub::DeviceScan::InclusiveSumByKey",
              [=](void* t, std::size_t& b, auto items) { return cub::DeviceScan::InclusiveSumByKey(t, b, keys, values, out, items); });
}

template <class T>
call segmented_sum(const T* in, T* out, const std::uint64_t* offsets, std::uint64_t segments) {
  return make(segments, "cub::DeviceSegmentedReduce::Sum", [=](void* t, std::size_t& b, auto items) {
    return cub::DeviceSegmentedReduce::Sum(t, b, in, out, static_cast<int>(items), offsets, offsets + 1);
  });
}

template call unique<std::uint32_t>(const std::uint32_t*, std::uint32_t*, std::uint64_t, std::uint64_t*, bool);
template call unique_by_key<std::uint32_t, std::uint32_t>(const std::uint32_t*, const std::uint32_t*, std::uint32_t*, std::uint32_t*,
                                                          std::uint64_t, std::uint64_t*, bool);
template call run_length_encode<std::uint32_t>(const std::uint32_t*, std::uint32_t*, std::uint64_t*, std::uint64_t, std::uint64_t*, bool);
template call reduce_by_key_sum<std::uint32_t, std::uint32_t>(const std::uint32_t*, const std::uint32_t*, std::uint32_t*, std::uint32_t*,
                                                              std::uint64_t, std::uint64_t*, bool);
template call inclusive_sum_by_key<std::uint32_t, std::uint32_t>(const std::uint32_t*, const std::uint32_t*, std::uint32_t*, std::uint64_t);
template call segmented_sum<std::uint32_t>(const std::uint32_t*, std::uint32_t*, const std::uint64_t*, std::uint64_t);

}  // namespace sluice::tool::cub_direct
