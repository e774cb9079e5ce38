// reduce "tree-contiguous" (GPU Teaching Kit, Module 9.3, "A Better Reduction Kernel"): the same 2 x blockDim
// tile, but for stride = blockDim, blockDim / 2, ... 1, thread t < stride combines partialSum[t] with
// partialSum[t + stride], keeping the active threads consecutive (no divergence until the last 5 steps).
// It pairs elements that are not neighbours, so, as the kit says, the operator must be commutative as
// well as associative (all built-in operators are). Without an identity, a partial tile combines only its
// valid prefix. Multi-pass over block partials.
#pragma once
#include "sluice/cuda/reduce/multipass.cuh"

namespace sluice::cuda_backend::tree_contiguous {

struct policy {
  static constexpr int block_size = 1024;
};

template <int B, class T, class Op>
__global__ void __launch_bounds__(B) reduce_kernel(const T* input, u64 n, Op op, T* partials) {
  __shared__ T partial_sum[2 * B];
  const unsigned t = threadIdx.x;
  unsigned valid = multipass::load_tile<B>(input, n, partial_sum);
  for (unsigned stride = B; stride > 0; stride /= 2) {
    __syncthreads();
    if (t < stride && t + stride < valid) partial_sum[t] = op(partial_sum[t], partial_sum[t + stride]);
    valid = valid < stride ? valid : stride;  // what is left valid: partialSum[0 .. min(valid, stride))
  }
  if (t == 0) partials[blockIdx.x] = partial_sum[0];
}

template <class T, class Op>
void run(const T* in, u64 n, T* result, T init, Op op, cudaStream_t s, const char* fn) {
  constexpr int B = policy::block_size;
  multipass::run_tiles<B>(reduce_kernel<B, T, Op>, "tree_contiguous::reduce_kernel", in, n, result, init, op, s, fn);
}

}  // namespace sluice::cuda_backend::tree_contiguous
