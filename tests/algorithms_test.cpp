// The algorithm registry: a default per primitive and device, and which entries take which parameters.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

// A spec with parameters goes to the entries of its name that know every key (sluice verify --algo, the
// policies tests): decoupled-lookback's `pipelined` and `blocks` are the scan's, compact's and partition's, `phased`
// compact's and partition's, `resident` and `reversed` partition's.
TEST(api, specs_with_parameters_go_to_the_entries_that_know_them) {
  const auto& scan = find_algorithm(primitive::scan, device::cuda, "decoupled-lookback", "t");
  const auto& compact = find_algorithm(primitive::compact, device::cuda, "decoupled-lookback", "t");
  const auto& cpu = find_algorithm(primitive::compact, device::cpu, "billeter", "t");
  EXPECT_TRUE(takes_params(scan, "decoupled-lookback", "t"));
  EXPECT_TRUE(takes_params(scan, "decoupled-lookback:pipelined=on", "t"));
  EXPECT_FALSE(takes_params(scan, "decoupled-lookback:phased=on", "t"));
  EXPECT_TRUE(takes_params(compact, "decoupled-lookback:phased=off", "t"));
  EXPECT_TRUE(takes_params(compact, "decoupled-lookback:pipelined=on", "t"));
  EXPECT_TRUE(takes_params(compact, "decoupled-lookback:phased=off,pipelined=on", "t"));
  EXPECT_TRUE(takes_params(scan, "decoupled-lookback:pipelined=on,blocks=3", "t"));
  EXPECT_TRUE(takes_params(compact, "decoupled-lookback:blocks=3", "t"));
  const auto& partition = find_algorithm(primitive::partition, device::cuda, "decoupled-lookback", "t");
  EXPECT_TRUE(takes_params(partition, "decoupled-lookback:phased=on", "t"));
  EXPECT_TRUE(takes_params(partition, "decoupled-lookback:phased=off,pipelined=on", "t"));
  EXPECT_TRUE(takes_params(partition, "decoupled-lookback:pipelined=on,reversed=off,blocks=3", "t"));
  EXPECT_FALSE(takes_params(scan, "decoupled-lookback:reversed=on", "t"));
  EXPECT_FALSE(takes_params(compact, "decoupled-lookback:reversed=on", "t"));
  EXPECT_TRUE(takes_params(partition, "decoupled-lookback:phased=off,resident=on", "t"));
  EXPECT_FALSE(takes_params(compact, "decoupled-lookback:resident=on", "t"));
  EXPECT_TRUE(takes_params(scan, "decoupled-lookback:cluster=off", "t"));
  EXPECT_TRUE(takes_params(compact, "decoupled-lookback:cluster=off,phased=off", "t"));
  EXPECT_TRUE(takes_params(partition, "decoupled-lookback:cluster=off,resident=on", "t"));
  EXPECT_TRUE(takes_params(find_algorithm(primitive::partition_unordered, device::cuda, "decoupled-lookback", "t"),
                           "decoupled-lookback:cluster=off", "t"));
  const auto& reduce = find_algorithm(primitive::reduce, device::cuda, "vectorized", "t");
  EXPECT_TRUE(takes_params(reduce, "vectorized:dynamic=on", "t"));
  EXPECT_FALSE(takes_params(reduce, "vectorized:threads=2", "t"));  // the CPU entry's key
  EXPECT_TRUE(takes_params(cpu, "billeter:threads=2,simd=avx2", "t"));
  EXPECT_FALSE(takes_params(cpu, "billeter:s=2", "t"));  // "threads=" ends in "s=": a key starts after a space or comma
  // Keys listed without a default ("P", "P, simd=popc|prefix"), as the CUDA papers' variants list theirs.
  EXPECT_TRUE(takes_params(find_algorithm(primitive::scan, device::cuda, "billeter-scan", "t"), "billeter-scan:P=33", "t"));
  EXPECT_TRUE(takes_params(find_algorithm(primitive::compact, device::cuda, "billeter", "t"), "billeter:P=7,simd=prefix,t=0", "t"));
  EXPECT_FALSE(takes_params(find_algorithm(primitive::compact, device::cuda, "billeter", "t"), "billeter:simd=prefix,Q=1", "t"));
  expect_error(errc::invalid_argument, {"'billeter:=2'", "is not key=value"}, [&] { (void)takes_params(cpu, "billeter:=2", "t"); });
}

