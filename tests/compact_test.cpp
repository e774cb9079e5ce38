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


// In place (out is in) with many threads, by flags and by predicate, ordered and not: each thread's run would
// land on input an earlier block is still reading; the result must be the serial one.
TEST(api, cpu_compact_in_place_with_threads) {
  const std::size_t n = (std::size_t{1} << 21) + 17;  // many blocks
  std::vector<std::uint32_t> x(n);
  std::vector<std::uint8_t> flags(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<std::uint32_t>(i * 2654435761u);
    flags[i] = (x[i] >> 13) % 3 != 0;  // two thirds kept: the runs overlap the blocks before them
  }
  const auto pred = less_than(std::uint32_t{3} << 30);
  std::vector<std::uint32_t> want_flags(n), want_pred(n);
  want_flags.resize(sluice::compact(x, flags, want_flags, {device::cpu, "serial"}));
  want_pred.resize(sluice::compact_if(x, want_pred, pred, {device::cpu, "serial"}));
  for (const char* spec : {"billeter:threads=8", "best"}) {
    SCOPED_TRACE(spec);
    auto a = x;
    ASSERT_EQ(sluice::compact(a, flags, a, {device::cpu, spec}), want_flags.size());
    EXPECT_TRUE(std::equal(want_flags.begin(), want_flags.end(), a.begin()));
    a = x;
    ASSERT_EQ(sluice::compact_unordered(a, flags, a, {device::cpu, spec}), want_flags.size());
    EXPECT_TRUE(std::equal(want_flags.begin(), want_flags.end(), a.begin()));  // the CPU keeps the order
    a = x;
    ASSERT_EQ(sluice::compact_if(a, a, pred, {device::cpu, spec}), want_pred.size());
    EXPECT_TRUE(std::equal(want_pred.begin(), want_pred.end(), a.begin()));
  }
}

// compact_unordered_if_async, the order-free compaction by predicate that leaves its count in *count: the kept set
// of compact_if in any order, by the library's predicate and by a lambda; into a short output the full count,
// only kept elements and nothing past its end; a null count refused.
TEST(api, compact_unordered_if_async_on_cpu) {
  const std::size_t n = 100003;
  std::vector<std::uint32_t> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<std::uint32_t>(i * 2654435761u);  // distinct: the factor is odd
  const auto pred = less_than(std::uint32_t{1} << 30);  // about a quarter kept
  const auto odd = [](std::uint32_t x) { return x % 2 == 1; };
  std::vector<std::uint32_t> want(n), want_odd(n);
  want.resize(sluice::compact_if(in, want, pred, {device::cpu, "serial"}));
  want_odd.resize(sluice::compact_if(in, want_odd, odd, {device::cpu, "serial"}));
  std::sort(want.begin(), want.end()), std::sort(want_odd.begin(), want_odd.end());
  const auto sorted_first = [](std::vector<std::uint32_t> v, std::uint64_t k) {
    v.resize(std::min<std::uint64_t>(k, v.size()));
    std::sort(v.begin(), v.end());
    return v;
  };
  for (const char* spec : {"best", "serial", "billeter:threads=3"}) {
    SCOPED_TRACE(spec);
    std::vector<std::uint32_t> out(n);
    std::uint64_t count = 0;
    sluice::compact_unordered_if_async(in, out, pred, &count, {device::cpu, spec});
    EXPECT_EQ(count, want.size());
    EXPECT_TRUE(sorted_first(out, count) == want);
    sluice::compact_unordered_if_async(in, out, odd, &count, {device::cpu, spec});
    EXPECT_EQ(count, want_odd.size());
    EXPECT_TRUE(sorted_first(out, count) == want_odd) << "by a lambda";
    const std::size_t short_size = want.size() / 2 + 3;
    std::vector<std::uint32_t> guarded(short_size + 64, ~0u);  // ~0u is never kept
    sluice::compact_unordered_if_async(in, std::span<std::uint32_t>(guarded).first(short_size), pred, &count, {device::cpu, spec});
    EXPECT_EQ(count, want.size()) << "short output";
    const auto written = sorted_first(guarded, short_size);
    EXPECT_TRUE(std::includes(want.begin(), want.end(), written.begin(), written.end())) << "short output: not kept elements";
    EXPECT_TRUE(std::all_of(guarded.begin() + static_cast<std::ptrdiff_t>(short_size), guarded.end(), [](std::uint32_t x) { return x == ~0u; }))
        << "written past the output's end";
  }
  std::vector<std::uint32_t> out(n);
  expect_error(errc::invalid_argument, {"sluice::compact_unordered_if_async:", "'count'", "null"},
               [&] { sluice::compact_unordered_if_async(in, out, pred, nullptr); });
}

}  // namespace
