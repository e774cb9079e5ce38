// scan "decoupled-lookback": the single-pass scan of Merrill and Garland (2016): each element is read once
// and written once. A block takes the next tile number from an atomic counter, loads its tile with 16-byte
// vector loads, scans it (serially within each thread's vector, a warp scan across lanes, a scan of the
// warps' totals), publishes the tile's aggregate, learns everything before the tile by look-back
// (lookback.cuh), and stores the tile with 16-byte vector stores. One launch (plus a memset of the tile
// states, unless the stream's kept states serve: lookback::launch_states) for any n; a single-tile input
// needs neither the counter nor the states.
// Layout: warp w of a tile owns a contiguous run of 32 x items elements; lane l's j-th vector is at
// (j x 32 + l) x per_vector in that run, so every load instruction of a warp covers 512 contiguous bytes.
// Starts that are not 16-byte aligned (in or out) take the same path with element loads and stores.
// Any associative operator, elements combine in order; in place is safe (a tile is read before it is
// written). Floating-point results depend on which predecessors had published: not bitwise repeatable.
#pragma once
#include <cub/warp/warp_scan.cuh>
#include <cuda/ptx>
#include <type_traits>

#include "sluice/cuda/bulk_rounds.cuh"
#include "sluice/cuda/cluster_prefix.cuh"
#include "sluice/cuda/lookback.cuh"
#include "sluice/detail/params.hpp"

