// reduce "cub": cub::DeviceReduce::Reduce, the peer to beat.
#pragma once
#include <cub/device/device_reduce.cuh>
#include <span>

#include "sluice/cuda/cub_call.cuh"

namespace sluice::cuda_backend::cub_peer {

template <class T, class Op>
void reduce(std::span<const T> in, T* result, T init, Op op, cudaStream_t s, const char* fn) {
  with_cub_count(in.size(), [&](auto n) {
    cub_call([&](void* t, std::size_t& b) { return cub::DeviceReduce::Reduce(t, b, in.data(), result, n, cub_op<T>(op), init, s); },
             s, fn, "cub::DeviceReduce::Reduce");
  });
}

}  // namespace sluice::cuda_backend::cub_peer
