// compact "horn" (Horn 2005, GPU Gems 2 ch. 36, as described by Roger et al. 2007 Sec. II / Fig. 2-3 and
// Moreira et al. 2009 Sec. 3.3): compaction without scatter. A prefix sum over the whole stream counts the
// discarded elements in [0, j] (pSum[j]); then each output position i gathers its element by a binary
// search for the j with j - pSum[j] = i (j - pSum[j] never decreases), between i + pSum[i] and i + pSum[n-1].
// O(n log n) work. Stable; not in place. Scratch: one 64-bit prefix sum per element.
// Moves: reads the input once (+ flags) for the sum, 8 bytes of sum per element written and read ~log n
// times by the searches, and the kept elements once each way.
#pragma once
#include <span>

#include "sluice/cuda/scan/reduce_then_scan.cuh"

namespace sluice::cuda_backend::horn {

struct policy {
  static constexpr int threads = 256;  // gather kernel
};

template <class T, class Sel>
struct discard_load {
  const T* in;
  Sel sel;
  __device__ u64 operator()(u64 i) const { return sel(i, in[i]) ? 0 : 1; }
};

// Gather: output position i finds the smallest j with j - pSum[j] >= i, which is the i-th kept element
// (compared as j >= i + pSum[j]: before the first kept element j - pSum[j] is -1).
template <class T>
__global__ void __launch_bounds__(policy::threads) gather_kernel(const T* in, const u64* pSum, u64 n, T* out, u64 capacity, u64* count) {
  const u64 discarded = pSum[n - 1];
  const u64 kept = n - discarded;
  const u64 first = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x;
  if (first == 0) *count = kept;
  const u64 limit = kept < capacity ? kept : capacity;
  for (u64 i = first; i < limit; i += static_cast<u64>(gridDim.x) * blockDim.x) {
    u64 lower = i + pSum[i], upper = i + discarded;  // j_i lies in [lower, upper]
    while (lower < upper) {
      const u64 j = lower + (upper - lower) / 2;
      if (j < i + pSum[j]) lower = j + 1;
      else upper = j;
    }
    out[i] = in[lower];
  }
}

template <class T, class Sel>
void compact(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn) {
  const u64 n = in.size();
  if (n == 0) return check_cuda(cudaMemsetAsync(count, 0, sizeof(u64), s), fn, "cudaMemsetAsync");
  scratch pSum(n * sizeof(u64), s, fn);
  // Prefix sum of the discarded elements.
  reduce_then_scan::run<u64>(discard_load<T, Sel>{in.data(), sel}, ptr_store<u64>{pSum.as<u64>()}, n, /*inclusive=*/true, u64{0},
                             sluice::sum{}, s, fn);
  // Binary search per output position (the host does not know the kept count: launch for n, exit early).
  const u64 blocks = ceil_div(n, policy::threads);
  gather_kernel<<<static_cast<unsigned>(blocks < (u64{1} << 30) ? blocks : (u64{1} << 30)), policy::threads, 0, s>>>(
      in.data(), pSum.as<u64>(), n, out.data(), out.size(), count);
  check_launch(fn, "horn::gather_kernel");
}

}  // namespace sluice::cuda_backend::horn
