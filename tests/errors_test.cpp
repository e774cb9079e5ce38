// The front end's checks (include/sluice/detail/checks.hpp): null ranges, sizes, capacities, overlaps, bit
// ranges, algorithm names and parameters; each error names the function and the argument.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

TEST(api, null_with_size_is_refused) {
  std::span<const std::uint32_t> bad(static_cast<const std::uint32_t*>(nullptr), 10);
  std::vector<std::uint32_t> out(10);
  expect_error(errc::invalid_argument, {"sluice::reduce:", "'in'", "null"}, [&] { (void)sluice::reduce(bad); });
  expect_error(errc::invalid_argument, {"inclusive_scan", "'in'"}, [&] { sluice::inclusive_scan(bad, out); });
  std::vector<std::uint8_t> flags(10, 1);
  expect_error(errc::invalid_argument, {"compact", "'in'"}, [&] { (void)sluice::compact(bad, flags, out); });
  std::span<std::uint32_t> bad_keys(static_cast<std::uint32_t*>(nullptr), 3);
  expect_error(errc::invalid_argument, {"radix_sort", "'keys'"}, [&] { sluice::radix_sort(bad_keys); });
}

TEST(api, empty_inputs) {
  std::vector<std::uint32_t> none, out;
  std::vector<std::uint8_t> flags;
  EXPECT_EQ(sluice::reduce(none, 7u), 7u);
  sluice::inclusive_scan(none, out);
  EXPECT_EQ(sluice::compact(none, flags, out), 0u);
  EXPECT_EQ(sluice::partition_flagged(none, flags, out), 0u);
  EXPECT_EQ(sluice::partition_unordered_flagged(none, flags, out), 0u);
  EXPECT_EQ(sluice::partition_unordered(none, out, less_than(1u)), 0u);
  sluice::radix_sort(out);
}

TEST(api, flags_must_match_input) {
  std::vector<std::uint32_t> in(10), out(10);
  std::vector<std::uint8_t> flags(9, 1);
  expect_error(errc::invalid_argument, {"sluice::compact", "'flags'", "9", "10"}, [&] { (void)sluice::compact(in, flags, out); });
  expect_error(errc::invalid_argument, {"partition_flagged", "'flags'"}, [&] { (void)sluice::partition_flagged(in, flags, out); });
  expect_error(errc::invalid_argument, {"partition_unordered_flagged", "'flags'"},
               [&] { (void)sluice::partition_unordered_flagged(in, flags, out); });
}

TEST(api, output_capacity) {
  std::vector<std::uint32_t> in(100);
  std::iota(in.begin(), in.end(), 0u);
  std::vector<std::uint8_t> flags(100, 1);
  std::vector<std::uint32_t> out(60, 0xdeadbeef);
  expect_error(errc::invalid_argument, {"sluice::compact", "'out'", "holds 50", "100 were selected"},
               [&] { (void)sluice::compact(in, flags, std::span<std::uint32_t>(out).first(50)); });
  for (std::size_t i = 50; i < 60; ++i) EXPECT_EQ(out[i], 0xdeadbeefu) << "wrote past the span at " << i;
  std::uint64_t count = 0;
  sluice::compact_async(in, flags, std::span<std::uint32_t>(out).first(50), &count);
  EXPECT_EQ(count, 100u);  // the async form reports the full count, writes only what fits
  std::vector<std::uint32_t> small(99);
  expect_error(errc::invalid_argument, {"sluice::partition", "'out'", "99"}, [&] { (void)sluice::partition(in, small, less_than(5u)); });
  expect_error(errc::invalid_argument, {"sluice::partition_unordered", "'out'", "99"},
               [&] { (void)sluice::partition_unordered(in, small, less_than(5u)); });
  expect_error(errc::invalid_argument, {"partition_unordered_async", "'count'", "null"},
               [&] { sluice::partition_unordered_async(in, std::vector<std::uint32_t>(100), less_than(5u), nullptr); });
  std::vector<std::uint32_t> short_scan(99);
  expect_error(errc::invalid_argument, {"inclusive_scan", "'out'"}, [&] { sluice::inclusive_scan(in, short_scan); });
}

TEST(api, aliasing) {
  std::vector<std::uint32_t> v(100);
  std::iota(v.begin(), v.end(), 0u);
  sluice::inclusive_scan(v, v);  // in place is allowed for scans
  EXPECT_EQ(v[99], 4950u);
  std::iota(v.begin(), v.end(), 0u);
  EXPECT_EQ(sluice::compact_if(v, v, less_than(10u)), 10u);  // in place compaction on the CPU
  EXPECT_EQ(v[9], 9u);
  std::span<std::uint32_t> s(v);
  expect_error(errc::invalid_argument, {"partially overlaps"}, [&] { sluice::inclusive_scan(s.first(50), s.subspan(10, 50)); });
  expect_error(errc::unsupported, {"sluice::partition", "does not run in place"}, [&] { (void)sluice::partition(s, s, less_than(3u)); });
  std::vector<std::uint32_t> keys(10);
  expect_error(errc::invalid_argument, {"radix_sort", "'values'"}, [&] { sluice::radix_sort(std::span(keys).first(8), std::span(keys).subspan(2, 8)); });
}

TEST(api, bit_range) {
  std::vector<std::uint32_t> k = {3, 1, 2};
  expect_error(errc::invalid_argument, {"radix_sort", "'bits'", "32"}, [&] { sluice::radix_sort(k, order::ascending, {0, 33}); });
  expect_error(errc::invalid_argument, {"'bits'"}, [&] { sluice::radix_sort(k, order::ascending, {-1, 8}); });
  expect_error(errc::invalid_argument, {"'bits'"}, [&] { sluice::radix_sort(k, order::ascending, {9, 8}); });
  std::vector<std::uint32_t> k2 = {0x13, 0x21, 0x12};  // sort by the low nibble only: stable on ties
  sluice::radix_sort(k2, order::ascending, {0, 4});
  EXPECT_EQ(k2, (std::vector<std::uint32_t>{0x21, 0x12, 0x13}));
}

TEST(api, unknown_algorithm_names_the_choices) {
  std::vector<std::uint32_t> v(4);
  expect_error(errc::invalid_argument, {"unknown algorithm 'nope'", "valid: best, serial"},
               [&] { (void)sluice::reduce(v, 0u, sum{}, {device::cpu, "nope"}); });
  expect_error(errc::invalid_argument, {"unknown algorithm 'cub'", "on cpu"}, [&] { (void)sluice::reduce(v, 0u, sum{}, {device::cpu, "cub"}); });
}

TEST(api, parameters_only_where_a_variant_has_them) {
  std::vector<std::uint32_t> v(4);
  expect_error(errc::invalid_argument, {"sluice::reduce", "'serial:x=1'", "takes no parameters"},
               [&] { (void)sluice::reduce(v, 0u, sum{}, {device::cpu, "serial:x=1"}); });
  expect_error(errc::invalid_argument, {"'best:s=64'", "takes no parameters"},
               [&] { (void)sluice::reduce(v, 0u, sum{}, {device::cpu, "best:s=64"}); });
  expect_error(errc::invalid_argument, {"unknown algorithm 'nope'"}, [&] { (void)sluice::reduce(v, 0u, sum{}, {device::cpu, "nope:s=1"}); });
}

}  // namespace
