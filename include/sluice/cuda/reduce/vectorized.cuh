// reduce "vectorized": the production reduction. The input splits into a head (up to the first 16-byte
// boundary), a body of whole warp tiles (32 lanes x `vectors` loads of 16 bytes) and a tail. Each warp of
// a grid of resident blocks reduces its own contiguous run of body tiles with 16-byte loads, `vectors` in
// flight per thread; the last block to finish (a count of finished blocks, kept per stream between calls:
// lookback::launch_states) then folds init and the blocks' partials, one more block of the grid having folded
// the head and the tail into slots of their own (fold_edges): one launch. Up to
// 128 KiB of input one block does it all, each warp folding a contiguous run of warp tiles. From
// 256 MiB on (dynamic=auto), the blocks instead draw chunks of 8 x 8 warp tiles (128 KiB) from a ticket
// counter, so that no SM reads alone at the end while others are done (the blocks of an equal share end
// over the last three tenths of the kernel's time on the H100); each chunk's partial goes to its own slot
// and the last block folds them in chunk order. Every combination is in input order (within a vector,
// across lanes by an ordered tree, across tiles, warps, chunks and blocks), so any associative operator
// works, except in the one-block kernel for the built-in operators that commute (`commutes`), where each
// lane first folds its own elements of its warp's tiles (stop 38). Either way the order is fixed by n, the
// start's alignment and the device's SM count (dynamic: not the SM count), so floating-point sums are
// identical from run to run. Moves: the input read once; partials are a few KB (dynamic: 8 bytes per 128 KiB).
#pragma once
#include <cub/block/block_reduce.cuh>

#include <type_traits>

#include "sluice/cuda/common.cuh"
#include "sluice/cuda/lookback.cuh"
#include "sluice/detail/params.hpp"

