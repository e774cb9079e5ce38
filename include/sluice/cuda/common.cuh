// What every CUDA variant shares: launch checks, ceil division, loads and stores through functors.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "sluice/cuda/backend.hpp"
#include "sluice/types.hpp"

namespace sluice::cuda_backend {

using u64 = std::uint64_t;

inline void check_launch(const char* fn, const char* kernel) { check_cuda(cudaGetLastError(), fn, kernel); }

__host__ __device__ constexpr u64 ceil_div(u64 a, u64 b) { return (a + b - 1) / b; }

template <class T>
struct ptr_load {
  const T* p;
  __device__ T operator()(u64 i) const { return p[i]; }
};
template <class T>
struct ptr_store {
  T* p;
  __device__ void operator()(u64 i, const T& v) const { p[i] = v; }
};

// Grid of chunks: at most `blocks_per_sm` resident blocks per SM, each a contiguous run of whole tiles.
struct chunking {
  u64 tiles, blocks, tiles_per_block;
  chunking(u64 n, u64 tile, int sms, int blocks_per_sm) {
    tiles = ceil_div(n, tile);
    const u64 cap = static_cast<u64>(sms) * blocks_per_sm;
    blocks = tiles < cap ? tiles : cap;
    tiles_per_block = blocks ? ceil_div(tiles, blocks) : 0;
    blocks = tiles_per_block ? ceil_div(tiles, tiles_per_block) : 0;  // no empty chunk
  }
};

}  // namespace sluice::cuda_backend
