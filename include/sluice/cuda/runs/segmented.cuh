// segmented_reduce and the segmented scans on CUDA, "decoupled-lookback": the segmented scan of by_key.cuh with
// its heads read from an offsets array instead of keys. Work is cut by elements, never by segments, so that a
// few huge segments and millions of tiny or empty ones cost the same per byte (one thread or one block per
// segment is the classic trap: idle on tiny segments, serial on huge ones).
//   1. bounds_kernel: for every tile t, where its offsets begin: lower[t] = the first s with offsets[s] >=
//      t x tile, upper[t] = the first s with offsets[s] > t x tile (binary searches, one thread a tile), and
//      whether the offsets decrease or pass the values (the call reads that flag and throws before any work).
//   2. segmented_kernel: a tile marks the segment starts that fall in it in a shared bitmap (every offset of
//      [lower[t], lower[t + 1]) below the last), so that each segment's first element is a head, loads its
//      values and runs by_key::tile_pairs: the look-back carries (heads, value since the last head). The scans
//      write each element inside [offsets[0], offsets.back()) (others untouched), through shared memory.
//      segmented_reduce writes out[s] for every segment s ending in the tile (offsets[s + 1] in (base, base +
//      tile]): init op the inclusive value at its last element, or init where it is empty; tile 0 also writes
//      the empty segments that end at 0.
// Floats repeat bit for bit from run to run (the anchored look-back, by_key.cuh).
#pragma once
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>

#include "sluice/cuda/runs/by_key.cuh"

