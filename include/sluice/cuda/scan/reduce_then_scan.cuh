// scan "reduce-then-scan": (1) each block reduces its contiguous chunk of tiles, (2) one block scans the chunk
// totals, (3) each block rescans its chunk tile by tile, seeded with its chunk's prefix. Three launches
// (one when a single chunk covers the input); reads the input twice, writes it once. Any associative
// operator; the order of combination is fixed for a device and n, so results repeat bit for bit.
#pragma once
#include <cub/block/block_scan.cuh>

#include "sluice/cuda/reduce/two_pass.cuh"

namespace sluice::cuda_backend::reduce_then_scan {

using policy = two_pass::policy;

// Warp 0 of the block calls it with each tile's aggregate; it returns the prefix to apply to that tile.
template <class T, class Op>
struct running_prefix {
  T value;
  Op op;
  __device__ T operator()(const T& tile_aggregate) {
    const T old = value;
    value = op(value, tile_aggregate);
    return old;
  }
};

// Scans the block's chunk and hands store(i, scanned_i) every element. Chunk b's prefix:
// exclusive: init (op chunk_incl[b-1]); inclusive: none for b = 0, else chunk_incl[b-1].
template <class P, class T, class Load, class Store, class Op>
__global__ void __launch_bounds__(P::threads) chunk_scan_kernel(Load load, Store store, u64 n, u64 tiles_per_block,
                                                                 Op op, bool inclusive, T init, const T* chunk_incl) {
  using io = two_pass::tile_io<T, P::threads, P::items>;
  using exchange = typename io::exchange;
  using block_scan = cub::BlockScan<T, P::threads>;
  __shared__ union {
    typename io::exchange::TempStorage ex;
    typename block_scan::TempStorage scan;
  } s;
  const u64 first = blockIdx.x * tiles_per_block * P::tile;
  const u64 last = first + tiles_per_block * P::tile < n ? first + tiles_per_block * P::tile : n;
  bool have_prefix = !inclusive || blockIdx.x > 0;
  T start = init;
  if (blockIdx.x > 0) start = inclusive ? chunk_incl[blockIdx.x - 1] : op(init, chunk_incl[blockIdx.x - 1]);
  running_prefix<T, Op> prefix{start, op};
  for (u64 base = first; base < last; base += P::tile) {
    T items[P::items];
    io::load(s.ex, load, base, n, items);
    __syncthreads();
    if (!have_prefix) {  // the very first tile of an inclusive scan has nothing before it
      T aggregate;
      block_scan(s.scan).InclusiveScan(items, items, op, aggregate);
      prefix.value = aggregate;
      have_prefix = true;
    } else if (inclusive) {
      block_scan(s.scan).InclusiveScan(items, items, op, prefix);
    } else {
      block_scan(s.scan).ExclusiveScan(items, items, op, prefix);
    }
    __syncthreads();
    exchange(s.ex).BlockedToStriped(items, items);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < P::items; ++k) {
      const u64 i = base + static_cast<u64>(k) * P::threads + threadIdx.x;
      if (i < n) store(i, items[k]);
    }
  }
}

// Chunks that run() uses for n elements: the size of the `totals` buffer it can be given.
inline u64 chunk_count(u64 n, const char* fn) {
  return chunking(n, policy::tile, multiprocessor_count(fn), policy::blocks_per_sm).blocks;
}

// Scan n elements read through `load`, handing each result to `store`. If `totals` (chunk_count(n) entries)
// is given, it receives the inclusive scan of the chunk totals before the rescan starts, so a store may
// read the last entry, the reduction of the whole input.
template <class T, class Load, class Store, class Op>
void run(Load load, Store store, u64 n, bool inclusive, T init, Op op, cudaStream_t s, const char* fn, T* totals = nullptr) {
  using P = policy;
  if (n == 0) return;
  const chunking c(n, P::tile, multiprocessor_count(fn), P::blocks_per_sm);
  if (c.blocks == 1 && totals == nullptr) {
    chunk_scan_kernel<P><<<1, P::threads, 0, s>>>(load, store, n, c.tiles_per_block, op, inclusive, init, static_cast<const T*>(nullptr));
    return check_launch(fn, "reduce_then_scan::chunk_scan_kernel");
  }
  scratch own;
  if (totals == nullptr) {
    own = scratch(c.blocks * sizeof(T), s, fn);
    totals = own.as<T>();
  }
  // 1. Reduce each chunk.
  two_pass::chunk_reduce_kernel<P><<<c.blocks, P::threads, 0, s>>>(load, n, c.tiles_per_block, op, totals, false, init);
  check_launch(fn, "two_pass::chunk_reduce_kernel");
  // 2. Inclusive scan of the chunk totals, in place, by one block.
  const chunking one(c.blocks, P::tile, 1, 1);
  chunk_scan_kernel<P><<<1, P::threads, 0, s>>>(ptr_load<T>{totals}, ptr_store<T>{totals}, c.blocks, one.tiles_per_block,
                                                op, true, init, static_cast<const T*>(nullptr));
  check_launch(fn, "reduce_then_scan::chunk_scan_kernel (totals)");
  // 3. Rescan each chunk with its prefix.
  chunk_scan_kernel<P><<<c.blocks, P::threads, 0, s>>>(load, store, n, c.tiles_per_block, op, inclusive, init,
                                                       static_cast<const T*>(totals));
  check_launch(fn, "reduce_then_scan::chunk_scan_kernel");
}

// Where each of m producers starts writing: offsets[g] = counts[0] + ... + counts[g - 1], *total = the sum of
// all m counts (m > 0). The concatenation step of the papers' block and processor compactions.
template <class Count>
struct count_load {
  const Count* counts;
  __device__ u64 operator()(u64 g) const { return counts[g]; }
};
template <class Count>
struct offset_store {
  const Count* counts;
  u64* offsets;
  u64 m;
  u64* total;
  __device__ void operator()(u64 g, u64 offset) const {
    offsets[g] = offset;
    if (g == m - 1) *total = offset + counts[g];
  }
};
template <class Count>
void offsets_of(const Count* counts, u64 m, u64* offsets, u64* total, cudaStream_t s, const char* fn) {
  run<u64>(count_load<Count>{counts}, offset_store<Count>{counts, offsets, m, total}, m, /*inclusive=*/false, u64{0}, sluice::sum{}, s, fn);
}

}  // namespace sluice::cuda_backend::reduce_then_scan
