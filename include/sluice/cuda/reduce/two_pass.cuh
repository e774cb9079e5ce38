// reduce "two-pass": each block reduces a contiguous chunk of tiles in order, then one block reduces the
// per-block partials and applies init. Order of combination is fixed for a given device and n, so results
// are identical from run to run; any associative operator works (commutativity is not assumed).
// Moves: input read once; partials are a few KB.
#pragma once
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_reduce.cuh>

#include "sluice/cuda/common.cuh"

namespace sluice::cuda_backend::two_pass {

struct policy {
  static constexpr int threads = 256;
  static constexpr int items = 8;  // per thread and tile
  static constexpr int blocks_per_sm = 4;
  static constexpr u64 tile = static_cast<u64>(threads) * items;
};

// A tile of Items x Threads elements, loaded coalesced and held blocked (thread t owns t*Items .. t*Items+Items-1).
template <class T, int Threads, int Items>
struct tile_io {
  using exchange = cub::BlockExchange<T, Threads, Items>;
  // Elements past n are filled with element n-1: they sit after every valid element in blocked order.
  template <class Load>
  __device__ static void load(typename exchange::TempStorage& s, Load load, u64 base, u64 n, T (&items)[Items]) {
#pragma unroll
    for (int k = 0; k < Items; ++k) {
      const u64 i = base + static_cast<u64>(k) * Threads + threadIdx.x;
      items[k] = load(i < n ? i : n - 1);
    }
    exchange(s).StripedToBlocked(items, items);
  }
  // Valid items of this thread, and threads holding at least one.
  __device__ static int valid_items(u64 base, u64 n) {
    const u64 first = base + static_cast<u64>(threadIdx.x) * Items;
    return first >= n ? 0 : (n - first >= Items ? Items : static_cast<int>(n - first));
  }
  __device__ static int valid_threads(u64 base, u64 n) {
    const u64 t = ceil_div(n - base, Items);
    return t >= Threads ? Threads : static_cast<int>(t);
  }
};

// out[blockIdx.x] = (init op) reduction of the block's chunk, in input order.
template <class P, class T, class Load, class Op>
__global__ void __launch_bounds__(P::threads) chunk_reduce_kernel(Load load, u64 n, u64 tiles_per_block, Op op, T* out,
                                                                   bool has_init, T init) {
  using io = tile_io<T, P::threads, P::items>;
  using block_reduce = cub::BlockReduce<T, P::threads>;
  __shared__ union {
    typename io::exchange::TempStorage ex;
    typename block_reduce::TempStorage red;
  } s;
  const u64 first = blockIdx.x * tiles_per_block * P::tile;
  const u64 last = first + tiles_per_block * P::tile < n ? first + tiles_per_block * P::tile : n;
  T acc = init;
  bool have = false;
  for (u64 base = first; base < last; base += P::tile) {
    T items[P::items];
    io::load(s.ex, load, base, n, items);
    const int valid = io::valid_items(base, n);
    T local = items[0];
#pragma unroll
    for (int k = 1; k < P::items; ++k)
      if (k < valid) local = op(local, items[k]);
    __syncthreads();
    const T agg = block_reduce(s.red).Reduce(local, op, io::valid_threads(base, n));
    __syncthreads();
    if (threadIdx.x == 0) {
      acc = have ? op(acc, agg) : agg;
      have = true;
    }
  }
  if (threadIdx.x == 0) out[blockIdx.x] = (has_init && have) ? op(init, acc) : (have ? acc : init);
}

// Reduce n elements read through `load` into *result = init op (elements). Launches 1 or 2 kernels.
template <class T, class Load, class Op>
void run(Load load, u64 n, T* result, T init, Op op, cudaStream_t s, const char* fn) {
  using P = policy;
  const chunking c(n, P::tile, multiprocessor_count(fn), P::blocks_per_sm);
  if (c.blocks <= 1) {  // one launch: also writes init when n == 0
    chunk_reduce_kernel<P><<<1, P::threads, 0, s>>>(load, n, c.tiles_per_block, op, result, true, init);
    return check_launch(fn, "two_pass::chunk_reduce_kernel");
  }
  scratch partials(c.blocks * sizeof(T), s, fn);
  chunk_reduce_kernel<P><<<c.blocks, P::threads, 0, s>>>(load, n, c.tiles_per_block, op, partials.as<T>(), false, init);
  check_launch(fn, "two_pass::chunk_reduce_kernel");
  const chunking c2(c.blocks, P::tile, 1, 1);
  chunk_reduce_kernel<P><<<1, P::threads, 0, s>>>(ptr_load<T>{partials.as<T>()}, c.blocks, c2.tiles_per_block, op, result, true, init);
  check_launch(fn, "two_pass::chunk_reduce_kernel (partials)");
}

}  // namespace sluice::cuda_backend::two_pass
