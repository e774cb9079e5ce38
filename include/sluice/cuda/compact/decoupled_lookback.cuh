// compact, partition, compact_unordered ("tile-atomic") and partition_unordered "decoupled-lookback": which path
// runs a call. Each path is one file:
//   single_pass.cuh         the look-back (Merrill and Garland 2016, Sec. 4) fused with Billeter et al. 2009,
//                           Sec. 3's count, prefix and move: the default below the other paths' crossovers;
//   cluster.cuh             2 to cluster::max_blocks tiles as one thread block cluster (Hopper);
//   resident_partition.cuh  the stable partition where every tile's block is resident: one cooperative launch;
//   phased.cuh              count, scan of the counts, move (Billeter Sec. 3): flags past phased_policy's
//                           crossovers, the stable partition past the resident grid;
//   pipelined.cuh           compact from 32 or 64 MiB on Hopper: tiles through shared memory by bulk copies;
//   reversal.cuh            partition by predicate where most elements are kept: the pipelined pass, rejected run
//                           written backwards, then flipped.
// The order of the checks in run_paths is the order of preference. Every path keeps the input order (the
// unordered forms aside); each reads every byte once and writes it once but for the count passes (flags or
// elements read twice) and the flip (the rejected run moved twice).
#pragma once
#include <span>
#include <string_view>

#include "sluice/cuda/compact/cluster.cuh"
#include "sluice/cuda/compact/phased.cuh"
#include "sluice/cuda/compact/pipelined.cuh"
#include "sluice/cuda/compact/resident_partition.cuh"
#include "sluice/cuda/compact/reversal.cuh"
#include "sluice/cuda/compact/select_common.cuh"
#include "sluice/cuda/compact/single_pass.cuh"
#include "sluice/cuda/scan/decoupled_lookback.cuh"
#include "sluice/detail/params.hpp"

