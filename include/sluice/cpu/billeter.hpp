// "billeter" on the CPU: Billeter, Olsson and Assarsson 2009, Sec. 3-4, with P = threads and S = SIMD lanes.
// Count the selected elements of each block, prefix the counts over P, move each block to its offset
// (compactSIMD by the vector compress of Sec. 6, output buffered in whole aligned rows, Sec. 4.2).
#pragma once
#include <cstdint>
#include <functional>
#include <span>

#include "sluice/cpu/portable_kernels.hpp"
#include "sluice/cpu/three_phase.hpp"

namespace sluice::cpu {

// Tuning constants of the CPU compaction, partition and scan (docs/design/cpu.md).
struct billeter_tuning {
  static constexpr std::uint64_t block_bytes = std::uint64_t{1} << 18;     // input per block: fits in L2 with its output
  static constexpr std::uint64_t parallel_bytes = std::uint64_t{1} << 17;  // below this, one thread
  static constexpr std::uint64_t stream_bytes = std::uint64_t{1} << 24;    // from this output size, non-temporal stores
};

template <class T>
inline std::uint64_t block_elements() {
  const std::uint64_t b = billeter_tuning::block_bytes / sizeof(T);
  return b < 64 ? 64 : b;
}
template <class T>
inline int threads_for(int threads, std::uint64_t n) {
  return n * sizeof(T) < billeter_tuning::parallel_bytes ? 1 : threads;
}

// Writes at most out.size() elements; returns the number selected.
template <class K, class T, class Sel>
std::uint64_t billeter_compact(int threads, std::span<const T> in, std::span<T> out, Sel sel) {
  const std::uint64_t n = in.size(), cap = out.size();
  const bool stream = n * sizeof(T) >= billeter_tuning::stream_bytes;
  std::uint64_t total = 0;
  three_phase<std::uint64_t>(threads_for<T>(threads, n), n, block_elements<T>(), nullptr, std::plus<>{},
      [&](std::uint64_t b, std::uint64_t e) { return K::count(in.data() + b, b, e - b, sel); },
      [&](std::uint64_t b, std::uint64_t e, const std::uint64_t* before, std::uint64_t self, std::uint64_t next) {
        const std::uint64_t o = before ? *before : 0;
        if (e == n) total = o + self;  // the last block knows the total
        if (self == 0 || o >= cap) return;
        if (o + self <= cap) K::compact(in.data() + b, b, e - b, sel, out.data() + o, stream, next < n ? in.data() + next : nullptr, next);
        else portable_kernels::compact_capped(in.data() + b, b, e - b, sel, out.data() + o, cap - o);
      });
  return total;
}

}  // namespace sluice::cpu
