// Compaction on the CPU: misaligned starts at every SIMD level, nothing written past the output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

// Element-aligned starts that are not vector- or line-aligned, at every SIMD level: the same result as the
// serial variant, and nothing written past the output's end.
template <class T>
void cpu_moves_of_misaligned_ranges() {
  const std::size_t n = 100003;
  std::vector<T> base(n + 16), out_base(n + 16 + 8);
  for (std::size_t i = 0; i < base.size(); ++i) std::memset(&base[i], static_cast<int>(i * 37 + 11), sizeof(T));
  std::vector<std::uint8_t> flags_base(n + 16);
  for (std::size_t i = 0; i < flags_base.size(); ++i) flags_base[i] = (i * 2654435761u >> 7) % 3 == 0;
  for (const char* level : {"avx512", "avx2", "scalar"}) {
    if (std::string(level) == "avx512" && cpu_backend::detected_simd() != cpu_backend::simd_level::avx512) continue;
    for (std::size_t off : {std::size_t{1}, std::size_t{3}, std::size_t{5}, std::size_t{8}}) {
      std::span<const T> in(base.data() + off, n);
      std::span<const std::uint8_t> f(flags_base.data() + (off + 1) % 4, n);
      std::vector<T> want(n);
      const auto k = sluice::compact(in, f, want, {device::cpu, "serial"});
      std::fill(out_base.begin(), out_base.end(), T{});
      std::span<T> out(out_base.data() + (off + 2) % 8, k);
      const std::string spec = std::string("billeter:threads=3,simd=") + level;
      ASSERT_EQ(sluice::compact(in, f, out, {device::cpu, spec}), k) << spec << " offset " << off;
      EXPECT_TRUE(std::equal(out.begin(), out.end(), want.begin())) << spec << " offset " << off;
      for (T* p = out.data() + k; p < out_base.data() + out_base.size(); ++p) EXPECT_TRUE(*p == T{}) << spec << ": written past the end";
      std::vector<T> want_split(n), got_split(n);
      sluice::partition_flagged(in, f, want_split, {device::cpu, "serial"});
      sluice::partition_flagged(in, f, got_split, {device::cpu, std::string("split:threads=2,simd=") + level});
      EXPECT_TRUE(want_split == got_split) << level << " offset " << off;
    }
  }
}
TEST(api, cpu_moves_of_misaligned_ranges_u8) { cpu_moves_of_misaligned_ranges<std::uint8_t>(); }

TEST(api, cpu_moves_of_misaligned_ranges_u16) { cpu_moves_of_misaligned_ranges<std::uint16_t>(); }
TEST(api, cpu_moves_of_misaligned_ranges_u32) { cpu_moves_of_misaligned_ranges<std::uint32_t>(); }
TEST(api, cpu_moves_of_misaligned_ranges_u64) { cpu_moves_of_misaligned_ranges<std::uint64_t>(); }
TEST(api, cpu_moves_of_misaligned_ranges_vec4u) { cpu_moves_of_misaligned_ranges<vec4u>(); }

}  // namespace
