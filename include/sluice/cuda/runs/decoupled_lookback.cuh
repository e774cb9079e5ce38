// The runs family on CUDA, "decoupled-lookback": unique, unique_by_key, run_length_encode and non_trivial_runs
// in one pass, a stream compaction in the sense of Billeter et al. (2009), Sec. 3, whose valid elements are the
// run heads (head(i) = i == 0 || !(in[i] == in[i - 1])), with the prefix over the tiles by the decoupled look-back
// of Merrill and Garland (2016), Sec. 4 (lookback.cuh), as the compaction's single pass (compact/single_pass.cuh).
// A block takes the next tile number, loads its tile (coalesced, through shared memory), flags its heads and,
// for the lengths, its tails (cub::BlockDiscontinuity: one element before the tile and one after it read from
// global memory), scans the flags within the tile, publishes the tile's count and learns by look-back how many
// runs came before it. It then stages what it writes in shared memory and writes each output as one run of
// whole, coalesced stores.
// The lengths: a run ends at its tail, possibly tiles after its head. The prefix that travels between the
// tiles is therefore a pair, (runs counted, position of the last head), combined as (sum, max): the tile that
// holds a run's tail knows where the run began and writes its length. unique needs only the count and
// travels in the compaction's packed count words.
// non_trivial_runs counts a head only where the next element equals it, and writes offset and length at the
// run's tail. Keys are read once (plus two elements per tile), values (unique_by_key) only at the heads, and
// each output is written once.
// Outputs past `capacity` are not written; the last tile writes the full count. Not in place: a tile writes
// its runs while later tiles may still read the input.
#pragma once
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda/std/type_traits>
#include <cstdint>

#include "sluice/cuda/common.cuh"
#include "sluice/cuda/lookback.cuh"

