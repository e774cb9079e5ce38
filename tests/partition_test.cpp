// Partition on the CPU: the unordered split over many blocks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

// partition_unordered's CPU split over many blocks (each block moved right after its count, its rejected run
// placed from the end): flags and predicate, 1 and 3 threads, every SIMD level here, an output off its
// alignment; the split point and kept run as the serial partition's, the rejected run the same multiset, and
// nothing written outside the output.
template <class T>
void cpu_unordered_split(std::size_t n) {
  std::vector<T> in(n);
  std::vector<std::uint8_t> flags(n);
  for (std::size_t i = 0; i < n; ++i) {
    in[i] = static_cast<T>((i * 2654435761u) >> 5);
    flags[i] = (i * 40503u >> 9) % 5 < 2;  // about 40% kept, in runs
  }
  const T limit = static_cast<T>(std::numeric_limits<T>::max() / 10 * 3);
  std::vector<T> want(n), want_if(n);
  const std::uint64_t k = sluice::partition_flagged(in, flags, want, {device::cpu, "serial"});
  const std::uint64_t k_if = sluice::partition(in, want_if, less_than(limit), {device::cpu, "serial"});
  auto sorted_tail = [](std::vector<T> v, std::uint64_t from) {
    std::sort(v.begin() + static_cast<std::ptrdiff_t>(from), v.end());
    return v;
  };
  want = sorted_tail(want, k), want_if = sorted_tail(want_if, k_if);
  std::vector<T> base(n + 8);
  for (const char* level : {"avx512", "avx2", "scalar"}) {
    if (std::string(level) == "avx512" && cpu_backend::detected_simd() != cpu_backend::simd_level::avx512) continue;
    for (int threads : {1, 3}) {
      const std::string spec = "split:threads=" + std::to_string(threads) + ",simd=" + level;
      for (const bool by_flags : {true, false}) {
        std::fill(base.begin(), base.end(), T{7});
        const std::span<T> out(base.data() + 3, n);
        const std::uint64_t got = by_flags ? sluice::partition_unordered_flagged(in, flags, out, {device::cpu, spec})
                                           : sluice::partition_unordered(in, out, less_than(limit), {device::cpu, spec});
        EXPECT_EQ(got, by_flags ? k : k_if) << spec;
        EXPECT_TRUE(sorted_tail(std::vector<T>(out.begin(), out.end()), got) == (by_flags ? want : want_if))
            << spec << (by_flags ? " flags" : " predicate") << " n=" << n;
        for (std::size_t i : {std::size_t{0}, std::size_t{1}, std::size_t{2}, n + 3, n + 4, n + 5, n + 6, n + 7})
          EXPECT_EQ(base[i], T{7}) << spec << ": written outside out at " << i;
      }
    }
  }
}
TEST(api, cpu_unordered_split_over_many_blocks) {
  cpu_unordered_split<std::uint32_t>(1000003);  // 16 blocks of 256 KiB
  cpu_unordered_split<std::uint8_t>(1500001);
  cpu_unordered_split<std::uint64_t>(300007);
}

}  // namespace