namespace sluice::cuda_backend::vectorized {

// Measured on the H100 (bench/reduce_tuning.cu, docs/performance.md "Reduce"), time against CUB's in the same
// run: 4 loads per thread and 8 blocks per SM (one resident wave) 1.01-1.04x from 2^26 to 2^30, the best of
// 4 or 8 loads, 8 or 16 blocks per SM, warp or block runs (each block a contiguous run of block tiles) and
// 8 loads in flight per thread of the final block. The last two measured slower (commit 9adcc94 had them)
// and are not kept.
template <class T, unsigned Vectors = 4, unsigned BlocksPerSm = 8, unsigned DynamicBlocksPerSm = 0, unsigned FoldVectors = 8,
          unsigned DynamicMinBlocks = 4, bool Commuting = true>
struct policy {
  static constexpr unsigned threads = 256;
  static constexpr unsigned warps = threads / 32;
  static constexpr unsigned per_vector = 16 / sizeof(T);
  static constexpr unsigned vectors = Vectors;  // 16-byte loads in flight per thread
  static constexpr unsigned warp_tile = 32 * vectors * per_vector;
  static constexpr unsigned blocks_per_sm = BlocksPerSm;
  static constexpr unsigned final_threads = 256;
  // Up to 128 KiB of input one block does it all (single_kernel): measured on the H100 for u32 at 4096 to
  // 65536 elements, it beats two launches up to 32768 and is level at 65536.
  static constexpr u64 single_launch_bytes = u64{1} << 17;
  static constexpr u64 single_launch_max = single_launch_bytes / sizeof(T);
  // Dynamic chunks (bench/reduce_tuning.cu dynamic, docs/performance.md "Reduce"): 8 x 8 warp tiles (128 KiB).
  // On the H100 (stop 28) 4, 8 and 16 per warp measured alike at 2^27-2^30 (64 and 128 KiB within 0.3%), 64 KiB
  // 0.2-1.6% ahead at 2^26 (1.00-1.01x CUB's time against the equal share's 1.02-1.03x); on the H200 (stop 46,
  // runs 4-5) 128 KiB chunks 0.990-1.015x CUB's time at 2^26-2^30 where 64 KiB took 1.007-1.045x (its 1.4 times
  // the H100's bandwidth drains a chunk sooner, and the draws between chunks count more). At 2^24 the equal
  // share was level or ahead on both, so auto takes chunks from 256 MiB of input.
  static constexpr unsigned chunk_warp_tiles = 8;
  static constexpr u64 chunk_tiles = u64{warps} * chunk_warp_tiles;
  static constexpr u64 dynamic_from_bytes = u64{1} << 28;
  // dynamic_kernel's grid: 0, as many blocks as the device holds at once (it takes 64-91 registers a thread,
  // so 2-4 blocks of 256 an SM: the rest of a grid of blocks_per_sm an SM would start only as the first
  // blocks run out of chunks, each then to draw one ticket and end; ncu, stop 34); else that many an SM.
  // Measured alike (bench/reduce_tuning.cu grid, stop 34: within 0.5% from 2^24 to 2^30): the resident grid
  // is kept as the one that launches no block with nothing to do.
  static constexpr unsigned dynamic_blocks_per_sm = DynamicBlocksPerSm;
  // The last block's fold of the chunks' partials (fold_partials_in_order): 16-byte loads per lane and group.
  // Measured (bench/reduce_tuning.cu fold, stop 35, two runs): 8 loads (69 registers a thread for u32 and f32
  // sums, 3 blocks an SM) 0.990-0.996x CUB's time at 2^28 and 0.981-0.991x at 2^30 in the kernel; 4 loads
  // (43-46 registers, 5 blocks an SM) 0.995-1.004x and 0.985-0.996x; 16 loads (118-125 registers) 1.015x and
  // 0.997-1.003x; the fold before (one tree per 32 partials) 1.010-1.014x and 0.995-1.004x.
  static constexpr unsigned fold_vectors = FoldVectors;
  // body_kernel's last block folds the blocks' partials (one T each: every block has a tile) the same way,
  // body_fold_vectors loads a lane and group, under __launch_bounds__(threads, body_min_blocks) so that the
  // fold's registers do not cost the body its 8 blocks an SM. Measured (bench/reduce_tuning.cu lastfold, stop
  // 38's run 7, kernels alone, two alternations, u32 / f32): 2 loads 0.88-0.93 / 0.92-0.93x CUB's time at 2^23,
  // 0.97-0.99 / 0.93-0.99 at 2^24, 0.99-1.00 / 0.98 at 2^25, where the partials as maybe<T> through
  // block_reduce_in_order (the kernel before) took 0.91-0.96 / 0.97-0.98, 0.99-1.03 / 0.98-1.00 and
  // 1.00-1.02 / 1.00-1.01; 4 loads (spilling) 0.93-1.04x. In the library (run 8, bench/small_sizes.cu, back
  // to back) no change resolved at 2^24 (28.89 us against 28.74 before; CUB 27.1-27.3): kept as no slower.
  static constexpr unsigned body_fold_vectors = 2;
  // The same fold where the partials are packed words (4-byte T, slots::packed): words a lane and group, all
  // loaded at once. 6: 1056 partials (132 SMs) in one round of 6 groups of 192, and no spill under the 32
  // registers of the launch bound (8 words spilled 118 bytes).
  static constexpr unsigned body_fold_words = 6;
  static constexpr unsigned body_min_blocks = 8;
  // dynamic_kernel's __launch_bounds__ residency: blocks an SM the registers must allow. 4 (stop 39): 64
  // registers, 4 blocks an SM, with or without the edges' code (no spill for 4-byte sums; without a bound it
  // took 80 registers with the edges' code, 3 blocks an SM). With edges (n - 100) it took 1.8 us more than at
  // n at 2^26 and 0.7 us at 2^27 (bench/reduce_tail.cu, stop 39's run 8). Before stop 39 0 (no bound, the compiler's choice, 69
  // registers; 1 gave it 78 for u32, the same 3 blocks an SM). Measured at 8
  // (bench/reduce_tuning.cu occupancy, stop 38, u32: 32 registers, the partials folded 2 vectors a lane, or
  // it spills), chunks of 16, 32 or 64 KiB: 1.02-1.05x, 1.02x and 1.14x CUB's time at 2^24, 1.04x, 1.02x and
  // 1.11x at 2^28, where the library's kernels (69 registers, 3 blocks an SM) take 1.00-1.02x and 0.99-1.00x.
  static constexpr unsigned dynamic_min_blocks = DynamicMinBlocks;
  // single_kernel, for operators that commute (`commutes`): each lane folds its own elements of its warp's
  // tiles and the warp combines once, instead of an ordered tree across the warp for every 16-byte vector.
  // Measured (bench/reduce_single_block.cu, stop 38, ncu, u32, no tail): 4.16-4.29 us at 2^15 against
  // 5.15-5.31 in order, level at 2^10-2^12. The same fold in body_kernel and dynamic_kernel measured
  // 1.01-1.04x CUB's time at 2^22-2^23 against 0.97-0.99x in order, and level from 2^24 (bench/reduce_tuning.cu
  // order, stop 38; stop 24 likewise at 2^28): they keep the ordered fold.
  static constexpr bool single_commuting = Commuting;
};

// The built-in operators whose order of combination the kernels may choose: every order gives the same
// integer result, and the same floating-point sum or product up to rounding (each call's order is still
// fixed by n and the alignment, so float results repeat bit for bit). minimum and maximum on floating point
// are left out: with NaN they depend on the order. Other operators are combined in input order.
template <class T, class Op>
inline constexpr bool commutes = false;
template <class T>
inline constexpr bool commutes<T, sluice::sum> = std::is_arithmetic_v<T>;
template <class T>
inline constexpr bool commutes<T, sluice::product> = std::is_arithmetic_v<T>;
template <class T>
inline constexpr bool commutes<T, sluice::minimum> = std::is_integral_v<T>;
template <class T>
inline constexpr bool commutes<T, sluice::maximum> = std::is_integral_v<T>;

// Lane 0 gets v of lane 0 op v of lane 1 op ... op v of lane 31, in lane order.
template <class T, class Op>
__device__ T warp_reduce_in_order(T v, Op op) {
#pragma unroll
  for (unsigned offset = 1; offset < 32; offset *= 2) {
    const T other = __shfl_down_sync(0xffffffffu, v, offset);
    if ((threadIdx.x & 31u) + offset < 32 && (threadIdx.x & (2 * offset - 1)) == 0) v = op(v, other);
  }
  return v;
}

// The same for the operators that commute (`commutes`): one redux.sync where the hardware has it (sum, minimum
// and maximum of 32-bit integers: exact in any order), else the in-order tree above.
template <class T, class Op>
__device__ T warp_reduce_commuting(T v, Op op) {
  if constexpr (std::is_integral_v<T> && sizeof(T) == 4) {
    using word = std::conditional_t<std::is_signed_v<T>, int, unsigned>;
    if constexpr (std::is_same_v<Op, sluice::sum>)
      return static_cast<T>(__reduce_add_sync(0xffffffffu, static_cast<unsigned>(v)));  // two's complement: the same bits
    else if constexpr (std::is_same_v<Op, sluice::minimum>)
      return static_cast<T>(__reduce_min_sync(0xffffffffu, static_cast<word>(v)));
    else if constexpr (std::is_same_v<Op, sluice::maximum>)
      return static_cast<T>(__reduce_max_sync(0xffffffffu, static_cast<word>(v)));
    else
      return warp_reduce_in_order(v, op);
  } else {
    return warp_reduce_in_order(v, op);
  }
}

// The same for values that may be empty (maybe_op leaves an empty side out).
template <class T, class Op>
__device__ maybe<T> warp_reduce_maybe_in_order(maybe<T> m, maybe_op<T, Op> mop) {
#pragma unroll
  for (unsigned offset = 1; offset < 32; offset *= 2) {
    const maybe<T> other{__shfl_down_sync(0xffffffffu, m.v, offset), __shfl_down_sync(0xffffffffu, static_cast<int>(m.has), offset) != 0};
    if ((threadIdx.x & 31u) + offset < 32 && (threadIdx.x & (2 * offset - 1)) == 0) m = mop(m, other);
  }
  return m;
}

// This lane's `vectors` 16-byte loads of the warp tile at `tile`: vector j is the tile's (32 j + lane)-th.
template <class P, class T>
__device__ __forceinline__ void load_warp_tile(const T* tile, vec16<T> (&v)[P::vectors]) {
  const uint4* src = reinterpret_cast<const uint4*>(tile);
  const unsigned lane = threadIdx.x & 31u;
#pragma unroll
  for (unsigned j = 0; j < P::vectors; ++j) v[j].raw = src[j * 32 + lane];
}

// Lane 0 gets acc op each 16-byte vector of the warp tile at `tile` in turn (vector j of lane l is the
// tile's (32 j + l)-th), each reduced in order first.
template <class P, class T, class Op>
__device__ maybe<T> fold_warp_tile(maybe<T> acc, const T* tile, Op op) {
  vec16<T> v[P::vectors];
  load_warp_tile<P>(tile, v);
#pragma unroll
  for (unsigned j = 0; j < P::vectors; ++j) {
    T x = v[j].e[0];
#pragma unroll
    for (unsigned e = 1; e < P::per_vector; ++e) x = op(x, v[j].e[e]);
    x = warp_reduce_in_order(x, op);
    acc = maybe_op<T, Op>{op}(acc, maybe<T>{x, true});
  }
  return acc;
}

// A lane's own elements of the warp tile at `tile` (its `vectors` 16-byte loads), folded in a fixed order:
// for operators that commute only.
template <class P, class T, class Op>
__device__ T fold_lane(const T* tile, Op op) {
  vec16<T> v[P::vectors];
  load_warp_tile<P>(tile, v);
  T x = v[0].e[0];
#pragma unroll
  for (unsigned j = 0; j < P::vectors; ++j)
#pragma unroll
    for (unsigned e = j == 0 ? 1 : 0; e < P::per_vector; ++e) x = op(x, v[j].e[e]);
  return x;
}

// The warp tiles [from, to) of body (from < to) reduced, valid in lane 0: each tile in input order
// (fold_warp_tile), or where the operator commutes, each lane's fold of its elements, then one tree.
template <class P, class T, class Op, bool Commuting>
__device__ T fold_warp_run(const T* body, u64 from, u64 to, Op op) {
  if constexpr (Commuting && commutes<T, Op>) {
    T x = fold_lane<P>(body + from * P::warp_tile, op);
    for (u64 t = from + 1; t < to; ++t) x = op(x, fold_lane<P>(body + t * P::warp_tile, op));
    return warp_reduce_commuting(x, op);
  } else {
    maybe<T> acc{T{}, false};
    for (u64 t = from; t < to; ++t) acc = fold_warp_tile<P>(acc, body + t * P::warp_tile, op);
    return acc.v;
  }
}

// In-order reduction of `count` values by one block: each thread a contiguous run, then a block reduce.
template <class P, class T, class Op, class Get>
__device__ maybe<T> block_reduce_in_order(u64 count, Get get, Op op) {
  using block_reduce = cub::BlockReduce<maybe<T>, P::final_threads>;
  __shared__ typename block_reduce::TempStorage storage;
  const maybe_op<T, Op> mop{op};
  const u64 from = threadIdx.x * count / P::final_threads, to = (threadIdx.x + 1) * count / P::final_threads;
  maybe<T> acc{T{}, false};
  for (u64 i = from; i < to; ++i) acc = mop(acc, get(i));
  return block_reduce(storage).Reduce(acc, mop);
}

// *result = init op head op partials op tail, reduced by one block as one in-order sequence of head + blocks
// + tail values: the last step of body_kernel, and all of final_kernel.
template <class P, class T, class Op>
__device__ void combine_in_order(const T* in, u64 head, const maybe<T>* partials, u64 blocks, u64 tail_at, u64 n, Op op,
                                 T init, T* result) {
  const maybe_op<T, Op> mop{op};
  const u64 count = head + blocks + (n - tail_at);
  const maybe<T> r = block_reduce_in_order<P, T>(count, [&](u64 i) -> maybe<T> {
    if (i < head) return {in[i], true};
    if (i < head + blocks) return partials[i - head];
    return {in[tail_at + (i - head - blocks)], true};
  }, op);
  if (threadIdx.x == 0) *result = mop(maybe<T>{init, true}, r).v;
}

// Where the blocks (or chunks) leave their partials, and how the last block knows they have landed.
// 4-byte T: each partial travels with its call's epoch in one 64-bit word (the look-back's packed state
// word: value << 32 | epoch << 2 | 1, in the stream's kept states), stored relaxed, and the blocks count
// themselves done with a relaxed add: no block waits for its partial to land before it counts itself, and
// the last block loads each word until it carries this call's epoch. Other T: plain partials, counted with
// an acq_rel add, whose acquire in the last block's thread 0 and the barrier after it order the loads.
// Measured (bench/reduce_tail.cu, stop 39, H100, u32 at 2^24, 20 calls back to back): the relaxed count
// 0.55 us faster than the acq_rel one.
template <class T, bool Packed = sizeof(T) == 4>
struct slots {
  static_assert(!Packed || sizeof(T) == 4, "packed words carry 4-byte values");
  static constexpr bool packed = Packed;
  T* values;                  // !packed
  unsigned long long* words;  // packed
  unsigned epoch;             // packed: this call's (0 where the words were zeroed first)

