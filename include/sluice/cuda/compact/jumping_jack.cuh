// compact_unordered "jumping-jack" (Moreira, Reis, de Sousa 2009, "Jumping Jack", Sec. 4, Algorithm 2):
// non-monotonic compaction. In a block of s elements with v valid ones, pSum[i] counts the invalid elements
// in [0, i] and MAS[i] = s - pSum[i] (Eq. 1) is the max-allowable-size: the first index that surely lies
// past the compacted block. Each position i < v = MAS[s - 1] keeps its element when it is valid, else it
// jumps idx <- MAS[idx] until it lands on a valid one; every position finds a different valid element, and
// the total work is at most s - v jumps, although one position may take up to s - 1 (a single valid element
// in the middle of the block). The blocks are concatenated as in `roger` (block_compaction.cuh; Sec. 3.4).
// Order is not kept; not in place. Parameters: s (2..1024, power of two; default 256, Sec. 6 Fig. 11),
// scan=blelloch|hillis-steele (the MAS prefix sum). Moves: as `roger`.
#pragma once
#include <span>

#include "sluice/cuda/compact/block_compaction.cuh"

namespace sluice::cuda_backend::jumping_jack {

inline constexpr unsigned default_s = 256;  // the block size of the paper's Fig. 11

template <class T, class Sel>
__global__ void __launch_bounds__(block_compaction::policy::max_block)
    compact_blocks_kernel(const T* in, Sel sel, u64 n, T* staged, unsigned* counts, unsigned s, block_compaction::in_block_scan scan) {
  constexpr unsigned max_block = block_compaction::policy::max_block;
  __shared__ unsigned a[max_block], b[max_block];
  __shared__ unsigned char valid[max_block];
  __shared__ alignas(T) unsigned char x_bytes[max_block * sizeof(T)];  // raw: T need not be default-constructible
  T* x = reinterpret_cast<T*>(x_bytes);
  const unsigned t = threadIdx.x, seg = t & ~(s - 1), local = t & (s - 1);
  for (u64 base = static_cast<u64>(blockIdx.x) * blockDim.x; base < n; base += static_cast<u64>(gridDim.x) * blockDim.x) {
    const u64 i = base + t;
    bool keep = false;
    if (i < n) {  // past the end counts as invalid
      x[t] = in[i];
      keep = sel(i, x[t]);
    }
    valid[t] = keep;
    a[t] = keep ? 0u : 1u;
    __syncthreads();
    const unsigned* pSum = block_compaction::segment_scan(scan, a, b, s) + seg;
    // Algorithm 2, with MAS[i] = s - pSum[i] computed on the fly.
    const unsigned v = s - pSum[s - 1];
    if (local < v) {
      unsigned idx = local;
      while (!valid[seg + idx]) idx = s - pSum[idx];
      staged[base + t] = x[seg + idx];
    }
    if (local == 0 && base + seg < n) counts[(base + seg) / s] = v;
    __syncthreads();  // before the next tile overwrites shared memory
  }
}

template <class T, class Sel>
void compact(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn, std::string_view spec) {
  const auto pol = block_compaction::policy::parse(spec, fn, default_s);
  block_compaction::run<T>(in.size(), out.data(), out.size(), count, pol,
                           [&](T* staged, unsigned* counts, unsigned threads, unsigned grid) {
                             compact_blocks_kernel<<<grid, threads, 0, s>>>(in.data(), sel, in.size(), staged, counts, pol.s, pol.scan);
                             check_launch(fn, "jumping_jack::compact_blocks_kernel");
                           },
                           s, fn);
}

}  // namespace sluice::cuda_backend::jumping_jack
