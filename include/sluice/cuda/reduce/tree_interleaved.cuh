// reduce "tree-interleaved" (GPU Teaching Kit, Module 9.2, "A Basic Reduction Kernel"): each block loads
// 2 x blockDim elements into shared memory (partialSum[t], partialSum[BLOCK_SIZE + t]) and, for stride = 1,
// 2, 4, ... blockDim, thread t with t % stride == 0 combines partialSum[2t] with partialSum[2t + stride].
// The divergent version, on purpose. Neighbours combine in order: any associative operator works.
// Without an identity, a partial last tile combines only its valid prefix. Multi-pass over block partials.
#pragma once
#include "sluice/cuda/reduce/multipass.cuh"

namespace sluice::cuda_backend::tree_interleaved {

struct policy {
  static constexpr int block_size = 1024;  // the kit's limit: a block reduces at most 2048 elements
};

template <int B, class T, class Op>
__global__ void __launch_bounds__(B) reduce_kernel(const T* input, u64 n, Op op, T* partials) {
  __shared__ T partial_sum[2 * B];
  const unsigned t = threadIdx.x;
  const unsigned valid = multipass::load_tile<B>(input, n, partial_sum);
  for (unsigned stride = 1; stride <= B; stride *= 2) {
    __syncthreads();
    if (t % stride == 0 && 2 * t + stride < valid) partial_sum[2 * t] = op(partial_sum[2 * t], partial_sum[2 * t + stride]);
  }
  if (t == 0) partials[blockIdx.x] = partial_sum[0];
}

template <class T, class Op>
void run(const T* in, u64 n, T* result, T init, Op op, cudaStream_t s, const char* fn) {
  constexpr int B = policy::block_size;
  multipass::run_tiles<B>(reduce_kernel<B, T, Op>, "tree_interleaved::reduce_kernel", in, n, result, init, op, s, fn);
}

}  // namespace sluice::cuda_backend::tree_interleaved
