// scan "cub": cub::DeviceScan (single pass, decoupled look-back), the peer to beat.
#pragma once
#include <cub/device/device_scan.cuh>
#include <span>

#include "sluice/cuda/cub_call.cuh"

namespace sluice::cuda_backend::cub_peer {

template <class T, class Op>
void scan(std::span<const T> in, std::span<T> out, bool inclusive, T init, Op op, cudaStream_t s, const char* fn) {
  if (in.empty()) return;
  with_cub_count(in.size(), [&](auto n) {
    if (inclusive)
      cub_call([&](void* t, std::size_t& b) { return cub::DeviceScan::InclusiveScan(t, b, in.data(), out.data(), cub_op<T>(op), n, s); },
               s, fn, "cub::DeviceScan::InclusiveScan");
    else
      cub_call([&](void* t, std::size_t& b) { return cub::DeviceScan::ExclusiveScan(t, b, in.data(), out.data(), cub_op<T>(op), init, n, s); },
               s, fn, "cub::DeviceScan::ExclusiveScan");
  });
}

}  // namespace sluice::cuda_backend::cub_peer
