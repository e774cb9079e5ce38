// reduce_by_key and the scans by key on CUDA, "decoupled-lookback": one pass of a segmented scan (Blelloch 1990,
// the segments being the runs of equal keys: a head where keys[i] != keys[i - 1]), its prefix over the tiles by
// the decoupled look-back of Merrill and Garland (2016), Sec. 4 (lookback.cuh). The value that travels is a pair
// (heads counted, value since the last head), combined as
//   (h1, v1) . (h2, v2) = (h1 + h2, h2 > 0 ? v2 : v1 op v2),
// associative for any associative op: no identity is needed, and the first element (a head) starts it.
// A block takes the next tile number, loads its keys and values (coalesced, through shared memory), flags its
// heads (and, for reduce_by_key, its tails: one key before the tile and one after it read from global memory),
// folds its items in order, scans the threads' pairs in the block (tile_pairs below, which segmented.cuh
// shares), publishes the tile's pair and learns by look-back what came before it. reduce_by_key writes each
// run's key at its head's rank and its value at its tail (the tile holding a run's tail knows its whole value),
// both staged in shared memory and written coalesced; the scans write every element's value.
// Integer values look back freely; others (floats) look back anchored (lookback.cuh): the order of combination
// is fixed by the tile numbers, so results repeat bit for bit from run to run.
// reduce_by_key writes at most `capacity` runs and the last tile the full count; the scans may run in place
// (out is values: a tile reads its values before it writes them).
#pragma once
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cuda/atomic>
#include <type_traits>

#include "sluice/cuda/common.cuh"
#include "sluice/cuda/lookback.cuh"
#include "sluice/cuda/runs/decoupled_lookback.cuh"

