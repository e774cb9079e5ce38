// compact "roger" (Roger, Assarsson, Holzschuch 2007, "Efficient stream reduction on the GPU", Sec. III):
// hierarchical stream reduction. The stream is split into blocks of s elements (default 64, Sec. V-A);
// in each block a prefix sum counts the empty elements before each element (Sec. III-B1, Hillis-Steele or
// Blelloch), and every output position i finds its input element by the improved dichotomic search of
// Fig. 5 (conditional loop, bounds tightened by the contraction |j - j_i| >= |j - pSum[j] - i|). The
// compacted blocks are then concatenated (block_compaction.cuh): a prefix sum over the blocks' counts and a
// block-wise move in place of the paper's line drawing (Sec. III-C).
// Stable; not in place. Parameters: s (2..1024, power of two), scan=blelloch|hillis-steele.
// Moves: reads the input once (+ flags), writes n staged elements, reads and writes the kept ones again.
#pragma once
#include <span>

#include "sluice/cuda/compact/block_compaction.cuh"

namespace sluice::cuda_backend::roger {

inline constexpr unsigned default_s = 64;  // Sec. V-A: "the best block size was 64 in all our experiments"

// Fig. 5: the input index j_i of output position i in a block of s elements; pSum[j] counts the empty
// elements in [0, j]. Returns s when the block has no element for position i.
__device__ inline unsigned dichotomic_search(const unsigned* pSum, const unsigned char* wanted, unsigned i, unsigned s) {
  int lower = static_cast<int>(i + pSum[i]);
  int upper = static_cast<int>(i + pSum[s - 1]);
  if (upper > static_cast<int>(s) - 1) return s;  // no element at position i
  int j = (lower + upper) / 2;
  int found = j - static_cast<int>(pSum[j]) - static_cast<int>(i);
  while (found != 0 || !wanted[j]) {
    if (found < 0) lower = j - found;
    else upper = j - (found > 1 ? found : 1);
    j = (lower + upper) / 2;
    found = j - static_cast<int>(pSum[j]) - static_cast<int>(i);
  }
  return static_cast<unsigned>(j);
}

template <class T, class Sel>
__global__ void __launch_bounds__(block_compaction::policy::max_block)
    reduce_blocks_kernel(const T* in, Sel sel, u64 n, T* staged, unsigned* counts, unsigned s, block_compaction::in_block_scan scan) {
  constexpr unsigned max_block = block_compaction::policy::max_block;
  __shared__ unsigned a[max_block], b[max_block];
  __shared__ unsigned char wanted[max_block];
  __shared__ alignas(T) unsigned char x_bytes[max_block * sizeof(T)];  // raw: T need not be default-constructible
  T* x = reinterpret_cast<T*>(x_bytes);
  const unsigned t = threadIdx.x, seg = t & ~(s - 1), local = t & (s - 1);
  for (u64 base = static_cast<u64>(blockIdx.x) * blockDim.x; base < n; base += static_cast<u64>(gridDim.x) * blockDim.x) {
    const u64 i = base + t;
    bool keep = false;
    if (i < n) {  // past the end counts as empty
      x[t] = in[i];
      keep = sel(i, x[t]);
    }
    wanted[t] = keep;
    a[t] = keep ? 0u : 1u;
    __syncthreads();
    // Prefix sum scan in the block (Sec. III-B1).
    const unsigned* pSum = block_compaction::segment_scan(scan, a, b, s) + seg;
    // Dichotomic search (Sec. III-B2, Fig. 5): a gather for output position `local`.
    const unsigned j = dichotomic_search(pSum, wanted + seg, local, s);
    if (j < s) staged[base + t] = x[seg + j];
    if (local == 0 && base + seg < n) counts[(base + seg) / s] = s - pSum[s - 1];
    __syncthreads();  // before the next tile overwrites shared memory
  }
}

template <class T, class Sel>
void compact(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn, std::string_view spec) {
  const auto pol = block_compaction::policy::parse(spec, fn, default_s);
  block_compaction::run<T>(in.size(), out.data(), out.size(), count, pol,
                           [&](T* staged, unsigned* counts, unsigned threads, unsigned grid) {
                             reduce_blocks_kernel<<<grid, threads, 0, s>>>(in.data(), sel, in.size(), staged, counts, pol.s, pol.scan);
                             check_launch(fn, "roger::reduce_blocks_kernel");
                           },
                           s, fn);
}

}  // namespace sluice::cuda_backend::roger