namespace sluice::cuda_backend::decoupled_lookback {

template <class T>
struct policy {
  static constexpr unsigned threads = 256;
  static constexpr unsigned warps = threads / 32;
  static constexpr unsigned per_vector = 16 / sizeof(T);  // elements per 16-byte load
  static constexpr unsigned vectors = 8;                   // loads in flight per thread: 128 bytes (measured best of 4, 8, 16)
  static constexpr unsigned items = per_vector * vectors;
  static constexpr unsigned warp_items = 32 * items;
  static constexpr unsigned tile = threads * items;  // 8192 four-byte or 4096 eight-byte elements
  // Elements other than integers (floats, a user's type) look back anchored (lookback.cuh): the order of
  // combination fixed by the tile numbers, so their results repeat bit for bit. An anchor every 128 tiles of
  // 4-byte elements; every 64 of 8-byte ones, whose wider window spilled more (ptxas: 64 bytes against 52).
  static constexpr bool anchored = !std::is_integral_v<T>;
  static constexpr unsigned anchor = sizeof(T) == 4 ? 128 : 64;
};

// maybe (common.cuh): nothing precedes the first element (inclusive scans have no identity).
template <class T, class Op>
__device__ maybe<T> then(maybe<T> a, maybe<T> b, Op op) {
  return maybe_op<T, Op>{op}(a, b);
}

template <class T, class Op, bool Aligned, class Tuning>
__global__ void __launch_bounds__(policy<T>::threads, Tuning::min_blocks)
    scan_kernel(const T* in, T* out, u64 n, Op op, bool inclusive, T init, unsigned* counter, unsigned* spare_counter,
                lookback::tile_state<T> state, bool clustered) {
  using P = policy<T>;
  using warp_scan = cub::WarpScan<T>;
  __shared__ typename warp_scan::TempStorage warp_storage[P::warps];
  __shared__ T warp_totals[P::warps];
  __shared__ unsigned tile_number;
  __shared__ T tile_before, tile_aggregate;
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x & 31u;
  if (threadIdx.x == 0) tile_number = lookback::draw_tile(counter, spare_counter);  // one cluster: no counter, blockIdx.x
  __syncthreads();
  const u64 tile = tile_number, base = tile * P::tile, run = base + warp * P::warp_items;
  const bool full = base + P::tile <= n;

  // Load: j-th vector of lane l at run + (j * 32 + l) * per_vector. Past n, repeat in[base]: such elements
  // sit after every valid one in scan order, so they change nothing that is stored.
  T x[P::vectors][P::per_vector];
#pragma unroll
  for (unsigned j = 0; j < P::vectors; ++j) {
    const u64 at = run + (j * 32 + lane) * P::per_vector;
    if (Aligned && full) {
      vec16<T> v;
      v.raw = *reinterpret_cast<const uint4*>(in + at);
#pragma unroll
      for (unsigned e = 0; e < P::per_vector; ++e) x[j][e] = v.e[e];
    } else {
#pragma unroll
      for (unsigned e = 0; e < P::per_vector; ++e) x[j][e] = at + e < n ? in[at + e] : in[base];
    }
  }

  // Scan within each vector, then across the warp, vector by vector, carrying the warp's running total.
  maybe<T> before[P::vectors];  // what precedes each vector within the warp's run
  maybe<T> carry{T{}, false};
#pragma unroll
  for (unsigned j = 0; j < P::vectors; ++j) {
#pragma unroll
    for (unsigned e = 1; e < P::per_vector; ++e) x[j][e] = op(x[j][e - 1], x[j][e]);
    T lanes_incl;
    warp_scan(warp_storage[warp]).InclusiveScan(x[j][P::per_vector - 1], lanes_incl, op);
    const T lanes_excl = __shfl_up_sync(0xffffffffu, lanes_incl, 1);
    before[j] = then(carry, maybe<T>{lanes_excl, lane > 0}, op);
    carry = then(carry, maybe<T>{__shfl_sync(0xffffffffu, lanes_incl, 31), true}, op);
  }
  if (lane == 0) warp_totals[warp] = carry.v;
  __syncthreads();

  // Warp 0: scan of the warps' totals, the tile's aggregate, look-back for what precedes the tile.
  if (warp == 0) {
    T w = lane < P::warps ? warp_totals[lane] : warp_totals[0];
    T w_incl;
    warp_scan(warp_storage[0]).InclusiveScan(w, w_incl, op);
    const T aggregate = __shfl_sync(0xffffffffu, w_incl, P::warps - 1);
    const T w_excl = __shfl_up_sync(0xffffffffu, w_incl, 1);
    if (lane > 0 && lane < P::warps) warp_totals[lane] = w_excl;  // now: what precedes warp `lane` in the tile
    if (clustered) {  // one cluster: the exchange below
      if (lane == 0) tile_aggregate = aggregate;
    } else if (tile == 0) {
      if (lane == 0 && counter) state.publish(0, lookback::prefix, aggregate);
    } else if constexpr (P::anchored) {  // the order fixed by the tile numbers: only anchors publish a prefix
      const bool anchor = lookback::is_anchor<P::anchor>(tile);
      if (lane == 0 && !anchor) state.publish(tile, lookback::aggregate, aggregate);
      const T prior = lookback::anchored_exclusive_prefix<P::anchor>(state, tile, op);
      if (lane == 0) {
        if (anchor) state.publish(tile, lookback::prefix, op(prior, aggregate));
        tile_before = prior;
      }
    } else {
      if (lane == 0) state.publish(tile, lookback::aggregate, aggregate);
      const T prior = lookback::exclusive_prefix<Tuning>(state, tile, op);
      if (lane == 0) {
        state.publish(tile, lookback::prefix, op(prior, aggregate));
        tile_before = prior;
      }
    }
  }
  __syncthreads();
  if (clustered) {  // cluster_prefix.cuh: the tiles' aggregates read from each other's shared memory, in rank order
    maybe<T> lower{T{}, false};
    T all{};
    cluster::exchange(tile_aggregate, op, lower, all);
    if (threadIdx.x == 0) tile_before = lower.v;  // used where tile > 0, which has a lower block
    __syncthreads();
  }

  // What precedes this warp's run, then each vector; exclusive scans start from init.
  maybe<T> head = tile > 0 ? maybe<T>{tile_before, true} : maybe<T>{T{}, false};
  if (warp > 0) head = then(head, maybe<T>{warp_totals[warp], true}, op);
  if (!inclusive) head = then(maybe<T>{init, true}, head, op);
#pragma unroll
  for (unsigned j = 0; j < P::vectors; ++j) {
    const maybe<T> b = then(head, before[j], op);
    T y[P::per_vector];
    if (inclusive) {
#pragma unroll
      for (unsigned e = 0; e < P::per_vector; ++e) y[e] = b.has ? op(b.v, x[j][e]) : x[j][e];
    } else {  // b.has always: init at least
#pragma unroll
      for (unsigned e = 0; e < P::per_vector; ++e) y[e] = e == 0 ? b.v : op(b.v, x[j][e - 1]);
    }
    const u64 at = run + (j * 32 + lane) * P::per_vector;
    if (Aligned && full) {
      vec16<T> v;
#pragma unroll
      for (unsigned e = 0; e < P::per_vector; ++e) v.e[e] = y[e];
      *reinterpret_cast<uint4*>(out + at) = v.raw;
    } else {
#pragma unroll
      for (unsigned e = 0; e < P::per_vector; ++e)
        if (at + e < n) out[at + e] = y[e];
    }
  }
  if (clustered) cluster::finish();  // no block leaves while another may read its aggregate
}

// The pipelined path for large inputs (Hopper and later; in and out 16-byte aligned). The single pass above
// holds each tile in registers while its look-back waits for its predecessors, so the bytes in flight are
// the resident tiles and no more, and every tile's life includes the wait (docs/performance.md). Here a
// persistent grid moves tiles through `stages` buffers of shared memory by bulk copies (cp.async.bulk,
// loads completing on an mbarrier, stores in bulk groups). Block b of G takes tiles b, b + G, b + 2G, ...,
// one per round, and works on two tiles per round:
//   A. the newest tile, arrived: scan it within each warp (kept in registers), publish its aggregate;
//   B. the tile reduced `lag` (2) rounds before: look back (its predecessors have had two rounds to
//      publish), publish its prefix;
//   C. that tile: add its prefix to the kept scan, write it back into its buffer, store it in one bulk copy.
// Tiles are processed in rounds in the order of their numbers, so what a look-back waits for is rounds
// old, and the numbers are known rounds ahead for the loads. That needs every block of the grid
// resident at once (a block waits for lower tiles of all others): the grid is launched cooperatively,
// which guarantees it (dynamic tile numbers, which would not need it, measured slower: they order the
// rounds' tiles only loosely, docs/performance.md).
// Defaults (scan_pipeline below) measured on the H100 (bench/scan_wide.cu, bench/pipelined_scan_tuning.cu,
// docs/performance.md): tiles of 6 vectors per thread (24 KiB), 2 buffers released after A and a staging
// buffer, 2 blocks per SM, the scan kept, a lag of 2 rounds, the wide look-back (stop 32: 0.941-0.946 of
// the copy at 2^28 for u32, 0.933 for f32, against 0.917-0.920 with stop 27's 20 KiB tiles, 5 buffers and
// the walk back); from 2^24 four-byte elements on. Buffers: 3 until stop 46; 2 and 3 measured alike on the
// H100 (stop 33: 0.946-0.959 against 0.943-0.954), and on the H200 (stop 46, runs 4-5) 2 moved 0.890-0.898
// of the copy against 3's 0.867-0.875 (f32 0.891-0.894 against 0.873): the H200's 1.4 times the bandwidth
// drains the loads sooner and fewer bytes queue ahead of the look-back's words. 3 blocks an SM with 2 buffers
// spill (0.44-0.70). Stop 47 (runs 3-4, H200): the kept tiles in rotating register banks (rotate_rounds), not
// moved one round older at each round's end: 0.898-0.904 of the copy against 0.884-0.902, in turn, no spills.
// The wide look-back combines the aggregates in one fixed
// order, so float scans on this path repeat bit for bit. For 8-byte elements every configuration measured
// slower than the single pass (0.50-0.60 of the copy against 0.84 at 2^26), so they keep it.
// How a round treats the tile it stores (measured in docs/performance.md, "The pipelined scan"):
//   rescan: loads it again from its buffer and scans it again;
//   keep: each warp keeps its part of the tile's scan in registers from the round that reduced it, and only
//     adds the prefix.
// Lag: the tile looked back for and stored is the one reduced Lag rounds before (1 or 2).
enum class schedule { rescan, keep };

#ifdef SLUICE_SCAN_STUDY_SKIP_LOOKBACK  // tuning studies only (bench/scan_wide.cu ceiling): B reads no aggregates,
inline constexpr bool study_skip_lookback = true;  // so the outputs are wrong; the pipeline's chain without them
#else
inline constexpr bool study_skip_lookback = false;
#endif

// Wide (B): the walk back over the predecessors (lookback::exclusive_prefix), or the block reading the
// aggregates of the G tiles from its own tile of the round before done's up to done at once, reduced in tile
// order and added to that tile's prefix (compact/decoupled_lookback.cuh measured the same on the compaction).
// Release: a buffer receives its next tile as soon as A has read it into registers (keep only), and C stages
// the scanned tile in a buffer of its own.
template <class T, unsigned Vectors = 5, unsigned Stages = 5, unsigned BlocksPerSm = 2, schedule Schedule = schedule::keep,
          unsigned Lag = 2, bool Wide = false, bool Release = false>
struct pipeline {
  static constexpr schedule order = Schedule;
  static constexpr unsigned lag = Lag;
  static constexpr bool wide = Wide;
  // Aggregates read per thread: grids to 512 blocks. 2 rather than 4 (stop 43, run 3: u32 at 2^28 0.970-0.973 of
  // the copy against 0.955-0.959: twice the threads share the loads and the tile-order reduction).
  static constexpr unsigned wide_per_thread = 2;
  static constexpr u64 max_grid = wide ? u64{wide_per_thread} * 256 : ~u64{0};
  static constexpr bool release = Release;
  static constexpr unsigned threads = 256;
  static constexpr unsigned warps = threads / 32;
  static constexpr unsigned per_vector = 16 / sizeof(T);
  static constexpr unsigned vectors = Vectors;  // per thread per tile
  static constexpr unsigned warp_items = 32 * per_vector * vectors;
  static constexpr unsigned tile = threads * per_vector * vectors;
  static constexpr unsigned stages = Stages;              // arriving, newest, being scanned, being stored
  static constexpr unsigned blocks_per_sm = BlocksPerSm;  // resident blocks of the persistent grid
  static constexpr u64 min_tiles = sizeof(T) == 4 ? (u64{1} << 24) / tile : ~u64{0};  // below: the single pass
  // Shared memory, all of it dynamic: the buffers from its start (each a whole number of 128-byte lines), then the
  // block's variables, so that nothing the compiler lays out moves the buffers off a line (the compact's pipelines
  // measured 5-15% slower where their buffers fell 16, 48 or 80 bytes past one: compact/decoupled_lookback.cuh).
  static constexpr std::size_t buffer_bytes = std::size_t{stages} * tile * sizeof(T) + (release ? tile * sizeof(T) : 0);
  struct vars {
    std::uint64_t arrived[stages];  // one mbarrier per buffer
    typename cub::WarpScan<T>::TempStorage warp_storage[warps];
    T warp_totals[warps];
    T warp_before[lag + 1][warps];  // what precedes each warp in the tile reduced in round r, at r % (lag + 1)
    T tile_aggregate[lag + 1];      // that tile's aggregate, likewise
    T tile_before;
    T wide_part[warps];  // wide: each warp's part of the aggregates read, in tile order
    bool wide_has[warps];
  };
  static_assert(tile * sizeof(T) % 128 == 0 && buffer_bytes % alignof(vars) == 0);
  static constexpr std::size_t shared_bytes = buffer_bytes + sizeof(vars);
  static_assert(tile <= policy<T>::tile, "the single pass, the fallback, uses the tile states laid out for these tiles");
  static_assert(lag == 1 || (lag == 2 && order == schedule::keep), "lag 2 keeps two tiles in registers");
  static_assert(!release || order == schedule::keep, "a released buffer is not read again");
};

template <class T>
using scan_pipeline = pipeline<T, 6, 2, 2, schedule::keep, 2, true, true>;

template <class T, class Op, class Tuning, class Pipe>
__global__ void __launch_bounds__(Pipe::threads, Pipe::blocks_per_sm)
    pipelined_scan_kernel(const T* in, T* out, u64 n, Op op, bool inclusive, T init, unsigned* spare_counter,
                          lookback::tile_state<T> state) {
#if __CUDA_ARCH__ >= 900
  if (blockIdx.x == 0 && threadIdx.x == 0) *spare_counter = 0;  // the next call's counter (lookback::launch_states)
  using Q = Pipe;
  using warp_scan = cub::WarpScan<T>;
  constexpr unsigned PV = Q::per_vector, V = Q::vectors, S = Q::stages, L = Q::lag;
  constexpr bool keep = Q::order == schedule::keep;
  using round_schedule = bulk_rounds<Q::tile, S, L, Q::release>;
  constexpr u64 none = round_schedule::none;  // no tile: what taken() and stored() return past the last
  T* const buffers = dynamic_shared<T>();  // the buffers, then the block's variables (pipeline::vars)
  typename Q::vars& sh = dynamic_shared_after<typename Q::vars, Q::buffer_bytes>();
  auto& warp_storage = sh.warp_storage;
  auto& warp_totals = sh.warp_totals;
  auto& warp_before = sh.warp_before;
  auto& tile_aggregate = sh.tile_aggregate;
  auto& tile_before = sh.tile_before;
  auto& wide_part = sh.wide_part;
  auto& wide_has = sh.wide_has;
  T* const staging = buffers + std::size_t{S} * Q::tile;  // release: C's buffer
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x & 31u;
  const bool copier = threadIdx.x == Q::threads - 1;  // issues the bulk copies
  const round_schedule rounds(n, sh.arrived);
  const u64 tiles = rounds.tiles;
  auto count_of = [&](u64 t) { return rounds.count_of(t); };
  auto bulk_bytes = [&](u64 t) { return rounds.bulk_bytes(t, sizeof(T)); };

  // Buffer s starts receiving tile t.
  auto receive = [&](unsigned s, u64 t) {
    rounds.expect(s, bulk_bytes(t));
    rounds.copy_in(s, buffers + std::size_t{s} * Q::tile, in + t * Q::tile, bulk_bytes(t));
  };
  // Thread's j-th vector of tile t from buffer s, in the single pass's warp-striped layout (conflict-free
  // 16-byte reads). Past the bulk copy: the last tile's trailing elements from memory, then in[base] (after
  // every valid element in scan order: it changes nothing stored).
  auto load = [&](unsigned s, u64 t, T (&x)[V][PV]) {
    const u64 base = t * Q::tile;
    const T* const b = buffers + std::size_t{s} * Q::tile;
    const unsigned first = warp * Q::warp_items;
    if (base + Q::tile <= n) {
#pragma unroll
      for (unsigned j = 0; j < V; ++j) {
        vec16<T> v;
        v.raw = *reinterpret_cast<const uint4*>(b + first + (j * 32 + lane) * PV);
#pragma unroll
        for (unsigned e = 0; e < PV; ++e) x[j][e] = v.e[e];
      }
    } else {
      const u64 in_buffer = bulk_bytes(t) / sizeof(T), valid = count_of(t);
#pragma unroll
      for (unsigned j = 0; j < V; ++j)
#pragma unroll
        for (unsigned e = 0; e < PV; ++e) {
          const unsigned k = first + (j * 32 + lane) * PV + e;
          x[j][e] = k < in_buffer ? b[k] : k < valid ? in[base + k] : in[base];
        }
    }
  };
  // Scan within each vector, then across the warp vector by vector: before[j] precedes vector j in the warp.
  auto scan_warp = [&](T (&x)[V][PV], maybe<T> (&before)[V]) {
    maybe<T> carry{T{}, false};
#pragma unroll
    for (unsigned j = 0; j < V; ++j) {
#pragma unroll
      for (unsigned e = 1; e < PV; ++e) x[j][e] = op(x[j][e - 1], x[j][e]);
      T lanes_incl;
      warp_scan(warp_storage[warp]).InclusiveScan(x[j][PV - 1], lanes_incl, op);
      const T lanes_excl = __shfl_up_sync(0xffffffffu, lanes_incl, 1);
      before[j] = then(carry, maybe<T>{lanes_excl, lane > 0}, op);
      carry = then(carry, maybe<T>{__shfl_sync(0xffffffffu, lanes_incl, 31), true}, op);
    }
    return carry.v;
  };

  rounds.start(copier, receive);

  // keep: the tiles of the last L + 1 rounds, scanned within each warp in their rounds' A, and what precedes
  // each vector within its warp; round r's in bank r % (L + 1) (rotate_rounds). rescan: done's bank holds its
  // tile loaded again.
  T bank_x[L + 1][V][PV];
  maybe<T> bank_b[L + 1][V];
  maybe<T> last_before{T{}, false};  // wide: what precedes this block's previous done tile
  rotate_rounds<L + 1>(rounds.rounds_of_block(), [&](const unsigned round, auto bank) {
    constexpr unsigned kc = decltype(bank)::value, kd = (kc + 1) % (L + 1);  // this round's newest tile; done's
    const unsigned s = round % S, sd = (round + S - L) % S;
    const u64 cur = rounds.taken(round);
    // The tile this round looks back for and stores (from buffer sd), reduced L rounds before.
    const u64 done = rounds.stored(round);

    // Wide: the aggregates B needs asked for now, in flight while A runs. Entry k of this thread is tile
    // done - G + threadIdx.x * W + k (from this block's tile of the round before done's, up to done).
    // Their words are decoded only in B (a word decoded as asked for holds the thread until its load returns).
    constexpr unsigned W = Q::wide ? Q::wide_per_thread : 1;
    unsigned long long wide_word[W];
    const long long wide_first = done == none ? 0 : static_cast<long long>(done) - gridDim.x + threadIdx.x * W;
    auto wide_valid = [&](unsigned k) {
      return done != none && threadIdx.x * W + k < gridDim.x && wide_first + k >= 0;
    };
    if constexpr (Q::wide && !study_skip_lookback) {
#pragma unroll
      for (unsigned k = 0; k < W; ++k) wide_word[k] = wide_valid(k) ? state.word(static_cast<u64>(wide_first + k)) : 0;
    }

    // A. Reduce the newest tile.
    T(&xc)[V][PV] = bank_x[kc];
    maybe<T>(&bc)[V] = bank_b[kc];
    if (cur != none) {
      rounds.wait(round);
      load(s, cur, xc);
      const T total = scan_warp(xc, bc);
      if (lane == 0) warp_totals[warp] = total;
    }
    __syncthreads();
    if constexpr (Q::release)  // buffer s read: it receives the tile S rounds on
      if (copier && cur != none && rounds.takes(round + S)) receive(s, rounds.tile_of(round + S));

    // B. Warp 0: the newest tile's aggregate published, then the look-back for `done`: its predecessors have
    // had L rounds to publish.
    if (warp == 0) {
      if (cur != none) {
        T w = lane < Q::warps ? warp_totals[lane] : warp_totals[0];
        T w_incl;
        warp_scan(warp_storage[0]).InclusiveScan(w, w_incl, op);
        const T aggregate = __shfl_sync(0xffffffffu, w_incl, Q::warps - 1);
        const T w_excl = __shfl_up_sync(0xffffffffu, w_incl, 1);
        if (lane > 0 && lane < Q::warps) warp_before[round % (L + 1)][lane] = w_excl;
        if (lane == 0) {
          state.publish(cur, cur == 0 ? lookback::prefix : lookback::aggregate, aggregate);
          tile_aggregate[round % (L + 1)] = aggregate;
        }
      }
      if (!Q::wide && done != none && done > 0) {
        const T prior = lookback::exclusive_prefix<Tuning>(state, done, op);
        if (lane == 0) {
          state.publish(done, lookback::prefix, op(prior, tile_aggregate[(round + 1) % (L + 1)]));
          tile_before = prior;
        }
      }
    }
    if constexpr (Q::wide) {
      if (done != none) {  // this thread's entries in order, then the warp's lanes in order
        maybe<T> part{T{}, false};
#pragma unroll
        for (unsigned k = 0; k < W; ++k) {
          if (!wide_valid(k) || study_skip_lookback) continue;
          T v;
          lookback::status st = state.decode(wide_word[k], v);
          while (st == lookback::invalid) st = state.peek(static_cast<u64>(wide_first + k), v);
          part = then(part, maybe<T>{v, true}, op);
        }
#pragma unroll
        for (unsigned o = 1; o < 32; o *= 2) {
          const maybe<T> other{__shfl_down_sync(0xffffffffu, part.v, o), __shfl_down_sync(0xffffffffu, part.has, o) != 0};
          if (lane + o < 32) part = then(part, other, op);
        }
        if (lane == 0) wide_part[warp] = part.v, wide_has[warp] = part.has;
      }
    }
    if constexpr (Q::release)  // the staging buffer free again: the last round's store has read it
      if (copier) cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
    __syncthreads();
    maybe<T> wide_before{T{}, false};
    if constexpr (Q::wide) {
      if (done != none) {  // the warps in order, after what preceded this block's previous done tile
        maybe<T> between{T{}, false};
#pragma unroll
        for (unsigned w = 0; w < Q::warps; ++w) between = then(between, maybe<T>{wide_part[w], wide_has[w]}, op);
        wide_before = then(last_before, between, op);
        last_before = wide_before;
      }
    }

    // C. `done`, scanned: back into its buffer (whole tiles, stored in bulk below) or straight to memory (the
    // last, partial tile).
    const bool whole = done != none && done * Q::tile + Q::tile <= n;
    if (done != none) {
      T(&x)[V][PV] = bank_x[kd];
      maybe<T>(&before)[V] = bank_b[kd];
      if constexpr (!keep) {
        load(sd, done, x);
        scan_warp(x, before);
      }
      maybe<T> head = Q::wide ? wide_before : done > 0 ? maybe<T>{tile_before, true} : maybe<T>{T{}, false};
      if (warp > 0) head = then(head, maybe<T>{warp_before[(round + 1) % (L + 1)][warp], true}, op);
      if (!inclusive) head = then(maybe<T>{init, true}, head, op);
      T* const b = Q::release ? staging : buffers + std::size_t{sd} * Q::tile;
      const u64 base = done * Q::tile;
      const unsigned first = warp * Q::warp_items;
#pragma unroll
      for (unsigned j = 0; j < V; ++j) {
        const maybe<T> h = then(head, before[j], op);
        vec16<T> y;
        if (inclusive) {
#pragma unroll
          for (unsigned e = 0; e < PV; ++e) y.e[e] = h.has ? op(h.v, x[j][e]) : x[j][e];
        } else {  // h.has always: init at least
#pragma unroll
          for (unsigned e = 0; e < PV; ++e) y.e[e] = e == 0 ? h.v : op(h.v, x[j][e - 1]);
        }
        const unsigned k = first + (j * 32 + lane) * PV;
        if (whole) {
          *reinterpret_cast<uint4*>(b + k) = y.raw;
        } else {
#pragma unroll
          for (unsigned e = 0; e < PV; ++e)
            if (base + k + e < n) out[base + k + e] = y.e[e];
        }
      }
      if (whole) cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);  // these writes, seen by the bulk store
    }
    __syncthreads();

    if (copier) {
      if (whole) rounds.store(out + done * Q::tile, Q::release ? staging : buffers + std::size_t{sd} * Q::tile, Q::tile * unsigned{sizeof(T)});
      if constexpr (!Q::release) rounds.refill(round, whole, receive);
    }
  });
  if (copier) rounds.finish();
#endif
}

