// scan "decoupled-lookback": which path runs a call. Single pass (single_pass.cuh: Merrill and Garland 2016,
// Sec. 4), as one thread block cluster for 2 to cluster::max_blocks tiles (cluster_prefix.cuh), or the
// pipelined path (pipelined.cuh: 4-byte elements, aligned spans, Hopper, from 2^24 elements). Every path keeps
// the input order, reads each element once and writes it once, and may run in place.
#pragma once
#include "sluice/cuda/cluster_prefix.cuh"
#include "sluice/cuda/lookback.cuh"
#include "sluice/cuda/scan/pipelined.cuh"
#include "sluice/cuda/scan/single_pass.cuh"
#include "sluice/detail/params.hpp"

namespace sluice::cuda_backend::decoupled_lookback {

// The parameters pipelined=auto|on|off and blocks=N. pipelined: auto takes the pipelined path from
// Pipe::min_tiles on, on from one tile (where it applies at all: 4-byte elements, aligned spans, Hopper), off
// never. blocks: the pipeline's persistent grid holds at most N blocks (default: as many as the device holds
// at once), leaving the rest of the GPU to other work, and making each block take several rounds at small sizes.
using pipelining = sluice::detail::setting;
struct pipeline_settings {
  pipelining pipelined = pipelining::automatic;
  u64 blocks = 0;  // 0: every block the device holds
  bool cluster = true;  // cluster=auto|off: 2 to cluster::max_blocks tiles as one thread block cluster (run)
};
inline constexpr u64 max_pipeline_blocks = 1u << 20;
inline pipeline_settings parse_pipelining(std::string_view spec, const char* fn) {
  sluice::detail::params p(spec, fn);
  pipeline_settings c;
  c.pipelined = p.auto_on_off("pipelined");
  c.blocks = p.number("blocks", 0, 1, max_pipeline_blocks);
  c.cluster = cluster::parse(p);
  p.done("pipelined, blocks, cluster");
  return c;
}

template <class T, class Op, class Tuning = lookback::tuning, class Pipe = scan_pipeline<T>>
void run(const T* in, T* out, u64 n, bool inclusive, T init, Op op, cudaStream_t s, const char* fn,
         pipeline_settings ps = {}) {
  using P = policy<T>;
  if (n == 0) return;
  const bool aligned = reinterpret_cast<std::uintptr_t>(in) % 16 == 0 && reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  const u64 grid = ps.pipelined == pipelining::off
                       ? 0
                       : pipelined_grid<T, Op, Tuning, Pipe>(aligned, n, ps.pipelined == pipelining::on, ps.blocks, fn);
  const u64 tiles = grid ? ceil_div(n, Pipe::tile) : ceil_div(n, P::tile);  // (the pipeline's tiles are no larger)
  auto* const single = aligned ? scan_kernel<T, Op, true, Tuning> : scan_kernel<T, Op, false, Tuning>;
  // 2 to cluster::max_blocks tiles: one thread block cluster where the device holds one (cluster_prefix.cuh): the
  // aggregates exchanged in shared memory, no tile states, no counter.
  if (!grid && ps.cluster && tiles >= 2 &&
      cluster::launch(single, static_cast<unsigned>(tiles), P::threads, s, fn, "decoupled_lookback::scan_kernel", in, out, n, op, inclusive,
                      init, static_cast<unsigned*>(nullptr), static_cast<unsigned*>(nullptr), lookback::tile_state<T>{}, true))
    return;
  lookback::launch_states state;  // the counters, then the tile states: kept per stream for 4-byte elements
  lookback::tile_state<T> tiles_state{};
  if (tiles > 1 || grid) {
    state = lookback::launch_states(lookback::tile_state<T>::bytes(tiles), lookback::tile_state<T>::packed, s, fn);
    tiles_state = lookback::tile_state<T>::at(state.states(), tiles, state.epoch());
  }
  if constexpr (Pipe::min_tiles != ~u64{0})
    if (grid && launch_cooperative(pipelined_scan_kernel<T, Op, Tuning, Pipe>, grid, Pipe::threads, Pipe::shared_bytes, s, fn,
                                   "decoupled_lookback::pipelined_scan_kernel", in, out, n, op, inclusive, init, state.spare_counter(),
                                   tiles_state))
      return;  // else the device could not hold the grid: the single pass
  const u64 blocks = ceil_div(n, P::tile);
  single<<<static_cast<unsigned>(blocks), P::threads, 0, s>>>(in, out, n, op, inclusive, init, state.counter(), state.spare_counter(),
                                                              tiles_state, false);
  check_launch(fn, "decoupled_lookback::scan_kernel");
}

}  // namespace sluice::cuda_backend::decoupled_lookback
