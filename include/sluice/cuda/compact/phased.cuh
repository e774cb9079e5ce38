// compact and partition, phased: Billeter et al. (2009), Sec. 3: count, prefix over the counts, move. A first
// pass counts every tile's kept elements (tile_counts_kernel, one warp a tile) and, with flags, leaves each
// element's keep bit (n / 8 bytes); the counts are scanned in place (scan/decoupled_lookback.cuh); the move is the
// single pass's kernel (single_pass.cuh) taking each tile's place from that scan, waiting on no other tile, and
// reading the keep bits instead of the flags. Keeps order.
// Bytes: flags, n flag bytes read and n / 8 bytes of bits written and read once more, the elements read once and
// written once; partition by predicate reads the elements twice (count, move) and writes them once.
// Dispatch (decoupled_lookback.cuh) takes it, where phased=auto, from phased_policy's crossovers on: compact with
// flags from 2^24 u32 elements, partition with flags from 2^22 and by predicate from 2 tiles, where the
// resident partition (resident_partition.cuh) does not apply. Below them the single pass's wait costs less than
// counting first.
// Also here: the stable partition's total count pass (count_kernel), which only sums the kept elements, so that
// the single pass knows where the rejected run starts (phased=off past the resident grid).
#pragma once
#include <cub/block/block_reduce.cuh>

#include "sluice/cuda/compact/select_common.cuh"
#include "sluice/cuda/scan/decoupled_lookback.cuh"

