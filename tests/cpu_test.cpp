// The CPU device's own machinery: plan parameters, exceptions across its threads, the SIMD levels at the
// sizes where stores stream past the caches.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

TEST(api, cpu_plan_parameters_are_checked) {
  std::vector<std::uint32_t> v(4);
  expect_error(errc::invalid_argument, {"'vectorized:simd=avx9'", "simd=avx9 is not one of"},
               [&] { (void)sluice::reduce(v, 0u, sum{}, {device::cpu, "vectorized:simd=avx9"}); });
  expect_error(errc::invalid_argument, {"threads=x"}, [&] { (void)sluice::reduce(v, 0u, sum{}, {device::cpu, "vectorized:threads=x"}); });
  expect_error(errc::invalid_argument, {"unknown parameter 'P'"}, [&] { (void)sluice::compact_if(v, v, less_than(2u), {device::cpu, "billeter:P=4"}); });
}

// An exception thrown by the caller's operator or predicate on one thread reaches the caller; nothing hangs
// and the next call works.
TEST(api, cpu_exceptions_cross_the_threads) {
  std::vector<std::uint32_t> v(std::size_t{1} << 20), out(v.size());
  std::iota(v.begin(), v.end(), 0u);
  auto throws_late = [](std::uint32_t x) {
    if (x == 700000u) throw std::runtime_error("predicate failed");
    return x % 3 == 0;
  };
  for (const char* spec : {"billeter:threads=4", "billeter:threads=1"})
    EXPECT_THROW((void)sluice::compact_if(v, out, throws_late, {device::cpu, spec}), std::runtime_error) << spec;
  EXPECT_THROW((void)sluice::partition(v, out, throws_late, {device::cpu, "split:threads=3"}), std::runtime_error);
  struct throwing_sum {
    std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const {
      if (b == 900000u) throw std::runtime_error("operator failed");
      return a + b;
    }
  };
  EXPECT_THROW(sluice::inclusive_scan(v, out, throwing_sum{}, {device::cpu, "billeter-scan:threads=4"}), std::runtime_error);
  EXPECT_THROW((void)sluice::reduce(v, 0u, throwing_sum{}, {device::cpu, "vectorized:threads=4"}), std::runtime_error);
  EXPECT_EQ(sluice::compact_if(v, out, [](std::uint32_t x) { return x % 3 == 0; }), (v.size() + 2) / 3);
}

// Outputs from 16 MiB on are written with non-temporal stores: every level against the serial variants there.
TEST(api, cpu_levels_at_streaming_sizes) {
  const std::size_t n = (std::size_t{1} << 22) + 3;
  std::vector<std::uint32_t> v(n);
  std::vector<std::uint8_t> f(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint32_t>(i * 2654435761u), f[i] = v[i] >> 31;
  std::vector<std::uint32_t> want(n), got(n);
  for (const char* level : {"avx512", "avx2", "scalar"}) {
    if (std::string(level) == "avx512" && cpu_backend::detected_simd() != cpu_backend::simd_level::avx512) continue;
    const std::string p = std::string(":threads=2,simd=") + level;
    auto same = [&](const char* what) { EXPECT_TRUE(want == got) << what << " " << level; };
    EXPECT_EQ(sluice::compact(v, f, got, {device::cpu, "billeter" + p}), sluice::compact(v, f, want, {device::cpu, "serial"}));
    same("compact");
    EXPECT_EQ(sluice::compact_if(v, got, less_than(1u << 30), {device::cpu, "billeter" + p}),
              sluice::compact_if(v, want, less_than(1u << 30), {device::cpu, "serial"}));
    same("compact_if");
    EXPECT_EQ(sluice::partition(v, got, greater_than(3u << 30), {device::cpu, "split" + p}),
              sluice::partition(v, want, greater_than(3u << 30), {device::cpu, "serial"}));
    same("partition");
    sluice::inclusive_scan(v, got, sum{}, {device::cpu, "billeter-scan" + p});
    sluice::inclusive_scan(v, want, sum{}, {device::cpu, "serial"});
    same("inclusive_scan");
    sluice::exclusive_scan(v, got, 7u, maximum{}, {device::cpu, "billeter-scan" + p});
    sluice::exclusive_scan(v, want, 7u, maximum{}, {device::cpu, "serial"});
    same("exclusive_scan");
    EXPECT_EQ(sluice::reduce(v, 0u, sum{}, {device::cpu, "vectorized" + p}), sluice::reduce(v, 0u, sum{}, {device::cpu, "serial"}));
  }
}

}  // namespace