namespace sluice::cuda_backend::runs_lookback {

enum class kind { unique, encode, non_trivial };

// The tile: 256 threads, 64 bytes of keys a thread (at most 16 keys), loaded coalesced by warp transposes.
template <class K>
struct policy {
  static constexpr unsigned threads = 256;
  static constexpr unsigned items = sizeof(K) >= 16 ? 4 : (64 / sizeof(K) > 16 ? 16 : 64 / sizeof(K));
  static constexpr unsigned tile = threads * items;
  static constexpr unsigned min_blocks = 4;
};

// The prefix of the lengths' pass: how many runs were counted, and 1 + the position of the last head (0: none).
struct pair {
  u64 count;
  u64 last;
};
struct pair_op {
  __device__ pair operator()(const pair& a, const pair& b) const { return {a.count + b.count, b.last > a.last ? b.last : a.last}; }
};
struct count_op {
  __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const { return a + b; }
};

// What a thread counts within the tile: counted heads; for the lengths also counted tails and 1 + the tile
// offset of its last head (0: none).
struct tile_counts {
  unsigned heads, tails, last;
};
struct tile_counts_op {
  __device__ tile_counts operator()(const tile_counts& a, const tile_counts& b) const {
    return {a.heads + b.heads, a.tails + b.tails, b.last > a.last ? b.last : a.last};
  }
};

struct differs {
  template <class T>
  __device__ bool operator()(const T& a, const T& b) const { return !(a == b); }
};

// unique of keys alone is the compaction's (compact/decoupled_lookback.cuh, every one of its paths) with this
// selector: element i is kept where it starts a run. The element before it is read again from memory, where the
// same warp (or, at a tile's edge, the tile before) has just read it: from cache.
template <class K>
struct head_select {
  const K* in;
  __device__ bool operator()(u64 i, const K& x) const { return i == 0 || !(x == in[i - 1]); }
};

// The outputs of one launch. unique: keys (and values) at the heads. encode: keys at the heads, a = lengths.
// non_trivial: a = offsets, b = lengths, both at the tails.
template <class K, class V>
struct outputs {
  K* keys;
  V* values;
  u64* a;
  u64* b;
  u64 capacity;
};

template <kind Kind, class K, class V, class State>
__global__ void __launch_bounds__(policy<K>::threads, policy<K>::min_blocks)
    runs_kernel(const K* in, const V* values, outputs<K, V> out, u64 n, u64* count, unsigned* counter, unsigned* spare_counter,
                State state) {
  using P = policy<K>;
  constexpr unsigned I = P::items;
  constexpr bool lengths = Kind != kind::unique;
  constexpr bool with_values = !cuda::std::is_same_v<V, std::nullptr_t>;
  using load_t = cub::BlockLoad<K, P::threads, I, cub::BLOCK_LOAD_VECTORIZE>;
  using flags_t = cub::BlockDiscontinuity<K, P::threads>;
  using scan_t = cub::BlockScan<tile_counts, P::threads>;
  using prefix_t = typename State::value_type;
  // Staging: keys at the heads, or the 8-byte lengths and offsets; and the tile offsets of the heads, whose
  // values are gathered as they are written.
  constexpr unsigned stage_bytes = (lengths && 8 > sizeof(K) ? 8 : sizeof(K)) * P::tile;
  __shared__ union {
    typename load_t::TempStorage load;
    alignas(16) unsigned char stage[stage_bytes];
  } mem;
  __shared__ typename flags_t::TempStorage flags_mem;
  __shared__ typename scan_t::TempStorage scan_mem;
  __shared__ unsigned short head_at[with_values ? P::tile : 1];
  __shared__ unsigned tile_number;
  __shared__ prefix_t tile_prefix;

  if (threadIdx.x == 0) tile_number = lookback::draw_tile(counter, spare_counter);
  __syncthreads();
  const u64 tile = tile_number, base = tile * P::tile;
  const unsigned valid = n - base < P::tile ? static_cast<unsigned>(n - base) : P::tile;
  const unsigned first = threadIdx.x * I;  // the thread's first tile offset

  K k[I];
  if (valid == P::tile)
    load_t(mem.load).Load(in + base, k);
  else
    load_t(mem.load).Load(in + base, k, static_cast<int>(valid), in[n - 1]);
  // Head and tail flags; the tile's first head test reads the element before it, the last tail test the one after.
  bool head[I], tail[I];
  const K before = base > 0 ? in[base - 1] : k[0];
  if constexpr (lengths) {
    const K after = base + P::tile < n ? in[base + P::tile] : k[I - 1];
    flags_t(flags_mem).FlagHeadsAndTails(head, before, tail, after, k, differs{});
  } else {
    flags_t(flags_mem).FlagHeads(head, k, differs{}, before);
  }
  // Counted heads and tails: every run, or (non_trivial) the runs longer than one element.
  unsigned counted_head = 0, counted_tail = 0;
  tile_counts mine{0, 0, 0};
#pragma unroll
  for (unsigned j = 0; j < I; ++j) {
    const unsigned at = first + j;
    const u64 i = base + at;
    bool h = (i == 0 || head[j]) && at < valid, t = false;
    if constexpr (lengths) t = (i + 1 == n || tail[j]) && at < valid;
    if (h) mine.last = at + 1;
    const bool ch = Kind == kind::non_trivial ? h && !t : h;
    const bool ct = Kind == kind::non_trivial ? t && !h : t;
    counted_head |= static_cast<unsigned>(ch) << j;
    counted_tail |= static_cast<unsigned>(ct) << j;
  }
  mine.heads = __popc(counted_head);
  mine.tails = __popc(counted_tail);
  tile_counts before_me, total;
  scan_t(scan_mem).ExclusiveScan(mine, before_me, tile_counts{0, 0, 0}, tile_counts_op{}, total);

  // The tile's place: its aggregate published at once, then the look-back (warp 0), then its inclusive prefix.
  prefix_t aggregate;
  if constexpr (lengths)
    aggregate = pair{total.heads, total.last ? base + total.last : 0};
  else
    aggregate = total.heads;
  if (threadIdx.x < 32) {
    prefix_t excl{};
    if (tile == 0) {
      if (threadIdx.x == 0) state.publish(tile, lookback::prefix, aggregate);
    } else {
      if (threadIdx.x == 0) state.publish(tile, lookback::aggregate, aggregate);
      if constexpr (lengths)
        excl = lookback::exclusive_prefix<lookback::tuning>(state, tile, pair_op{});
      else
        excl = lookback::exclusive_prefix<lookback::tuning>(state, tile, count_op{});
      if (threadIdx.x == 0) {
        if constexpr (lengths)
          state.publish(tile, lookback::prefix, pair_op{}(excl, aggregate));
        else
          state.publish(tile, lookback::prefix, excl + aggregate);
      }
    }
    if (threadIdx.x == 0) tile_prefix = excl;
  }
  __syncthreads();  // also: every thread is done with mem.load
  const prefix_t p = tile_prefix;
  u64 runs_before;
  if constexpr (lengths)
    runs_before = p.count;
  else
    runs_before = p;
  if (tile == gridDim.x - 1 && threadIdx.x == 0) *count = runs_before + total.heads;

  // Writes stage[0, c) to dst[r0, r0 + c), up to the capacity: coalesced, a thread an element.
  auto write_out = [&](auto* dst, const auto* stage, u64 r0, unsigned c) {
    for (unsigned s = threadIdx.x; s < c && r0 + s < out.capacity; s += P::threads) dst[r0 + s] = stage[s];
  };

  // Heads: keys (unique, encode), staged at their rank within the tile; values gathered from their offsets.
  if constexpr (Kind != kind::non_trivial) {
    K* stage = reinterpret_cast<K*>(mem.stage);
#pragma unroll
    for (unsigned j = 0, r = before_me.heads; j < I; ++j)
      if (counted_head >> j & 1u) {
        stage[r] = k[j];
        if constexpr (with_values) head_at[r] = static_cast<unsigned short>(first + j);
        ++r;
      }
    __syncthreads();
    write_out(out.keys, stage, runs_before, total.heads);
    if constexpr (with_values) {
      // Every gather of the thread in flight before its first store (the stores could alias the loads for all
      // the compiler knows: one at a time, each waited on, the tile took several times longer).
      const u64 room = out.capacity > runs_before ? out.capacity - runs_before : 0;
      const unsigned c = total.heads < room ? total.heads : static_cast<unsigned>(room);
      V got[I];
#pragma unroll
      for (unsigned k = 0; k < I; ++k) {
        const unsigned s = threadIdx.x + k * P::threads;
        if (s < c) got[k] = values[base + head_at[s]];
      }
#pragma unroll
      for (unsigned k = 0; k < I; ++k) {
        const unsigned s = threadIdx.x + k * P::threads;
        if (s < c) out.values[runs_before + s] = got[k];
      }
    }
  }
  if constexpr (lengths) {
    // Tails: the run's rank and where it began. The first counted tail of the tile is that of the run holding
    // the tile's first element where that run began before the tile (it is then longer than one, so counted
    // by either kind), else that of the tile's first counted head.
    const bool continues = __syncthreads_or(threadIdx.x == 0 && !head[0]) && base > 0;  // also: the keys' stage is read out
    const u64 r0 = runs_before - (continues ? 1 : 0);
    u64* stage = reinterpret_cast<u64*>(mem.stage);
    // Stages, at each counted tail's rank within the tile, its run's length (lengths) or head position.
    auto stage_tails = [&](bool lengths_wanted) {
      u64 last = before_me.last ? base + before_me.last : p.last;  // 1 + the position of the last head so far
      unsigned r = before_me.tails;
#pragma unroll
      for (unsigned j = 0; j < I; ++j) {
        const u64 i = base + first + j;
        if ((i == 0 || head[j]) && first + j < valid) last = i + 1;
        if (counted_tail >> j & 1u) stage[r++] = lengths_wanted ? i + 2 - last : last - 1;
      }
      __syncthreads();
    };
    stage_tails(Kind == kind::encode);
    write_out(out.a, stage, r0, total.tails);
    if constexpr (Kind == kind::non_trivial) {
      __syncthreads();
      stage_tails(true);
      write_out(out.b, stage, r0, total.tails);
    }
  }
}

// One launch over n > 0 keys: *count = the runs counted; min(count, capacity) of each output written.
template <kind Kind, class K, class V>
void run(const K* in, const V* values, outputs<K, V> out, u64 n, u64* count, cudaStream_t s, const char* fn) {
  using P = policy<K>;
  if (n == 0) {
    check_cuda(cudaMemsetAsync(count, 0, sizeof(u64), s), fn, "cudaMemsetAsync");
    return;
  }
  const u64 tiles = ceil_div(n, u64{P::tile});
  if (tiles >= (u64{1} << 31)) throw error(errc::invalid_argument, std::string("sluice::") + fn + ": more than 2^31 tiles of input");
  if constexpr (Kind == kind::unique) {
    lookback::launch_states states(lookback::count_state::bytes(tiles), n < lookback::count_state::kept_limit, s, fn);
    runs_kernel<Kind, K, V><<<static_cast<unsigned>(tiles), P::threads, 0, s>>>(
        in, values, out, n, count, states.counter(), states.spare_counter(), lookback::count_state::at(states.states(), tiles, states.epoch()));
    check_launch(fn, "runs_lookback::runs_kernel");
  } else {
    using pair_state = lookback::wide_state<pair>;
    lookback::launch_states states(pair_state::bytes(tiles), false, s, fn);
    runs_kernel<Kind, K, V><<<static_cast<unsigned>(tiles), P::threads, 0, s>>>(in, values, out, n, count, states.counter(),
                                                                                  states.spare_counter(), pair_state::at(states.states(), tiles));
    check_launch(fn, "runs_lookback::runs_kernel");
  }
}

}  // namespace sluice::cuda_backend::runs_lookback
