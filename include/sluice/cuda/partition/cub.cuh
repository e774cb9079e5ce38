// partition "cub": cub::DevicePartition::Flagged / If, the peer to beat. CUB writes the rejected elements in
// reverse order at the tail; a second kernel reverses that tail so the split is stable.
#pragma once
#include <cub/device/device_partition.cuh>
#include <span>

#include "sluice/cuda/cub_call.cuh"
#include "sluice/detail/select.hpp"

namespace sluice::cuda_backend::cub_peer {

template <class T>
__global__ void reverse_tail_kernel(T* out, const u64* kept, u64 n) {
  const u64 first = *kept, len = n - first;
  for (u64 j = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; j < len / 2; j += static_cast<u64>(gridDim.x) * blockDim.x) {
    const T a = out[first + j];
    out[first + j] = out[n - 1 - j];
    out[n - 1 - j] = a;
  }
}

template <class T, class Sel>
void partition(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn) {
  const u64 n = in.size();
  if (n == 0) return check_cuda(cudaMemsetAsync(count, 0, sizeof(u64), s), fn, "cudaMemsetAsync");
  with_cub_count(n, [&](auto items) {
    if constexpr (std::is_same_v<Sel, sluice::detail::flag_select>)
      cub_call([&](void* t, std::size_t& b) { return cub::DevicePartition::Flagged(t, b, cub_ptr(in.data()), sel.flags, cub_ptr(out.data()), count, items, s); },
               s, fn, "cub::DevicePartition::Flagged");
    else
      cub_call([&](void* t, std::size_t& b) { return cub::DevicePartition::If(t, b, in.data(), out.data(), count, items, sel.pred, s); },
               s, fn, "cub::DevicePartition::If");
  });
  const u64 pairs = n / 2;
  reverse_tail_kernel<<<static_cast<unsigned>(ceil_div(pairs < 65536 * 256 ? (pairs ? pairs : 1) : 65536 * 256, 256)), 256, 0, s>>>(out.data(), count, n);
  check_launch(fn, "cub_peer::reverse_tail_kernel");
}

}  // namespace sluice::cuda_backend::cub_peer
