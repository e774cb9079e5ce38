// The host side the teaching kit's tree reductions share (Module 9.2, "Back to the global picture"):
// each launch reduces every block's tile to one partial, and "the host code may iterate and launch another
// kernel" over the partials until one value is left, which is finally combined with init.
#pragma once
#include "sluice/cuda/common.cuh"

namespace sluice::cuda_backend::multipass {

template <class T, class Op>
__global__ void finish_kernel(const T* last, u64 m, T init, Op op, T* result) {
  *result = m == 0 ? init : op(init, *last);
}

// blocks_for(m): how many partials one launch makes of m values (fewer than m when m > 1);
// launch(src, m, dst, blocks) makes them.
template <class T, class Op, class BlocksFor, class Launch>
void run(const T* in, u64 n, T* result, T init, Op op, cudaStream_t s, const char* fn, BlocksFor&& blocks_for, Launch&& launch) {
  const T* src = in;
  u64 m = n;
  scratch ping, pong;
  bool use_ping = true;
  while (m > 1) {
    const u64 blocks = blocks_for(m);
    scratch& dst = use_ping ? ping : pong;
    if (dst.as<T>() == nullptr) dst = scratch(blocks * sizeof(T), s, fn);  // each buffer's first pass is its largest
    launch(src, m, dst.as<T>(), blocks);
    src = dst.as<T>();
    m = blocks;
    use_ping = !use_ping;
  }
  finish_kernel<<<1, 1, 0, s>>>(src, m, init, op, result);
  check_launch(fn, "multipass::finish_kernel");
}

// The tile of the kit's tree kernels (Modules 9.2 and 9.3): block b loads the valid ones of its 2 x B elements,
// partialSum[t] and partialSum[B + t]; returns how many are valid.
template <int B, class T>
__device__ unsigned load_tile(const T* input, u64 n, T* partial_sum) {
  const unsigned t = threadIdx.x;
  const u64 base = blockIdx.x * (2 * static_cast<u64>(B));
  const unsigned valid = n - base < 2 * static_cast<u64>(B) ? static_cast<unsigned>(n - base) : 2 * B;
  if (t < valid) partial_sum[t] = input[base + t];
  if (B + t < valid) partial_sum[B + t] = input[base + B + t];
  return valid;
}

// run() with one such tree kernel per pass: every pass makes one partial per tile of 2 x B values.
template <int B, class T, class Op>
void run_tiles(void (*tree_kernel)(const T*, u64, Op, T*), const char* kernel_name, const T* in, u64 n, T* result, T init, Op op,
               cudaStream_t s, const char* fn) {
  auto blocks_for = [](u64 m) { return ceil_div(m, 2 * static_cast<u64>(B)); };
  run(in, n, result, init, op, s, fn, blocks_for, [&](const T* src, u64 m, T* dst, u64 blocks) {
    tree_kernel<<<static_cast<unsigned>(blocks), B, 0, s>>>(src, m, op, dst);
    check_launch(fn, kernel_name);
  });
}

}  // namespace sluice::cuda_backend::multipass