namespace sluice::cuda_backend::select_lookback {

// compact's parameters: phased=auto|on|off (flags only), pipelined=auto|on|off and blocks=N. Auto takes the
// pipelined path from Pipe::min_tiles on where it applies (in, out and flags 16-byte aligned, 4-byte elements,
// Hopper; predicates only, see pipeline), else the phased one past the policy's crossover (flags), else the
// single pass; `on` forces either (the pipelined path from one tile), `off` rules it out. blocks: the
// pipeline's persistent grid holds at most N blocks (as the scan's, decoupled_lookback::parse_pipelining).
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

template <mode M, class T, class Sel, class Tuning = lookback::tuning, class Pipe = pipeline_for<M, T, is_flags<Sel>>>
void run_paths(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn,
               compact_settings settings) {
  using P = policy<T>;
  using sluice::detail::setting;
  const phasing ph = settings.phased;
  const u64 n = in.size();
  if (n == 0 || M == mode::unordered) check_cuda(cudaMemsetAsync(count, 0, sizeof(u64), s), fn, "cudaMemsetAsync");
  if (n == 0) return;
  // Pipelined (pipelined.cuh): compact from Pipe::min_tiles on, where it applies.
  if constexpr (M == mode::compact)
    if (run_pipelined<T, Sel, Tuning, Pipe>(in, out, sel, count, s, fn, settings)) return;
  const u64 tiles = ceil_div(n, P::tile);
  const void* first = in.data();  // where the count passes read: the flags or the elements
  if constexpr (is_flags<Sel>) first = sel.flags;
  auto* const kernel = single_pass_kernel<T, Sel, M, Tuning>(in, out, sel);
  // One cluster (cluster.cuh), but where phased=on, resident=on or partition's pipelined pass ask for another path.
  if (ph != phasing::on && settings.resident != setting::on && !(M == mode::partition && pipelined_partition_wanted(in, out, settings)) &&
      try_cluster<M>(kernel, in, out, sel, count, s, fn, settings, false))
    return;

  // Resident (resident_partition.cuh): the stable partition where the device holds every tile's block at once
  // (resident=auto|on; ahead of phased=auto).
  bool resident = false;
  if constexpr (M == mode::partition)
    if (tiles > 1 && settings.resident != setting::off && ph != phasing::on) resident = resident_fits<T>(kernel, tiles, fn);

  // Phased (phased.cuh): count every tile first, scan the counts, then move with each tile's prefix in memory,
  // waiting on no other tile. Flags: past phased_policy's crossovers the single pass's wait costs more than their
  // second read (as keep bits, an eighth of their bytes). Partition by predicate must count before the move
  // anyway (where it is not resident): counting per tile costs the same read and takes the look-back out of the
  // move.
  const bool counted = M != mode::unordered && (is_flags<Sel> || M == mode::partition);  // forms with a phased path
  const u64 from = !is_flags<Sel> ? phased_policy::partition_if_phased_from_tiles
                   : M == mode::partition ? phased_policy::partition_phased_from_tiles : phased_policy::compact_phased_from_tiles;
  const bool automatic = ph == phasing::automatic && tiles >= from && !resident;
  const bool phased = counted && tiles > 1 && reinterpret_cast<std::uintptr_t>(first) % 16 == 0 && (ph == phasing::on || automatic);
  phased_scratch<T, Sel> counts;
  if (phased) counts.allocate(n, tiles, s, fn);
  u64* const tile_incl = counts.tile_incl;
  unsigned* const bits = counts.bits;

  // Partition by predicate: the reversed pass (reversal.cuh). Where its sample decides on the device, the path
  // below runs after it: its count kernels end at once where `skip` says the pass ran, and its move's grid then
  // reverses the pass's tail; the phased path's tile counts come from the pass kernel.
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
    count_and_scan_tiles(in.data(), sel, n, tiles, tile_incl, bits, /*counts_taken=*/skip != nullptr, s, fn);
    if constexpr (M == mode::partition) kept_total = reinterpret_cast<unsigned long long*>(tile_incl + tiles - 1);
  }
  // A synchronous call's count (a host slot), where the path is the look-back's single grid (or one tile): stored
  // by the grid's last block to finish, last of all its stores, so that the caller may read it as it lands
  // (count_last; through_host_slot, watch::where_permitted).
  const bool count_last = M != mode::unordered && !tile_incl && !skip && count_last_fits(tiles, count);
  if (tiles > 1 && M != mode::unordered && !tile_incl) {
    launch = count_states(n, tiles, s, fn);
    counter = launch.counter();
    states = lookback::count_state::at(launch.states(), tiles, launch.epoch());
    if constexpr (M == mode::partition) {
      if (resident &&
          launch_resident(kernel, in, out, sel, count, tiles, counter, launch.spare_counter(), states, skip, count_last, s, fn)) {
        if (count_last) permit_watch(count);
        return;
      }
      // Not resident, or the device could not hold the grid after all: the count pass (phased.cuh) gives the
      // total first (the stream's kept states are not zeroed).
      kept_total = reinterpret_cast<unsigned long long*>(launch.callers());
      count_pass(in.data(), sel, n, kept_total, launch.epoch() != 0, skip, s, fn);
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
// reversal_policy::unordered_from_bytes of input) and blocks=N (that pass's grid, as compact's).
inline compact_settings parse_partition_unordered(std::string_view spec, const char* fn) {
  sluice::detail::params p(spec, fn);
  compact_settings c;
  c.pipelined = p.auto_on_off("pipelined");
  c.blocks = p.number("blocks", 0, 1, decoupled_lookback::max_pipeline_blocks);
  c.cluster = cluster::parse(p);
  p.done("pipelined, blocks, cluster");
  return c;
}

// partition_unordered "decoupled-lookback": the kept elements first, in input order, then the rejected ones in
// an order not promised. By predicate it is one pass, as compact: where the stable partition must know the
// kept total before its first rejected element is written (a count pass that reads the input again, a resident
// grid whose tiles wait for the last, or the pipelined pass and a flip that moves the rejected run again),
// here each tile's rejected run goes to the end of out, backwards from the rejected ones before it, which the
// look-back's prefix already gives (base - before): select_kernel with from_end, or from
// reversal_policy::unordered_from_bytes on Hopper partition's pipelined pass without its flip (rejected run last to
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
    if (c.pipelined == setting::on || (c.pipelined == setting::automatic && n * sizeof(T) >= reversal_policy::unordered_from_bytes)) {
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