namespace sluice::cuda_backend::by_key {

// lower[t], upper[t] for t in [0, tiles]; found[0]: the first s with offsets[s] < offsets[s - 1] (else left at
// ~0), found[1]: 1 where the last offset passes n. (A template: defined in a header, built in several units.)
template <class Unused = void>
__global__ void bounds_kernel(const u64* offsets, u64 count, u64 n, u64 tile, u64 tiles, u64* lower, u64* upper,
                              unsigned long long* found) {
  const u64 stride = static_cast<u64>(gridDim.x) * blockDim.x;
  for (u64 s = blockIdx.x * u64{blockDim.x} + threadIdx.x + 1; s < count; s += stride)
    if (offsets[s] < offsets[s - 1]) atomicMin(found, static_cast<unsigned long long>(s));
  if (blockIdx.x == 0 && threadIdx.x == 0 && offsets[count - 1] > n) found[1] = 1;
  for (u64 t = blockIdx.x * u64{blockDim.x} + threadIdx.x; t <= tiles; t += stride) {
    const u64 x = t * tile;
    u64 lo = 0, hi = count;  // the first s with offsets[s] >= x
    while (lo < hi) {
      const u64 mid = lo + (hi - lo) / 2;
      if (offsets[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    lower[t] = lo;
    hi = count;  // the first s with offsets[s] > x
    while (lo < hi) {
      const u64 mid = lo + (hi - lo) / 2;
      if (offsets[mid] <= x) lo = mid + 1;
      else hi = mid;
    }
    upper[t] = lo;
  }
}

template <class T>
__global__ void fill_kernel(T* out, u64 n, T v) {
  for (u64 i = blockIdx.x * u64{blockDim.x} + threadIdx.x; i < n; i += static_cast<u64>(gridDim.x) * blockDim.x) out[i] = v;
}

template <bool Reduce, class V, class Op, class State>
__global__ void __launch_bounds__(policy<sizeof(V), V>::threads, policy<sizeof(V), V>::min_blocks)
    segmented_kernel(const V* values, u64 n, const u64* offsets, u64 count, const u64* lower, const u64* upper, V* out, Op op, bool inclusive,
                     V init, unsigned* counter, unsigned* spare_counter, State state) {
  using P = policy<sizeof(V), V>;
  constexpr unsigned I = P::items;
  using load_values = cub::BlockLoad<V, P::threads, I, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  __shared__ union {
    typename load_values::TempStorage values;
    V stage[P::tile];
  } mem;
  __shared__ unsigned starts[P::tile / 32];  // bit i: a segment starts at the tile's element i
  __shared__ tile_shared<P, V> sh;
  __shared__ unsigned tile_number;

  if (threadIdx.x == 0) tile_number = lookback::draw_tile(counter, spare_counter);
  for (unsigned w = threadIdx.x; w < P::tile / 32; w += P::threads) starts[w] = 0;
  __syncthreads();
  const u64 tile = tile_number, base = tile * P::tile;
  const unsigned valid = n - base < P::tile ? static_cast<unsigned>(n - base) : P::tile;
  const unsigned first = threadIdx.x * I;
  const u64 lo = offsets[0], hi = offsets[count - 1];  // the segments cover [lo, hi)
  for (u64 s = lower[tile] + threadIdx.x; s < lower[tile + 1]; s += P::threads) {
    const u64 at = offsets[s];
    if (at < hi) atomicOr(&starts[(at - base) / 32], 1u << ((at - base) % 32));
  }
  V v[I];
  if (valid == P::tile)
    load_values(mem.values).Load(values + base, v);
  else
    load_values(mem.values).Load(values + base, v, static_cast<int>(valid), values[n - 1]);
  __syncthreads();  // the starts are marked
  const unsigned real = first >= valid ? 0 : (valid - first < I ? valid - first : I);  // the thread's items inside the input
  const unsigned heads = (starts[first / 32] >> (first % 32)) & ((1u << real) - 1u);
  bool have;
  keyed<V> total;
  keyed<V> run = tile_pairs<P>(v, heads, first, valid, tile, op, state, sh, &have, &total);  // also: mem.values read out

  if constexpr (Reduce) {
    // Each element's inclusive value within its segment, then the segments ending in the tile.
#pragma unroll
    for (unsigned j = 0; j < I; ++j) {
      step(run, have, heads >> j & 1u, v[j], op);
      if (first + j < valid) mem.stage[first + j] = run.value;
    }
    __syncthreads();
    const u64 from = upper[tile] > 0 ? upper[tile] : 1;  // offsets[0] ends no segment
    for (u64 s = from + threadIdx.x; s < upper[tile + 1]; s += P::threads) {
      const u64 end = offsets[s], begin = offsets[s - 1];
      out[s - 1] = begin < end ? op(init, mem.stage[end - 1 - base]) : init;
    }
    if (tile == 0)  // empty segments ending at 0 end in no tile
      for (u64 s = 1 + threadIdx.x; s < upper[0]; s += P::threads) out[s - 1] = init;
  } else {
#pragma unroll
    for (unsigned j = 0; j < I; ++j) {
      const bool h = heads >> j & 1u;
      V o = init;
      if (!inclusive && !h) o = op(init, run.value);
      step(run, have, h, v[j], op);
      if (inclusive) o = run.value;
      if (first + j < valid) mem.stage[first + j] = o;
    }
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < I; ++k) {
      const unsigned at = threadIdx.x + k * P::threads;
      const u64 i = base + at;
      if (at < valid && i >= lo && i < hi) out[i] = mem.stage[at];
    }
  }
}

// One call: the offsets checked on the device first (the call waits for that check and throws invalid_argument
// where they decrease or pass the values, before anything is written), then one pass over the values.
template <bool Reduce, class V, class Op>
void segmented(const V* values, u64 n, const u64* offsets, u64 count, V* out, Op op, bool inclusive, V init, cudaStream_t s, const char* fn) {
  using P = policy<sizeof(V), V>;
  const u64 tiles = n == 0 ? 0 : ceil_div(n, u64{P::tile});
  if (tiles >= (u64{1} << 31)) throw error(errc::invalid_argument, std::string("sluice::") + fn + ": more than 2^31 tiles of input");
  scratch bounds((2 * (tiles + 1) + 2) * sizeof(u64), s, fn);
  auto* const found = bounds.as<unsigned long long>();  // [0]: where the offsets decrease (~0: nowhere); [1]: past n
  u64* const lower = reinterpret_cast<u64*>(found + 2);
  u64* const upper = lower + tiles + 1;
  check_cuda(cudaMemsetAsync(found, 0xff, sizeof(u64), s), fn, "cudaMemsetAsync");
  check_cuda(cudaMemsetAsync(found + 1, 0, sizeof(u64), s), fn, "cudaMemsetAsync");
  const u64 work = count > tiles + 1 ? count : tiles + 1;
  const unsigned grid = static_cast<unsigned>(ceil_div(work, u64{256}) < 4096 ? ceil_div(work, u64{256}) : 4096);
  bounds_kernel<<<grid, 256, 0, s>>>(offsets, count, n, P::tile, tiles, lower, upper, found);
  check_launch(fn, "by_key::bounds_kernel");
  unsigned long long got[2];
  copy_to_host(got, found, sizeof got, s, fn);
  if (got[0] != ~0ull) throw error(errc::invalid_argument, std::string("sluice::") + fn + ": 'offsets' decreases at " + std::to_string(got[0]));
  if (got[1])
    throw error(errc::invalid_argument, std::string("sluice::") + fn + ": 'offsets' ends past the " + std::to_string(n) + " values");
  if (count < 2) return;  // no segment
  if (n == 0) {  // every segment empty
    if constexpr (Reduce) {
      fill_kernel<<<static_cast<unsigned>(ceil_div(count - 1, u64{256}) < 4096 ? ceil_div(count - 1, u64{256}) : 4096), 256, 0, s>>>(out, count - 1, init);
      check_launch(fn, "by_key::fill_kernel");
    }
    return;
  }
  using state = pair_state<V, false>;  // segments are placed by their offsets: no ranks
  lookback::launch_states states(state::bytes(tiles), false, s, fn);
  segmented_kernel<Reduce, V, Op><<<static_cast<unsigned>(tiles), P::threads, 0, s>>>(values, n, offsets, count, lower, upper, out, op, inclusive,
                                                                                       init, states.counter(), states.spare_counter(),
                                                                                       state::at(states.states(), tiles));
  check_launch(fn, "by_key::segmented_kernel");
}

}  // namespace sluice::cuda_backend::by_key
