// One reversal of a partition's tail, shared by the partitions whose single pass writes the rejected elements
// from the end of the output backwards (decoupled-lookback's reversed pass, and the CUB peer: CUB's partition
// does the same), so that both sides end in input order.
#pragma once
#include "sluice/cuda/common.cuh"

namespace sluice::cuda_backend {

// The block's share of reversing out[first, n) in place: chunks of blockDim.x * Batch pairs, block b taking
// chunks b, b + gridDim.x, ...; each thread loads its Batch pairs (j and its mirror n - 1 - j) before it
// stores any, so that many loads are in flight at once.
template <class T, unsigned Batch>
__device__ void reverse_range(T* out, u64 first, u64 n) {
  const u64 pairs = (n - first) / 2, chunk = static_cast<u64>(blockDim.x) * Batch;
  for (u64 c = blockIdx.x * chunk; c < pairs; c += static_cast<u64>(gridDim.x) * chunk) {
    T a[Batch], b[Batch];
#pragma unroll
    for (unsigned k = 0; k < Batch; ++k) {
      const u64 j = c + k * blockDim.x + threadIdx.x;
      if (j < pairs) a[k] = out[first + j], b[k] = out[n - 1 - j];
    }
#pragma unroll
    for (unsigned k = 0; k < Batch; ++k) {
      const u64 j = c + k * blockDim.x + threadIdx.x;
      if (j < pairs) out[first + j] = b[k], out[n - 1 - j] = a[k];
    }
  }
}

// Pairs a thread loads before it stores (reverse_range): 4 measured 1.2-1.6x faster than 1 (CUB's own layout).
inline constexpr unsigned reverse_tail_batch = 4;

// Reverses out[*kept, n) in place. Launch with reverse_tail_grid(n) blocks of 256 threads: a chunk of
// 256 * reverse_tail_batch pairs each while there are at most 2^25 pairs (a grid for the most the tail can
// hold; blocks past the tail's middle end at once), and as many chunks a block as it takes past that.
template <class T>
__global__ void reverse_tail_kernel(T* out, const u64* kept, u64 n) {
  reverse_range<T, reverse_tail_batch>(out, *kept, n);
}
inline unsigned reverse_tail_grid(u64 n) {
  const u64 pairs = n / 2, most = u64{1} << 25;
  return static_cast<unsigned>(ceil_div(pairs == 0 ? 1 : pairs < most ? pairs : most, u64{256} * reverse_tail_batch));
}

}  // namespace sluice::cuda_backend
