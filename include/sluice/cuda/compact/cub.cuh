// compact "cub": cub::DeviceSelect::Flagged / If, the peer to beat. CUB writes every selected element, so
// when out is shorter than the input it selects into scratch and copies the prefix that fits.
#pragma once
#include <cub/device/device_select.cuh>
#include <span>

#include "sluice/cuda/cub_call.cuh"
#include "sluice/detail/select.hpp"

namespace sluice::cuda_backend::cub_peer {

template <class T>
__global__ void copy_prefix_kernel(const T* from, T* to, const u64* count, u64 capacity) {
  const u64 m = *count < capacity ? *count : capacity;
  for (u64 i = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; i < m; i += static_cast<u64>(gridDim.x) * blockDim.x)
    to[i] = from[i];
}

template <class T, class Sel>
void compact(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn) {
  const u64 n = in.size();
  if (n == 0) return check_cuda(cudaMemsetAsync(count, 0, sizeof(u64), s), fn, "cudaMemsetAsync");
  scratch full;
  T* dst = out.data();
  if (out.size() < n) {
    full = scratch(n * sizeof(T), s, fn);
    dst = full.as<T>();
  }
  with_cub_count(n, [&](auto items) {
    if constexpr (std::is_same_v<Sel, sluice::detail::flag_select>)
      cub_call([&](void* t, std::size_t& b) { return cub::DeviceSelect::Flagged(t, b, cub_ptr(in.data()), sel.flags, cub_ptr(dst), count, items, s); },
               s, fn, "cub::DeviceSelect::Flagged");
    else
      cub_call([&](void* t, std::size_t& b) { return cub::DeviceSelect::If(t, b, in.data(), dst, count, items, sel.pred, s); },
               s, fn, "cub::DeviceSelect::If");
  });
  if (dst != out.data() && !out.empty()) {
    copy_prefix_kernel<<<static_cast<unsigned>(ceil_div(out.size() < 65536 * 256 ? out.size() : 65536 * 256, 256)), 256, 0, s>>>(
        dst, out.data(), count, out.size());
    check_launch(fn, "cub_peer::copy_prefix_kernel");
  }
}

}  // namespace sluice::cuda_backend::cub_peer
