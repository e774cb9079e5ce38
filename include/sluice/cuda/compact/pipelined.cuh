// compact (and partition's reversed pass, reversal.cuh), pipelined: the look-back of Merrill and Garland (2016),
// Sec. 4, run rounds behind the loads (Hopper and later; in, out and flags 16-byte aligned; 4- and 8-byte
// elements, flags with 4-byte ones). The single pass (single_pass.cuh) holds its tile in registers while its
// look-back waits, so the bytes in flight are the resident tiles and no more. Here, as in the pipelined scan
// (scan/pipelined.cuh), a persistent cooperative grid moves tiles (and their flags) through `stages` shared-memory
// buffers by bulk copies (bulk_rounds.cuh); block b of G takes tiles b, b + G, b + 2G, ..., one per round, and
// each round:
//   A. ranks the kept elements of its newest tile, arrived, within each warp (the elements kept in registers, the
//      ranks too, packed: packed_ranks), and publishes the tile's count;
//   B. looks back for the tile it counted `lag` rounds before (its predecessors have had that long to publish):
//      walking back over them, or (wide) reading the G counts since its own tile `lag` rounds before that at once;
//   C. writes that tile's kept elements into a staging buffer at the output's 16-byte phase, and stores the run:
//      its 16-byte aligned middle in one bulk copy, the ragged ends (under 16 bytes each) element by element.
// Keeps order; each element is read once and written once (n x sizeof(T) read, plus n flag bytes; the kept
// written). Dispatch (decoupled_lookback.cuh) takes it from pipeline::min_tiles on: 32 MiB of 4-byte elements by
// predicate, 64 MiB otherwise; 8-byte elements with flags and 16-byte elements have no pipeline.
#pragma once
#include <cub/warp/warp_scan.cuh>
#include <cuda/ptx>
#include <cuda/std/bit>
#include <span>
#include <type_traits>

#include "sluice/cuda/bulk_rounds.cuh"
#include "sluice/cuda/compact/phased.cuh"
#include "sluice/cuda/compact/select_common.cuh"
#include "sluice/cuda/lookback.cuh"

namespace sluice::cuda_backend::select_lookback {

// A zero the compiler cannot see as one. A rotating pipeline clears the bank of a round without a tile (so that
// the bank's older tile is dead there); written as T{}, the compiler cleared the bank before every round's load
// instead (2.5% of compact_if's instructions). The pipelines that age their banks keep T{}.
template <class T>
__device__ T opaque_zero() {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "a zero of one or two registers");
  if constexpr (sizeof(T) == 4) {
    unsigned z;
    asm volatile("mov.b32 %0, 0;" : "=r"(z));
    return cuda::std::bit_cast<T>(z);
  } else {
    unsigned long long z;
    asm volatile("mov.b64 %0, 0;" : "=l"(z));
    return cuda::std::bit_cast<T>(z);
  }
}

// What the pipeline keeps of a ranked tile for the round that stores it (lag rounds later), packed so that
// the registers go to the elements: which elements are kept, PV bits a vector, and each vector's kept before it
// within the warp's run (warp_ranks), 16 bits each (unpacked, 7 vectors of u32 spilled).
template <unsigned PV, unsigned V>
struct packed_ranks {
  static_assert(PV * V <= 32, "the keep bits of a tile in one word");
  static_assert(32 * PV * V <= 0xffffu, "a warp's run counted in 16 bits");
  unsigned keep = 0;
  unsigned before[(V + 1) / 2] = {};
  packed_ranks() = default;
  __device__ packed_ranks(const unsigned (&k)[V], const unsigned (&lane_before)[V]) {
#pragma unroll
    for (unsigned j = 0; j < V; ++j) {
      keep |= k[j] << (j * PV);
      if (j % 2 == 0) before[j / 2] = lane_before[j];
      else before[j / 2] |= lane_before[j] << 16;
    }
  }
  __device__ unsigned keep_of(unsigned j) const { return keep >> (j * PV) & ((1u << PV) - 1); }
  __device__ unsigned before_of(unsigned j) const { return before[j / 2] >> (j % 2 * 16) & 0xffffu; }
};

// The pipeline's shape; the production shapes are compact_pipeline and partition_pipeline below.
template <class T, bool Flags, unsigned Vectors, unsigned Stages, unsigned BlocksPerSm, unsigned Lag, unsigned Runs, bool Wide,
          bool Release, bool Rotating = !Flags && sizeof(T) == 4>