  __device__ void put(u64 i, const T& v) const {
    if constexpr (packed) {
      unsigned b;
      memcpy(&b, &v, 4);
      const unsigned long long w = static_cast<unsigned long long>(b) << 32 | epoch << 2 | 1u;
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[i]).store(w, cuda::memory_order_relaxed);
    } else {
      values[i] = v;
    }
  }
  // Adds one to *counter after this thread's put()s (relaxed where packed, else acq_rel); the count before.
  __device__ unsigned count(unsigned* counter) const {
    constexpr auto order = packed ? cuda::memory_order_relaxed : cuda::memory_order_acq_rel;
    return cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*counter).fetch_add(1u, order);
  }
  // v[0, Run) = partials [at, at + Run) that are below count (the rest left as they are).
  template <unsigned Run>
  __device__ void load(unsigned at, unsigned count, T (&v)[Run]) const {
    if constexpr (packed) {
      unsigned long long w[Run];
#pragma unroll
      for (unsigned j = 0; j < Run; ++j) w[j] = at + j < count ? word(at + j) : want();
      bool stale = false;
#pragma unroll
      for (unsigned j = 0; j < Run; ++j) stale |= !current(w[j]);
      if (stale) {  // rare: a partial counted before it landed
#pragma unroll
        for (unsigned j = 0; j < Run; ++j)
          while (!current(w[j])) w[j] = word(at + j);
      }
#pragma unroll
      for (unsigned j = 0; j < Run; ++j) {
        const unsigned b = static_cast<unsigned>(w[j] >> 32);
        memcpy(&v[j], &b, 4);
      }
    } else {
      constexpr unsigned pv = 16 / sizeof(T);
      static_assert(Run % pv == 0);
      const bool aligned = reinterpret_cast<std::uintptr_t>(values) % 16 == 0;
#pragma unroll
      for (unsigned j = 0; j < Run; j += pv) {
        if (aligned && at + j + pv <= count) {
          vec16<T> x;
          x.raw = *reinterpret_cast<const uint4*>(values + at + j);
#pragma unroll
          for (unsigned e = 0; e < pv; ++e) v[j + e] = x.e[e];
        } else {
#pragma unroll
          for (unsigned e = 0; e < pv; ++e)
            if (at + j + e < count) v[j + e] = values[at + j + e];
        }
      }
    }
  }

  // Slot i's value (packed: once its word carries this call's epoch).
  __device__ T get(unsigned i) const {
    if constexpr (packed) {
      unsigned long long w = word(i);
      while (!current(w)) w = word(i);
      const unsigned b = static_cast<unsigned>(w >> 32);
      T v;
      memcpy(&v, &b, 4);
      return v;
    } else {
      return values[i];
    }
  }

 private:
  __device__ unsigned long long want() const { return epoch << 2 | 1u; }  // the low half of this call's words
  __device__ bool current(unsigned long long w) const { return (static_cast<unsigned>(w) & (lookback::epoch_mask << 2 | 3u)) == want(); }
  __device__ unsigned long long word(unsigned i) const {
    return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[i]).load(cuda::memory_order_relaxed);
  }
};

