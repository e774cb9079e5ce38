// "billeter-scan" on the CPU: Billeter et al. 2009, Sec. 5.2, the three phases with values: reduce each
// block, prefix the block sums over P, rescan each block from its prefix (SIMD prefix in registers).
// Floating-point results depend on the block size and the SIMD level, never on the number of threads.
#pragma once
#include <cstdint>
#include <span>

#include "sluice/cpu/billeter.hpp"

namespace sluice::cpu {

template <class K, class T, class Op>
void billeter_scan(int threads, std::span<const T> in, std::span<T> out, bool inclusive, T init, Op op) {
  const std::uint64_t n = in.size();
  const bool stream = n * sizeof(T) >= billeter_tuning::stream_bytes;
  three_phase<T>(threads_for<T>(threads, n), n, block_elements<T>(), inclusive ? nullptr : &init, op,
      [&](std::uint64_t b, std::uint64_t e) { return K::reduce(in.data() + b, e - b, op); },
      [&](std::uint64_t b, std::uint64_t e, const T* before, const T&, std::uint64_t next) {
        K::scan(in.data() + b, out.data() + b, e - b, before, inclusive, op, stream, next < n ? in.data() + next : nullptr);
      });
}

}  // namespace sluice::cpu
