// Block stream compaction (Roger et al. 2007 Sec. III-A/C; Moreira et al. 2009 Sec. 3.4 and Fig. 8), shared by
// `roger` and `jumping-jack`: split the stream into blocks of s elements, compact each block on its own into a
// staging stream (the variant's in-block pass), then concatenate: an exclusive prefix sum over the blocks'
// counts gives each block its displacement, and a block-wise move (the papers' textured line drawing) copies
// each compacted block to it. Also the in-block prefix sums both papers implement: Hillis-Steele recursive
// doubling (double-buffered, Moreira Algorithm 1) and Blelloch's balanced tree (up-sweep + down-sweep).
#pragma once
#include <span>
#include <string_view>

#include "sluice/cuda/scan/kogge_stone.cuh"
#include "sluice/cuda/scan/reduce_then_scan.cuh"
#include "sluice/detail/params.hpp"
#include "sluice/detail/step_recorder.hpp"

namespace sluice::cuda_backend::block_compaction {

enum class in_block_scan { blelloch, hillis_steele };

// Tuning shared by both variants: `s` and the scan come from the variant's parameters.
struct policy {
  static constexpr unsigned max_block = 1024;  // largest s: one CUDA thread per element of a block
  static constexpr unsigned min_threads = 256;  // CUDA threads per CTA: max(min_threads, s)
  unsigned s;
  in_block_scan scan;
  unsigned threads() const { return s > min_threads ? s : min_threads; }

