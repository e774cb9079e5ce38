// The multi-block scan of the GPU Teaching Kit, Module 10.4 ("Handling large input vectors"): each block
// scans its section, writes the section's sum into Sum[blockIdx.x]; the scan runs again on Sum[]
// (recursively while Sum[] spans several sections); a last kernel adds the scanned Sum[] back to every
// section. Shared by kogge-stone, brent-kung and three-phase-coarsened, which differ only in the block scan.
// (Moreira et al.'s "segmented prefix-sum", Sec. 3.2 / Fig. 4, is this same block scheme.)
// Exclusive scans come from the local inclusive results held in shared memory (out[i] = prefix op
// local[i-1]), so every block reads and writes only its own section: in place is safe. Any associative
// operator; elements combine in order. Moves: input read once, out written twice, Sum[] levels.
#pragma once
#include "sluice/cuda/common.cuh"

namespace sluice::cuda_backend::hierarchical {

// Phase 1: scan each section in shared memory with BlockScan; Sum[b] = the section's total.
template <class BlockScan, class T, class Op>
__global__ void __launch_bounds__(BlockScan::threads) sections_kernel(const T* in, T* out, u64 n, Op op, T* sums) {
  __shared__ typename BlockScan::template storage<T> s;
  const u64 base = blockIdx.x * static_cast<u64>(BlockScan::section);
  const unsigned valid = n - base < BlockScan::section ? static_cast<unsigned>(n - base) : BlockScan::section;
  for (unsigned k = threadIdx.x; k < valid; k += BlockScan::threads) s.xy[k] = in[base + k];
  __syncthreads();
  const T* result = BlockScan::scan(s, valid, op);
  __syncthreads();
  for (unsigned k = threadIdx.x; k < valid; k += BlockScan::threads) out[base + k] = result[k];
  if (threadIdx.x == 0 && sums) sums[blockIdx.x] = result[valid - 1];
}

// Phase 3: add the scanned Sum[] back. Inclusive: out[i] = Sum[b-1] op out[i] for b > 0. Exclusive:
// out[i] = prefix op local[i-1] (prefix alone at the section's start), prefix = init (op Sum[b-1]).
template <int Threads, int Section, class T, class Op>
__global__ void __launch_bounds__(Threads) add_back_kernel(T* out, u64 n, Op op, const T* sums, bool inclusive, T init) {
  __shared__ T local[Section];
  const u64 b = blockIdx.x, base = b * Section;
  const unsigned valid = n - base < Section ? static_cast<unsigned>(n - base) : Section;
  if (inclusive) {
    if (b == 0) return;
    const T prefix = sums[b - 1];
    for (unsigned k = threadIdx.x; k < valid; k += Threads) out[base + k] = op(prefix, out[base + k]);
    return;
  }
  for (unsigned k = threadIdx.x; k < valid; k += Threads) local[k] = out[base + k];
  __syncthreads();
  const T prefix = b == 0 ? init : op(init, sums[b - 1]);
  for (unsigned k = threadIdx.x; k < valid; k += Threads) out[base + k] = k == 0 ? prefix : op(prefix, local[k - 1]);
}

template <class BlockScan, class T, class Op>
void run(const T* in, T* out, u64 n, bool inclusive, T init, Op op, cudaStream_t s, const char* fn) {
  if (n == 0) return;
  const u64 blocks = ceil_div(n, BlockScan::section);
  scratch sums(blocks * sizeof(T), s, fn);
  sections_kernel<BlockScan><<<static_cast<unsigned>(blocks), BlockScan::threads, 0, s>>>(in, out, n, op, sums.as<T>());
  check_launch(fn, "hierarchical::sections_kernel");
  if (blocks > 1) run<BlockScan>(sums.as<T>(), sums.as<T>(), blocks, true, init, op, s, fn);  // scan Sum[] in place
  if (!inclusive || blocks > 1) {
    add_back_kernel<BlockScan::threads, BlockScan::section><<<static_cast<unsigned>(blocks), BlockScan::threads, 0, s>>>(
        out, n, op, sums.as<T>(), inclusive, init);
    check_launch(fn, "hierarchical::add_back_kernel");
  }
}

}  // namespace sluice::cuda_backend::hierarchical
