// compact and partition "decoupled-lookback", compact_unordered "tile-atomic": single-pass data movement
// on the look-back of Merrill and Garland (2016, Sec. 4; lookback.cuh); Billeter et al. 2009 Sec. 3's three
// phases (count, prefix over P, move) fused into one kernel whose "prefix over P" is the look-back.
// A block takes the next tile number, loads its tile with 16-byte vector loads (flags with vector loads
// of as many bytes), counts the kept elements of each vector, ranks them within the tile (warp scans of
// packed counts, then a scan of the warps' totals), publishes the tile's count and learns by look-back how
// many were kept before it. It then stages the kept elements (partition: and the rejected ones) in shared
// memory at the output's 16-byte phase and writes each run out with whole 16-byte stores, so every byte
// is read once and written once.
// Stable partition puts the rejected elements after all the kept ones, in input order: their place needs
// the total kept count before the first tile writes. Where the device holds every tile's block at once,
// the grid is launched cooperatively and each tile waits for the last tile's inclusive prefix (one launch,
// each byte read once); past that, partition first counts the flags (n bytes: a ninth of a u32
// partition's traffic) or, with a predicate, evaluates it over the input, tile by tile, so that the move
// then takes each tile's place from a scan of those counts instead of the look-back (phased). Compact with
// flags takes the phased path too past its crossover; there, as in partition, the count pass also leaves each
// element's keep bit (n / 8 bytes), which the move reads in place of the flags.
// tile-atomic (unordered) reserves each tile's output run with one atomicAdd on the count instead of the
// look-back: no tile waits on another, and the runs land in the order the tiles finish.
#pragma once
#include <cub/block/block_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cuda/std/bit>
#include <span>
#include <type_traits>

#include "sluice/cuda/cluster_prefix.cuh"
#include "sluice/cuda/lookback.cuh"
#include "sluice/cuda/reverse_tail.cuh"
#include "sluice/cuda/scan/decoupled_lookback.cuh"
#include "sluice/detail/params.hpp"
#include "sluice/detail/select.hpp"

