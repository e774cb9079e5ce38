// One reversal of a partition's tail, shared by the partitions whose single pass writes the rejected elements
// from the end of the output backwards (decoupled-lookback's reversed pass, and the CUB peer: CUB's partition
// does the same), so that both sides end in input order.
#pragma once
#include "sluice/cuda/common.cuh"

namespace sluice::cuda_backend {

// Reverses out[*kept, n) in place; where `when` is not null, only if *when is non-zero (a choice made on the
// device). Launch with reverse_tail_grid(n) blocks of 256 threads: one pair per thread while there are at most
// 2^24 pairs (a grid for the most the tail can hold; threads past the tail's middle end at once).
template <class T>
__global__ void reverse_tail_kernel(T* out, const u64* kept, u64 n, const unsigned* when) {
  if (when && *when == 0) return;
  const u64 first = *kept, len = n - first;
  for (u64 j = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; j < len / 2; j += static_cast<u64>(gridDim.x) * blockDim.x) {
    const T a = out[first + j];
    out[first + j] = out[n - 1 - j];
    out[n - 1 - j] = a;
  }
}
inline unsigned reverse_tail_grid(u64 n) {
  const u64 pairs = n / 2, most = u64{65536} * 256;
  return static_cast<unsigned>(ceil_div(pairs == 0 ? 1 : pairs < most ? pairs : most, 256));
}

}  // namespace sluice::cuda_backend
