// compact and partition "decoupled-lookback", compact_unordered "tile-atomic": the single pass, on the look-back
// of Merrill and Garland (2016), Sec. 4 (lookback.cuh): Billeter et al. (2009), Sec. 3's three phases (count,
// prefix over the counts, move) fused into one kernel whose prefix is the look-back.
// A block takes the next tile number, loads its tile with 16-byte vector loads (flags with vector loads of as
// many bytes), counts the kept elements of each vector, ranks them within the tile (warp scans of packed counts,
// then a scan of the warps' totals), publishes the tile's count and learns by look-back how many were kept
// before it. It then stages the kept elements (partition: and the rejected ones) in shared memory at the
// output's 16-byte phase and writes each run out with whole 16-byte stores: every byte is read once and written
// once (compact: n x sizeof(T) + n flag bytes read, the kept written; partition: all of it written).
// tile-atomic (unordered) reserves each tile's output run with one atomicAdd on the count instead of the
// look-back: no tile waits on another, and the runs land in the order the tiles finish. compact and partition
// keep the input order.
// Dispatch (decoupled_lookback.cuh) takes it below the phased and pipelined crossovers, and for 16-byte elements.
// The same kernel is the move of the other paths; its arguments say which:
//   phased (phased.cuh): tile_incl (each tile's place from the scanned counts), bits (flags: the keep bits);
//   partition after the count pass: kept_total (where the rejected run starts);
//   resident partition (resident_partition.cuh): a cooperative grid, no kept_total: each tile stores its kept
//     run, then waits for the last tile's inclusive prefix (the total) before its rejected run;
//   one cluster (cluster.cuh): clustered, the counts exchanged in shared memory, no counter or states;
//   partition_unordered: from_end, the rejected runs written from the end of out backwards;
//   behind partition's pipelined pass (reversal.cuh): skip, where the pass ran this grid reverses its tail;
//   count_last: a synchronous call's count, stored last of all, so that the host may read it as it lands.
#pragma once
#include <cub/warp/warp_scan.cuh>
#include <span>

#include "sluice/cuda/cluster_prefix.cuh"
#include "sluice/cuda/compact/select_common.cuh"
#include "sluice/cuda/lookback.cuh"
#include "sluice/cuda/reverse_tail.cuh"

namespace sluice::cuda_backend::select_lookback {

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
  const bool full = base + P::tile <= n;

  // Count. Flags: the flags alone decide the count, so they are loaded first and the elements only after
  // the ranks are known (their loads then fly while the block waits on the look-back); phased, the keep bits
  // that the count pass left (`bits`) replace the flags, and the elements still load after the ranks (loading
  // them first, with the order a run-time choice, spilled registers). Predicate:
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
  // The keep bits, where the count pass left them (never for tile-atomic, which ran 10-12% slower with the branch
  // inside the loop below). pv divides 32: a vector's bits lie in one word.
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
      if (lane == 0) state.publish(tile, lookback::aggregate, kept);
      before = lookback::exclusive_prefix<Tuning>(state, tile, sluice::sum{});
      if (lane == 0) state.publish(tile, lookback::prefix, before + kept);
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

}  // namespace sluice::cuda_backend::select_lookback
