// reduce "partition-summarize" (GPU Teaching Kit, Module 9.1): "partition the data set into smaller chunks,
// have each thread process a chunk, use a reduction tree to summarize the results from each chunk". Each of
// P = blocks x block_size threads reduces one contiguous chunk of ceil(n / P) elements sequentially, then
// the block summarizes its threads' results with the Module 9.3 tree, then one more launch does the same over
// the block results. The kit assumes an associative and commutative operator (the 9.3 tree pairs
// non-neighbours). Chunks are contiguous per thread, so a warp's loads are strided: the kit's pattern, kept.
#pragma once
#include "sluice/cuda/reduce/multipass.cuh"

namespace sluice::cuda_backend::partition_summarize {

struct policy {
  static constexpr int block_size = 256;
  static constexpr int blocks_per_sm = 8;
};

template <int B, class T, class Op>
__global__ void __launch_bounds__(B) reduce_kernel(const T* input, u64 n, u64 chunk, Op op, T* partials) {
  __shared__ T summary[B];
  const unsigned t = threadIdx.x;
  const u64 first = (blockIdx.x * static_cast<u64>(B) + t) * chunk;
  // Partition: this thread's chunk, reduced sequentially. Threads whose chunk is empty come last.
  const bool has = first < n;
  if (has) {
    const u64 last = first + chunk < n ? first + chunk : n;
    T acc = input[first];
    for (u64 i = first + 1; i < last; ++i) acc = op(acc, input[i]);
    summary[t] = acc;
  }
  const u64 block_first = blockIdx.x * static_cast<u64>(B) * chunk;
  unsigned valid = static_cast<unsigned>(ceil_div(n - block_first, chunk) < B ? ceil_div(n - block_first, chunk) : B);
  // Summarize: the Module 9.3 tree over the block's chunk results.
  for (unsigned stride = B / 2; stride > 0; stride /= 2) {
    __syncthreads();
    if (t < stride && t + stride < valid) summary[t] = op(summary[t], summary[t + stride]);
    valid = valid < stride ? valid : stride;
  }
  if (t == 0) partials[blockIdx.x] = summary[0];
}

template <class T, class Op>
void run(const T* in, u64 n, T* result, T init, Op op, cudaStream_t s, const char* fn) {
  constexpr int B = policy::block_size;
  const u64 threads = static_cast<u64>(multiprocessor_count(fn)) * policy::blocks_per_sm * B;
  // Each pass spreads its m values over up to `threads` threads; later passes (few values) take one block.
  auto chunk_for = [threads](u64 m) { return ceil_div(m, threads); };
  auto blocks_for = [&](u64 m) { return ceil_div(ceil_div(m, chunk_for(m)), B); };
  multipass::run(in, n, result, init, op, s, fn, blocks_for, [&](const T* src, u64 m, T* dst, u64 blocks) {
    reduce_kernel<B><<<static_cast<unsigned>(blocks), B, 0, s>>>(src, m, chunk_for(m), op, dst);
    check_launch(fn, "partition_summarize::reduce_kernel");
  });
}

}  // namespace sluice::cuda_backend::partition_summarize