namespace sluice::cuda_backend::select_lookback {

#ifdef SLUICE_LOOKBACK_TRACE  // tuning studies only (bench/lookback_tuning.cu): per tile, four %globaltimer stamps
__device__ unsigned long long* trace;
__device__ inline unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
#define SLUICE_TRACE(tile, k) trace[(tile) * 4 + (k)] = now()
#else
#define SLUICE_TRACE(tile, k) (void)0
#endif
#ifdef SLUICE_PIPE_TRACE  // tuning studies only (bench/pipe_trace.cu): per block and round of the pipelined compact, nine stamps
// (slots 0-8) and in slot 9 one more than thread 0's re-reads of look-back words not yet published
__device__ unsigned long long* pipe_trace;
__device__ inline unsigned long long pipe_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
#define SLUICE_PIPE_STAMP_BY(thread, round, k) \
  if (threadIdx.x == (thread)) pipe_trace[(u64{round} * gridDim.x + blockIdx.x) * 10 + (k)] = pipe_now()
#else
#define SLUICE_PIPE_STAMP_BY(thread, round, k) (void)0
#endif
#define SLUICE_PIPE_STAMP(round, k) SLUICE_PIPE_STAMP_BY(0, round, k)

enum class mode { compact, partition, unordered };

template <class T>
struct policy {
  static constexpr unsigned threads = 256;
  static constexpr unsigned warps = threads / 32;
  static constexpr unsigned per_vector = 16 / sizeof(T);  // elements per 16-byte load
  static constexpr unsigned vectors = 8;                   // 16-byte loads in flight per thread
  static constexpr unsigned warp_items = 32 * per_vector * vectors;
  static constexpr unsigned tile = threads * per_vector * vectors;  // 32 KiB of elements
  static constexpr unsigned count_threads = 256;  // partition's count pass: a grid of resident blocks
  static constexpr unsigned count_blocks_per_sm = 8;
  // Flags, from this many tiles on (phased=auto): count the flags of every tile first (one warp per
  // tile), scan the counts, then move with no look-back (see run()). Measured crossovers on the H200
  // (docs/performance.md): compact 2^24 u32 elements, partition 2^22; on the H100 with the keep bits (stop
  // 31): compact level at 2^23 (1.03x the single pass's time) and ahead from 2^24, partition ahead from 2^23,
  // behind the resident grid at 2^22 (1.19x), which auto now prefers wherever the grid fits.
  static constexpr u64 compact_phased_from_tiles = 2048;
  static constexpr u64 partition_phased_from_tiles = 512;
  // Partition by predicate, past the resident grid: the count pass counts per tile and the move skips the
  // look-back (phased=auto takes it wherever a count pass runs).
  static constexpr u64 partition_if_phased_from_tiles = 2;
};

template <class Sel>
inline constexpr bool is_flags = std::is_same_v<Sel, sluice::detail::flag_select>;

// Bit e set where flag byte e of the Bytes at p (aligned to Bytes) is non-zero.
template <unsigned Bytes>
__device__ inline unsigned nonzero_mask(const std::uint8_t* p) {
  if constexpr (Bytes == 1) {
    return p[0] != 0;
  } else if constexpr (Bytes == 2) {
    const unsigned w = *reinterpret_cast<const unsigned short*>(p);
    return ((w & 0xffu) != 0) | (((w >> 8) != 0) << 1);
  } else {
    unsigned w[Bytes / 4];
    if constexpr (Bytes == 4) {
      w[0] = *reinterpret_cast<const unsigned*>(p);
    } else if constexpr (Bytes == 8) {
      const uint2 v = *reinterpret_cast<const uint2*>(p);
      w[0] = v.x, w[1] = v.y;
    } else {
      const uint4 v = *reinterpret_cast<const uint4*>(p);
      w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
    }
    unsigned m = 0;
#pragma unroll
    for (unsigned k = 0; k < Bytes / 4; ++k)
#pragma unroll
      for (unsigned b = 0; b < 4; ++b) m |= (((w[k] >> (8 * b)) & 0xffu) != 0) << (4 * k + b);
    return m;
  }
}

// The top bit of each of the 4 bytes of w set where that byte is non-zero, the other bits clear.
__device__ inline unsigned nonzero_top_bits(unsigned w) {
  return (((w & 0x7f7f7f7fu) + 0x7f7f7f7fu) | w) & 0x80808080u;
}

// How many of the 4 bytes of w are non-zero.
__device__ inline unsigned nonzero_bytes(unsigned w) { return __popc(nonzero_top_bits(w)); }

// Bit e set where byte e of the 16 in v is non-zero. Per word, the multiply gathers the four top bits (at 0,
// 8, 16, 24 after the shift) into bits 21-24, no two products overlapping.
__device__ inline unsigned nonzero_bits(uint4 v) {
  auto four = [](unsigned w) { return (nonzero_top_bits(w) >> 7) * 0x00204081u >> 21 & 0xfu; };
  return four(v.x) | four(v.y) << 4 | four(v.z) << 8 | four(v.w) << 12;
}

// Partition's count pass: how many elements are kept, added to *total. Flags: 16 flag bytes per load,
// four loads in flight per thread; predicate: the elements, 16 bytes per load.
template <class T, class Sel>
__global__ void __launch_bounds__(policy<T>::count_threads)
    count_kernel(const T* in, Sel sel, u64 n, u64 head, unsigned long long* total, const unsigned* skip) {
  using P = policy<T>;
  if (skip && *skip) return;  // partition's pipelined pass ran instead
  constexpr unsigned per = is_flags<Sel> ? 16 : P::per_vector;
  const u64 stride = static_cast<u64>(gridDim.x) * P::count_threads, id = blockIdx.x * static_cast<u64>(P::count_threads) + threadIdx.x;
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
  using reduce = cub::BlockReduce<unsigned long long, P::count_threads>;
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

// Writes the run stage[0, c) to out[g, g + c): whole 16-byte stores where they fit, element stores at the
// ragged ends. `stage` sits at the same 16-byte phase as out + g (Aligned), so both sides are aligned.
template <class T, bool Aligned>
__device__ void store_run(const T* stage, T* out, u64 g, u64 c) {
  using P = policy<T>;
  if (c == 0) return;
  if constexpr (Aligned) {
    constexpr unsigned pv = P::per_vector;
    for (u64 slot = g / pv + threadIdx.x; slot * pv < g + c; slot += P::threads) {
      const u64 g0 = slot * pv;
      if (g0 >= g && g0 + pv <= g + c) {
        *reinterpret_cast<uint4*>(out + g0) = *reinterpret_cast<const uint4*>(stage + (g0 - g));
      } else {
#pragma unroll
        for (unsigned e = 0; e < pv; ++e)
          if (g0 + e >= g && g0 + e < g + c) out[g0 + e] = stage[g0 + e - g];
      }
    }
  } else {
    for (u64 i = threadIdx.x; i < c; i += P::threads) out[g + i] = stage[i];
  }
}

// Rank within the warp: vector j of lane l (bit e of keep[j]: its element e is kept) follows vectors [0, j)
// of every lane and vector j of lanes < l. lane_before[j] = the kept elements before it within the warp's
// run; returns the warp's kept count. The vectors' counts travel through one warp scan per word, packed in
// 8-bit fields while a warp's count per vector fits (elements of 4 bytes or more), else in 16-bit fields.
template <unsigned PerVector, unsigned Vectors>
__device__ unsigned warp_ranks(const unsigned (&keep)[Vectors], unsigned (&lane_before)[Vectors],
                               typename cub::WarpScan<unsigned>::TempStorage& storage) {
  constexpr unsigned field_bits = 32 * PerVector <= 255 ? 8 : 16, fields = 32 / field_bits,
                     words = (Vectors + fields - 1) / fields, field = (1u << field_bits) - 1;
  unsigned warp_vector[Vectors];
#pragma unroll
  for (unsigned w = 0; w < words; ++w) {
    unsigned packed = 0;
#pragma unroll
    for (unsigned f = 0; f < fields; ++f)
      if (w * fields + f < Vectors) packed |= __popc(keep[w * fields + f]) << (f * field_bits);
    unsigned incl;
    cub::WarpScan<unsigned>(storage).InclusiveSum(packed, incl);
    const unsigned excl = incl - packed, total = __shfl_sync(0xffffffffu, incl, 31);
#pragma unroll
    for (unsigned f = 0; f < fields; ++f)
      if (w * fields + f < Vectors) {
        lane_before[w * fields + f] = (excl >> (f * field_bits)) & field;
        warp_vector[w * fields + f] = (total >> (f * field_bits)) & field;
      }
  }
  unsigned warp_kept = 0;
#pragma unroll
  for (unsigned j = 0; j < Vectors; ++j) {
    lane_before[j] += warp_kept;  // now: kept before this lane's vector j within the warp's run
    warp_kept += warp_vector[j];
  }
  return warp_kept;
}

// select_kernel with count_last: its finished blocks counted in the ticket counter's bits from this one up, its
// tickets below (so it runs fewer tiles than this).
inline constexpr unsigned done_one = 1u << 16;
// Whether a grid of `tiles` select_kernel tiles may store *count last (count_last): a synchronous call's host slot
// (through_host_slot, watch::where_permitted), fewer tiles than done_one.
inline bool count_last_fits(u64 tiles, const u64* count) { return tiles < done_one && is_host_slot(count); }

template <class T, class Sel, mode M, bool Aligned, class Tuning>
__global__ void __launch_bounds__(policy<T>::threads, Tuning::min_blocks)
    select_kernel(const T* in, Sel sel, T* out, u64 n, u64 capacity, u64* count, unsigned* counter, unsigned* spare_counter,
                  lookback::count_state state, const unsigned long long* kept_total, const u64* tile_incl, const unsigned* bits,
                  const unsigned* skip, bool from_end, bool count_last, bool clustered) {
  using P = policy<T>;
  constexpr unsigned pv = P::per_vector, phase = Aligned ? pv : 1;  // stores keep the output's phase mod `phase`
  using warp_scan = cub::WarpScan<unsigned>;
  __shared__ typename warp_scan::TempStorage warp_storage[P::warps];
  __shared__ unsigned warp_counts[P::warps];
  __shared__ unsigned tile_number, tile_kept;
  __shared__ unsigned long long tile_before, kept_in_all;  // partition: kept_in_all = the kept elements of every tile
  __shared__ uint4 stage_raw[P::tile / pv + 2];  // the tile plus a phase of slack for each of the two runs
  T* const stage = reinterpret_cast<T*>(stage_raw);
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x & 31u;
  if (skip && *skip) {  // partition's pipelined pass ran instead: this grid reverses its tail, out[*count, n)
    if constexpr (M == mode::partition) reverse_range<T, reverse_tail_batch>(out, *count, n);
    if (blockIdx.x == 0 && threadIdx.x == 0 && spare_counter) *spare_counter = 0;  // the next call's counter
    return;
  }
  if (threadIdx.x == 0) tile_number = lookback::draw_tile(counter, spare_counter, count_last ? done_one - 1 : ~0u);
  __syncthreads();
  const u64 tile = tile_number, base = tile * P::tile;
  const unsigned run = warp * P::warp_items;  // the warp's first element within the tile
  if (threadIdx.x == 0) SLUICE_TRACE(tile, 0);
  const bool full = base + P::tile <= n;

  // Count. Flags: the flags alone decide the count, so they are loaded first and the elements only after
  // the ranks are known (their loads then fly while the block waits on the look-back); phased, the keep bits
  // that the count pass left (`bits`) replace the flags, and the elements still load after the ranks (loading
  // them first, with the order a run-time choice, spilled registers in stop 31's first build). Predicate:
  // every vector is loaded before any predicate runs. Bit e of keep[j] says element e of vector j is kept.
  T x[P::vectors][pv];
  unsigned keep[P::vectors];
  auto load_elements = [&] {
#pragma unroll
    for (unsigned j = 0; j < P::vectors; ++j) {
      const u64 at = base + run + (j * 32 + lane) * pv;
      if (Aligned && full) {
        vec16<T> v;
        v.raw = *reinterpret_cast<const uint4*>(in + at);
#pragma unroll
        for (unsigned e = 0; e < pv; ++e) x[j][e] = v.e[e];
      } else {
#pragma unroll
        for (unsigned e = 0; e < pv; ++e)
          if (at + e < n) x[j][e] = in[at + e];
      }
    }
  };
  if constexpr (!is_flags<Sel>) load_elements();
  // The keep bits, where the count pass left them (never for tile-atomic: its code stays as it was, 10-12%
  // faster than with the branch inside the loop below, stop 31). pv divides 32: a vector's bits lie in one word.
  const bool from_bits = M != mode::unordered && is_flags<Sel> && bits;
  if (from_bits) {
#pragma unroll
    for (unsigned j = 0; j < P::vectors; ++j) {
      const u64 at = base + run + (j * 32 + lane) * pv;
      keep[j] = at < n ? bits[at / 32] >> (at % 32) & ((1u << pv) - 1) : 0;
    }
  }
#pragma unroll
  for (unsigned j = 0; j < P::vectors && !from_bits; ++j) {
    const u64 at = base + run + (j * 32 + lane) * pv;
    keep[j] = 0;
    if (Aligned && full) {
      if constexpr (is_flags<Sel>) {
        keep[j] = nonzero_mask<pv>(sel.flags + at);
      } else {
#pragma unroll
        for (unsigned e = 0; e < pv; ++e) keep[j] |= static_cast<unsigned>(sel(at + e, x[j][e])) << e;
      }
    } else {
#pragma unroll
      for (unsigned e = 0; e < pv; ++e) {
        if constexpr (is_flags<Sel>) {
          if (at + e < n) keep[j] |= static_cast<unsigned>(sel.flags[at + e] != 0) << e;
        } else {
          if (at + e < n) keep[j] |= static_cast<unsigned>(sel(at + e, x[j][e])) << e;
        }
      }
    }
  }

  unsigned lane_before[P::vectors];
  const unsigned warp_kept = warp_ranks<P::per_vector>(keep, lane_before, warp_storage[warp]);
  if (lane == 0) warp_counts[warp] = warp_kept;
  if constexpr (is_flags<Sel>) load_elements();
  __syncthreads();

  // Prefix over the tiles: the scan of the warps' counts gives the tile's count; the look-back (or, for
  // tile-atomic, one atomicAdd on the count) gives the kept elements before the tile.
  if (warp == 0) {
    const unsigned c = lane < P::warps ? warp_counts[lane] : 0;
    unsigned incl;
    warp_scan(warp_storage[0]).InclusiveSum(c, incl);
    const unsigned kept = __shfl_sync(0xffffffffu, incl, P::warps - 1);
    if (lane < P::warps) warp_counts[lane] = incl - c;  // now: kept before warp `lane` within the tile
    unsigned long long before = 0;
    if constexpr (M == mode::unordered) {
      if (lane == 0 && kept) before = atomicAdd(reinterpret_cast<unsigned long long*>(count), static_cast<unsigned long long>(kept));
    } else if (tile_incl) {  // phased: the inclusive scan of the tiles' counts is already there
      if (lane == 0 && tile > 0) before = tile_incl[tile - 1];
    } else if (clustered) {  // one cluster: the exchange below
    } else if (tile == 0) {
      if (lane == 0 && counter) state.publish(0, lookback::prefix, kept);
    } else {
      if (lane == 0) {
        state.publish(tile, lookback::aggregate, kept);
        SLUICE_TRACE(tile, 1);
      }
      before = lookback::exclusive_prefix<Tuning>(state, tile, sluice::sum{});
      if (lane == 0) {
        SLUICE_TRACE(tile, 2);
        state.publish(tile, lookback::prefix, before + kept);
      }
    }
    if (lane == 0) tile_before = before, tile_kept = kept;
    if constexpr (M == mode::partition) {
      if (lane == 0 && !from_end) {  // from_end (partition_unordered) needs no total
        if (kept_total) {  // counted before: the count pass, or the phased scan
          kept_in_all = *kept_total;
        } else if (!counter && !clustered) {  // one tile
          kept_in_all = kept;
        }  // else resident: awaited after the kept run's store (below); one cluster: the exchange below
      }
    }
  }
  __syncthreads();
  // One cluster (cluster_prefix.cuh): the blocks' counts read from each other's shared memory, in rank order,
  // and the total with them (the stable partition's tiles then stage both runs at once).
  if (clustered) {
    maybe<unsigned> lower{0, false};
    unsigned all = 0;
    cluster::exchange(tile_kept, sluice::sum{}, lower, all);
    if (threadIdx.x == 0) tile_before = lower.has ? lower.v : 0, kept_in_all = all;
    __syncthreads();
  }

  // Move: stage the kept run at the output's phase (and, for partition, the rejected run after it), then
  // store both runs whole. The resident partition (every tile running at once, the total the last tile's
  // inclusive prefix once published) stores its kept run first and only then waits for the total, to place
  // and store its rejected run (staged after the kept run: the kept run's store reads none of it).
  const u64 before = tile_before, kept = tile_kept;
  const unsigned kept_at = static_cast<unsigned>(before % phase), end = kept_at + static_cast<unsigned>(kept);
  const bool late = M == mode::partition && !from_end && !kept_total && counter;  // resident
  u64 rejected_to = 0;  // partition: the output index of this tile's first rejected element
  unsigned rejected_at = 0;
  const auto place_rejected = [&] {
    // Stable: after every kept element. from_end (partition_unordered): the tiles' rejected runs fill out from
    // its end backwards, each run in input order, the first tile's last; no tile waits for the total.
    rejected_to = from_end ? n - (base - before) - ((full ? P::tile : n - base) - kept) : kept_in_all + (base - before);
    rejected_at = end + static_cast<unsigned>((rejected_to + phase - end % phase) % phase);
  };
  if (M == mode::partition && !late) place_rejected();
  const unsigned warp_before = warp_counts[warp];
  const auto stage_runs = [&](bool kept_run, bool rejected_run) {
#pragma unroll
    for (unsigned j = 0; j < P::vectors; ++j) {
      const unsigned first = warp_before + lane_before[j];  // kept before this vector within the tile
      const unsigned index = run + (j * 32 + lane) * pv;   // this vector's first element within the tile
#pragma unroll
      for (unsigned e = 0; e < pv; ++e) {
        const unsigned rank = first + __popc(keep[j] & ((1u << e) - 1));
        if (keep[j] >> e & 1u) {
          if (kept_run) stage[kept_at + rank] = x[j][e];
        } else if (M == mode::partition && rejected_run && base + index + e < n) {
          stage[rejected_at + (index + e - rank)] = x[j][e];
        }
      }
    }
  };
  stage_runs(true, M == mode::partition && !late);
  __syncthreads();
  const u64 stored = before >= capacity ? 0 : (kept < capacity - before ? kept : capacity - before);
  store_run<T, Aligned>(stage + kept_at, out, before, stored);
  if constexpr (M == mode::partition) {
    if (late) {
      if (threadIdx.x == 0) {
        const u64 last = ceil_div(n, P::tile) - 1;
        unsigned long long v = before + kept;
        if (tile != last)
          while (state.peek(last, v) != lookback::prefix) __nanosleep(64);
        kept_in_all = v;
      }
      __syncthreads();
      place_rejected();
      stage_runs(false, true);
      __syncthreads();
    }
    const u64 rejected = (full ? P::tile : n - base) - kept;
    store_run<T, Aligned>(stage + rejected_at, out, rejected_to, rejected);
  }
  if (clustered) {
    // One cluster: the last tile's block stores the count (the total), or, where it is to be the call's last store
    // (count_last), block 0 after the cluster's barrier, which orders every block's stores (its __syncthreads and
    // fence) before it. No block leaves while another may read its shared memory (finish).
    if (!count_last) {
      if (M != mode::unordered && threadIdx.x == 0 && base + P::tile >= n) *count = kept_in_all;
      cluster::finish();
    } else {
      __syncthreads();
      if (threadIdx.x == 0) __threadfence();
      cluster::finish();
      cluster::barrier();
      if (M != mode::unordered && blockIdx.x == 0 && threadIdx.x == 0) {
        __threadfence();
        *reinterpret_cast<volatile u64*>(count) = kept_in_all;
      }
    }
  } else if constexpr (M != mode::unordered) {
    if (!count_last) {
      if (threadIdx.x == 0 && base + P::tile >= n) *count = before + kept;  // the last tile
    } else {
      // The count as the call's last store (a watched host slot: through_host_slot): the last block to finish
      // stores the last tile's inclusive prefix. Finished blocks count themselves on the ticket counter in units
      // of done_one (fewer tiles than that: tickets stay below it). Each block's stores are ordered before its
      // count by the barrier and its fence, and the count's store after all of them by the last block's fence:
      // when it lands, every element is visible to the device's later work (GPU scope: nothing else reads out).
      __syncthreads();
      if (threadIdx.x == 0) {
        unsigned long long total = before + kept;
        __threadfence();
        const bool last = !counter || atomicAdd(counter, done_one) / done_one == gridDim.x - 1;  // !counter: one tile
        if (last) {
          if (M == mode::partition && !from_end) {
            total = kept_in_all;  // every tile of the stable partition knows the total
          } else if (counter) {
            __threadfence();
            (void)state.peek(ceil_div(n, u64{P::tile}) - 1, total);  // published before that tile finished
          }
          *reinterpret_cast<volatile u64*>(count) = total;
        }
      }
    }
  }
#ifdef SLUICE_LOOKBACK_TRACE
  __syncthreads();
  if (threadIdx.x == 0) SLUICE_TRACE(tile, 3);
#endif
}

// A shared-memory cursor (the pipelines' C): the 32-bit shared address of p, and one element stored there.
__device__ inline unsigned shared_address(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }
template <class T>
__device__ void store_shared(unsigned address, const T& v) {
  if constexpr (sizeof(T) == 4 && alignof(T) == 4)
    asm volatile("st.shared.b32 [%0], %1;" ::"r"(address), "r"(cuda::std::bit_cast<unsigned>(v)) : "memory");
  else if constexpr (sizeof(T) == 8 && alignof(T) == 8)
    asm volatile("st.shared.b64 [%0], %1;" ::"r"(address), "l"(cuda::std::bit_cast<unsigned long long>(v)) : "memory");
  else
    *static_cast<T*>(__cvta_shared_to_generic(address)) = v;
}

// A zero the compiler cannot see as one. A rotating pipeline clears the bank of a round without a tile (so that
// the bank's older tile is dead there); written as T{}, the compiler cleared the bank before every round's load
// instead: 16 register-pair clears a round, 2.5% of compact_if's instructions (stop 50, run 1, ncu: with this zero
// 2.5% fewer instructions executed, 4.5% in the source counters' sums; compact_if u32 at 10% kept 0.867-0.878 of the
// H200's copy against 0.854-0.863). The pipelines that age their banks keep T{} (u64 0.830-0.840 with it against
// 0.837-0.846).
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
// within the warp's run (warp_ranks), 16 bits each. Unpacked they took 2 V registers a tile, and at 7 vectors
// of u32 the kernel spilled 60 bytes (ptxas, stop 40).
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

// The pipelined path of the stable compact (Hopper and later; in, out and flags 16-byte aligned). The
// single pass above holds its tile in registers while its look-back waits, so the bytes in flight are the
// resident tiles and no more. Here, as in the pipelined scan (scan/decoupled_lookback.cuh), a persistent
// cooperative grid moves tiles (and their flags) through `stages` shared-memory buffers by bulk copies;
// block b of G takes tiles b, b + G, b + 2G, ..., one per round, and each round:
//   A. ranks the kept elements of its newest tile, arrived, within each warp (the elements kept in
//      registers, the ranks too, packed: packed_ranks), and publishes the tile's count;
//   B. looks back for the tile it counted `lag` rounds before (its predecessors have had that long to
//      publish): walking back over them, or (wide) reading the G counts since its own tile `lag` rounds
//      before that at once;
//   C. writes that tile's kept elements back into its buffer (or, release, a staging buffer) at the
//      output's 16-byte phase, and stores the run: its 16-byte aligned middle in one bulk copy, the ragged
//      ends (fewer than 16 bytes each) element by element.
// Each element is read once and written once, and no tile waits in registers for its look-back.
// The shape (vectors per thread, buffers, blocks per SM, lag, and how B looks back and C stages) is this
// template's parameters; compact_pipeline below names the defaults, measured on the H100.
template <class T, bool Flags, unsigned Vectors = Flags ? 4 : sizeof(T) == 8 ? 7 : 6, unsigned Stages = Flags ? 5 : 4,
          unsigned BlocksPerSm = !Flags && sizeof(T) == 8 ? 1 : 2, unsigned Lag = 1, unsigned Runs = 1, bool Wide = false,
          bool Release = false, bool Rotating = !Flags && sizeof(T) == 4>
struct pipeline {
  static constexpr unsigned lag = Lag;  // B and C work on the tile counted this many rounds before (1 to 3)
  // B's look-back: false, warp 0 walks back over the predecessors (lookback::exclusive_prefix); true, the
  // whole block reads G counts at once (G blocks): those of the blocks before it in done's round and those
  // of the others, itself included, in the round before, and adds them to the prefix of its own tile of that
  // round. No prefix is published, so no tile waits on another's look-back.
  static constexpr bool wide = Wide;
  // Counts read per thread in a wide look-back: grids to 512 blocks. 2 rather than 4 (stop 43, run 3:
  // compact_if u32 at 10% kept 0.930-0.936 of the copy against 0.923-0.925; flags and u64 level).
  static constexpr unsigned wide_per_thread = 2;
  // Buffers: false, C stages each run in its tile's own buffer, which receives its next tile once that run's
  // store has read it; true, a buffer receives its next tile as soon as A has read it into registers, and C
  // stages in a buffer of its own (one more buffer, more of the others in flight).
  static constexpr bool release = Release;
  // Release with one run (compact): C stages its run at the staging buffer's low end in even rounds and at its
  // high end in odd ones, so that it waits for the last round's store to have read the buffer only where the
  // two runs overlap (stop 44, run 1: compact_if u32 at 10% kept 0.944-0.951 of the copy against 0.926-0.931,
  // u64 0.957 against 0.934; flags level). Partition stages both its runs from the low end.
  static constexpr bool two_ended_staging = Release && Runs == 1;
  // The tiles held for C (L + 1 banks of registers): true, they rotate through the banks (rotate_rounds, the round
  // loop's code L + 1 times over); false, they move one bank older at each round's end (age). Rotating for 4-byte
  // elements by predicate, launched as one kernel per comparison (with_fixed_comparison; stop 48). 8-byte ones
  // gained 0-2% from it with a fixed comparison and flags none (stop 47, run 4); on the H200 the 8-byte compact
  // with a fixed comparison lost by it (stop 50, run 1: 0.825-0.833 of the copy at 10% kept against 0.837-0.846):
  // they age their banks.
  static constexpr bool rotating = Rotating;
  // The built-in threshold's comparison fixed per kernel (with_fixed_comparison: six kernels where one would do):
  // where the banks rotate (their round's code three times over), and for the 8-byte compact, whose one kernel
  // tested the comparison at run time (stop 50, run 1: u64 at 10% kept 0.837-0.846 of the H200's copy against
  // 0.815-0.819; 50-90% level; partition's pass level, so it keeps one kernel).
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
  // (the dynamic part starts where the block's shared memory does) and their addresses stay constants: where they
  // fall decides the pipeline's speed. Stop 51 (docs/results/h200/stop51, runs 1-4): the static variables
  // 32 bytes smaller moved the buffers from 112 / 0 / 16 bytes past a line to 80 / 96 / 112, and compact_if u32 ran
  // 8-9% slower at every ratio (0.82 / 0.87 / 0.88 of the H200's copy at 10 / 50 / 90% kept against 0.90 / 0.96 /
  // 0.94); swept, load buffers 16, 48 or 80 bytes past a line cost 5-15%, every buffer on a line measured fastest.
  // Aligned up at run time instead, the buffers' addresses were no longer constants and 10% kept lost 4-6% (run 3);
  // `extern __shared__ __align__(128)` is not honoured for dynamic shared memory (CCCL #5122).
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
  static_assert(!wide || u64{wide_per_thread} * threads * tile < (u64{1} << 32), "B sums a grid's tile counts in 32 bits");
  // pipelined=auto from this many tiles on: 32 MiB of 4-byte elements by predicate (stop 40, run 6: at 2^23 u32
  // 0.896x CUB's time against the single pass's 0.960x; at 2^22 1.10x the single pass's), else 64 MiB.
  static constexpr u64 min_tiles = (u64{1} << (!Flags && sizeof(T) == 4 ? 25 : 26)) / sizeof(T) / tile;
  static_assert(tile <= policy<T>::tile, "the single pass, the fallback, uses the tile states laid out for these tiles");
  static_assert(lag >= 1 && lag <= 3, "three tiles kept in registers at most");
  static_assert(runs == 1 || (runs == 2 && !Flags), "partition's pipeline is built for predicates");
};

// Partition's pipeline (the reversed pass): each buffer with room for both runs; two blocks per SM, two
// buffers released after A and a staging buffer, a lag of 2 rounds, the wide look-back; 6 vectors per thread
// for 4-byte elements (24 KiB tiles), 5 for 8-byte ones (40 KiB). Stop 33 (bench/pipe_trace.cu shapes2, run 5):
// 0.831 of the copy at 90% kept for u32 and 0.822 for u64, where the walk-back shapes before (5 vectors and 5
// buffers; 6 and 4) moved 0.733 and 0.752.
template <class T>
using partition_pipeline = pipeline<T, false, sizeof(T) == 8 ? 5 : 6, 2, 2, 2, 2, true, true>;
// The compact's pipeline (bench/pipe_trace.cu, docs/performance.md, stops 32 and 33): two blocks per SM, two
// buffers released as soon as A has read them and a staging buffer for C, a lag of 2 rounds, the wide look-back.
// - Stop 32 traced the rounds: the walk-back look-back (B) took 1.8-2.9 us of a round's 3.1-4.5 (p50); the wide
//   one reads the G counts it needs at once.
// - Stop 33: those counts' words are decoded only in B. Decoded as asked for, each thread waited out its loads
//   (1-2 us of L2 latency under this traffic) before even waiting for its tile. With that, fewer bytes in flight
//   measured faster (the loads' latency grows with them): 2 buffers, not 3.
// - 4-byte elements by predicate (until stop 40): 6 vectors per thread (24 KiB tiles): 0.910 / 0.964 / 0.978 of the copy at
//   10 / 50 / 90% kept (run 5; stop 32's shape: 0.731 / 0.831 / 0.870 before the wide look-back, 0.886 /
//   0.962 / 0.978 with 3 buffers and the words decoded in B).
// - 8-byte elements by predicate: 6 vectors (48 KiB tiles): 0.937 / 0.965 / 0.978, where stop 32's shape (7
//   vectors, one block per SM, 4 buffers, lag 1, the walk back) moved 0.813 / 0.873 / 0.884.
// - With flags (4-byte elements; until stop 40): 5 vectors (20 KiB of u32): 0.980 of the copy at 50% kept (4 vectors and 4
//   buffers: 0.928). In the synchronous call (run 8) it beats the phased path, which reads the flags twice
//   (the second time as keep bits), from 2^24 to 2^30: 0.924 / 0.953 / 0.969 of the copy at 2^28 and 10 / 50
//   / 90% kept against 0.916 / 0.936 / 0.936; at 2^22 it lost (0.337 against 0.410), at 2^23 level.
// - Stop 40 (pipe_trace packed, lag1, late; runs 1-3): with the held tiles' ranks packed (packed_ranks), 7
//   vectors of u32 (28 KiB tiles) fit in the 128 registers that two blocks an SM allow: by predicate 0.923-0.938
//   / 0.972-0.975 / 0.963-0.979 at 10 / 50 / 90% kept against 6 vectors' 0.910-0.919 / 0.961-0.969 /
//   0.980-0.982; with flags 0.964 / 0.993 / 0.989 against 5 vectors' 0.957 / 0.985 / 0.989. 8 vectors spill
//   (0.866 at 10%), as do 7 of u64 (0.865) and of the partition's pass (0.845 at 90%). A lag of one round took
//   0.66-0.73 at 10% kept, of three 0.84 (5 vectors); reading the elements into registers only after C, so that
//   the registers hold two tiles, not three, released the buffer that much later: 0.904 (7 vectors).
// - Stop 44 (run 1, pipe_trace twoended; branch study/two-ended-w2, build commit 9b924bc): C's run staged at the two
//   ends of the staging buffer in turn (pipeline::two_ended_staging) and written through a cursor: by predicate
//   u32 0.944-0.951 / 0.988-1.005 / 0.981-0.986 at 10 / 50 / 90% kept against 0.926-0.931 / 0.966-0.967 /
//   0.978-0.985, u64 0.957 / 0.997 / 0.995 against 0.934 / 0.981 / 0.983; flags level (0.970 / 0.999 / 0.988
//   against 0.972 / 0.994 / 0.988).
// - Stop 47 (runs 3-5 on an H200; measured, not adopted): the held tiles in rotating register banks, as the scan's
//   (rotate_rounds; docs/results/h200/stop47/compact-register-banks.patch), where `age` moves them one round older at
//   each round's end (63 register moves a thread a round, 9% of the instructions). With a fixed comparison
//   (pipe_trace's `below`): u32 at 10% kept 0.828-0.833 of the copy against 0.802-0.807, partition's pass at 90%
//   0.744-0.746 against 0.683-0.690, the rest level. With the library's `threshold` (a comparison chosen at run
//   time, about twice the round's code), three rounds a trip made 207 KiB kernels
//   (67 KiB now) and spills in partition's pass: in the production suite compact_if u32 at 10% kept 0.674 and
//   partition_unordered_if 0.636 against 0.776 and 0.758.
// - Stop 48 (H200, runs 1-2, each against stop 47's library in turn, twice): the banks for 4-byte elements by
//   predicate, the threshold's comparison fixed per kernel (six kernels; 84-105 KiB, no spills). compact_if at
//   2^28, 10% kept, u32 0.811-0.833 against 0.775-0.778 and f32 0.825-0.837 against 0.760-0.775 (50-90% +1-2%);
//   partition_if at 90% kept 0.700-0.723 against 0.663-0.675; partition_unordered_if 0.816-0.843 against
//   0.748-0.779. The threshold evaluated without a branch instead (one kernel, run 1) lost 5-25%.
// - Stop 49 (H200, run 4, against run 2's library in turn, twice): C through shared-memory cursors (store_shared;
//   ncu's source counters had C's staging at a third of compact_if's instructions, 5 an element). 2^28:
//   partition_unordered_if u32 0.865-0.875 against 0.820-0.843, f32 0.849-0.874 against 0.812-0.853;
//   partition_if at 90% kept 0.731-0.747 against 0.710-0.724; compact_if at 10% u32 0.832-0.857 against
//   0.826-0.832, f32 0.854-0.858 against 0.828; flags and 8-byte elements level.
// - Stop 50 (H200, run 2, against stop 49's library in turn, twice; pipe_trace stop50 in run 1): the rotating banks
//   cleared with an opaque zero (opaque_zero) and the 8-byte compact as one kernel per comparison
//   (pipeline::fixed_comparison). 2^28, 10% kept: compact_if u32 0.873-0.880 against 0.834-0.847 (f32 level,
//   0.864-0.873), u64 0.829-0.839 against 0.813-0.818; 50-90% kept, partition_if and partition_unordered_if level.
//   Then (run 5, in turn with that build) A's keep bits set under the test's predicate: compact_if at 10% kept u32
//   0.887-0.893 against 0.866-0.869, u64 0.848-0.853 against 0.823-0.839; partition_unordered_if u64 0.915-0.918
//   against 0.893-0.910; the rest level.
// - Stop 51 (H200, run 5, against stop 50's library in turn; pipe_trace stop51 and layout in runs 1-4): the shared
//   memory all dynamic, every buffer whole 128-byte lines from its start (pipeline::vars), and B's counts summed by
//   one redux.sync.
//   2^28 `_async`: compact_if u32 0.944-0.951 / 0.976 / 0.950-0.955 of the copy at 10 / 50 / 90% kept against
//   0.898-0.900 / 0.958 / 0.942-0.943, u64 0.924-0.928 / 0.956-0.975 / 0.946-0.959 against 0.850-0.853 /
//   0.931-0.943 / 0.942-0.943; compact with flags u32 0.988 / 1.008 / 0.969 against 0.948 / 0.969 / 0.947;
//   partition_unordered_if u32 0.888-0.897 against 0.873-0.887, u64 0.922-0.937 against 0.915-0.917.
// Auto takes it from 64 MiB of elements on (2^24 four-byte or 2^23 eight-byte elements; 8-byte elements with
// flags keep the phased path: no pipeline is built for them), four-byte ones by predicate from 32 MiB (2^23;
// with flags the two paths measured alike there, 0.0369 against 0.0371 ms, stop 40's run 6). 16-byte elements
// keep the single pass.
template <class T, bool Flags>
using compact_pipeline = std::conditional_t<Flags, pipeline<T, true, 7, 2, 2, 2, 1, true, true>,
                                            pipeline<T, false, sizeof(T) == 4 ? 7 : 6, 2, 2, 2, 1, true, true>>;
template <mode M, class T, bool Flags>
using pipeline_for = std::conditional_t<M == mode::partition && !Flags, partition_pipeline<T>, compact_pipeline<T, Flags>>;

// Partition's pipelined pass (reversed=on; pipelined=on; best from partition_sampled_from_bytes on). The kept
// run's place is its prefix, from the look-back; the rejected run's needs the total kept, known only at the end.
// So the pass writes the rejected elements from the end of `out` backwards (the i-th rejected at out[n - 1 - i]),
// and a reversal (reverse_tail.cuh) then reverses out[total, n): each byte is read once and written once, and
// the rejected ones are read and written once more. Counting first (the phased path) reads the input once more
// instead, so the reversed pass wins where most elements are kept: on the H100 from 60-65% kept (stop 34, 1 GiB, u32 and u64).
// With reversed=auto the pass kernel first evaluates the predicate over a sample of partition_sample elements
// spread evenly over the input (the same sample in every block, so every block decides alike with no
// communication). Where fewer than reversed_from_kept_hundredths of them are kept, it takes the phased path's
// tile counts instead of running the pass (partition_args::counts), and the phased path's scan and move, launched
// behind it, finish the partition; where the pass ran, the pass kernel zeroes those counts, and the move's grid
// reverses the pass's tail instead of moving. So the choice adds no launch: three kernels either way, as the
// phased path alone. Measured (docs/performance.md, stop 30), it costs 5-9 us where the phased path is chosen
// (the count in the persistent grid) and nothing where the pass is; from 256 MiB of input that is 1-2% of a
// call, so best samples from there on.
inline constexpr unsigned partition_sample = 1024;             // elements; 4 per thread of a 256-thread block
inline constexpr unsigned reversed_from_kept_hundredths = 65;  // the measured crossover (docs/performance.md, stop 34)
inline constexpr u64 partition_sampled_from_bytes = u64{1} << 28;  // best samples from this much input on
struct partition_args {
  bool sample = true;            // decide from the sample (else: the pass, no sample)
  unsigned* reversed = nullptr;  // out: 1 where the pass ran (the phased path's move then flips its tail), else 0
  u64* counts = nullptr;         // where not null: the phased path's tile counts, taken here where it is chosen
  u64 count_tiles = 0;           // (count_tile), else zeroed
};

#ifdef SLUICE_COMPACT_STUDY_SKIP_LOOKBACK  // tuning studies only (bench/pipe_trace.cu ceiling): the wide look-back
inline constexpr bool study_skip_lookback = true;  // reads no counts and each tile's run goes to out + its first
#else                                              // index (in bounds, the outputs wrong): the chain without B's loads
inline constexpr bool study_skip_lookback = false;
#endif

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
          // shifted and masked it (stop 50, run 4: 64 instructions fewer in the u32 kernel; compact_if u32 at 10%
          // kept 0.894-0.907 of the H200's copy against 0.860-0.877, 50-90% and partition's pass level or ahead).
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
    if (part.sample) {  // partition_sample elements at i n / partition_sample, i = 0, 1, ...
      constexpr unsigned per_thread = partition_sample / Q::threads;
      static_assert(partition_sample == 1024, "the positions below divide by 2^10");
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
      reversed = kept * 100 >= reversed_from_kept_hundredths * partition_sample;
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
  // The words are decoded only in B: a load whose word is decoded at once holds its thread until it returns
  // (stop 33: the words were decoded as asked for, so each thread waited out its loads, one after the other,
  // before the tile wait).
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
#ifdef SLUICE_PIPE_TRACE
  unsigned long long polls = 0;  // thread 0: how often a look-back word read had not been published yet
#endif
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
    SLUICE_PIPE_STAMP(round, 0);
    if constexpr (Q::wide && !study_skip_lookback) ask(done);
    if (cur != none) {
      rounds.wait(round);
      SLUICE_PIPE_STAMP(round, 1);
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
    SLUICE_PIPE_STAMP(round, 2);
    SLUICE_PIPE_STAMP_BY(Q::threads - 1, round, 8);

    // B. Warp 0: the newest tile's count published, then (walking back) the look-back for `done`; wide: the
    // whole block reads the counts since this block's previous done tile (included) up to done.
    if (warp == 0) {
      if (cur != none) {
        const unsigned c = lane < Q::warps ? warp_counts[lane] : 0;
        unsigned incl;
        warp_scan(warp_storage[0]).InclusiveSum(c, incl);  // over 8 lanes instead (3 steps): level (stop 50, run 4)
        const unsigned kept = __shfl_sync(0xffffffffu, incl, Q::warps - 1);
        if (lane < Q::warps) warp_before[round % (L + 1)][lane] = incl - c;
        if (lane == 0) {
          state.publish(cur, cur == 0 ? lookback::prefix : lookback::aggregate, kept);
          tile_count[round % (L + 1)] = kept;
        }
      }
      SLUICE_PIPE_STAMP(round, 7);
      if (!Q::wide && done != none) {
        unsigned long long before = 0;
        if (done > 0) {
          before = lookback::exclusive_prefix<Tuning>(state, done, sluice::sum{});
          if (lane == 0) state.publish(done, lookback::prefix, before + tile_count[(round + 1) % (L + 1)]);
        }
        if (lane == 0) tile_before = before;
      }
    }
    if constexpr (Q::wide && !study_skip_lookback) {
      if (done != none) {
        unsigned mine = 0;  // tile counts, at most W x threads of them: 32 bits hold their sum
#pragma unroll
        for (unsigned k = 0; k < W; ++k) {
          unsigned long long c;
          lookback::status st = state.decode(wide_word[k], c);
          while (st == lookback::invalid) {
            st = state.peek(wide_tile(done, threadIdx.x + k * Q::threads), c);
#ifdef SLUICE_PIPE_TRACE
            if (threadIdx.x == 0) ++polls;
#endif
          }
          mine += static_cast<unsigned>(c);
        }
#ifdef SLUICE_PIPE_TRACE
        if (threadIdx.x == 0) pipe_trace[(u64{round} * gridDim.x + blockIdx.x) * 10 + 9] = polls + 1, polls = 0;  // 1 + thread 0's polls
#endif
        // One redux.sync, where 64-bit shuffles took five dependent steps of four instructions (stop 51, run 3, with
        // the buffers on lines: compact_if u32 at 10% kept 0.87-0.89 of the H200's copy against 0.84-0.86).
        mine = __reduce_add_sync(0xffffffffu, mine);
        if (lane == 0) wide_sums[warp] = mine;
      }
    }
    SLUICE_PIPE_STAMP(round, 5);
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
    SLUICE_PIPE_STAMP_BY(Q::threads - 1, round, 6);
    __syncthreads();
    unsigned long long wide_before = 0;
    if constexpr (Q::wide) {
      if (done != none) {
        unsigned between = 0;
#pragma unroll
        for (unsigned w = 0; w < Q::warps; ++w) between += wide_sums[w];
        wide_before = last_before + between;
        last_before = wide_before;
        if constexpr (study_skip_lookback) wide_before = done * Q::tile;
      }
    }
    SLUICE_PIPE_STAMP(round, 3);

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
      // Each vector's kept elements through a cursor, advanced by each keep bit (stop 43: 7 popc where each
      // element's own rank took 28); partition's rejected ones through a second, backwards. The cursors are
      // shared-memory addresses, a predicated store and add an element (stop 49: a generic pointer's cursor
      // took an address computation and the keep bit's extraction for each element too).
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
    SLUICE_PIPE_STAMP(round, 4);
    if constexpr (!Q::rotating) {  // the held tiles move one round older
      age(bank_x);
      age(bank_r);
    }
  });
  if (copier) rounds.finish();
#endif
}

using phasing = sluice::detail::setting;  // phased=auto|on|off of compact (flags) and partition (flags, predicate)

// compact's parameters: phased=auto|on|off (flags only), pipelined=auto|on|off and blocks=N. Auto takes the
// pipelined path from Pipe::min_tiles on where it applies (in, out and flags 16-byte aligned, 4-byte elements,
// Hopper; predicates only, see pipeline), else the phased one past the policy's crossover (flags), else the
// single pass; `on` forces either (the pipelined path from one tile), `off` rules it out. blocks: the
// pipeline's persistent grid holds at most N blocks (as the scan's, decoupled_lookback::parse_pipelining).
struct compact_settings {
  phasing phased = phasing::automatic;
  sluice::detail::setting pipelined = sluice::detail::setting::automatic;  // compact
  sluice::detail::setting resident = sluice::detail::setting::automatic;   // partition
  u64 blocks = 0;  // at most this many blocks in the pipeline's grid (0: as many as the device holds)
  sluice::detail::setting reversed = sluice::detail::setting::automatic;  // partition's pipelined pass: auto|on|off
  bool cluster = true;  // cluster=auto|off: one thread block cluster for 2 to cluster::max_blocks tiles (try_cluster)
};
inline compact_settings parse_compact(std::string_view spec, const char* fn) {
  sluice::detail::params p(spec, fn);
  compact_settings c;
  c.phased = p.auto_on_off("phased");
  c.pipelined = p.auto_on_off("pipelined");
  c.blocks = p.number("blocks", 0, 1, decoupled_lookback::max_pipeline_blocks);
  c.cluster = cluster::parse(p);
  p.done("phased, pipelined, blocks, cluster");
  return c;
}

// partition's parameters: phased=auto|on|off (flags and predicate), resident=auto|on|off (see run()), and for
// the pipelined pass (predicates; partition_args) reversed=auto|on|off (on: the pass; off: never; auto: only
// with pipelined=on, where a sample decides between the pass and the phased path), pipelined=auto|on|off and
// blocks=N (the pass's grid, as compact's).
inline compact_settings parse_partition(std::string_view spec, const char* fn) {
  sluice::detail::params p(spec, fn);
  compact_settings c;
  c.phased = p.auto_on_off("phased");
  c.resident = p.auto_on_off("resident");
  c.pipelined = p.auto_on_off("pipelined");
  c.reversed = p.auto_on_off("reversed");
  c.blocks = p.number("blocks", 0, 1, decoupled_lookback::max_pipeline_blocks);
  c.cluster = cluster::parse(p);
  p.done("phased, resident, pipelined, reversed, blocks, cluster");
  return c;
}

// A launch's tile counts (lookback::count_state), kept from the stream's last call where n allows.
inline lookback::launch_states count_states(u64 n, u64 tiles, cudaStream_t s, const char* fn) {
  return lookback::launch_states(lookback::count_state::bytes(tiles), n < lookback::count_state::kept_limit, s, fn);
}
// The single pass's kernel for these spans: whole 16-byte stores where in and out are 16-byte aligned (with flags:
// and the flags at a vector's phase), element stores else.
template <class T, class Sel, mode M, class Tuning>
auto single_pass_kernel(std::span<const T> in, std::span<T> out, Sel sel) {
  const auto addr = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p); };
  bool aligned = addr(in.data()) % 16 == 0 && addr(out.data()) % 16 == 0;
  if constexpr (is_flags<Sel>) aligned = aligned && addr(sel.flags) % policy<T>::per_vector == 0;
  return aligned ? select_kernel<T, Sel, M, true, Tuning> : select_kernel<T, Sel, M, false, Tuning>;
}

