// reduce "vectorized": the pieces its paths share (vectorized.cuh chooses the path). The tuning numbers of
// every path (policy), the warp and block folds, which combine in input order except where the operator
// commutes (`commutes`), and the slots where blocks leave their partials for the last block to fold.
#pragma once
#include <cub/block/block_reduce.cuh>

#include <type_traits>

#include "sluice/cuda/common.cuh"
#include "sluice/cuda/lookback.cuh"

namespace sluice::cuda_backend::vectorized {

// The tuning of every path, in one place (time against CUB's in the same run, H100 unless said otherwise).
template <class T, unsigned Vectors = 4, unsigned BlocksPerSm = 8, unsigned DynamicBlocksPerSm = 0, unsigned FoldVectors = 8,
          unsigned DynamicMinBlocks = 4, bool Commuting = true>
struct policy {
  static constexpr unsigned threads = 256;
  static constexpr unsigned warps = threads / 32;
  static constexpr unsigned per_vector = 16 / sizeof(T);
  static constexpr unsigned vectors = Vectors;  // 16-byte loads in flight per thread (best of 4 and 8)
  static constexpr unsigned warp_tile = 32 * vectors * per_vector;
  static constexpr unsigned blocks_per_sm = BlocksPerSm;  // equal share: one resident wave of 8 blocks an SM
  static constexpr unsigned final_threads = 256;
  // Single block (single_block.cuh): up to 128 KiB of input, where one launch beats two.
  static constexpr u64 single_launch_bytes = u64{1} << 17;
  static constexpr u64 single_launch_max = single_launch_bytes / sizeof(T);
  // Dynamic chunks (dynamic_chunks.cuh): 8 x 8 warp tiles (128 KiB) a chunk, from 256 MiB of input on (below,
  // the equal share was level or ahead).
  static constexpr unsigned chunk_warp_tiles = 8;
  static constexpr u64 chunk_tiles = u64{warps} * chunk_warp_tiles;
  static constexpr u64 dynamic_from_bytes = u64{1} << 28;
  // dynamic_kernel's grid: 0, as many blocks as the device holds at once (so no block is launched with nothing
  // to do; a grid of blocks_per_sm an SM measured alike); else that many an SM.
  static constexpr unsigned dynamic_blocks_per_sm = DynamicBlocksPerSm;
  // The last block's fold of the chunks' partials (fold_partials_in_order): 16-byte loads per lane and group.
  static constexpr unsigned fold_vectors = FoldVectors;
  // body_kernel's fold of the blocks' partials: loads a lane and group, under __launch_bounds__(threads,
  // body_min_blocks) so that the fold's registers do not cost the body its 8 blocks an SM (4 loads spill).
  static constexpr unsigned body_fold_vectors = 2;
  // The same fold of packed words (4-byte T, slots::packed): 6 words a lane take 1056 partials (132 SMs) in one
  // round, with no spill under the launch bound's 32 registers (8 spilled).
  static constexpr unsigned body_fold_words = 6;
  static constexpr unsigned body_min_blocks = 8;
  // dynamic_kernel's __launch_bounds__ residency: 4 blocks an SM, 64 registers, no spill for 4-byte sums.
  static constexpr unsigned dynamic_min_blocks = DynamicMinBlocks;
  // single_kernel, for operators that commute (`commutes`): each lane folds its own elements of its warp's
  // tiles and the warp combines once, instead of an ordered tree for every 16-byte vector. The multi-block
  // kernels keep the ordered fold (the lanes' fold was slower there at 2^22-2^23, level from 2^24).
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
// + tail values: all of final_kernel.
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
// the last block loads each word until it carries this call's epoch (measured faster than an acq_rel count).
// Other T: plain partials, counted with an acq_rel add, whose acquire in the last block's thread 0 and the
// barrier after it order the loads.
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
// groups in turn, then the warps' folds go in order (a tree for every 32 partials was 1-1.5% slower).
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
// head's slot alone, before them). So no block of the body has more to do than the others (a tail folded by
// the body's last block cost more).
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
}  // namespace sluice::cuda_backend::vectorized