// Every thread of the block gets partials[0] op ... op partials[count - 1], in order (1 <= count < 2^32). The
// partials split into groups of 32 runs of `Run` values (plain partials: a whole number of 16-byte vectors,
// loaded as such; packed words one by one, which take twice the registers): lane l folds run l of its
// group in order, then an ordered tree across the lanes, masked at the end; warp w folds its share of the
// groups in turn, then the warps' folds go in order. Until stop 35 every 32 partials took a tree of their own
// (16 groups' 4-byte loads in flight per lane): 80 shuffles a warp per round of loads, in the one block left
// running, which put the kernel 1-1.5% behind CUB's from 2^26 on (the policy has the figures).
template <class P, class T, class Op, unsigned Run, bool Packed>
__device__ T fold_partials_in_order(const slots<T, Packed>& partials, unsigned count, Op op) {
  constexpr unsigned run = Run, group = 32 * run;
  __shared__ maybe<T> warp_fold[P::warps];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x & 31u;
  const unsigned groups = (count + group - 1) / group, g0 = warp * groups / P::warps, g1 = (warp + 1) * groups / P::warps;
  const maybe_op<T, Op> mop{op};
  maybe<T> acc{T{}, false};
  for (unsigned g = g0; g < g1; ++g) {
    const unsigned first = g * group, mine = first + lane * run;  // runs from `count` on take no part
    T v[run];
    partials.load(mine, count, v);
    T x = v[0];
#pragma unroll
    for (unsigned i = 1; i < run; ++i)
      if (mine + i < count) x = op(x, v[i]);
#pragma unroll
    for (unsigned offset = 1; offset < 32; offset *= 2) {
      const T other = __shfl_down_sync(0xffffffffu, x, offset);
      if ((lane & (2 * offset - 1)) == 0 && lane + offset < 32 && first + (lane + offset) * run < count) x = op(x, other);
    }
    acc = mop(acc, maybe<T>{x, true});
  }
  if (lane == 0) warp_fold[warp] = acc;
  __syncthreads();
  maybe<T> all{T{}, false};
  for (unsigned w = 0; w < P::warps; ++w) all = mop(all, warp_fold[w]);
  return all.v;
}

