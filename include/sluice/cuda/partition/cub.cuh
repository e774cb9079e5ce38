// partition "cub": cub::DevicePartition::Flagged / If, the peer to beat. CUB writes the rejected elements in
// reverse order at the tail; a second kernel reverses that tail so the split is stable. partition_unordered
// "cub" (flip = false): CUB's partition alone, the tail left as CUB writes it.
#pragma once
#include <cub/device/device_partition.cuh>
#include <span>

#include "sluice/cuda/cub_call.cuh"
#include "sluice/cuda/reverse_tail.cuh"
#include "sluice/detail/select.hpp"

namespace sluice::cuda_backend::cub_peer {

template <class T, class Sel>
void partition(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn, bool flip = true) {
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
  if (!flip) return;
  reverse_tail_kernel<T><<<reverse_tail_grid(n), 256, 0, s>>>(out.data(), count, n);
  check_launch(fn, "reverse_tail_kernel");
}

}  // namespace sluice::cuda_backend::cub_peer