// The pipelined path's grid on this device: every block resident at once, or 0 where the path does not
// apply (8-byte elements, unaligned spans, too few tiles, a device before Hopper).
// `blocks`: at most that many blocks (0: as many as the device holds at once).
template <class T, class Op, class Tuning, class Pipe>
u64 pipelined_grid(bool aligned, u64 n, bool always, u64 blocks, const char* fn) {
  if constexpr (Pipe::min_tiles == ~u64{0}) {  // not even instantiated
    return 0;
  } else {
    const u64 tiles = ceil_div(n, Pipe::tile);
    if (!aligned || (!always && tiles < Pipe::min_tiles)) return 0;
    const u64 grid = resident_grid(pipelined_scan_kernel<T, Op, Tuning, Pipe>, Pipe::threads, Pipe::shared_bytes, tiles, blocks, fn,
                                   "decoupled-lookback's pipeline");
    return grid < Pipe::max_grid ? grid : Pipe::max_grid;  // the wide look-back's reach
  }
}

// The parameters pipelined=auto|on|off and blocks=N. pipelined: auto takes the pipelined path from
// Pipe::min_tiles on, on from one tile (where it applies at all: 4-byte elements, aligned spans, Hopper), off
// never. blocks: the pipeline's persistent grid holds at most N blocks (default: as many as the device holds
// at once), leaving the rest of the GPU to other work, and making each block take several rounds at small sizes.
using pipelining = sluice::detail::setting;
struct pipeline_settings {
  pipelining pipelined = pipelining::automatic;
  u64 blocks = 0;  // 0: every block the device holds
  bool cluster = true;  // cluster=auto|off: 2 to cluster::max_blocks tiles as one thread block cluster (run)
};
inline constexpr u64 max_pipeline_blocks = 1u << 20;
inline pipeline_settings parse_pipelining(std::string_view spec, const char* fn) {
  sluice::detail::params p(spec, fn);
  pipeline_settings c;
  c.pipelined = p.auto_on_off("pipelined");
  c.blocks = p.number("blocks", 0, 1, max_pipeline_blocks);
  c.cluster = cluster::parse(p);
  p.done("pipelined, blocks, cluster");
  return c;
}