// The input's edges, where it has them (Edges): one block of the grid (body_kernel's last, dynamic_kernel's
// ticket 0) folds the tail [tail_at, n) (shorter than a warp tile; warp w its eighth, a lane one element a
// round of 32, each round by an ordered tree) into slot `count` and the head (the elements before the first
// 16-byte boundary, fewer than a vector's) into slot count + 1, after the body's `count` blocks' or chunks'
// (so that the fold of slots [0, count + tail) starts aligned for its 16-byte loads; the last block takes the
// head's slot alone, before them). So no block of the body has more to do than the others. Measured
// (bench/reduce_tail.cu, stop 39, H100, u32, back to back, n - 100 against n): a tail folded by the body's
// last block after its tiles put 1.6-1.8 us on the kernel at 2^21-2^24, loaded before its tiles 1.3-1.5 us;
// this edge block 0.04-1.1 us at 2^21-2^25, 1.8 / 0.7 us at 2^26 / 2^27 (run 8).
template <class P, class T, class Op, bool Packed>
__device__ void fold_edges(const T* in, u64 head, u64 tail_at, u64 n, Op op, const slots<T, Packed>& partials, unsigned count,
                           maybe<T>* tails) {
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x & 31u;
  const maybe_op<T, Op> mop{op};
  const unsigned m = static_cast<unsigned>(n - tail_at), from = warp * m / P::warps, size = (warp + 1) * m / P::warps - from;
  maybe<T> acc{T{}, false};
  for (unsigned r = 0; r < size; r += 32) {
    const bool mine = r + lane < size;
    acc = mop(acc, warp_reduce_maybe_in_order(maybe<T>{mine ? in[tail_at + from + r + lane] : T{}, mine}, mop));
  }
  if (lane == 0) tails[warp] = acc;
  __syncthreads();
  if (threadIdx.x != 0) return;
  maybe<T> h{T{}, false};
  for (unsigned i = 0; i < head; ++i) h = mop(h, maybe<T>{in[i], true});
  if (head > 0) partials.put(count + 1, h.v);
  maybe<T> t{T{}, false};
  for (unsigned w = 0; w < P::warps; ++w) t = mop(t, tails[w]);
  if (m > 0) partials.put(count, t.v);
}