struct pipeline {
  static constexpr unsigned lag = Lag;  // B and C work on the tile counted this many rounds before (1 to 3)
  // B's look-back: false, warp 0 walks back over the predecessors (lookback::exclusive_prefix); true, the
  // whole block reads G counts at once (G blocks): those of the blocks before it in done's round and those
  // of the others, itself included, in the round before, and adds them to the prefix of its own tile of that
  // round. No prefix is published, so no tile waits on another's look-back.
  static constexpr bool wide = Wide;
  static constexpr unsigned wide_per_thread = 2;  // counts read per thread in a wide look-back: grids to 512 blocks
  // Buffers: false, C stages each run in its tile's own buffer, which receives its next tile once that run's
  // store has read it; true, a buffer receives its next tile as soon as A has read it into registers, and C
  // stages in a buffer of its own (one more buffer, more of the others in flight).
  static constexpr bool release = Release;
  // Release with one run (compact): C stages its run at the staging buffer's low end in even rounds and at its
  // high end in odd ones, so that it waits for the last round's store to have read the buffer only where the
  // two runs overlap. Partition stages both its runs from the low end.
  static constexpr bool two_ended_staging = Release && Runs == 1;
  // The tiles held for C (L + 1 banks of registers): true, they rotate through the banks (rotate_rounds, the round
  // loop's code L + 1 times over); false, they move one bank older at each round's end (age). Rotating for 4-byte
  // elements by predicate; 8-byte ones gained nothing by it.
  static constexpr bool rotating = Rotating;
  // The built-in threshold's comparison fixed per kernel (with_fixed_comparison: six kernels where one would do):
  // where the banks rotate (their round's code three times over), and for the 8-byte compact, faster so at 10%
  // kept (partition's pass measured level, so it keeps one kernel).
  static constexpr bool fixed_comparison = Rotating || (!Flags && sizeof(T) == 8 && Runs == 1);
  static constexpr unsigned threads = 256;
  static constexpr unsigned warps = threads / 32;
  static constexpr unsigned per_vector = 16 / sizeof(T);
  static constexpr unsigned vectors = Vectors;  // per thread per tile
  static constexpr unsigned warp_items = 32 * per_vector * vectors;
  static constexpr unsigned tile = threads * per_vector * vectors;
  static constexpr unsigned runs = Runs;  // runs staged per tile: 1 (compact: the kept), 2 (partition: and the rejected)
  // Shared memory, all of it dynamic: the buffers from its start, each a whole number of 128-byte lines, then the
  // block's variables (vars). The kernel declares none static, so nothing the compiler lays out moves the buffers
  // (the dynamic part starts where the block's shared memory does) and their addresses stay constants: buffers
  // off a line, or aligned at run time, measured 5-15% slower. (`extern __shared__ __align__(128)` is not honoured
  // for dynamic shared memory: CCCL #5122.)
  static constexpr unsigned line = 128 / sizeof(T);
  static constexpr unsigned stride = (tile + runs * per_vector + line - 1) / line * line;  // a buffer: the tile, a phase of slack per run
  static constexpr unsigned stages = Stages;
  static constexpr unsigned blocks_per_sm = BlocksPerSm;  // resident blocks of the persistent grid
  static constexpr std::size_t buffer_bytes =
      std::size_t{stages} * (stride * sizeof(T) + (Flags ? tile : 0)) + (release ? stride * sizeof(T) : 0);
  struct vars {
    std::uint64_t arrived[stages];  // one mbarrier per buffer
    unsigned long long tile_before;
    typename cub::WarpScan<unsigned>::TempStorage warp_storage[warps];
    unsigned warp_counts[warps];
    unsigned warp_before[lag + 1][warps];  // kept before each warp in the tile counted in round r, at r % (lag + 1)
    unsigned tile_count[lag + 1];          // that tile's count, likewise
    unsigned wide_sums[warps];             // wide look-back: each warp's part of the counts read
    // Two-ended staging (set by the copier): the last run staged spans staging[[0], [1]); [2], 1 where it was
    // bulk stored; [3], where this round's run goes.
    unsigned staged_last[4];
  };
  static_assert(buffer_bytes % alignof(vars) == 0);
  static constexpr std::size_t shared_bytes = buffer_bytes + sizeof(vars);
  static constexpr bool built = sizeof(T) == 4 || (sizeof(T) == 8 && !Flags);
  static constexpr u64 max_grid = wide ? u64{wide_per_thread} * threads : ~u64{0};
  // pipelined=auto from this many tiles on: 32 MiB of 4-byte elements by predicate, else 64 MiB.
  static constexpr u64 min_tiles = (u64{1} << (!Flags && sizeof(T) == 4 ? 25 : 26)) / sizeof(T) / tile;
  static_assert(tile <= policy<T>::tile, "the single pass, the fallback, uses the tile states laid out for these tiles");
  static_assert(lag >= 1 && lag <= 3, "three tiles kept in registers at most");
  static_assert(runs == 1 || (runs == 2 && !Flags), "partition's pipeline is built for predicates");
};