template <class T, class Op, class Tuning = lookback::tuning, class Pipe = scan_pipeline<T>>
void run(const T* in, T* out, u64 n, bool inclusive, T init, Op op, cudaStream_t s, const char* fn,
         pipeline_settings ps = {}) {
  using P = policy<T>;
  if (n == 0) return;
  const bool aligned = reinterpret_cast<std::uintptr_t>(in) % 16 == 0 && reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  const u64 grid = ps.pipelined == pipelining::off
                       ? 0
                       : pipelined_grid<T, Op, Tuning, Pipe>(aligned, n, ps.pipelined == pipelining::on, ps.blocks, fn);
  const u64 tiles = grid ? ceil_div(n, Pipe::tile) : ceil_div(n, P::tile);  // (the pipeline's tiles are no larger)
  auto* const single = aligned ? scan_kernel<T, Op, true, Tuning> : scan_kernel<T, Op, false, Tuning>;
  // 2 to cluster::max_blocks tiles: one thread block cluster where the device holds one (cluster_prefix.cuh): the
  // aggregates exchanged in shared memory, no tile states, no counter.
  if (!grid && ps.cluster && tiles >= 2 &&
      cluster::launch(single, static_cast<unsigned>(tiles), P::threads, s, fn, "decoupled_lookback::scan_kernel", in, out, n, op, inclusive,
                      init, static_cast<unsigned*>(nullptr), static_cast<unsigned*>(nullptr), lookback::tile_state<T>{}, true))
    return;
  lookback::launch_states state;  // the counters, then the tile states: kept per stream for 4-byte elements
  lookback::tile_state<T> tiles_state{};
  if (tiles > 1 || grid) {
    state = lookback::launch_states(lookback::tile_state<T>::bytes(tiles), lookback::tile_state<T>::packed, s, fn);
    tiles_state = lookback::tile_state<T>::at(state.states(), tiles, state.epoch());
  }
  if constexpr (Pipe::min_tiles != ~u64{0})
    if (grid && launch_cooperative(pipelined_scan_kernel<T, Op, Tuning, Pipe>, grid, Pipe::threads, Pipe::shared_bytes, s, fn,
                                   "decoupled_lookback::pipelined_scan_kernel", in, out, n, op, inclusive, init, state.spare_counter(),
                                   tiles_state))
      return;  // else the device could not hold the grid: the single pass
  const u64 blocks = ceil_div(n, P::tile);
  single<<<static_cast<unsigned>(blocks), P::threads, 0, s>>>(in, out, n, op, inclusive, init, state.counter(), state.spare_counter(),
                                                              tiles_state, false);
  check_launch(fn, "decoupled_lookback::scan_kernel");
}

}  // namespace sluice::cuda_backend::decoupled_lookback
