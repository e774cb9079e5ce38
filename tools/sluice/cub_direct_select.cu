// CUB's selections and partitions called directly, for the production suite (cub_direct.hpp).
#include <cub/device/device_partition.cuh>
#include <cub/device/device_select.cuh>

#include "cub_direct.cuh"
#include "sluice/cuda/reverse_tail.cuh"
#include "sluice/detail/storage.hpp"

namespace sluice::tool::cub_direct {

template <class T>
struct below {
  T bound;
  __host__ __device__ bool operator()(const T& x) const { return x < bound; }
};

template <class T>
call select_flagged(const T* in, const std::uint8_t* flags, T* out, std::uint64_t n, std::uint64_t* count, bool to_host) {
  return make(
      n, "cub::DeviceSelect::Flagged",
      [=](void* t, std::size_t& b, auto items) { return cub::DeviceSelect::Flagged(t, b, in, flags, out, count, items); },
      to_host ? count : nullptr, sizeof *count);
}
// After CUB's partition (cudaSuccess, not a size query) and with `stable`: the rejected run reversed in place.
template <class T>
cudaError_t then_reverse(cudaError_t e, const void* temp, bool stable, T* out, const std::uint64_t* count, std::uint64_t n) {
  if (e != cudaSuccess || temp == nullptr || !stable) return e;
  cuda_backend::reverse_tail_kernel<T><<<cuda_backend::reverse_tail_grid(n), 256>>>(out, count, n);
  return cudaGetLastError();
}

template <class T>
call partition_flagged(const T* in, const std::uint8_t* flags, T* out, std::uint64_t n, std::uint64_t* count, bool to_host, bool stable) {
  return make(
      n, "cub::DevicePartition::Flagged",
      [=](void* t, std::size_t& b, auto items) {
        return then_reverse(cub::DevicePartition::Flagged(t, b, in, flags, out, count, items), t, stable, out, count, n);
      },
      to_host ? count : nullptr, sizeof *count);
}
template <class T>
call select_below(const T* in, T* out, std::uint64_t n, T bound, std::uint64_t* count, bool to_host) {
  return make(
      n, "cub::DeviceSelect::If",
      [=](void* t, std::size_t& b, auto items) { return cub::DeviceSelect::If(t, b, in, out, count, items, below<T>{bound}); },
      to_host ? count : nullptr, sizeof *count);
}
template <class T>
call partition_below(const T* in, T* out, std::uint64_t n, T bound, std::uint64_t* count, bool to_host, bool stable) {
  return make(
      n, "cub::DevicePartition::If",
      [=](void* t, std::size_t& b, auto items) {
        return then_reverse(cub::DevicePartition::If(t, b, in, out, count, items, below<T>{bound}), t, stable, out, count, n);
      },
      to_host ? count : nullptr, sizeof *count);
}

// The suite's cases (bench.cpp, production_moves): flags for every element type, the predicate for the
// arithmetic ones.
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using b128 = detail::storage<16, 16>;
template call select_flagged(const u32*, const std::uint8_t*, u32*, u64, u64*, bool);
template call select_flagged(const float*, const std::uint8_t*, float*, u64, u64*, bool);
template call select_flagged(const u64*, const std::uint8_t*, u64*, u64, u64*, bool);
template call select_flagged(const b128*, const std::uint8_t*, b128*, u64, u64*, bool);
template call partition_flagged(const u32*, const std::uint8_t*, u32*, u64, u64*, bool, bool);
template call partition_flagged(const float*, const std::uint8_t*, float*, u64, u64*, bool, bool);
template call partition_flagged(const u64*, const std::uint8_t*, u64*, u64, u64*, bool, bool);
template call partition_flagged(const b128*, const std::uint8_t*, b128*, u64, u64*, bool, bool);
template call select_below(const u32*, u32*, u64, u32, u64*, bool);
template call select_below(const float*, float*, u64, float, u64*, bool);
template call select_below(const u64*, u64*, u64, u64, u64*, bool);
template call partition_below(const u32*, u32*, u64, u32, u64*, bool, bool);
template call partition_below(const float*, float*, u64, float, u64*, bool, bool);
template call partition_below(const u64*, u64*, u64, u64, u64*, bool, bool);

}  // namespace sluice::tool::cub_direct