// Partition's pipeline (the reversed pass): each buffer with room for both runs; two blocks per SM, two buffers
// released after A and a staging buffer, a lag of 2 rounds, the wide look-back; 6 vectors per thread for 4-byte
// elements (24 KiB tiles), 5 for 8-byte ones (40 KiB).
template <class T>
using partition_pipeline = pipeline<T, false, sizeof(T) == 8 ? 5 : 6, 2, 2, 2, 2, true, true>;
// The compact's pipeline: two blocks per SM, two buffers released as soon as A has read them and a staging buffer
// for C, a lag of 2 rounds, the wide look-back; 7 vectors per thread (28 KiB tiles of u32: the most that fit in the
// 128 registers of two blocks an SM), 6 for 8-byte elements by predicate.
template <class T, bool Flags>
using compact_pipeline = std::conditional_t<Flags, pipeline<T, true, 7, 2, 2, 2, 1, true, true>,
                                            pipeline<T, false, sizeof(T) == 4 ? 7 : 6, 2, 2, 2, 1, true, true>>;
template <mode M, class T, bool Flags>
using pipeline_for = std::conditional_t<M == mode::partition && !Flags, partition_pipeline<T>, compact_pipeline<T, Flags>>;

// The numbers of partition's reversed pass (reversal.cuh), which the pass kernel reads: with reversed=auto it
// evaluates the predicate over `sample` elements spread evenly over the input and runs the pass where at least
// from_kept_hundredths of them are kept (the measured crossover against the phased path), else it takes the
// phased path's tile counts. The sample costs 5-9 us, so auto samples only from sampled_from_bytes of input on.
// partition_unordered takes the pass (without its flip) from unordered_from_bytes on.
struct reversal_policy {
  static constexpr unsigned sample = 1024;  // elements; 4 per thread of a 256-thread block
  static constexpr unsigned from_kept_hundredths = 65;
  static constexpr u64 sampled_from_bytes = u64{1} << 28;
  static constexpr u64 unordered_from_bytes = u64{1} << 26;
};
// What the partition's pass kernel (pipelined_compact_kernel, mode::partition) is told and tells back.
struct partition_args {
  bool sample = true;            // decide from the sample (else: the pass, no sample)
  unsigned* reversed = nullptr;  // out: 1 where the pass ran (the phased path's move then flips its tail), else 0
  u64* counts = nullptr;         // where not null: the phased path's tile counts, taken here where it is chosen
  u64 count_tiles = 0;           // (count_tile), else zeroed
};

