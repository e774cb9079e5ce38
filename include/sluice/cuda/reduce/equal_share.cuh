// reduce "vectorized", equal share: the body of whole warp tiles split evenly over a grid of resident blocks
// (policy::blocks_per_sm an SM), each warp a contiguous run of warp tiles with 16-byte loads, `vectors` in
// flight per thread; the last block to finish (a count of finished blocks, kept per stream between calls:
// lookback::launch_states) folds init and the blocks' partials in order, one more block of the grid having
// folded the head and the tail into slots of their own (fold_edges): one launch. vectorized.cuh picks it from
// 128 KiB to 256 MiB of input (policy::dynamic_from_bytes). Input order; the order is fixed by n, the start's
// alignment and the SM count, so float results repeat bit for bit. Moves the input once; partials a few KB.
#pragma once
#include "sluice/cuda/reduce/vectorized_common.cuh"

namespace sluice::cuda_backend::vectorized {

// partials[b] = reduction of block b's warps' runs, in order: warp u of the U warps of the body's blocks
// reduces warp tiles [u W / U, (u + 1) W / U) (W tiles) into its own accumulator, and a block's warps are then
// combined in order (W >= blocks, so no block's part is empty). With Edges (compiled in only where the input
// has a head or a tail), the grid's last block folds them (fold_edges) into the slots after the body's.
// The last block to count itself done (slots::count) folds the partials in order (fold_partials_in_order):
// *result = init op that.
template <class P, class T, class Op, bool Edges>
__global__ void __launch_bounds__(P::threads, P::body_min_blocks)
    body_kernel(const T* in, u64 head, u64 tiles, u64 tail_at, u64 n, Op op, T init, T* result, slots<T> partials,
                unsigned* done, unsigned* spare_counter) {
  __shared__ maybe<T> warp_part[P::warps];
  __shared__ bool last;
  const unsigned blocks = gridDim.x - Edges;  // the body's
  if (Edges && blockIdx.x == blocks) {
    fold_edges<P>(in, head, tail_at, n, op, partials, blocks, warp_part);
  } else {
    const T* body = in + head;
    const unsigned warp = threadIdx.x / 32;
    const u64 units = u64{blocks} * P::warps, u = static_cast<u64>(blockIdx.x) * P::warps + warp;
    const u64 first = u * tiles / units, last_tile = (u + 1) * tiles / units;
    maybe<T> acc{T{}, false};
    for (u64 i = first; i < last_tile; ++i) acc = fold_warp_tile<P>(acc, body + i * P::warp_tile, op);
    put_block_part<P>(acc, warp_part, partials, blockIdx.x, op);
  }
  if (threadIdx.x == 0) {
    const unsigned before = partials.count(done);
    if (before == 0) *spare_counter = 0;  // the next call's count (lookback::launch_states)
    last = before == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  constexpr unsigned run = slots<T>::packed ? P::body_fold_words : P::per_vector * P::body_fold_vectors;
  const T r = fold_slots<P, Edges, run>(partials, blocks, head, tail_at, n, op, init);
  if (threadIdx.x == 0) *result = r;
}

}  // namespace sluice::cuda_backend::vectorized