TEST(api, list_has_a_default_per_primitive_and_device) {
  for (auto p : {primitive::reduce, primitive::scan, primitive::compact, primitive::compact_unordered, primitive::partition,
                 primitive::partition_unordered, primitive::radix_sort})
    for (auto d : {device::cpu, device::cuda}) {
      const auto& a = find_algorithm(p, d, "best", "test");
      EXPECT_TRUE(runs_on(a, d)) << to_string(p);
    }
  for (auto p : {primitive::reduce, primitive::compact, primitive::compact_unordered})  // the papers' systems on gl
    EXPECT_TRUE(find_algorithm(p, device::gl, "best", "test").on_gl) << to_string(p);
}

// The runs family: a serial reference and the three-phase default on the CPU, taking the CPU's tunables; the
// look-back on CUDA; no entry on gl, which find_algorithm says as unsupported.
TEST(api, runs_are_registered) {
  for (auto p : {primitive::unique, primitive::run_length_encode}) {
    SCOPED_TRACE(std::string(to_string(p)));
    const auto& best = find_algorithm(p, device::cpu, "best", "test");
    EXPECT_EQ(best.name, "three-phase");
    EXPECT_TRUE(best.stable);
    EXPECT_TRUE(takes_params(best, "three-phase:threads=2,simd=scalar", "t"));
    EXPECT_FALSE(takes_params(best, "three-phase:s=2", "t"));
    EXPECT_EQ(find_algorithm(p, device::cpu, "serial", "test").name, "serial");
    EXPECT_EQ(find_algorithm(p, device::cuda, "best", "test").name, "decoupled-lookback");
    expect_error(errc::unsupported, {"the gl device has no " + std::string(to_string(p)) + " algorithm"},
                 [&] { (void)find_algorithm(p, device::gl, "best", "test"); });
  }
  EXPECT_EQ(to_string(primitive::unique), "unique");
  EXPECT_EQ(to_string(primitive::run_length_encode), "run_length_encode");
}

// The by-key and segmented family: likewise a serial reference and the three-phase default on the CPU, the
// look-back on CUDA, nothing on gl.
TEST(api, by_key_and_segmented_are_registered) {
  for (auto p : {primitive::reduce_by_key, primitive::scan_by_key, primitive::segmented_reduce, primitive::segmented_scan}) {
    SCOPED_TRACE(std::string(to_string(p)));
    const auto& best = find_algorithm(p, device::cpu, "best", "test");
    EXPECT_EQ(best.name, "three-phase");
    EXPECT_TRUE(best.stable);
    EXPECT_TRUE(takes_params(best, "three-phase:threads=2,simd=scalar", "t"));
    EXPECT_FALSE(takes_params(best, "three-phase:s=2", "t"));
    EXPECT_EQ(find_algorithm(p, device::cpu, "serial", "test").name, "serial");
    EXPECT_EQ(find_algorithm(p, device::cuda, "best", "test").name, "decoupled-lookback");
    expect_error(errc::unsupported, {"the gl device has no " + std::string(to_string(p)) + " algorithm"},
                 [&] { (void)find_algorithm(p, device::gl, "best", "test"); });
  }
  EXPECT_EQ(to_string(primitive::reduce_by_key), "reduce_by_key");
  EXPECT_EQ(to_string(primitive::scan_by_key), "scan_by_key");
  EXPECT_EQ(to_string(primitive::segmented_reduce), "segmented_reduce");
  EXPECT_EQ(to_string(primitive::segmented_scan), "segmented_scan");
}

}  // namespace