template <class T, class Sel, class Tuning, class Pipe, mode M = mode::compact>
__global__ void __launch_bounds__(Pipe::threads, Pipe::blocks_per_sm)
    pipelined_compact_kernel(const T* in, Sel sel, T* out, u64 n, u64 capacity, u64* count, unsigned* spare_counter,
                             lookback::count_state state, partition_args part) {
#if __CUDA_ARCH__ >= 900
  if (blockIdx.x == 0 && threadIdx.x == 0) *spare_counter = 0;  // the next call's counter (lookback::launch_states)
  using Q = Pipe;
  using warp_scan = cub::WarpScan<unsigned>;
  constexpr unsigned PV = Q::per_vector, V = Q::vectors, S = Q::stages, L = Q::lag;
  constexpr bool flags = is_flags<Sel>;
  using round_schedule = bulk_rounds<Q::tile, S, L, Q::release>;
  constexpr u64 none = round_schedule::none;  // no tile: what taken() and stored() return past the last
  constexpr bool two_ended = Q::two_ended_staging && M != mode::partition;  // partition: both runs from the low end
  T* const buffers = dynamic_shared<T>();  // the buffers, then the block's variables (pipeline::vars)
  typename Q::vars& sh = dynamic_shared_after<typename Q::vars, Q::buffer_bytes>();
  auto& warp_storage = sh.warp_storage;
  auto& warp_counts = sh.warp_counts;
  auto& warp_before = sh.warp_before;
  auto& tile_count = sh.tile_count;
  auto& tile_before = sh.tile_before;
  auto& wide_sums = sh.wide_sums;
  auto& staged_last = sh.staged_last;
  std::uint8_t* const flag_buffers = reinterpret_cast<std::uint8_t*>(buffers + std::size_t{S} * Q::stride);
  T* const staging = reinterpret_cast<T*>(flag_buffers + (flags ? std::size_t{S} * Q::tile : 0));  // release: C's buffer
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x & 31u;
  const bool copier = threadIdx.x == Q::threads - 1;  // issues the bulk copies
  const round_schedule rounds(n, sh.arrived);
  const u64 tiles = rounds.tiles;
  auto count_of = [&](u64 t) { return rounds.count_of(t); };
  auto bulk_bytes = [&](u64 t) { return rounds.bulk_bytes(t, sizeof(T)); };
  auto flag_bulk_bytes = [&](u64 t) { return flags ? rounds.bulk_bytes(t, 1) : 0u; };

  // Buffer s starts receiving tile t and its flags.
  auto receive = [&](unsigned s, u64 t) {
    rounds.expect(s, bulk_bytes(t) + flag_bulk_bytes(t));
    rounds.copy_in(s, buffers + std::size_t{s} * Q::stride, in + t * Q::tile, bulk_bytes(t));
    if constexpr (flags) rounds.copy_in(s, flag_buffers + std::size_t{s} * Q::tile, sel.flags + t * Q::tile, flag_bulk_bytes(t));
  };
  // What clears a bank's element (opaque_zero where the banks rotate).
  auto bank_zero = [] {
    if constexpr (Q::rotating) return opaque_zero<T>();
    else return T{};
  };
  // The thread's vectors of tile t from buffer s (the single pass's warp-striped layout) and which of their
  // elements are kept. Past the bulk copies (the last tile's trailing bytes): from memory.
  auto load = [&](unsigned s, u64 t, T (&x)[V][PV], unsigned (&keep)[V]) {
    const u64 base = t * Q::tile;
    const T* const b = buffers + std::size_t{s} * Q::stride;
    const std::uint8_t* const f = flag_buffers + std::size_t{s} * Q::tile;
    const unsigned first = warp * Q::warp_items;
    if (base + Q::tile <= n) {
#pragma unroll
      for (unsigned j = 0; j < V; ++j) {
        const unsigned k = first + (j * 32 + lane) * PV;
        vec16<T> v;
        v.raw = *reinterpret_cast<const uint4*>(b + k);
        keep[j] = 0;
#pragma unroll
        for (unsigned e = 0; e < PV; ++e) x[j][e] = v.e[e];
        if constexpr (flags) {
          keep[j] = nonzero_mask<PV>(f + k);
        } else {
          // Each bit set under the test's predicate: written as `keep |= kept << e`, the compiler selected 0 or -1,
          // shifted and masked it (64 instructions more in the u32 kernel).
#pragma unroll
          for (unsigned e = 0; e < PV; ++e)
            if (sel(base + k + e, x[j][e])) keep[j] |= 1u << e;
        }
      }
    } else {
      const u64 in_buffer = bulk_bytes(t) / sizeof(T), flags_in_buffer = flag_bulk_bytes(t), valid = count_of(t);
      const T zero = bank_zero();
#pragma unroll
      for (unsigned j = 0; j < V; ++j) {
        keep[j] = 0;
#pragma unroll
        for (unsigned e = 0; e < PV; ++e) {
          const unsigned k = first + (j * 32 + lane) * PV + e;
          x[j][e] = zero;  // every element written: the bank's older tile is dead (rotate_rounds)
          if (k >= valid) continue;
          x[j][e] = k < in_buffer ? b[k] : in[base + k];
          bool kept;
          if constexpr (flags)
            kept = (k < flags_in_buffer ? f[k] : sel.flags[base + k]) != 0;
          else
            kept = sel(base + k, x[j][e]);
          keep[j] |= static_cast<unsigned>(kept) << e;
        }
      }
    }
  };

  // Partition: reversed layout or none, decided alike by every block before any copy is asked for.
  if constexpr (M == mode::partition) {
    bool reversed = true;
    if (part.sample) {  // reversal_policy::sample elements at i n / sample, i = 0, 1, ...
      constexpr unsigned per_thread = reversal_policy::sample / Q::threads;
      static_assert(reversal_policy::sample == 1024, "the positions below divide by 2^10");
      u64 at[per_thread];
      T v[per_thread];
#pragma unroll
      for (unsigned k = 0; k < per_thread; ++k) {
        const u64 i = threadIdx.x * per_thread + k;
        at[k] = i * (n >> 10) + ((i * (n & 1023u)) >> 10);
        v[k] = in[at[k]];
      }
      unsigned kept = 0;
#pragma unroll
      for (unsigned k = 0; k < per_thread; ++k) kept += __syncthreads_count(sel(at[k], v[k]));
      reversed = kept * 100 >= reversal_policy::from_kept_hundredths * reversal_policy::sample;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0 && part.reversed) *part.reversed = reversed;
    if (!reversed) {  // the phased path moves the elements; its tile counts are taken here, one warp a tile
      if (part.counts)
        for (u64 t = blockIdx.x * static_cast<u64>(Q::warps) + warp; t < part.count_tiles; t += static_cast<u64>(gridDim.x) * Q::warps) {
          const unsigned c = count_tile<T, Sel, 16>(in, sel, n, t, lane);
          if (lane == 0) part.counts[t] = c;
        }
      return;
    }
    if (part.counts)  // the phased path's scan of the counts runs all the same: over zeros
      for (u64 t = blockIdx.x * static_cast<u64>(Q::threads) + threadIdx.x; t < part.count_tiles; t += static_cast<u64>(gridDim.x) * Q::threads)
        part.counts[t] = 0;
  }
  if (two_ended && copier) staged_last[0] = staged_last[1] = staged_last[2] = 0;
  rounds.start(copier, receive);

  // Stores run[0, c) to out[g, g + c), `run` at the phase of out + g: the 16-byte aligned middle by one bulk
  // copy (left uncommitted; true where one was issued), the ragged ends element by element.
  auto store_staged = [&](u64 g, const T* run, u64 c) {
    const u64 end = g + c, lo = ceil_div(g, PV) * PV, hi = end / PV * PV;
    if (lo < hi) {
      if (copier) rounds.store(out + lo, run + (lo - g), static_cast<unsigned>((hi - lo) * sizeof(T)), /*commit=*/false);
      if (threadIdx.x < lo - g) out[g + threadIdx.x] = run[threadIdx.x];
      if (threadIdx.x < end - hi) out[hi + threadIdx.x] = run[hi - g + threadIdx.x];
      return true;
    }
    for (u64 i = threadIdx.x; i < c; i += Q::threads) out[g + i] = run[i];
    return false;
  };

  // Wide look-back: the counts a round needs, asked for at its start (in flight while A runs). Entry k of this
  // thread: block b = threadIdx.x + k * threads's tile in done's round where b is before this block, else in
  // the round before (none in the first); they exist, being before done.
  // The words are decoded only in B: a load whose word is decoded at once holds its thread until it returns.
  constexpr unsigned W = Q::wide ? Q::wide_per_thread : 1;
  unsigned long long wide_word[W];
  auto wide_tile = [&](u64 d, unsigned b) { return b < blockIdx.x ? d - blockIdx.x + b : d - blockIdx.x - gridDim.x + b; };
  auto ask = [&](u64 d) {
#pragma unroll
    for (unsigned k = 0; k < W; ++k) {
      const unsigned b = threadIdx.x + k * Q::threads;
      const bool exists = d != none && b < gridDim.x && (b < blockIdx.x || d >= gridDim.x);
      wide_word[k] = exists ? state.word(wide_tile(d, b)) : state.none_word();  // none: nothing to wait for
    }
  };
  unsigned long long last_before = 0;  // wide look-back: the kept elements before this block's previous done tile
  // The tiles of the last L + 1 rounds, from their rounds' A: their elements, which of them are kept, and the kept
  // before each vector within the warp; rotating, round r's in bank r % (L + 1) (rotate_rounds), else the tile taken
  // i rounds before in bank i (age).
  T bank_x[L + 1][V][PV];
  packed_ranks<PV, V> bank_r[L + 1];
  rotate_rounds<Q::rotating ? L + 1 : 1>(rounds.rounds_of_block(), [&](const unsigned round, auto bank) {
    // The banks of this round's newest tile and of done's.
    constexpr unsigned kc = decltype(bank)::value, kd = Q::rotating ? (kc + 1) % (L + 1) : L;
    const unsigned s = round % S, sd = (round + S * L - L) % S;
    const u64 cur = rounds.taken(round);
    // The tile this round looks back for and stores (from buffer sd), counted L rounds before.
    const u64 done = rounds.stored(round);

    // A. Rank the newest tile's kept elements within each warp.
    T(&xc)[V][PV] = bank_x[kc];
    unsigned keepc[V], lbc[V];
    if constexpr (Q::wide) ask(done);
    if (cur != none) {
      rounds.wait(round);
      load(s, cur, xc, keepc);
      const unsigned c = warp_ranks<PV>(keepc, lbc, warp_storage[warp]);
      if (lane == 0) warp_counts[warp] = c;
      bank_r[kc] = packed_ranks<PV, V>(keepc, lbc);  // here, not after C: keepc and lbc die (9 registers)
    } else {  // no tile (the last rounds): the bank written all the same, so that its older tile is dead here
      const T zero = bank_zero();
#pragma unroll
      for (unsigned j = 0; j < V; ++j)
#pragma unroll
        for (unsigned e = 0; e < PV; ++e) xc[j][e] = zero;
      bank_r[kc] = packed_ranks<PV, V>{};
    }
    __syncthreads();
    if constexpr (Q::release)  // buffer s read: it receives the tile S rounds on
      if (copier && cur != none && rounds.takes(round + S)) receive(s, rounds.tile_of(round + S));

    // B. Warp 0: the newest tile's count published, then (walking back) the look-back for `done`; wide: the
    // whole block reads the counts since this block's previous done tile (included) up to done.
    if (warp == 0) {
      if (cur != none) {
        const unsigned c = lane < Q::warps ? warp_counts[lane] : 0;
        unsigned incl;
        warp_scan(warp_storage[0]).InclusiveSum(c, incl);  // over 8 lanes instead (3 steps): level
        const unsigned kept = __shfl_sync(0xffffffffu, incl, Q::warps - 1);
        if (lane < Q::warps) warp_before[round % (L + 1)][lane] = incl - c;
        if (lane == 0) {
          state.publish(cur, cur == 0 ? lookback::prefix : lookback::aggregate, kept);
          tile_count[round % (L + 1)] = kept;
        }
      }
      if (!Q::wide && done != none) {
        unsigned long long before = 0;
        if (done > 0) {
          before = lookback::exclusive_prefix<Tuning>(state, done, sluice::sum{});
          if (lane == 0) state.publish(done, lookback::prefix, before + tile_count[(round + 1) % (L + 1)]);
        }
        if (lane == 0) tile_before = before;
      }
    }
    if constexpr (Q::wide) {
      if (done != none) {
        unsigned mine = 0;  // tile counts, at most W x threads of them: 32 bits hold their sum
#pragma unroll
        for (unsigned k = 0; k < W; ++k) {
          unsigned long long c;
          lookback::status st = state.decode(wide_word[k], c);
          while (st == lookback::invalid) {
            st = state.peek(wide_tile(done, threadIdx.x + k * Q::threads), c);
          }
          mine += static_cast<unsigned>(c);
        }
        // One redux.sync, where 64-bit shuffles took five dependent steps of four instructions.
        mine = __reduce_add_sync(0xffffffffu, mine);
        if (lane == 0) wide_sums[warp] = mine;
      }
    }
    // Two-ended staging: this round's run at staging[0] (even rounds) or at the high end (odd), at a whole
    // vector, room for its phase before it; the copier leaves the offset in shared memory for C (held in a
    // register through B, it spilled 8 bytes). Apart from the last round's run, only the store of the round
    // before that (same end) must have read it: every group but the newest.
    if constexpr (two_ended) {
      if (copier) {
        const unsigned kept = done != none ? tile_count[(round + 1) % (L + 1)] : 0;
        const unsigned at = round % 2 ? (Q::stride - PV - kept) / PV * PV : 0u;
        const bool apart = at >= staged_last[1] || at + PV + kept <= staged_last[0];  // from the last round's run
        if (apart && staged_last[2]) cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<1>{});
        else cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
        if (done != none) staged_last[0] = at, staged_last[1] = at + PV + kept;
        staged_last[3] = at;  // read by every thread in C, after the barrier
      }
    } else if constexpr (Q::release) {  // the staging buffer free again: the last round's store has read it
      if (copier) cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
    }
    __syncthreads();
    unsigned long long wide_before = 0;
    if constexpr (Q::wide) {
      if (done != none) {
        unsigned between = 0;
#pragma unroll
        for (unsigned w = 0; w < Q::warps; ++w) between += wide_sums[w];
        wide_before = last_before + between;
        last_before = wide_before;
      }
    }

    // C. `done`'s kept run (partition: and its rejected run after it), written into its buffer (read into
    // registers in its round's A) at the output's phase, then stored.
    bool bulk = false;  // a bulk store was issued from buffer sd this round
    if (done != none) {
      const T(&x)[V][PV] = bank_x[kd];
      const packed_ranks<PV, V>& ranked = bank_r[kd];
      const u64 before = Q::wide ? wide_before : tile_before, kept = tile_count[(round + 1) % (L + 1)];
      const unsigned in_tile_before = warp_before[(round + 1) % (L + 1)][warp];  // kept before this warp's run
      const unsigned at = static_cast<unsigned>(before % PV) + in_tile_before;
      T* const b = two_ended ? staging + staged_last[3] : Q::release ? staging : buffers + std::size_t{sd} * Q::stride;
      // Partition: the rejected run goes reversed to out[rejected_to, + rejected), staged from b[rejected_at] on.
      [[maybe_unused]] const u64 valid = count_of(done), rejected = valid - kept, rejected_before = done * Q::tile - before;
      [[maybe_unused]] u64 rejected_to = 0;
      [[maybe_unused]] unsigned rejected_at = 0;
      if constexpr (M == mode::partition) {
        rejected_to = n - rejected_before - rejected;  // written last to first: reverse_tail_kernel reverses them
        const unsigned end = static_cast<unsigned>(before % PV + kept);
        rejected_at = end + static_cast<unsigned>((rejected_to + PV - end % PV) % PV);
      }
      // Each vector's kept elements through a cursor, advanced by each keep bit (7 popc where each element's own
      // rank took 28); partition's rejected ones through a second, backwards. The cursors are shared-memory
      // addresses: a predicated store and add an element (a generic pointer took an address computation and the
      // keep bit's extraction for each element too).
#pragma unroll
      for (unsigned j = 0; j < V; ++j) {
        const unsigned keep = ranked.keep_of(j);
        unsigned k = shared_address(b + at) + ranked.before_of(j) * unsigned{sizeof(T)};
        // Partition: the vector's first index in the tile, and the cursor of its first rejected element (where no
        // element of the tile is rejected it wraps around, and no element is stored through it).
        [[maybe_unused]] const unsigned first = warp * Q::warp_items + (j * 32 + lane) * PV;
        [[maybe_unused]] unsigned r =
            shared_address(b + rejected_at) +
            (static_cast<unsigned>(rejected) - 1 - (first - (in_tile_before + ranked.before_of(j)))) * unsigned{sizeof(T)};
#pragma unroll
        for (unsigned e = 0; e < PV; ++e) {
          if (keep >> e & 1u)
            store_shared(k, x[j][e]), k += sizeof(T);
          else if constexpr (M == mode::partition) {
            if (first + e < valid) store_shared(r, x[j][e]), r -= sizeof(T);
          }
        }
      }
      cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);  // these writes, seen by the bulk store
      __syncthreads();
      const u64 stored = before >= capacity ? 0 : (kept < capacity - before ? kept : capacity - before);
      bulk = store_staged(before, b + before % PV, stored);
      if constexpr (M == mode::partition) bulk = store_staged(rejected_to, b + rejected_at, rejected) || bulk;
      if (copier && bulk) cuda::ptx::cp_async_bulk_commit_group();
      if (threadIdx.x == 0 && done == tiles - 1) *count = before + kept;
    }
    if constexpr (two_ended)
      if (copier) staged_last[2] = bulk;

    if constexpr (!Q::release)
      if (copier) rounds.refill(round, bulk, receive);
    if constexpr (!Q::rotating) {  // the held tiles move one round older
      age(bank_x);
      age(bank_r);
    }
  });
  if (copier) rounds.finish();