// The built-in threshold with its comparison fixed when the kernel is compiled. A rotating pipeline (its round's
// code L + 1 times over) is launched as one of six kernels, one per comparison, chosen here on the host: with
// the comparison chosen in every element's test its code tripled (stop 47: 207 KiB) and, evaluated without a
// branch, its tests cost more than the banks saved (stop 48, run 1). The 8-byte compact's pipeline too (stop 50:
// pipeline::fixed_comparison). Any other selector goes as it is.
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

// Whether these spans and settings ask for the pipelined partition (where it is built: run_pipelined_partition).
template <class T>
bool pipelined_partition_wanted(std::span<const T> in, std::span<T> out, const compact_settings& c) {
  using sluice::detail::setting;
  const auto addr = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p); };
  if (addr(in.data()) % 16 != 0 || addr(out.data()) % 16 != 0 || c.pipelined == setting::off || c.phased == phasing::on ||
      c.resident == setting::on || c.reversed == setting::off)
    return false;
  return c.pipelined != setting::automatic || c.reversed != setting::automatic || in.size() * sizeof(T) >= partition_sampled_from_bytes;
}

// The pipelined partition by predicate (4- and 8-byte elements, in and out 16-byte aligned, Hopper), where it
// applies and is chosen: reversed=on or pipelined=on from one tile, `best` (both auto) from
// partition_sampled_from_bytes of input on;
// not where phased=on, resident=on or reversed=off ask for another path. One cooperative launch.
// reversed=on: the pass, then the flip (`flip`; partition_unordered leaves the tail reversed); *alone = true,
// no other path is needed, and the result is null. Else the sample decides: the result is the device word
// that says whether the pass ran (in `decided`, which the caller keeps; null where nothing was launched), and
// the caller launches another path behind it, whose count kernels end at once where the pass ran
// and whose move's grid then flips the pass's tail instead; where that path is the phased one (`counts` not
// null: its tiles' counts, `count_tiles` of them), the pass kernel takes those counts where it does not run the
// pass, so the choice costs no launch of its own.
template <class T, class Sel, class Tuning, class Pipe>
const unsigned* run_pipelined_partition(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn,
                                        compact_settings c, u64* counts, u64 count_tiles, scratch& decided, bool* alone,
                                        bool flip = true) {
  if constexpr (is_flags<Sel> || !Pipe::built || Pipe::runs != 2) {
    return nullptr;
  } else {
    using sluice::detail::setting;
    const u64 n = in.size();
    if (!pipelined_partition_wanted(in, out, c)) return nullptr;
    partition_args part{c.reversed == setting::automatic};
    const bool launched = with_fixed_comparison<Pipe::fixed_comparison>(sel, [&](const auto& fixed) {
      return launch_pipeline<mode::partition, T, Tuning, Pipe>(in.data(), fixed, out.data(), n, n, count, c.blocks, s, fn, part, [&] {
        if (!part.sample) return;  // the pass alone writes no decision
        decided = scratch(sizeof(unsigned), s, fn);
        part.reversed = decided.as<unsigned>(), part.counts = counts, part.count_tiles = count_tiles;
      });
    });
    if (!launched) return nullptr;
    if (!part.sample && flip) {  // partition_unordered leaves the tail reversed
      // The flip (reverse_tail.cuh): a grid for the whole possible tail, 4 pairs a thread (stop 30: 1.2-1.6x faster
      // than one; a resident grid looping over its pairs measured slower in stop 29, bench/partition_tuning.cu).
      reverse_tail_kernel<T><<<reverse_tail_grid(n), 256, 0, s>>>(out.data(), count, n);
      check_launch(fn, "reverse_tail_kernel");
    }
    *alone = !part.sample;
    return part.reversed;
  }
}

