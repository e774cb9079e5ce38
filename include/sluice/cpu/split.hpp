// "split" on the CPU: Billeter et al. 2009, Sec. 5.3 stream split with P = threads and S = SIMD lanes. One
// count of every block gives the split point and each block's prefix (Sec. 3's count and prefix); the move
// then writes each block's kept elements forward from its prefix and its rejected ones from split point +
// (elements before the block - prefix). partition_unordered's split (split_unordered) moves each block right
// after counting it instead, its rejected run placed from the end of the output.
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "sluice/cpu/billeter.hpp"

namespace sluice::cpu {

// partition_unordered's split: compact's three phases (billeter_compact: count a block, chain its prefix,
// move it while it is still in cache), each block's rejected run written from the end of out backwards: it
// goes to out[n - r - c, n - r), r the elements rejected before the block (its start minus its prefix), c its
// own. The kept run stays in input order; the rejected runs lie in reverse block order, each in input order.
// One read of the input from memory, where the stable split counts every block before it moves any.
template <class K, class T, class Sel>
std::uint64_t split_unordered(int threads, std::span<const T> in, std::span<T> out, Sel sel) {
  const std::uint64_t n = in.size();
  const bool stream = n * sizeof(T) >= billeter_tuning::stream_bytes;
  std::uint64_t total = 0;
  three_phase<std::uint64_t>(threads_for<T>(threads, n), n, block_elements<T>(), nullptr, std::plus<>{},
      [&](std::uint64_t b, std::uint64_t e) { return K::count(in.data() + b, b, e - b, sel); },
      [&](std::uint64_t b, std::uint64_t e, const std::uint64_t* before, std::uint64_t self, std::uint64_t next) {
        const std::uint64_t o = before ? *before : 0, rejected_before = b - o, rejected = (e - b) - self;
        if (e == n) total = o + self;  // the last block knows the total
        K::split(in.data() + b, b, e - b, sel, out.data() + o, out.data() + (n - rejected_before - rejected), stream,
                 next < n ? in.data() + next : nullptr, next);
      });
  return total;
}

// out.size() >= in.size(); returns the split point. unordered: split_unordered (partition_unordered).
template <class K, class T, class Sel>
std::uint64_t split_partition(int threads, std::span<const T> in, std::span<T> out, Sel sel, bool unordered = false) {
  const std::uint64_t n = in.size();
  if (n == 0) return 0;
  if (unordered) return split_unordered<K>(threads, in, out, sel);
  const int P = threads_for<T>(threads, n);
  const std::uint64_t block = block_elements<T>();
  // Count: every block's kept elements (the whole stream must be counted before the first rejected element
  // has its place), then their prefix, so the move needs neither a second count nor a wait on other blocks.
  std::vector<std::uint64_t> before = blocked_values<std::uint64_t>(P, n, block,
      [&](std::uint64_t b, std::uint64_t e) { return K::count(in.data() + b, b, e - b, sel); });
  std::uint64_t kept = 0;
  for (auto& c : before) {
    const std::uint64_t k = c;
    c = kept;
    kept += k;
  }
  // Move: each block's kept elements from its prefix, its rejected ones from kept + (b - prefix).
  const bool stream = n * sizeof(T) >= billeter_tuning::stream_bytes;
  blocked_each(P, n, block, [&](std::uint64_t blk, std::uint64_t b, std::uint64_t e, std::uint64_t next) {
    const std::uint64_t o = before[blk];
    K::split(in.data() + b, b, e - b, sel, out.data() + o, out.data() + kept + (b - o), stream, next < n ? in.data() + next : nullptr, next);
  });
  return kept;
}

}  // namespace sluice::cpu