#endif
}

// The built-in threshold with its comparison fixed when the kernel is compiled. A rotating pipeline (its round's
// code L + 1 times over) is launched as one of six kernels, one per comparison, chosen here on the host: with the
// comparison chosen in every element's test its code tripled, and evaluated without a branch its tests cost more
// than the banks saved. The 8-byte compact's pipeline too (pipeline::fixed_comparison). Any other selector goes
// as it is.
template <class T, compare C>
struct fixed_threshold {
  T value;
  __device__ bool operator()(const T& x) const { return threshold<T>{C, value}(x); }  // its switch folded away
};
template <class Sel>
inline constexpr bool is_threshold = false;
template <class T>
inline constexpr bool is_threshold<sluice::detail::pred_select<threshold<T>>> = true;
template <bool Fix, class Sel, class F>
decltype(auto) with_fixed_comparison(const Sel& sel, F&& f) {
  if constexpr (Fix && is_threshold<Sel>) {
    using T = decltype(sel.pred.value);
    const T v = sel.pred.value;
    auto as = [&]<compare C>() { return f(sluice::detail::pred_select<fixed_threshold<T, C>>{{v}}); };
    switch (sel.pred.op) {
      case compare::less: return as.template operator()<compare::less>();
      case compare::less_equal: return as.template operator()<compare::less_equal>();
      case compare::greater: return as.template operator()<compare::greater>();
      case compare::greater_equal: return as.template operator()<compare::greater_equal>();
      case compare::equal: return as.template operator()<compare::equal>();
      default: return as.template operator()<compare::not_equal>();
    }
  } else {
    return f(sel);
  }
}

