// reduce "vectorized", dynamic chunks: from 256 MiB of input (policy::dynamic_from_bytes; dynamic=auto|on|off)
// the blocks of a resident grid draw chunks of 8 x 8 warp tiles (128 KiB) from a ticket counter, so that no SM
// reads alone at the end while others are done (with an equal share, the blocks end over the last three tenths
// of the kernel's time on the H100). Each chunk's partial goes to its own slot and the last block folds them in
// chunk order: input order, fixed by n and the start's alignment (not the SM count), so float results repeat
// bit for bit. Moves the input once, plus 8 bytes of partial per 128 KiB.
#pragma once
#include "sluice/cuda/reduce/vectorized_common.cuh"

namespace sluice::cuda_backend::vectorized {

// Dynamic chunks: each block draws ticket numbers from `counter` (the next drawn while it folds the current
// one); with Edges ticket 0 is the edges' (fold_edges), drawn first; every other ticket is a chunk c, whose
// warp w folds warp tiles [c C + w K, c C + (w + 1) K) (C = 8 K tiles), the block's parts, in order, to
// partials[c] (c = ticket - Edges). A block stops at its first ticket past the last, then adds one more to the counter to
// say it is done (slots::count): the counter ends at tickets + 2 x blocks, and the block whose done mark takes
// the last value is the last to finish (every draw and mark of the others came before it). It folds the
// partials in order: *result = init op that.
template <class P, class T, class Op, bool Edges>
__global__ void __launch_bounds__(P::threads, P::dynamic_min_blocks)
    dynamic_kernel(const T* in, u64 head, u64 tiles, u64 tail_at, u64 n, Op op, T init, T* result, slots<T, false> partials,
                   unsigned* counter, unsigned* spare_counter) {
  __shared__ unsigned ticket[2];
  __shared__ maybe<T> warp_part[2][P::warps];
  __shared__ bool last;
  const unsigned warp = threadIdx.x / 32;
  const u64 chunks = ceil_div(tiles, P::chunk_tiles), tickets = chunks + Edges;
  const T* body = in + head;
  auto draw = [&] {
    const unsigned t = atomicAdd(counter, 1u);
    if (t == 0) *spare_counter = 0;  // the next call's counter (lookback::launch_states)
    return t;
  };
  if (threadIdx.x == 0) ticket[0] = draw();
  __syncthreads();
  // Round k: ticket[k % 2]; the next ticket lands in the other slot, read after this round's barrier.
  // warp_part alternates too: thread 0 reads round k's parts before it reaches round k + 1's barrier.
  for (unsigned k = 0;; ++k) {
    const u64 tk = ticket[k & 1];
    if (tk >= tickets) break;
    if (threadIdx.x == 0) ticket[(k + 1) & 1] = draw();
    if (Edges && tk == 0) {
      fold_edges<P>(in, head, tail_at, n, op, partials, static_cast<unsigned>(chunks), warp_part[k & 1]);
      continue;
    }
    const u64 c = tk - Edges, t0 = c * P::chunk_tiles + warp * P::chunk_warp_tiles;
    maybe<T> acc{T{}, false};
#pragma unroll
    for (unsigned j = 0; j < P::chunk_warp_tiles; ++j)
      if (t0 + j < tiles) acc = fold_warp_tile<P>(acc, body + (t0 + j) * P::warp_tile, op);
    put_block_part<P>(acc, warp_part[k & 1], partials, c, op);  // warp 0's first tile is in the chunk: its part has a value
  }
  if (threadIdx.x == 0) last = partials.count(counter) == tickets + 2 * u64{gridDim.x} - 1;
  __syncthreads();
  if (!last) return;
  const T r = fold_slots<P, Edges, P::per_vector * P::fold_vectors>(partials, static_cast<unsigned>(chunks), head, tail_at, n, op, init);
  if (threadIdx.x == 0) *result = r;
}

}  // namespace sluice::cuda_backend::vectorized