namespace sluice::cuda_backend::by_key {

// The tile: 256 threads, 64 bytes of the wider of key and value a thread (4 to 16 items).
template <std::size_t Wider, class V>
struct policy {
  static constexpr unsigned threads = 256;
  static constexpr unsigned items = 64 / Wider > 16 ? 16 : (64 / Wider < 4 ? 4 : 64 / Wider);
  static constexpr unsigned tile = threads * items;
  static constexpr unsigned min_blocks = 3;
  // Values other than integers look back anchored, an anchor every 64 tiles.
  static constexpr bool anchored = !std::is_integral_v<V>;
  static constexpr unsigned anchor = 64;
};
template <class K, class V>
using policy_for = policy<(sizeof(K) > sizeof(V) ? sizeof(K) : sizeof(V)), V>;

// The segmented scan's pair: heads counted, and the value since the last head.
template <class V>
struct keyed {
  u64 heads;
  V value;
};
template <class V, class Op>
struct keyed_op {
  Op op;
  __device__ keyed<V> operator()(const keyed<V>& a, const keyed<V>& b) const {
    return {a.heads + b.heads, b.heads ? b.value : op(a.value, b.value)};
  }
};

using runs_lookback::differs;  // a run head: !(keys[i] == keys[i - 1])

// What a block shares for tile_pairs.
template <class P, class V>
struct tile_shared {
  typename cub::BlockScan<keyed<V>, P::threads>::TempStorage scan;
  keyed<V> prefix;
};

// The tile's segmented scan, by every thread of the block: v[0, I) its items (first + j < valid of them real),
// bit j of `heads` where item j starts a segment. Returns the pair before the thread's first item (`*have`:
// anything precedes it; else the thread is tile 0's first and its first item a head) and the tile's total
// (`*total`, whose value is meaningful only where the tile is full); publishes the tile and looks back (warp 0).
// Ends with a barrier.
template <class P, class V, class Op, class State>
__device__ keyed<V> tile_pairs(const V (&v)[P::items], unsigned heads, unsigned first, unsigned valid, u64 tile, Op op, State state,
                               tile_shared<P, V>& sh, bool* have, keyed<V>* total) {
  using pair = keyed<V>;
  const keyed_op<V, Op> pop{op};
  pair mine{heads & 1u, v[0]};
#pragma unroll
  for (unsigned j = 1; j < P::items; ++j)
    if (first + j < valid) mine = pop(mine, pair{heads >> j & 1u, v[j]});
  pair before_me;
  cub::BlockScan<pair, P::threads>(sh.scan).ExclusiveScan(mine, before_me, pop, *total);  // thread 0's: undefined
  if (threadIdx.x < 32) {
    pair excl{};
    if (tile == 0) {
      if (threadIdx.x == 0) state.publish(0, lookback::prefix, *total);
    } else if constexpr (P::anchored) {  // the order fixed by the tile numbers: only anchors publish a prefix
      const bool anchor = lookback::is_anchor<P::anchor>(tile);
      if (threadIdx.x == 0 && !anchor) state.publish(tile, lookback::aggregate, *total);
      excl = lookback::anchored_exclusive_prefix<P::anchor>(state, tile, pop);
      if (threadIdx.x == 0 && anchor) state.publish(tile, lookback::prefix, pop(excl, *total));
    } else {
      if (threadIdx.x == 0) state.publish(tile, lookback::aggregate, *total);
      excl = lookback::exclusive_prefix<lookback::tuning>(state, tile, pop);
      if (threadIdx.x == 0) state.publish(tile, lookback::prefix, pop(excl, *total));
    }
    if (threadIdx.x == 0) sh.prefix = excl;
  }
  __syncthreads();
  *have = tile > 0 || threadIdx.x > 0;
  return tile == 0 ? before_me : (threadIdx.x == 0 ? sh.prefix : pop(sh.prefix, before_me));
}

// One step of the thread's running pair: item (head h, value x) after `run` (nothing before where !have).
template <class V, class Op>
__device__ void step(keyed<V>& run, bool& have, bool h, const V& x, Op op) {
  run = have ? keyed_op<V, Op>{op}(run, keyed<V>{h, x}) : keyed<V>{h, x};
  have = true;
}

// Outputs: reduce: keys and values (capacity runs) and the count. Scans: values (n elements).
template <class K, class V>
struct outputs {
  K* keys;
  V* values;
  u64 capacity;
  u64* count;
};

template <bool Reduce, class K, class V, class Op, class State>
__global__ void __launch_bounds__(policy_for<K, V>::threads, policy_for<K, V>::min_blocks)
    by_key_kernel(const K* keys, const V* values, outputs<K, V> out, u64 n, Op op, bool inclusive, V init, unsigned* counter,
                  unsigned* spare_counter, State state) {
  using P = policy_for<K, V>;
  constexpr unsigned I = P::items;
  using load_keys = cub::BlockLoad<K, P::threads, I, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using load_values = cub::BlockLoad<V, P::threads, I, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using store_values = cub::BlockStore<V, P::threads, I, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using flags_t = cub::BlockDiscontinuity<K, P::threads>;
  using count_scan_t = cub::BlockScan<unsigned, P::threads>;
  constexpr unsigned stage_bytes = (sizeof(K) > sizeof(V) ? sizeof(K) : sizeof(V)) * P::tile;
  __shared__ union {
    typename load_keys::TempStorage keys;
    typename load_values::TempStorage values;
    typename store_values::TempStorage store;
    alignas(16) unsigned char stage[stage_bytes];
  } mem;
  __shared__ typename flags_t::TempStorage flags_mem;
  __shared__ tile_shared<P, V> sh;
  __shared__ typename count_scan_t::TempStorage count_mem;
  __shared__ unsigned tile_number;

  if (threadIdx.x == 0) tile_number = lookback::draw_tile(counter, spare_counter);
  __syncthreads();
  const u64 tile = tile_number, base = tile * P::tile;
  const unsigned valid = n - base < P::tile ? static_cast<unsigned>(n - base) : P::tile;
  const bool full = valid == P::tile;
  const unsigned first = threadIdx.x * I;

  K k[I];
  if (full)
    load_keys(mem.keys).Load(keys + base, k);
  else
    load_keys(mem.keys).Load(keys + base, k, static_cast<int>(valid), keys[n - 1]);
  bool head[I], tail[I];
  const K before = base > 0 ? keys[base - 1] : k[0];
  if constexpr (Reduce) {
    const K after = base + P::tile < n ? keys[base + P::tile] : k[I - 1];
    flags_t(flags_mem).FlagHeadsAndTails(head, before, tail, after, k, differs{});
  } else {
    flags_t(flags_mem).FlagHeads(head, k, differs{}, before);
  }
  __syncthreads();  // mem.keys is read out
  V v[I];
  if (full)
    load_values(mem.values).Load(values + base, v);
  else
    load_values(mem.values).Load(values + base, v, static_cast<int>(valid), values[n - 1]);
  unsigned heads = 0, tails = 0;  // bit j: item j is a head (a tail)
#pragma unroll
  for (unsigned j = 0; j < I; ++j) {
    const u64 i = base + first + j;
    const bool in_range = first + j < valid;
    heads |= static_cast<unsigned>((i == 0 || head[j]) && in_range) << j;
    if constexpr (Reduce) tails |= static_cast<unsigned>((i + 1 == n || tail[j]) && in_range) << j;
  }
  bool have;
  keyed<V> total;
  keyed<V> run = tile_pairs<P>(v, heads, first, valid, tile, op, state, sh, &have, &total);  // also: mem.values read out

  if constexpr (Reduce) {
    const u64 runs_before = tile == 0 ? 0 : sh.prefix.heads;
    const unsigned tile_heads = static_cast<unsigned>(total.heads);
    if (tile == gridDim.x - 1 && threadIdx.x == 0) *out.count = runs_before + tile_heads;
    // Keys at their heads' ranks within the tile; values at their tails'. The first tail of the tile ends the
    // run holding its first element, which began before the tile unless the tile starts with a head.
    unsigned heads_before, tails_before, tile_tails;
    count_scan_t(count_mem).ExclusiveSum(static_cast<unsigned>(__popc(heads)), heads_before);
    __syncthreads();
    count_scan_t(count_mem).ExclusiveSum(static_cast<unsigned>(__popc(tails)), tails_before, tile_tails);
    K* stage_k = reinterpret_cast<K*>(mem.stage);
#pragma unroll
    for (unsigned j = 0, r = heads_before; j < I; ++j)
      if (heads >> j & 1u) stage_k[r++] = k[j];
    __syncthreads();
    for (unsigned s = threadIdx.x; s < tile_heads && runs_before + s < out.capacity; s += P::threads) out.keys[runs_before + s] = stage_k[s];
    const bool continues = __syncthreads_or(threadIdx.x == 0 && !(heads & 1u)) && base > 0;  // also: stage_k read out
    const u64 r0 = runs_before - (continues ? 1 : 0);
    V* stage_v = reinterpret_cast<V*>(mem.stage);
    unsigned r = tails_before;
#pragma unroll
    for (unsigned j = 0; j < I; ++j) {
      if (first + j < valid) step(run, have, heads >> j & 1u, v[j], op);
      if (tails >> j & 1u) stage_v[r++] = run.value;
    }
    __syncthreads();
    for (unsigned s = threadIdx.x; s < tile_tails && r0 + s < out.capacity; s += P::threads) out.values[r0 + s] = stage_v[s];
  } else {
    V o[I];
#pragma unroll
    for (unsigned j = 0; j < I; ++j) {
      const bool h = heads >> j & 1u;
      if (!inclusive) o[j] = h ? init : op(init, run.value);
      step(run, have, h, v[j], op);
      if (inclusive) o[j] = run.value;
    }
    if (full)
      store_values(mem.store).Store(out.values + base, o);
    else
      store_values(mem.store).Store(out.values + base, o, static_cast<int>(valid));
  }
}

// The tile states of one launch of pairs (zeroed, not kept between calls). reduce_by_key ranks its runs by the
// heads counted, so its pairs travel whole (wide_state: 16 bytes under release/acquire). The scans and the
// segmented forms read only whether a head was seen: for 4-byte values that flag, the value and the status fit
// one 64-bit word, read and written relaxed as the packed count words are (flagged_state).
template <class V>
struct flagged_state {
  static_assert(sizeof(V) == 4, "a 4-byte value beside the flag and the status");
  using value_type = keyed<V>;
  unsigned long long* words;

