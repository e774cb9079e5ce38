// partition by predicate, the reversed pass: partition's form of the pipelined compact (pipelined.cuh; Hopper,
// 4- and 8-byte elements, in and out 16-byte aligned). The kept run's place is its prefix, from the look-back
// (Merrill and Garland 2016, Sec. 4); the rejected run's needs the total kept, known only at the end. So the
// pass writes the rejected elements from the end of `out` backwards (the i-th rejected at out[n - 1 - i]), and
// a flip (reverse_tail.cuh) then reverses out[total, n): stable, each byte read once and written once, the
// rejected ones read and written once more. Counting first (phased.cuh) reads the input once more instead, so
// the pass wins where most elements are kept: from reversal_policy::from_kept_hundredths (65%) on.
// reversed=on runs the pass; reversed=auto (with pipelined=on, or from reversal_policy::sampled_from_bytes of
// input on) lets the pass kernel decide from a sample, alike in every block: where too few are kept it takes the
// phased path's tile counts instead, and the phased scan and move launched behind it finish the partition;
// where the pass ran, the move's grid flips its tail. Three kernels either way, as the phased path alone.
// partition_unordered runs the pass without the flip from reversal_policy::unordered_from_bytes on.
#pragma once
#include <span>

#include "sluice/cuda/compact/pipelined.cuh"
#include "sluice/cuda/reverse_tail.cuh"

namespace sluice::cuda_backend::select_lookback {

// Whether these spans and settings ask for the pipelined partition (where it is built: run_pipelined_partition).
template <class T>
bool pipelined_partition_wanted(std::span<const T> in, std::span<T> out, const compact_settings& c) {
  using sluice::detail::setting;
  const auto addr = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p); };
  if (addr(in.data()) % 16 != 0 || addr(out.data()) % 16 != 0 || c.pipelined == setting::off || c.phased == phasing::on ||
      c.resident == setting::on || c.reversed == setting::off)
    return false;
  return c.pipelined != setting::automatic || c.reversed != setting::automatic ||
         in.size() * sizeof(T) >= reversal_policy::sampled_from_bytes;
}

// The pipelined partition by predicate (4- and 8-byte elements, in and out 16-byte aligned, Hopper), where it
// applies and is chosen: reversed=on or pipelined=on from one tile, `best` (both auto) from
// reversal_policy::sampled_from_bytes of input on;
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
      // The flip (reverse_tail.cuh): a grid for the whole possible tail, 4 pairs a thread (a resident grid looping
      // over its pairs measured slower).
      reverse_tail_kernel<T><<<reverse_tail_grid(n), 256, 0, s>>>(out.data(), count, n);
      check_launch(fn, "reverse_tail_kernel");
    }
    *alone = !part.sample;
    return part.reversed;
  }
}

}  // namespace sluice::cuda_backend::select_lookback