// The forms that one cluster serves (stop 54, u32 at 2^16, 50% kept, 8 tiles; runs 2 and 4). Their kernels alone
// under ncu, the cluster's against the look-back's: compact with flags 5.41 us against 5.63-5.70, by predicate
// 5.86-5.92 against 5.95-6.02, the stable partition by predicate 8.67-8.70 against 9.79-9.86 (its resident grid's
// tiles wait for the last tile's prefix); partition_unordered by predicate 8.54-8.58 against 8.16-8.19 (its tiles
// wait for their predecessors only, the cluster's for the slowest block), but its synchronous call 0.93x the
// look-back's (the count lands sooner), its `_async` one level. Not the stable partition with flags: 7.39 against
// 6.78-6.85 (the resident grid stores each tile's kept run before it waits for the total; every block of the
// cluster waits for the slowest block's count before it stores), its calls level (0.98x-1.02x).
template <mode M, class Sel>
inline constexpr bool cluster_wanted = M == mode::compact || (M == mode::partition && !is_flags<Sel>);

// The single pass as one thread block cluster (cluster_prefix.cuh), where the form gains by it (cluster_wanted),
// the input is 2 to cluster::max_blocks tiles, the device holds such a cluster (Hopper) and cluster=off does not
// rule it out: the tiles' counts exchanged in shared memory, with no look-back states, counter or count pass, and
// a synchronous call's count the call's last store, so that it may be read as it lands (permit_watch). False
// where the caller is to take another path.
template <mode M, class T, class Sel, class Kernel>
bool try_cluster(Kernel* kernel, std::span<const T> in, std::span<T> out, const Sel& sel, u64* count, cudaStream_t s, const char* fn,
                 const compact_settings& c, bool from_end) {
  const u64 n = in.size(), tiles = ceil_div(n, policy<T>::tile);
  const bool host_slot = is_host_slot(count);  // the count as the call's last store (count_last)
  if (!cluster_wanted<M, Sel> || !c.cluster || tiles < 2 || tiles > cluster::max_blocks) return false;
  if (!cluster::launch(kernel, static_cast<unsigned>(tiles), policy<T>::threads, s, fn, "select_lookback::select_kernel", in.data(), sel,
                       out.data(), n, static_cast<u64>(out.size()), count, static_cast<unsigned*>(nullptr), static_cast<unsigned*>(nullptr),
                       lookback::count_state{}, static_cast<const unsigned long long*>(nullptr), static_cast<const u64*>(nullptr),
                       static_cast<const unsigned*>(nullptr), static_cast<const unsigned*>(nullptr), from_end, host_slot, true))
    return false;
  if (host_slot) permit_watch(count);
  return true;
}

