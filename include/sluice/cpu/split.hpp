// "split" on the CPU: Billeter et al. 2009, Sec. 5.3 stream split with P = threads and S = SIMD lanes. One
// count over the whole stream gives the split point; then the three phases move each block's kept elements
// forward from its prefix and its rejected ones from split point + (elements before the block - prefix).
#pragma once
#include <cstdint>
#include <functional>
#include <span>

#include "sluice/cpu/billeter.hpp"

namespace sluice::cpu {

// out.size() >= in.size(); returns the split point.
template <class K, class T, class Sel>
std::uint64_t split_partition(int threads, std::span<const T> in, std::span<T> out, Sel sel) {
  const std::uint64_t n = in.size();
  const int P = threads_for<T>(threads, n);
  const std::uint64_t block = block_elements<T>();
  const auto kept = blocked_reduce<std::uint64_t>(P, n, block, std::plus<>{},
      [&](std::uint64_t b, std::uint64_t e) { return K::count(in.data() + b, b, e - b, sel); });
  if (!kept) return 0;
  const bool stream = n * sizeof(T) >= billeter_tuning::stream_bytes;
  three_phase<std::uint64_t>(P, n, block, nullptr, std::plus<>{},
      [&](std::uint64_t b, std::uint64_t e) { return K::count(in.data() + b, b, e - b, sel); },
      [&](std::uint64_t b, std::uint64_t e, const std::uint64_t* before, std::uint64_t, std::uint64_t next) {
        const std::uint64_t o = before ? *before : 0;
        K::split(in.data() + b, b, e - b, sel, out.data() + o, out.data() + *kept + (b - o), stream, next < n ? in.data() + next : nullptr, next);
      });
  return *kept;
}

}  // namespace sluice::cpu