  static policy parse(std::string_view spec, const char* fn, unsigned default_s) {
    sluice::detail::params p(spec, fn);
    policy pol{static_cast<unsigned>(p.number("s", default_s, 2, max_block, /*pow2=*/true)),
               static_cast<in_block_scan>(p.choice("scan", {"blelloch", "hillis-steele"}, 0))};
    p.done("s, scan");
    return pol;
  }
};

// Inclusive sums of a[0 .. blockDim) within aligned segments of s (a power of two); one element per thread.
// Call after a barrier that published a[]; returns the array holding the sums, after a barrier.
__device__ inline const unsigned* hillis_steele(unsigned* a, unsigned* b, unsigned s) {
  return kogge_stone::recursive_doubling(a, b, blockDim.x, sluice::sum{}, s - 1);  // log2(s) ping-pong passes
}

__device__ inline const unsigned* blelloch(unsigned* a, unsigned* /*unused*/, unsigned s) {
  const unsigned j = threadIdx.x, seg = j & ~(s - 1), local = j & (s - 1);
  for (unsigned stride = 1; stride < s; stride *= 2) {  // up-sweep: each node becomes the sum of its children
    const unsigned index = (local + 1) * stride * 2 - 1;
    if (index < s) a[seg + index] += a[seg + index - stride];
    __syncthreads();
  }
  for (unsigned stride = s / 4; stride > 0; stride /= 2) {  // down-sweep, inclusive form (no identity at the root)
    const unsigned index = (local + 1) * stride * 2 - 1;
    if (index + stride < s) a[seg + index + stride] += a[seg + index];
    __syncthreads();
  }
  return a;
}

__device__ inline const unsigned* segment_scan(in_block_scan k, unsigned* a, unsigned* b, unsigned s) {
  return k == in_block_scan::blelloch ? blelloch(a, b, s) : hillis_steele(a, b, s);
}

// Concatenation, step 2: block g's first counts[g] staged elements move to out[offsets[g] ..].
template <class T>
__global__ void move_kernel(const T* staged, const unsigned* counts, const u64* offsets, T* out, u64 n, u64 capacity,
                            unsigned log2_s) {
  const u64 stride = static_cast<u64>(gridDim.x) * blockDim.x;
  for (u64 i = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; i < n; i += stride) {
    const u64 g = i >> log2_s;
    const unsigned local = static_cast<unsigned>(i & ((u64{1} << log2_s) - 1));
    if (local >= counts[g]) continue;
    const u64 to = offsets[g] + local;
    if (to < capacity) out[to] = staged[i];
  }
}

inline unsigned grid_for(u64 items, unsigned per_block) {
  const u64 blocks = ceil_div(items, per_block);
  return static_cast<unsigned>(blocks < (u64{1} << 30) ? blocks : (u64{1} << 30));
}

// Reduction of the blocks: each block of s elements is compacted into staged[g*s ..] and its count written.
// Gather::find(pSum, wanted, i, s) is the variant's in-block pass: the index of the element that output
// position i of the block takes, or s when the block has none for it; pSum[j] counts the discarded
// elements in [0, j].
template <class Gather, class T, class Sel>
__global__ void __launch_bounds__(policy::max_block)
    compact_blocks_kernel(const T* in, Sel sel, u64 n, T* staged, unsigned* counts, unsigned s, in_block_scan scan) {
  constexpr unsigned max_block = policy::max_block;
  __shared__ unsigned a[max_block], b[max_block];
  __shared__ unsigned char wanted[max_block];
  __shared__ alignas(T) unsigned char x_bytes[max_block * sizeof(T)];  // raw: T need not be default-constructible
  T* x = reinterpret_cast<T*>(x_bytes);
  const unsigned t = threadIdx.x, seg = t & ~(s - 1), local = t & (s - 1);
  for (u64 base = static_cast<u64>(blockIdx.x) * blockDim.x; base < n; base += static_cast<u64>(gridDim.x) * blockDim.x) {
    const u64 i = base + t;
    bool keep = false;
    if (i < n) {  // past the end counts as discarded
      x[t] = in[i];
      keep = sel(i, x[t]);
    }
    wanted[t] = keep;
    a[t] = keep ? 0u : 1u;
    __syncthreads();
    const unsigned* pSum = segment_scan(scan, a, b, s) + seg;  // prefix sum in the block
    const unsigned j = Gather::find(pSum, wanted + seg, local, s);
    if (j < s) staged[base + t] = x[seg + j];
    if (local == 0 && base + seg < n) counts[(base + seg) / s] = s - pSum[s - 1];
    __syncthreads();  // before the next tile overwrites shared memory
  }
}

// The whole algorithm around a variant's in-block search (Gather). Scratch: n staged elements, and a count
// and an offset per block.
template <class Gather, class T, class Sel>
void run(std::span<const T> in, std::span<T> out, Sel sel, u64* count, const policy& pol, cudaStream_t s, const char* fn) {
  const u64 n = in.size();
  if (n == 0) return check_cuda(cudaMemsetAsync(count, 0, sizeof(u64), s), fn, "cudaMemsetAsync");
  const u64 blocks = ceil_div(n, pol.s);
  scratch staged(n * sizeof(T), s, fn);
  scratch counts(blocks * sizeof(unsigned), s, fn);
  scratch offsets(blocks * sizeof(u64), s, fn);
  // Reduction of the blocks.
  compact_blocks_kernel<Gather><<<grid_for(n, pol.threads()), pol.threads(), 0, s>>>(in.data(), sel, n, staged.as<T>(),
                                                                                    counts.as<unsigned>(), pol.s, pol.scan);
  check_launch(fn, "block_compaction::compact_blocks_kernel");
  sluice::detail::mark_step("in-block pass", s);
  // Concatenation: prefix sum over the blocks' counts, then the block-wise move.
  reduce_then_scan::offsets_of(counts.as<unsigned>(), blocks, offsets.as<u64>(), count, s, fn);
  sluice::detail::mark_step("block prefix sum", s);
  unsigned log2_s = 0;
  while ((1u << log2_s) < pol.s) ++log2_s;
  move_kernel<<<grid_for(n, 256), 256, 0, s>>>(staged.as<T>(), counts.as<unsigned>(), offsets.as<u64>(), out.data(), n,
                                                 out.size(), log2_s);
  check_launch(fn, "block_compaction::move_kernel");
  sluice::detail::mark_step("block move", s);
}

}  // namespace sluice::cuda_backend::block_compaction
