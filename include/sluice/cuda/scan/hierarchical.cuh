// The multi-block scan of the GPU Teaching Kit, Module 10.4 ("Handling large input vectors"): each block
// scans its section, writes the section's sum into Sum[blockIdx.x]; the scan runs again on Sum[]
// (recursively while Sum[] spans several sections); a last kernel adds the scanned Sum[] back to every
// section. Shared by kogge-stone, brent-kung and three-phase-coarsened, which differ only in the block scan.
// (Moreira et al.'s "segmented prefix-sum", Sec. 3.2 / Fig. 4, is this same block scheme.)
// Exclusive scans come from the local inclusive results held in shared memory (out[i] = prefix op
// local[i-1]), so every block reads and writes only its own section: in place is safe. Any associative
// operator; elements combine in order. Moves: input read once, out written twice, Sum[] levels.
//
// The block size is a run-time value (the kit's blockDim.x), so one kernel serves every `threads=`
// parameter. A BlockScan is a small value with `threads`, `section()`, `shared_bytes<T>()`, a device
// `scan(xy, valid, op)` that scans xy[0 .. valid) in the block's dynamic shared memory (xy comes first there),
// and `from(spec, fn)`, which reads its parameters.
#pragma once
#include "sluice/cuda/common.cuh"
#include "sluice/detail/params.hpp"

namespace sluice::cuda_backend::hierarchical {

// The `threads=` parameter every kit block scan takes: a power of two from a warp to a full block.
inline unsigned threads_param(sluice::detail::params& p, unsigned def) {
  return static_cast<unsigned>(p.number("threads", def, 32, 1024, /*pow2=*/true));
}

// Phase 1: scan each section in shared memory with BlockScan; Sum[b] = the section's total.
template <class BlockScan, class T, class Op>
__global__ void sections_kernel(const T* in, T* out, u64 n, Op op, T* sums, BlockScan bs) {
  T* xy = dynamic_shared<T>();
  const unsigned section = bs.section();
  const u64 base = blockIdx.x * static_cast<u64>(section);
  const unsigned valid = n - base < section ? static_cast<unsigned>(n - base) : section;
  for (unsigned k = threadIdx.x; k < valid; k += blockDim.x) xy[k] = in[base + k];
  __syncthreads();
  const T* result = bs.scan(xy, valid, op);
  __syncthreads();
  for (unsigned k = threadIdx.x; k < valid; k += blockDim.x) out[base + k] = result[k];
  if (threadIdx.x == 0 && sums) sums[blockIdx.x] = result[valid - 1];
}

// Phase 3: add the scanned Sum[] back. Inclusive: out[i] = Sum[b-1] op out[i] for b > 0. Exclusive:
// out[i] = prefix op local[i-1] (prefix alone at the section's start), prefix = init (op Sum[b-1]).
template <class T, class Op>
__global__ void add_back_kernel(T* out, u64 n, unsigned section, Op op, const T* sums, bool inclusive, T init) {
  const u64 b = blockIdx.x, base = b * section;
  const unsigned valid = n - base < section ? static_cast<unsigned>(n - base) : section;
  if (inclusive) {
    if (b == 0) return;
    const T prefix = sums[b - 1];
    for (unsigned k = threadIdx.x; k < valid; k += blockDim.x) out[base + k] = op(prefix, out[base + k]);
    return;
  }
  T* local = dynamic_shared<T>();
  for (unsigned k = threadIdx.x; k < valid; k += blockDim.x) local[k] = out[base + k];
  __syncthreads();
  const T prefix = b == 0 ? init : op(init, sums[b - 1]);
  for (unsigned k = threadIdx.x; k < valid; k += blockDim.x) out[base + k] = k == 0 ? prefix : op(prefix, local[k - 1]);
}

template <class BlockScan, class T, class Op>
void run(BlockScan bs, const T* in, T* out, u64 n, bool inclusive, T init, Op op, cudaStream_t s, const char* fn) {
  if (n == 0) return;
  const unsigned section = bs.section();
  const u64 blocks = ceil_div(n, section);
  const std::size_t bytes = bs.template shared_bytes<T>();
  allow_shared(sections_kernel<BlockScan, T, Op>, bytes, fn, "the block scan's threads/items");
  scratch sums(blocks * sizeof(T), s, fn);
  sections_kernel<<<static_cast<unsigned>(blocks), bs.threads, bytes, s>>>(in, out, n, op, sums.as<T>(), bs);
  check_launch(fn, "hierarchical::sections_kernel");
  if (blocks > 1) run(bs, sums.as<T>(), sums.as<T>(), blocks, true, init, op, s, fn);  // scan Sum[] in place
  if (!inclusive || blocks > 1) {
    const std::size_t local = inclusive ? 0 : section * sizeof(T);
    allow_shared(add_back_kernel<T, Op>, local, fn, "the block scan's threads/items");
    add_back_kernel<<<static_cast<unsigned>(blocks), bs.threads, local, s>>>(out, n, section, op, sums.as<T>(), inclusive, init);
    check_launch(fn, "hierarchical::add_back_kernel");
  }
}

}  // namespace sluice::cuda_backend::hierarchical
