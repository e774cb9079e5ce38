// reduce "vectorized", one block: the whole reduction in one launch of one block, up to
// policy::single_launch_max elements (128 KiB of input), and final_kernel, where there is no body of whole warp
// tiles (a start not aligned to T, or fewer elements than a warp tile). vectorized.cuh picks single_kernel for
// inputs up to 128 KiB whose start is aligned to T (dynamic=on aside). Each element is read once (n x
// sizeof(T) bytes); the order of combination is input order, or for operators that commute each lane's own
// elements first, fixed by n and the start's alignment either way, so float results repeat bit for bit.
#pragma once
#include "sluice/cuda/reduce/vectorized_common.cuh"

namespace sluice::cuda_backend::vectorized {

// The reduction without a body (inputs whose start is not aligned to T, or too short for one warp tile):
// init op head op tail.
template <class P, class T, class Op>
__global__ void __launch_bounds__(P::final_threads)
    final_kernel(const T* in, u64 head, const maybe<T>* partials, u64 blocks, u64 tail_at, u64 n, Op op, T init, T* result) {
  combine_in_order<P>(in, head, partials, blocks, tail_at, n, op, init, result);
}

// Up to P::single_launch_max elements, the whole reduction in one block: warp w of the first min(8, tiles)
// folds its contiguous run of the body's warp tiles (fold_warp_run: each load of a warp 512 contiguous
// bytes); with a tail (Tail: compiled in only where there is one), the last warp also folds it, shorter than
// a warp tile (lane l a contiguous run of it, loaded before the tiles, then an ordered tree across the lanes);
// thread 0 combines init, the head, the warps' parts and the tail's, in order. The parts are plain T and the
// tail's code is compiled in only where there is a tail: each measured slower otherwise.
template <class P, class T, class Op, bool Tail>
__global__ void __launch_bounds__(P::final_threads)
    single_kernel(const T* in, u64 head, u64 tiles, u64 tail_at, u64 n, Op op, T init, T* result) {
  static_assert(P::threads == P::final_threads, "one warp per warps' share");
  constexpr unsigned tail_most = P::vectors * P::per_vector;  // a lane's run of a tail shorter than a warp tile
  __shared__ T part[P::warps + 1];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x & 31u;
  const unsigned busy = tiles < P::warps ? static_cast<unsigned>(tiles) : P::warps;  // warps with tiles
  const bool tail = Tail && warp == P::warps - 1 && tail_at < n;
  T tv[Tail ? tail_most : 1];
  unsigned count = 0;
  if (tail) {
    const u64 m = n - tail_at, from = lane * m / 32;
    count = static_cast<unsigned>((lane + 1) * m / 32 - from);
#pragma unroll
    for (unsigned k = 0; k < tail_most; ++k)
      if (k < count) tv[k] = in[tail_at + from + k];
  }
  if (warp < busy) {  // warp w: tiles [w T / 8, (w + 1) T / 8), or tile w where T < 8 (no division by a variable)
    const bool share = tiles >= P::warps;
    const u64 from = share ? warp * tiles / P::warps : warp, to = share ? (warp + 1) * tiles / P::warps : warp + 1;
    const T x = fold_warp_run<P, T, Op, P::single_commuting>(in + head, from, to, op);
    if (lane == 0) part[warp] = x;
  }
  if constexpr (Tail) {
    if (tail) {  // m = n - tail_at >= 1, so lane 0's combination of the lanes is not empty
      const maybe_op<T, Op> mop{op};
      maybe<T> r{T{}, false};
#pragma unroll
      for (unsigned k = 0; k < tail_most; ++k)
        if (k < count) r = mop(r, maybe<T>{tv[k], true});
      r = warp_reduce_maybe_in_order(r, mop);
      if (lane == 0) part[P::warps] = r.v;
    }
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  T r = init;
  if constexpr (P::single_commuting && commutes<T, Op>) {
    // Bounds known at compile time (head < per_vector, busy <= warps): every load is issued before the first
    // combination waits on one (faster here; not in the in-order kernel, which keeps its loops).
#pragma unroll
    for (unsigned i = 0; i + 1 < P::per_vector; ++i)
      if (i < head) r = op(r, in[i]);
#pragma unroll
    for (unsigned w = 0; w < P::warps; ++w)
      if (w < busy) r = op(r, part[w]);
  } else {
    for (u64 i = 0; i < head; ++i) r = op(r, in[i]);
    for (unsigned w = 0; w < busy; ++w) r = op(r, part[w]);
  }
  if (Tail && tail_at < n) r = op(r, part[P::warps]);
  *result = r;
}

}  // namespace sluice::cuda_backend::vectorized