template <mode M, class T, class Sel, class Tuning = lookback::tuning, class Pipe = pipeline_for<M, T, is_flags<Sel>>>
void run_paths(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn,
               compact_settings settings) {
  using P = policy<T>;
  using sluice::detail::setting;
  const phasing ph = settings.phased;
  const u64 n = in.size();
  if (n == 0 || M == mode::unordered) check_cuda(cudaMemsetAsync(count, 0, sizeof(u64), s), fn, "cudaMemsetAsync");
  if (n == 0) return;
  if constexpr (M == mode::compact)
    if (run_pipelined<T, Sel, Tuning, Pipe>(in, out, sel, count, s, fn, settings)) return;
  const u64 tiles = ceil_div(n, P::tile);
  const auto addr = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p); };
  const void* first = in.data();  // where partition's count pass reads: the flags or the elements
  if constexpr (is_flags<Sel>) first = sel.flags;
  auto* const kernel = single_pass_kernel<T, Sel, M, Tuning>(in, out, sel);
  // One cluster, but where phased=on, resident=on or partition's pipelined pass ask for another path.
  if (ph != phasing::on && settings.resident != setting::on && !(M == mode::partition && pipelined_partition_wanted(in, out, settings)) &&
      try_cluster<M>(kernel, in, out, sel, count, s, fn, settings, false))
    return;

  // Partition, resident: where the device holds every tile's block at once, one cooperative launch and no
  // count pass; each tile waits for the last tile's inclusive prefix, the total (resident=auto|on; ahead of
  // phased=auto: at 2^22 u32 with flags, 512 tiles, it took 0.84x the phased path's time on the H100).
  bool resident = false;
  if constexpr (M == mode::partition)
    if (tiles > 1 && settings.resident != setting::off && ph != phasing::on)
      resident = tiles <= static_cast<u64>(multiprocessor_count(fn)) *
                              static_cast<u64>(resident_blocks_per_sm(kernel, P::threads, 0, 0, fn, "select_lookback::select_kernel"));

  // Phased (Billeter Sec. 3's count, prefix, move): count every tile first, scan the counts, then move with
  // each tile's prefix in memory, waiting on no other tile. Flags: they are a quarter of a u32 tile's bytes
  // or less, and past the policy's crossovers the wait of the single pass costs more than their second read;
  // the count pass leaves keep bits (an eighth of the flags' bytes) that the move reads instead of the flags
  // (docs/performance.md, stop 31). Partition by predicate must count before the move anyway (where it is
  // not resident): counting per tile costs the same read and takes the look-back out of the move.
  const bool counted = M != mode::unordered && (is_flags<Sel> || M == mode::partition);  // forms with a phased path
  const u64 from = !is_flags<Sel> ? P::partition_if_phased_from_tiles
                   : M == mode::partition ? P::partition_phased_from_tiles : P::compact_phased_from_tiles;
  const bool automatic = ph == phasing::automatic && tiles >= from && !resident;
  const bool phased = counted && tiles > 1 && addr(first) % 16 == 0 && (ph == phasing::on || automatic);

  // The phased path's tile counts (flags: and their keep bits after them, ceil(n / 32) words; see count_tile).
  scratch state;
  u64* tile_incl = nullptr;
  unsigned* bits = nullptr;
  if (phased) {
    state = scratch(tiles * sizeof(u64) + (is_flags<Sel> ? ceil_div(n, u64{32}) * sizeof(unsigned) : 0), s, fn);
    tile_incl = state.as<u64>();
    if constexpr (is_flags<Sel>) bits = reinterpret_cast<unsigned*>(tile_incl + tiles);
  }

  // Partition by predicate: the pipelined pass (run_pipelined_partition). Where its sample decides on the
  // device, the path below runs after it: its count kernels end at once where `skip` says the pass ran, and its
  // move's grid then reverses the pass's tail; the phased path's tile counts come from the pass kernel.
  scratch decided;
  const unsigned* skip = nullptr;
  if constexpr (M == mode::partition) {
    bool alone = false;
    skip = run_pipelined_partition<T, Sel, Tuning, Pipe>(in, out, sel, count, s, fn, settings, tile_incl, tiles, decided, &alone);
    if (alone) return;
  }

  lookback::launch_states launch;  // the tile counters, [8, 16): partition's kept total, then the tile states
  unsigned* counter = nullptr;
  unsigned long long* kept_total = nullptr;
  lookback::count_state states{};
  if (phased) {
    if (!skip) {
      tile_counts_kernel<T, Sel><<<static_cast<unsigned>(ceil_div(tiles, P::warps)), P::threads, 0, s>>>(in.data(), sel, n, tiles,
                                                                                                           tile_incl, bits);
      check_launch(fn, "select_lookback::tile_counts_kernel");
    }
    decoupled_lookback::run(tile_incl, tile_incl, tiles, /*inclusive=*/true, u64{0}, sluice::sum{}, s, fn);
    if constexpr (M == mode::partition) kept_total = reinterpret_cast<unsigned long long*>(tile_incl + tiles - 1);
  }
  // Partition's count pass: the kept total before the move.
  auto count_pass = [&] {
    kept_total = reinterpret_cast<unsigned long long*>(launch.callers());
    if (launch.epoch()) check_cuda(cudaMemsetAsync(kept_total, 0, sizeof(*kept_total), s), fn, "cudaMemsetAsync");  // kept states: not zeroed
    const std::size_t unit = is_flags<Sel> ? 1 : sizeof(T);
    u64 head = (16 - addr(first) % 16) % 16;
    head = head % unit ? n : head / unit;
    if (head > n) head = n;
    const u64 want = ceil_div(n, static_cast<u64>(P::count_threads) * 64),
              cap = static_cast<u64>(multiprocessor_count(fn)) * P::count_blocks_per_sm;
    count_kernel<T, Sel><<<static_cast<unsigned>(want < cap ? want : cap), P::count_threads, 0, s>>>(in.data(), sel, n, head, kept_total, skip);
    check_launch(fn, "select_lookback::count_kernel");
  };
  // A synchronous call's count (a host slot), where the path is the look-back's single grid (or one tile): stored
  // by the grid's last block to finish, last of all its stores, so that the caller may read it as it lands
  // (count_last; through_host_slot, watch::where_permitted).
  const bool count_last = M != mode::unordered && !tile_incl && !skip && count_last_fits(tiles, count);
  if (tiles > 1 && M != mode::unordered && !tile_incl) {
    launch = count_states(n, tiles, s, fn);
    counter = launch.counter();
    states = lookback::count_state::at(launch.states(), tiles, launch.epoch());
    if constexpr (M == mode::partition) {
      if (resident && launch_cooperative(kernel, tiles, P::threads, 0, s, fn, "select_lookback::select_kernel", in.data(), sel,
                                         out.data(), n, static_cast<u64>(out.size()), count, counter, launch.spare_counter(), states,
                                         static_cast<const unsigned long long*>(nullptr), static_cast<const u64*>(nullptr),
                                         static_cast<const unsigned*>(nullptr), skip, false, count_last, false)) {
        if (count_last) permit_watch(count);
        return;
      }
      count_pass();  // not resident, or the device could not hold the grid after all (kept total still zero)
    }
  }
  kernel<<<static_cast<unsigned>(tiles), P::threads, 0, s>>>(in.data(), sel, out.data(), n, out.size(), count, counter,
                                                              launch.spare_counter(), states, kept_total, tile_incl, bits, skip, false,
                                                              count_last, false);
  check_launch(fn, "select_lookback::select_kernel");
  if (count_last) permit_watch(count);
}

