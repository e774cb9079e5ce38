// scan "decoupled-lookback", the single pass: Merrill and Garland (2016), Sec. 4 (the look-back, lookback.cuh).
// Each element is read once and written once (2n x sizeof(T) bytes moved, plus the tile states). A block takes
// the next tile number from an atomic counter, loads its tile with 16-byte vector loads, scans it (serially
// within each thread's vector, a warp scan across lanes, a scan of the warps' totals), publishes the tile's
// aggregate, learns everything before the tile by look-back, and stores the tile with 16-byte vector stores.
// One launch (plus a memset of the tile states, unless the stream's kept states serve: lookback::launch_states)
// for any n; a single-tile input needs neither the counter nor the states. 2 to cluster::max_blocks tiles run as
// one thread block cluster instead (cluster_prefix.cuh): the aggregates exchanged in shared memory.
// Dispatch (decoupled_lookback.cuh) takes it below the pipelined path's crossover (pipelined.cuh: 2^24 4-byte
// elements on Hopper), for every 8-byte element, and where the spans are not 16-byte aligned.
// Layout: warp w of a tile owns a contiguous run of 32 x items elements; lane l's j-th vector is at
// (j x 32 + l) x per_vector in that run, so every load instruction of a warp covers 512 contiguous bytes.
// Starts that are not 16-byte aligned (in or out) take the same path with element loads and stores.
// Any associative operator, elements combine in order; in place is safe (a tile is read before it is
// written). Integers look back freely; other elements look back anchored, so their results repeat bit for bit.
#pragma once
#include <cub/warp/warp_scan.cuh>
#include <type_traits>

#include "sluice/cuda/cluster_prefix.cuh"
#include "sluice/cuda/lookback.cuh"

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

}  // namespace sluice::cuda_backend::decoupled_lookback
