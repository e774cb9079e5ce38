// Block stream compaction (Roger et al. 2007 Sec. III-A/C; Moreira et al. 2009 Sec. 3.4 and Fig. 8), shared by
// `roger` and `jumping-jack`: split the stream into blocks of s elements, compact each block on its own into a
// staging stream (the variant's in-block pass), then concatenate: an exclusive prefix sum over the blocks'
// counts gives each block its displacement, and a block-wise move (the papers' textured line drawing) copies
// each compacted block to it. Also the in-block prefix sums both papers implement: Hillis-Steele recursive
// doubling (double-buffered, Moreira Algorithm 1) and Blelloch's balanced tree (up-sweep + down-sweep).
#pragma once
#include <string_view>

#include "sluice/cuda/scan/reduce_then_scan.cuh"
#include "sluice/detail/params.hpp"

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

// Inclusive sums of a[0 .. threads) within aligned segments of s (a power of two); one element per thread.
// Call after a barrier that published a[]; returns the array holding the sums, after a barrier.
__device__ inline const unsigned* hillis_steele(unsigned* a, unsigned* b, unsigned s) {
  const unsigned j = threadIdx.x, local = j & (s - 1);
  for (unsigned offset = 1; offset < s; offset *= 2) {  // log2(s) passes, ping-pong between a and b
    b[j] = local >= offset ? a[j - offset] + a[j] : a[j];
    __syncthreads();
    unsigned* t = a;
    a = b;
    b = t;
  }
  return a;
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

// Concatenation, step 1: offsets[g] = sum of counts[0 .. g), *count = the sum of all.
struct count_load {
  const unsigned* counts;
  __device__ u64 operator()(u64 g) const { return counts[g]; }
};
struct offset_store {
  const unsigned* counts;
  u64* offsets;
  u64 blocks;
  u64* count;
  __device__ void operator()(u64 g, u64 offset) const {
    offsets[g] = offset;
    if (g == blocks - 1) *count = offset + counts[g];
  }
};

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

// The whole algorithm around a variant's in-block pass:
// launch_blocks(staged, counts, threads, grid) compacts every block of s elements into staged[g*s ..] and
// writes its count. Scratch: n staged elements, and a count and an offset per block.
template <class T, class LaunchBlocks>
void run(u64 n, T* out, u64 capacity, u64* count, const policy& pol, LaunchBlocks launch_blocks, cudaStream_t s,
         const char* fn) {
  if (n == 0) return check_cuda(cudaMemsetAsync(count, 0, sizeof(u64), s), fn, "cudaMemsetAsync");
  const u64 blocks = ceil_div(n, pol.s);
  scratch staged(n * sizeof(T), s, fn);
  scratch counts(blocks * sizeof(unsigned), s, fn);
  scratch offsets(blocks * sizeof(u64), s, fn);
  // Reduction of the blocks (the variant's pass).
  launch_blocks(staged.as<T>(), counts.as<unsigned>(), pol.threads(), grid_for(n, pol.threads()));
  // Concatenation: prefix sum over the blocks' counts, then the block-wise move.
  reduce_then_scan::run<u64>(count_load{counts.as<unsigned>()}, offset_store{counts.as<unsigned>(), offsets.as<u64>(), blocks, count},
                             blocks, /*inclusive=*/false, u64{0}, sluice::sum{}, s, fn);
  unsigned log2_s = 0;
  while ((1u << log2_s) < pol.s) ++log2_s;
  move_kernel<<<grid_for(n, 256), 256, 0, s>>>(staged.as<T>(), counts.as<unsigned>(), offsets.as<u64>(), out, n, capacity, log2_s);
  check_launch(fn, "block_compaction::move_kernel");
}

}  // namespace sluice::cuda_backend::block_compaction