// compact, compact_unordered and partition. compact's and partition's paths store *count once, plainly, and read
// it in no kernel, so a synchronous call's count can be a host slot (detail::counted; compact_unordered's zeroes
// and adds to it, and its synchronous form copies it), but for partition's pipelined pass: where the pass ran,
// the grids behind it reverse out[*count, n), every thread reading *count. Where that pass may run and count is a
// host slot, the count lives in device memory for the call and is copied into the slot at its end (one copy in a
// call of 256 MiB or more, or one that asked for the pass).
template <mode M, class T, class Sel, class Tuning = lookback::tuning, class Pipe = pipeline_for<M, T, is_flags<Sel>>>
void run(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn,
         compact_settings settings = {}) {
  if constexpr (M == mode::partition && !is_flags<Sel> && Pipe::built && Pipe::runs == 2)
    if (pipelined_partition_wanted(in, out, settings) && is_host_slot(count)) {
      scratch on_device(sizeof(u64), s, fn);
      run_paths<M, T, Sel, Tuning, Pipe>(in, out, sel, on_device.as<u64>(), s, fn, settings);
      check_cuda(cudaMemcpyAsync(count, on_device.as<u64>(), sizeof(u64), cudaMemcpyDefault, s), fn, "cudaMemcpyAsync");
      return;
    }
  run_paths<M, T, Sel, Tuning, Pipe>(in, out, sel, count, s, fn, settings);
}

