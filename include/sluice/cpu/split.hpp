// "split" on the CPU: Billeter et al. 2009, Sec. 5.3 stream split with P = threads and S = SIMD lanes. One
// count of every block gives the split point and each block's prefix (Sec. 3's count and prefix); the move
// then writes each block's kept elements forward from its prefix and its rejected ones from split point +
// (elements before the block - prefix).
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "sluice/cpu/billeter.hpp"

namespace sluice::cpu {

// out.size() >= in.size(); returns the split point.
template <class K, class T, class Sel>
std::uint64_t split_partition(int threads, std::span<const T> in, std::span<T> out, Sel sel) {
  const std::uint64_t n = in.size();
  if (n == 0) return 0;
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
