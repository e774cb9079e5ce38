// reduce "vectorized": the production reduction, and which of its paths runs a call. The input splits into a
// head (up to the first 16-byte boundary), a body of whole warp tiles (32 lanes x `vectors` loads of 16 bytes)
// and a tail. Up to 128 KiB one block does it all (single_block.cuh); up to 256 MiB a grid of resident blocks
// takes equal shares of the body (equal_share.cuh); from there the blocks draw chunks from a counter
// (dynamic_chunks.cuh). Every path reads the input once and combines in an order fixed by n and the start's
// alignment (input order but in the one-block kernel for operators that commute), so float results repeat bit
// for bit. Tuning: policy in vectorized_common.cuh.
#pragma once
#include "sluice/cuda/reduce/dynamic_chunks.cuh"
#include "sluice/cuda/reduce/equal_share.cuh"
#include "sluice/cuda/reduce/single_block.cuh"
#include "sluice/detail/params.hpp"

namespace sluice::cuda_backend::vectorized {

// dynamic=auto|on|off: the chunks drawn from a counter (auto: from P::dynamic_from_bytes of input; on: from
// one warp tile, as the tests take it), or each warp's equal share.
using sluice::detail::setting;
inline setting parse(std::string_view spec, const char* fn) {
  sluice::detail::params p(spec, fn);
  const setting d = p.auto_on_off("dynamic");
  p.done("dynamic");
  return d;
}

template <class T, class Op, class P = policy<T>>
void run(const T* in, u64 n, T* result, T init, Op op, cudaStream_t s, const char* fn, setting dynamic = setting::automatic) {
  u64 head = (16 - reinterpret_cast<std::uintptr_t>(in) % 16) % 16;
  head = head % sizeof(T) ? n : head / sizeof(T);  // a start not aligned to T: all of it goes the element way
  if (head > n) head = n;
  const bool small = n <= P::single_launch_max && dynamic != setting::on;
  if (small && head < P::per_vector) {  // (a start not aligned to T goes the element way below)
    const u64 tiles = (n - head) / P::warp_tile;
    const u64 tail_at = head + tiles * P::warp_tile;
    auto* const kernel = tail_at < n ? single_kernel<P, T, Op, true> : single_kernel<P, T, Op, false>;
    kernel<<<1, P::final_threads, 0, s>>>(in, head, tiles, tail_at, n, op, init, result);
    check_launch(fn, "vectorized::single_kernel");
    return;
  }
  const u64 tiles = small ? 0 : (n - head) / P::warp_tile, tail_at = head + tiles * P::warp_tile;
  if (tiles == 0) {
    final_kernel<P, T, Op><<<1, P::final_threads, 0, s>>>(in, head, nullptr, 0, tail_at, n, op, init, result);
    return check_launch(fn, "vectorized::final_kernel");
  }
  const bool edges = head > 0 || tail_at < n;
  const u64 sms = static_cast<u64>(multiprocessor_count(fn));
  const bool chunked = dynamic == setting::on || (dynamic == setting::automatic && n * sizeof(T) >= P::dynamic_from_bytes);
  u64 blocks = 0, count = 0;
  auto* const dynamic_launch = edges ? dynamic_kernel<P, T, Op, true> : dynamic_kernel<P, T, Op, false>;
  if (chunked) {
    count = ceil_div(tiles, P::chunk_tiles);  // chunks
    const u64 per_sm = P::dynamic_blocks_per_sm ? P::dynamic_blocks_per_sm
                                                : resident_blocks_per_sm(dynamic_launch, P::threads, 0, 0, fn, "vectorized::dynamic_kernel");
    const u64 most = per_sm ? sms * per_sm : 1;
    blocks = count + edges < most ? count + edges : most;
  } else {
    count = ceil_div(tiles, P::warps);  // the body's blocks: at least one tile per warp
    if (count > sms * P::blocks_per_sm) count = sms * P::blocks_per_sm;
    blocks = count + edges;  // and one for the edges
  }
  const u64 slots_count = count + 2 * u64{edges};  // [the body's count, tail, head] (fold_edges)
  // The partials: packed words in the launch's (kept) states (body_kernel with 4-byte T), or plain values from
  // scratch beside the counter (the dynamic kernel keeps them plain: its fold of up to 2^16 partials loads 8
  // vectors a lane, which as words would take 162 registers a thread against 64).
  const bool packed = slots<T>::packed && !chunked;
  const lookback::launch_states states(packed ? slots_count * 8 : 0, true, s, fn);
  scratch values;
  slots<T> partials{};
  if (packed) {
    partials.words = static_cast<unsigned long long*>(states.states()), partials.epoch = states.epoch();
  } else {
    values = scratch(slots_count * sizeof(T), s, fn);
    partials.values = values.as<T>();
  }
  const unsigned grid = static_cast<unsigned>(blocks);
  if (chunked) {
    dynamic_launch<<<grid, P::threads, 0, s>>>(in, head, tiles, tail_at, n, op, init, result, slots<T, false>{partials.values}, states.counter(),
                                       states.spare_counter());
    return check_launch(fn, "vectorized::dynamic_kernel");
  }
  auto* const kernel = edges ? body_kernel<P, T, Op, true> : body_kernel<P, T, Op, false>;
  kernel<<<grid, P::threads, 0, s>>>(in, head, tiles, tail_at, n, op, init, result, partials, states.counter(), states.spare_counter());
  check_launch(fn, "vectorized::body_kernel");
}

}  // namespace sluice::cuda_backend::vectorized