namespace sluice::cuda_backend::select_lookback {

// Where phased=auto counts first, in tiles of policy<T> (32 KiB of elements), and the count pass's grid.
struct phased_policy {
  static constexpr u64 compact_phased_from_tiles = 2048;  // compact with flags: 2^24 u32 elements
  static constexpr u64 partition_phased_from_tiles = 512;  // partition with flags: 2^22 u32 elements
  static constexpr u64 partition_if_phased_from_tiles = 2;  // partition by predicate: it counts first anyway
  static constexpr unsigned count_threads = 256;  // count_kernel: a grid of resident blocks
  static constexpr unsigned count_blocks_per_sm = 8;
};


// Partition's count pass: how many elements are kept, added to *total. Flags: 16 flag bytes per load,
// four loads in flight per thread; predicate: the elements, 16 bytes per load.
template <class T, class Sel>
__global__ void __launch_bounds__(phased_policy::count_threads)
    count_kernel(const T* in, Sel sel, u64 n, u64 head, unsigned long long* total, const unsigned* skip) {
  using P = policy<T>;
  constexpr unsigned threads = phased_policy::count_threads;
  if (skip && *skip) return;  // partition's pipelined pass ran instead
  constexpr unsigned per = is_flags<Sel> ? 16 : P::per_vector;
  const u64 stride = static_cast<u64>(gridDim.x) * threads, id = blockIdx.x * static_cast<u64>(threads) + threadIdx.x;
  const u64 vecs = (n - head) / per, tail = head + vecs * per;
  unsigned long long c = 0;
  auto one = [&](u64 i) { return sel(i, in[i]) ? 1u : 0u; };
  for (u64 i = id; i < head; i += stride) c += one(i);
  for (u64 i = tail + id; i < n; i += stride) c += one(i);
  u64 k = id;
  for (; k + 3 * stride < vecs; k += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (unsigned u = 0; u < 4; ++u) {
      if constexpr (is_flags<Sel>)
        v[u] = reinterpret_cast<const uint4*>(sel.flags + head)[k + u * stride];
      else
        v[u] = reinterpret_cast<const uint4*>(in + head)[k + u * stride];
    }
#pragma unroll
    for (unsigned u = 0; u < 4; ++u) {
      if constexpr (is_flags<Sel>) {
        c += nonzero_bytes(v[u].x) + nonzero_bytes(v[u].y) + nonzero_bytes(v[u].z) + nonzero_bytes(v[u].w);
      } else {
        vec16<T> x;
        x.raw = v[u];
#pragma unroll
        for (unsigned e = 0; e < per; ++e) c += sel(0, x.e[e]) ? 1u : 0u;
      }
    }
  }
  for (; k < vecs; k += stride)
    for (unsigned e = 0; e < per; ++e) c += one(head + k * per + e);
  using reduce = cub::BlockReduce<unsigned long long, threads>;
  __shared__ typename reduce::TempStorage storage;
  const unsigned long long sum = reduce(storage).Sum(c);
  if (threadIdx.x == 0 && sum) atomicAdd(total, sum);
}

// Phased: the kept elements of move tile t, counted by one warp (every lane gets the count), Batch 16-byte
// loads in flight per lane (16 where fewer warps are resident: partition's pipelined pass kernel). Flags: their
// non-zero bytes (flags 16-byte aligned), and where `bits` is given the tile's keep bits too (bit i % 32 of
// bits[i / 32] set where element i is kept; a tile holds whole words), so that the move reads n / 8 bytes
// there instead of the n flag bytes again. Predicate (partition, whose total must be known first anyway): the
// predicate over the elements (in 16-byte aligned).
template <class T, class Sel, unsigned Batch = 8>
__device__ unsigned count_tile(const T* in, Sel sel, u64 n, u64 t, unsigned lane, unsigned* bits = nullptr) {
  using P = policy<T>;
  constexpr unsigned tile = P::tile, unit = is_flags<Sel> ? 1 : sizeof(T), per_lane = tile * unit / 16 / 32,
                     batch = per_lane < Batch ? per_lane : Batch;
  static_assert(per_lane % batch == 0, "whole batches per tile");
  static_assert(tile % 32 == 0, "a tile's keep bits are whole words");
  const u64 base = t * tile;
  unsigned c = 0;
  if (base + tile <= n) {
    const uint4* v;
    if constexpr (is_flags<Sel>)
      v = reinterpret_cast<const uint4*>(sel.flags + base);
    else
      v = reinterpret_cast<const uint4*>(in + base);
    for (unsigned k = 0; k < per_lane; k += batch) {
      uint4 w[batch];
#pragma unroll
      for (unsigned b = 0; b < batch; ++b) w[b] = v[(k + b) * 32 + lane];
#pragma unroll
      for (unsigned b = 0; b < batch; ++b) {
        if constexpr (is_flags<Sel>) {
          const unsigned m = nonzero_bits(w[b]);  // flags [16 i, 16 i + 16) of the tile, i = (k + b) * 32 + lane
          c += __popc(m);
          if (bits) {  // lanes 2j and 2j + 1 make one word
            const unsigned high = __shfl_down_sync(0xffffffffu, m, 1);
            if ((lane & 1u) == 0) bits[base / 32 + (k + b) * 16 + lane / 2] = m | high << 16;
          }
        } else {
          vec16<T> x;
          x.raw = w[b];
          const u64 at = base + ((k + b) * 32 + lane) * P::per_vector;
#pragma unroll
          for (unsigned e = 0; e < P::per_vector; ++e) c += sel(at + e, x.e[e]) ? 1u : 0u;
        }
      }
    }
  } else {
    for (u64 word = base; word < n; word += 32) {  // the whole warp in step: it ballots the word's bits
      const u64 i = word + lane;
      bool kept;
      if constexpr (is_flags<Sel>)
        kept = i < n && sel.flags[i] != 0;
      else
        kept = i < n && sel(i, in[i]);
      c += kept;
      if (bits) {
        const unsigned m = __ballot_sync(0xffffffffu, kept);
        if (lane == 0) bits[word / 32] = m;
      }
    }
  }
  return __reduce_add_sync(0xffffffffu, c);
}

// counts[t] = count_tile(t), one warp per tile (flags: and their keep bits, where bits is not null). Launch
// with policy<T>::threads threads.
template <class T, class Sel>
__global__ void __launch_bounds__(policy<T>::threads)
    tile_counts_kernel(const T* in, Sel sel, u64 n, u64 tiles, u64* counts, unsigned* bits) {
  const u64 t = static_cast<u64>(blockIdx.x) * policy<T>::warps + threadIdx.x / 32;
  if (t >= tiles) return;
  const unsigned c = count_tile(in, sel, n, t, threadIdx.x & 31u, bits);
  if ((threadIdx.x & 31u) == 0) counts[t] = c;
}

// The phased path's scratch: the tiles' counts, scanned in place into their inclusive prefix, then for flags the
// keep bits, ceil(n / 32) words (count_tile).
template <class T, class Sel>
struct phased_scratch {
  scratch memory;
  u64* tile_incl = nullptr;
  unsigned* bits = nullptr;
  void allocate(u64 n, u64 tiles, cudaStream_t s, const char* fn) {
    memory = scratch(tiles * sizeof(u64) + (is_flags<Sel> ? ceil_div(n, u64{32}) * sizeof(unsigned) : 0), s, fn);
    tile_incl = memory.as<u64>();
    if constexpr (is_flags<Sel>) bits = reinterpret_cast<unsigned*>(tile_incl + tiles);
  }
};

// Count: every tile's count (and keep bits) unless the partition's pipelined pass took them (counts_taken);
// prefix: their inclusive scan, in place.
template <class T, class Sel>
void count_and_scan_tiles(const T* in, const Sel& sel, u64 n, u64 tiles, u64* tile_incl, unsigned* bits, bool counts_taken,
                          cudaStream_t s, const char* fn) {
  using P = policy<T>;
  if (!counts_taken) {
    tile_counts_kernel<T, Sel><<<static_cast<unsigned>(ceil_div(tiles, P::warps)), P::threads, 0, s>>>(in, sel, n, tiles, tile_incl, bits);
    check_launch(fn, "select_lookback::tile_counts_kernel");
  }
  decoupled_lookback::run(tile_incl, tile_incl, tiles, /*inclusive=*/true, u64{0}, sluice::sum{}, s, fn);
}

// The stable partition's count pass: the kept total, added to *kept_total (zeroed first where zero_first: the
// stream's kept states are not), before the move.
template <class T, class Sel>
void count_pass(const T* in, const Sel& sel, u64 n, unsigned long long* kept_total, bool zero_first, const unsigned* skip,
                cudaStream_t s, const char* fn) {
  using C = phased_policy;
  if (zero_first) check_cuda(cudaMemsetAsync(kept_total, 0, sizeof(*kept_total), s), fn, "cudaMemsetAsync");
  const void* first = in;  // where it reads: the flags or the elements
  if constexpr (is_flags<Sel>) first = sel.flags;
  const std::size_t unit = is_flags<Sel> ? 1 : sizeof(T);
  u64 head = (16 - reinterpret_cast<std::uintptr_t>(first) % 16) % 16;
  head = head % unit ? n : head / unit;
  if (head > n) head = n;
  const u64 want = ceil_div(n, static_cast<u64>(C::count_threads) * 64),
            cap = static_cast<u64>(multiprocessor_count(fn)) * C::count_blocks_per_sm;
  count_kernel<T, Sel><<<static_cast<unsigned>(want < cap ? want : cap), C::count_threads, 0, s>>>(in, sel, n, head, kept_total, skip);
  check_launch(fn, "select_lookback::count_kernel");
}

}  // namespace sluice::cuda_backend::select_lookback
