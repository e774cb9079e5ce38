// "vectorized" reduce on the CPU: each of P threads reduces whole blocks with S-lane vectors (several
// accumulators in flight); the block results are combined left to right, so a floating-point result depends
// on the block size and the SIMD level, never on the number of threads.
#pragma once
#include <cstdint>
#include <span>

#include "sluice/cpu/billeter.hpp"

namespace sluice::cpu {

struct reduce_tuning {
  static constexpr std::uint64_t block_bytes = std::uint64_t{1} << 20;  // per block: few partials, long vector runs
};

template <class K, class T, class Op>
T vectorized_reduce(int threads, std::span<const T> in, T init, Op op) {
  const std::uint64_t n = in.size();
  std::uint64_t block = reduce_tuning::block_bytes / sizeof(T);
  if (block < 64) block = 64;
  const auto r = blocked_reduce<T>(threads_for<T>(threads, n), n, block, op,
                                   [&](std::uint64_t b, std::uint64_t e) { return K::reduce(in.data() + b, e - b, op); });
  return r ? op(init, *r) : init;
}

}  // namespace sluice::cpu