// The last block's fold: thread 0 gets init op head op slots [0, count + tail) in order, where the head and the
// tail are there (Edges); the head's slot is loaded before the others are folded.
template <class P, bool Edges, unsigned Run, class T, class Op, bool Packed>
__device__ T fold_slots(const slots<T, Packed>& partials, unsigned count, u64 head, u64 tail_at, u64 n, Op op, T init) {
  T h{};
  if (Edges && head > 0 && threadIdx.x == 0) h = partials.get(count + 1);
  const T all = fold_partials_in_order<P, T, Op, Run>(partials, count + (Edges && tail_at < n), op);
  return Edges && head > 0 ? op(op(init, h), all) : op(init, all);
}

// Every thread of the block with its warp's part `acc` (lane 0's): thread 0 combines the warps' parts in order
// (warp 0's has a value) and puts that in slot `slot`.
template <class P, class T, class Op, bool Packed>
__device__ __forceinline__ void put_block_part(maybe<T> acc, maybe<T>* warp_part, slots<T, Packed>& partials, u64 slot, Op op) {
  if ((threadIdx.x & 31u) == 0) warp_part[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    maybe<T> b = warp_part[0];
    for (unsigned w = 1; w < P::warps; ++w) b = maybe_op<T, Op>{op}(b, warp_part[w]);
    partials.put(slot, b.v);
  }
}

