// compact_unordered "warp-atomic": each warp takes 32 consecutive elements, ballots the keep bits, and its
// first lane reserves popc(ballot) output slots with one atomicAdd on the running count; lanes write at
// their rank in the ballot. Warps land in any order, so the output order is not kept.
// One kernel; reads the input once (+ flags), writes the kept elements once.
#pragma once
#include <span>

#include "sluice/cuda/common.cuh"

namespace sluice::cuda_backend::warp_atomic {

struct policy {
  static constexpr int threads = 256;
  static constexpr int blocks_per_sm = 8;
};

template <class T, class Sel>
__global__ void __launch_bounds__(policy::threads) compact_kernel(const T* in, T* out, Sel sel, u64 n, u64 capacity,
                                                                  unsigned long long* count) {
  const unsigned lane = threadIdx.x & 31u;
  const u64 warp = (static_cast<u64>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const u64 warps = (static_cast<u64>(gridDim.x) * blockDim.x) >> 5;
  for (u64 base = warp * 32; base < n; base += warps * 32) {  // warp-uniform loop: every lane ballots
    const u64 i = base + lane;
    bool keep = false;
    T x{};
    if (i < n) {
      x = in[i];
      keep = sel(i, x);
    }
    const unsigned mask = __ballot_sync(0xffffffffu, keep);
    unsigned long long start = 0;
    if (lane == 0 && mask != 0) start = atomicAdd(count, static_cast<unsigned long long>(__popc(mask)));
    start = __shfl_sync(0xffffffffu, start, 0);
    if (keep) {
      const u64 position = start + __popc(mask & ((1u << lane) - 1u));
      if (position < capacity) out[position] = x;
    }
  }
}

template <class T, class Sel>
void compact(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn) {
  static_assert(sizeof(unsigned long long) == sizeof(u64));
  check_cuda(cudaMemsetAsync(count, 0, sizeof(u64), s), fn, "cudaMemsetAsync");
  const u64 n = in.size();
  if (n == 0) return;
  const u64 cap = static_cast<u64>(multiprocessor_count(fn)) * policy::blocks_per_sm;
  const u64 need = ceil_div(n, policy::threads);
  compact_kernel<<<static_cast<unsigned>(need < cap ? need : cap), policy::threads, 0, s>>>(
      in.data(), out.data(), sel, n, out.size(), reinterpret_cast<unsigned long long*>(count));
  check_launch(fn, "warp_atomic::compact_kernel");
}

}  // namespace sluice::cuda_backend::warp_atomic
