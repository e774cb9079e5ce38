// scan "decoupled-lookback", the pipelined path (Hopper and later; 4-byte elements; in and out 16-byte aligned):
// the look-back of Merrill and Garland (2016), Sec. 4, run rounds behind the loads. The single pass
// (single_pass.cuh) holds each tile in registers while its look-back waits, so the bytes in flight are the
// resident tiles and no more. Here a persistent cooperative grid moves tiles through `stages` buffers of shared
// memory by bulk copies (bulk_rounds.cuh: cp.async.bulk loads completing on an mbarrier, stores in bulk groups).
// Block b of G takes tiles b, b + G, b + 2G, ..., one per round, and works on two tiles a round:
//   A. the newest tile, arrived: scan it within each warp (kept in registers), publish its aggregate;
//   B. the tile reduced `lag` rounds before: look back (its predecessors have had that long to publish);
//   C. that tile: add its prefix to the kept scan, write it into a buffer, store it in one bulk copy.
// Tiles go in rounds in the order of their numbers, so a look-back waits on tiles rounds old; every block must
// be resident at once (a block waits on lower tiles of all others), hence the cooperative launch.
// Dispatch (decoupled_lookback.cuh) takes it from Pipe::min_tiles on (2^24 4-byte elements); 8-byte elements
// keep the single pass, every pipelined shape measured slower for them. Order kept; each element read once and
// written once (2n x sizeof(T) bytes). The wide look-back combines the aggregates in one fixed order, so float
// scans on this path repeat bit for bit.
#pragma once
#include <cub/warp/warp_scan.cuh>
#include <cuda/ptx>

#include "sluice/cuda/bulk_rounds.cuh"
#include "sluice/cuda/lookback.cuh"
#include "sluice/cuda/scan/single_pass.cuh"

namespace sluice::cuda_backend::decoupled_lookback {

// How a round treats the tile it stores: rescan loads it again from its buffer and scans it again; keep holds
// each warp's part of the tile's scan in registers from the round that reduced it and only adds the prefix.
enum class schedule { rescan, keep };

// The pipeline's shape. Lag: the tile looked back for and stored is the one reduced Lag rounds before (1 or 2).
// Wide (B): false, warp 0 walks back over the predecessors (lookback::exclusive_prefix); true, the block reads
// the aggregates of the G tiles from its own tile of the round before done's up to done at once, reduced in tile
// order and added to that tile's prefix. Release: a buffer receives its next tile as soon as A has read it into
// registers (keep only), and C stages the scanned tile in a buffer of its own.
template <class T, unsigned Vectors, unsigned Stages, unsigned BlocksPerSm, schedule Schedule, unsigned Lag, bool Wide,
          bool Release>
struct pipeline {
  static constexpr schedule order = Schedule;
  static constexpr unsigned lag = Lag;
  static constexpr bool wide = Wide;
  static constexpr unsigned wide_per_thread = 2;  // aggregates read per thread: grids to 512 blocks (2 beat 4)
  static constexpr u64 max_grid = wide ? u64{wide_per_thread} * 256 : ~u64{0};
  static constexpr bool release = Release;
  static constexpr unsigned threads = 256;
  static constexpr unsigned warps = threads / 32;
  static constexpr unsigned per_vector = 16 / sizeof(T);
  static constexpr unsigned vectors = Vectors;  // per thread per tile
  static constexpr unsigned warp_items = 32 * per_vector * vectors;
  static constexpr unsigned tile = threads * per_vector * vectors;
  static constexpr unsigned stages = Stages;              // buffers
  static constexpr unsigned blocks_per_sm = BlocksPerSm;  // resident blocks of the persistent grid
  static constexpr u64 min_tiles = sizeof(T) == 4 ? (u64{1} << 24) / tile : ~u64{0};  // below: the single pass
  // Shared memory, all of it dynamic: the buffers from its start (each a whole number of 128-byte lines), then the
  // block's variables, so that nothing the compiler lays out moves the buffers off a line (buffers off a line
  // measured 5-15% slower in the compaction's pipeline).
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

// The production shape: 6 vectors per thread (24 KiB tiles of u32), 2 buffers released after A and a staging
// buffer, 2 blocks per SM, the scan kept, a lag of 2 rounds, the wide look-back.
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
    if constexpr (Q::wide) {
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
          if (!wide_valid(k)) continue;
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

}  // namespace sluice::cuda_backend::decoupled_lookback