// partials[b] = reduction of block b's warps' runs, in order: warp u of the U warps of the body's blocks
// reduces warp tiles [u W / U, (u + 1) W / U) (W tiles) into its own accumulator, and a block's warps are then
// combined in order (W >= blocks, so no block's part is empty). With Edges (compiled in only where the input
// has a head or a tail), the grid's last block folds them (fold_edges) into the slots after the body's.
// The last block to count itself done (slots::count) folds the partials in order (fold_partials_in_order):
// *result = init op that. Until stop 39 the last block combined init, head, the partials' fold and tail by one
// more in-order block reduction, and every thread of it fenced, and the blocks counted themselves with an
// acq_rel add: 1.7 us of the kernel's end at 2^24 on the H100 (bench/reduce_tail.cu).
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

// The reduction without a body (inputs whose start is not aligned to T, or too short for one warp tile):
// init op head op tail. bench/reduce_tuning.cu also gives it partials.
template <class P, class T, class Op>
__global__ void __launch_bounds__(P::final_threads)
    final_kernel(const T* in, u64 head, const maybe<T>* partials, u64 blocks, u64 tail_at, u64 n, Op op, T init, T* result) {
  combine_in_order<P>(in, head, partials, blocks, tail_at, n, op, init, result);
}

// Up to P::single_launch_max elements, the whole reduction in one block: warp w of the first min(8, tiles)
// folds its contiguous run of the body's warp tiles (fold_warp_run: each load of a warp 512 contiguous
// bytes); with a tail (Tail: compiled in only where there is one), the last warp also folds it, shorter than
// a warp tile (lane l a contiguous run of it, loaded before the tiles, then an ordered tree across the lanes);
// thread 0 combines init, the head, the warps' parts and the tail's, in order. Measured (ncu,
// bench/reduce_single_block.cu, u32, stop 38): this kernel 2.53-2.62 us at 2^12 and 3.78-3.87 at 2^15, CUB
// 2.37-2.59 (one single-tile kernel) and 4.7-5.4 (two); stop 36's (in order, parts as maybe<T>, the tail code
// always in) 2.94-3.71 and 5.18-5.89. In a bare kernel the parts as maybe<u32> cost 0.3 us at 2^12 (2.66-2.75
// against 2.30-2.40); the tail code, where the lanes fold their own elements, 1.3 us at 2^15 (5.44-5.63
// against 4.16-4.29) with no tail to fold; dividing the shares by the busy warps (a 64-bit division by a
// variable) 0.1 us at 2^12.
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
    // combination waits on one (ncu, stop 45's run 8: with the warps' redux.sync 0.20-0.32 us less at 2^12;
    // the same loops in the in-order kernel took 0.15 us less without a tail and 0.23 us more with one).
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

// dynamic=auto|on|off: the chunks drawn from a counter (auto: from P::dynamic_from_bytes of input; on: from
// one warp tile, as the tests take it), or each warp's equal share.
using sluice::detail::setting;
inline setting parse(std::string_view spec, const char* fn) {
  sluice::detail::params p(spec, fn);
  const setting d = p.auto_on_off("dynamic");
  p.done("dynamic");
  return d;
}