// One cooperative launch of the pipeline of mode M on `sel` (its comparison already fixed where the pipeline
// rotates): the grid the device holds (no more than the wide look-back reaches), the tile counts kept from the
// stream's last call; `ready()` runs once the grid is known, before the launch (partition's sample sets `part` up
// there). False where the device holds no grid or could not hold it after all: the caller then takes another path.
template <mode M, class T, class Tuning, class Pipe, class Sel, class Ready>
bool launch_pipeline(const T* in, const Sel& sel, T* out, u64 n, u64 capacity, u64* count, u64 blocks, cudaStream_t s,
                     const char* fn, partition_args& part, Ready ready) {
  auto* kernel = pipelined_compact_kernel<T, Sel, Tuning, Pipe, M>;
  const u64 tiles = ceil_div(n, Pipe::tile);
  u64 grid = resident_grid(kernel, Pipe::threads, Pipe::shared_bytes, tiles, blocks, fn, "decoupled-lookback's pipeline");
  if (grid > Pipe::max_grid) grid = Pipe::max_grid;  // the wide look-back's reach
  if (grid == 0) return false;
  lookback::launch_states state = count_states(n, tiles, s, fn);
  ready();
  if (launch_cooperative(kernel, grid, Pipe::threads, Pipe::shared_bytes, s, fn,
                         M == mode::partition ? "select_lookback::pipelined_partition_kernel" : "select_lookback::pipelined_compact_kernel",
                         in, sel, out, n, capacity, count, state.spare_counter(), lookback::count_state::at(state.states(), tiles, state.epoch()),
                         part))
    return true;
  state.unused();  // the caller's path borrows the states anew
  return false;
}

// The pipelined compact, where it applies and is chosen; false where the caller is to take another path.
template <class T, class Sel, class Tuning, class Pipe>
bool run_pipelined(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn, compact_settings c) {
  if constexpr (!Pipe::built) {
    return false;
  } else {
    using sluice::detail::setting;
    const auto addr = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p); };
    const u64 n = in.size(), tiles = ceil_div(n, Pipe::tile);
    bool aligned = addr(in.data()) % 16 == 0 && addr(out.data()) % 16 == 0;
    if constexpr (is_flags<Sel>) aligned = aligned && addr(sel.flags) % 16 == 0;
    if (!aligned || c.pipelined == setting::off || c.phased == phasing::on) return false;
    if (c.pipelined == setting::automatic && tiles < Pipe::min_tiles) return false;
    return with_fixed_comparison<Pipe::fixed_comparison>(sel, [&](const auto& fixed) {
      partition_args none{};
      return launch_pipeline<mode::compact, T, Tuning, Pipe>(in.data(), fixed, out.data(), n, out.size(), count, c.blocks, s, fn, none, [] {});
    });
  }
}

}  // namespace sluice::cuda_backend::select_lookback