  static std::size_t bytes(u64 tiles) { return tiles * 8; }
  static flagged_state at(void* p, u64) { return {static_cast<unsigned long long*>(p)}; }
  __device__ void publish(u64 tile, lookback::status st, const keyed<V>& v) const {
    const unsigned long long w = static_cast<unsigned long long>(lookback::to_bits(v.value)) << 32 | (v.heads ? 4u : 0u) | st;
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile]).store(w, cuda::memory_order_relaxed);
  }
  __device__ lookback::status peek(u64 tile, keyed<V>& v) const {
    const unsigned long long w = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile]).load(cuda::memory_order_relaxed);
    v.heads = w >> 2 & 1u;
    v.value = lookback::from_bits<V>(static_cast<unsigned>(w >> 32));
    return static_cast<lookback::status>(w & 3u);
  }
};
template <class V, bool Ranked>
using pair_state = std::conditional_t<!Ranked && sizeof(V) == 4, flagged_state<V>, lookback::wide_state<keyed<V>>>;

// One launch over n keys and values. Reduce: *count = the runs, min(runs, capacity) of each output written
// (n == 0: a count of zero). Scans: out.values[0, n) written.
template <bool Reduce, class K, class V, class Op>
void run(const K* keys, const V* values, outputs<K, V> out, u64 n, Op op, bool inclusive, V init, cudaStream_t s, const char* fn) {
  using P = policy_for<K, V>;
  if (n == 0) {
    if constexpr (Reduce) check_cuda(cudaMemsetAsync(out.count, 0, sizeof(u64), s), fn, "cudaMemsetAsync");
    return;
  }
  const u64 tiles = ceil_div(n, u64{P::tile});
  if (tiles >= (u64{1} << 31)) throw error(errc::invalid_argument, std::string("sluice::") + fn + ": more than 2^31 tiles of input");
  using state = pair_state<V, Reduce>;
  lookback::launch_states states(state::bytes(tiles), false, s, fn);
  by_key_kernel<Reduce, K, V, Op><<<static_cast<unsigned>(tiles), P::threads, 0, s>>>(
      keys, values, out, n, op, inclusive, init, states.counter(), states.spare_counter(), state::at(states.states(), tiles));
  check_launch(fn, "by_key::by_key_kernel");
}

}  // namespace sluice::cuda_backend::by_key