// partition_unordered's parameters (predicates): pipelined=auto|on|off (partition's pipelined pass, its tail
// left reversed: 4- and 8-byte elements, in and out 16-byte aligned, sm_90+; auto from
// unordered_pipelined_from_bytes of input) and blocks=N (that pass's grid, as compact's).
inline compact_settings parse_partition_unordered(std::string_view spec, const char* fn) {
  sluice::detail::params p(spec, fn);
  compact_settings c;
  c.pipelined = p.auto_on_off("pipelined");
  c.blocks = p.number("blocks", 0, 1, decoupled_lookback::max_pipeline_blocks);
  c.cluster = cluster::parse(p);
  p.done("pipelined, blocks, cluster");
  return c;
}
// 64 MiB, compact's pipeline threshold until stop 40 (compact by predicate now starts at 32 MiB of four-byte
// elements); partition_unordered's pass at 2^23 has not been measured against its single pass.
inline constexpr u64 unordered_pipelined_from_bytes = u64{1} << 26;

// partition_unordered "decoupled-lookback": the kept elements first, in input order, then the rejected ones in
// an order not promised. By predicate it is one pass, as compact: where the stable partition must know the
// kept total before its first rejected element is written (a count pass that reads the input again, a resident
// grid whose tiles wait for the last, or the pipelined pass and a flip that moves the rejected run again),
// here each tile's rejected run goes to the end of out, backwards from the rejected ones before it, which the
// look-back's prefix already gives (base - before): select_kernel with from_end, or from
// unordered_pipelined_from_bytes on Hopper partition's pipelined pass without its flip (rejected run last to
// first, as CUB's DevicePartition writes it). Flags: the stable partition, whose flagged paths read the flags
// (n bytes) again at most, not the elements.
template <class T, class Sel, class Tuning = lookback::tuning, class Pipe = pipeline_for<mode::partition, T, is_flags<Sel>>>
void partition_unordered(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn,
                         std::string_view spec) {
  using P = policy<T>;
  using sluice::detail::setting;
  if constexpr (is_flags<Sel>) {
    (void)parse_partition_unordered(spec, fn);  // its parameters are checked all the same
    run<mode::partition>(in, out, sel, count, s, fn);
  } else {
    compact_settings c = parse_partition_unordered(spec, fn);
    const u64 n = in.size(), tiles = ceil_div(n, P::tile);
    if (n == 0) return check_cuda(cudaMemsetAsync(count, 0, sizeof(u64), s), fn, "cudaMemsetAsync");
    if (c.pipelined == setting::on || (c.pipelined == setting::automatic && n * sizeof(T) >= unordered_pipelined_from_bytes)) {
      c.reversed = setting::on;  // the pass alone, no sample
      scratch decided;
      bool alone = false;
      (void)run_pipelined_partition<T, Sel, Tuning, Pipe>(in, out, sel, count, s, fn, c, nullptr, 0, decided, &alone, /*flip=*/false);
      if (alone) return;
    }
    auto* const kernel = single_pass_kernel<T, Sel, mode::partition, Tuning>(in, out, sel);
    if (try_cluster<mode::partition>(kernel, in, out, sel, count, s, fn, c, true)) return;
    lookback::launch_states launch;
    lookback::count_state states{};
    if (tiles > 1) {
      launch = count_states(n, tiles, s, fn);
      states = lookback::count_state::at(launch.states(), tiles, launch.epoch());
    }
    const bool count_last = count_last_fits(tiles, count);
    kernel<<<static_cast<unsigned>(tiles), P::threads, 0, s>>>(in.data(), sel, out.data(), n, out.size(), count, launch.counter(),
                                                                launch.spare_counter(), states, nullptr, nullptr, nullptr, nullptr, true,
                                                                count_last, false);
    check_launch(fn, "select_lookback::select_kernel");
    if (count_last) permit_watch(count);
  }
}

template <class T, class Sel>
void compact(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn, std::string_view spec) {
  run<mode::compact>(in, out, sel, count, s, fn, parse_compact(spec, fn));
}
template <class T, class Sel>
void compact_unordered(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn) {
  run<mode::unordered>(in, out, sel, count, s, fn);
}
template <class T, class Sel>
void partition(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn, std::string_view spec) {
  run<mode::partition>(in, out, sel, count, s, fn, parse_partition(spec, fn));
}

}  // namespace sluice::cuda_backend::select_lookback