template <class T, class Op, class P = policy<T>>
void run(const T* in, u64 n, T* result, T init, Op op, cudaStream_t s, const char* fn, setting dynamic = setting::automatic) {
  u64 head = (16 - reinterpret_cast<std::uintptr_t>(in) % 16) % 16;
  head = head % sizeof(T) ? n : head / sizeof(T);  // a start not aligned to T: all of it goes the element way
  if (head > n) head = n;
  const bool small = n <= P::single_launch_max && dynamic != setting::on;
  if (small && head < P::per_vector) {  // (a start not aligned to T goes the element way below)
    const u64 tiles = (n - head) / P::warp_tile;
    const u64 tail_at = head + tiles * P::warp_tile;
    auto* const kernel = tail_at < n ? single_kernel<P, T, Op, true> : single_kernel<P, T, Op, false>;
    kernel<<<1, P::final_threads, 0, s>>>(in, head, tiles, tail_at, n, op, init, result);
    check_launch(fn, "vectorized::single_kernel");
    return;
  }
  const u64 tiles = small ? 0 : (n - head) / P::warp_tile, tail_at = head + tiles * P::warp_tile;
  if (tiles == 0) {
    final_kernel<P, T, Op><<<1, P::final_threads, 0, s>>>(in, head, nullptr, 0, tail_at, n, op, init, result);
    return check_launch(fn, "vectorized::final_kernel");
  }
  const bool edges = head > 0 || tail_at < n;
  const u64 sms = static_cast<u64>(multiprocessor_count(fn));
  const bool chunked = dynamic == setting::on || (dynamic == setting::automatic && n * sizeof(T) >= P::dynamic_from_bytes);
  u64 blocks = 0, count = 0;
  auto* const dynamic_launch = edges ? dynamic_kernel<P, T, Op, true> : dynamic_kernel<P, T, Op, false>;
  if (chunked) {
    count = ceil_div(tiles, P::chunk_tiles);  // chunks
    const u64 per_sm = P::dynamic_blocks_per_sm ? P::dynamic_blocks_per_sm
                                                : resident_blocks_per_sm(dynamic_launch, P::threads, 0, 0, fn, "vectorized::dynamic_kernel");
    const u64 most = per_sm ? sms * per_sm : 1;
    blocks = count + edges < most ? count + edges : most;
  } else {
    count = ceil_div(tiles, P::warps);  // the body's blocks: at least one tile per warp
    if (count > sms * P::blocks_per_sm) count = sms * P::blocks_per_sm;
    blocks = count + edges;  // and one for the edges
  }
  const u64 slots_count = count + 2 * u64{edges};  // [the body's count, tail, head] (fold_edges)
  // The partials: packed words in the launch's (kept) states (body_kernel with 4-byte T), or plain values from
  // scratch beside the counter (the dynamic kernel keeps them plain: its fold of up to 2^16 partials loads 8
  // vectors a lane, which as words would take 162 registers a thread against 64).
  const bool packed = slots<T>::packed && !chunked;
  const lookback::launch_states states(packed ? slots_count * 8 : 0, true, s, fn);
  scratch values;
  slots<T> partials{};
  if (packed) {
    partials.words = static_cast<unsigned long long*>(states.states()), partials.epoch = states.epoch();
  } else {
    values = scratch(slots_count * sizeof(T), s, fn);
    partials.values = values.as<T>();
  }
  const unsigned grid = static_cast<unsigned>(blocks);
  if (chunked) {
    dynamic_launch<<<grid, P::threads, 0, s>>>(in, head, tiles, tail_at, n, op, init, result, slots<T, false>{partials.values}, states.counter(),
                                       states.spare_counter());
    return check_launch(fn, "vectorized::dynamic_kernel");
  }
  auto* const kernel = edges ? body_kernel<P, T, Op, true> : body_kernel<P, T, Op, false>;
  kernel<<<grid, P::threads, 0, s>>>(in, head, tiles, tail_at, n, op, init, result, partials, states.counter(), states.spare_counter());
  check_launch(fn, "vectorized::body_kernel");
}

}  // namespace sluice::cuda_backend::vectorized
