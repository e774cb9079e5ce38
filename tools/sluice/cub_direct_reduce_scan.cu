// CUB's reduce and scans called directly, for the production suite (cub_direct.hpp).
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include "cub_direct.cuh"

namespace sluice::tool::cub_direct {

template <class T>
call reduce_sum(const T* in, std::uint64_t n, T* result, bool to_host) {
  return make(
      n, "cub::DeviceReduce::Sum",
      [=](void* t, std::size_t& b, auto items) { return cub::DeviceReduce::Sum(t, b, in, result, items); }, to_host ? result : nullptr,
      sizeof(T));
}
template <class T>
call inclusive_sum(const T* in, T* out, std::uint64_t n) {
  return make(n, "cub::DeviceScan::InclusiveSum",
              [=](void* t, std::size_t& b, auto items) { return cub::DeviceScan::InclusiveSum(t, b, in, out, items); });
}
template <class T>
call exclusive_sum(const T* in, T* out, std::uint64_t n) {
  return make(n, "cub::DeviceScan::ExclusiveSum",
              [=](void* t, std::size_t& b, auto items) { return cub::DeviceScan::ExclusiveSum(t, b, in, out, items); });
}

// The suite's cases (bench.cpp, production_suite).
template call reduce_sum(const std::uint32_t*, std::uint64_t, std::uint32_t*, bool);
template call reduce_sum(const float*, std::uint64_t, float*, bool);
template call inclusive_sum(const std::uint32_t*, std::uint32_t*, std::uint64_t);
template call inclusive_sum(const float*, float*, std::uint64_t);
template call exclusive_sum(const std::uint32_t*, std::uint32_t*, std::uint64_t);

}  // namespace sluice::tool::cub_direct
