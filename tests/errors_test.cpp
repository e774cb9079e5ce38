// The front end's checks (include/sluice/detail/checks.hpp): null ranges, sizes, capacities, overlaps, bit
// ranges, algorithm names and parameters; each error names the function and the argument.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <span>
#include <string>
#include <utility>
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

// Flags and out may not share a byte (writing out would change flags still to be read): every form that takes
// flags refuses a partial overlap on either side and the same start, before it writes anything; flags right
// before or after out are fine.
TEST(api, flags_must_not_overlap_out) {
  using bytes = std::span<std::uint8_t>;
  std::vector<std::uint8_t> in(16);
  std::iota(in.begin(), in.end(), std::uint8_t{100});
  std::uint64_t count = 0;
  const std::vector<std::pair<std::string, std::function<std::uint64_t(bytes, bytes)>>> forms = {
      {"compact", [&](bytes f, bytes o) { return sluice::compact(in, f, o); }},
      {"compact_async", [&](bytes f, bytes o) { return sluice::compact_async(in, f, o, &count), count; }},
      {"compact_unordered", [&](bytes f, bytes o) { return sluice::compact_unordered(in, f, o); }},
      {"compact_unordered_async", [&](bytes f, bytes o) { return sluice::compact_unordered_async(in, f, o, &count), count; }},
      {"partition_flagged", [&](bytes f, bytes o) { return sluice::partition_flagged(in, f, o); }},
      {"partition_flagged_async", [&](bytes f, bytes o) { return sluice::partition_flagged_async(in, f, o, &count), count; }},
      {"partition_unordered_flagged", [&](bytes f, bytes o) { return sluice::partition_unordered_flagged(in, f, o); }},
      {"partition_unordered_flagged_async",
       [&](bytes f, bytes o) { return sluice::partition_unordered_flagged_async(in, f, o, &count), count; }},
  };
  for (const auto& [name, call] : forms) {
    std::vector<std::uint8_t> buf(48);
    for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<std::uint8_t>(i % 3 == 0 ? 1 : 0);
    const std::vector<std::uint8_t> before = buf;
    const bytes b(buf), flags = b.subspan(16, 16);  // flags at bytes 16..31: 5 of them set
    for (const std::size_t at : {16, 8, 24, 31, 1}) {  // out at bytes at..at+15 (at 31: 1 byte shared, at 1: 1 byte)
      SCOPED_TRACE(name + ", out at byte " + std::to_string(at));
      expect_error(errc::invalid_argument, {"sluice::" + name + ":", "'out'", "overlaps 'flags'"},
                   [&, call = call] { (void)call(flags, b.subspan(at, 16)); });
      EXPECT_EQ(buf, before) << "written before the error";
    }
    for (const std::size_t at : {0, 32}) EXPECT_EQ(call(flags, b.subspan(at, 16)), 5u) << name << ", out at byte " << at;
  }
  // Elements of another size: out's words over the flag bytes.
  std::vector<std::uint32_t> words(16, 7), in_words(16, 3);
  const std::span<const std::uint8_t> flag_bytes(reinterpret_cast<const std::uint8_t*>(words.data()) + 10, 16);
  expect_error(errc::invalid_argument, {"sluice::compact:", "'out'", "overlaps 'flags'"},
               [&] { (void)sluice::compact(in_words, flag_bytes, words); });
  expect_error(errc::invalid_argument, {"sluice::partition_flagged:", "'out'", "overlaps 'flags'"},
               [&] { (void)sluice::partition_flagged(in_words, flag_bytes, words); });
  EXPECT_EQ(words, std::vector<std::uint32_t>(16, 7));
}

// Only an end of -1 means the key's width; any other negative end is refused, keys and values untouched.
TEST(api, bit_range_end_below_minus_one_is_refused) {
  for (const int end : {-2, -5, std::numeric_limits<int>::min()}) {
    SCOPED_TRACE("end " + std::to_string(end));
    std::vector<std::uint32_t> k = {3, 1, 2}, v = {0, 1, 2};
    expect_error(errc::invalid_argument, {"sluice::radix_sort:", "'bits'", std::to_string(end), "only an end of -1"},
                 [&] { sluice::radix_sort(k, order::ascending, {0, end}); });
    expect_error(errc::invalid_argument, {"'bits'"}, [&] { sluice::radix_sort(k, v, order::descending, {0, end}); });
    std::vector<double> d = {2.5, -1.0};
    expect_error(errc::invalid_argument, {"'bits'"}, [&] { sluice::radix_sort(d, order::ascending, {4, end}); });
    EXPECT_EQ(k, (std::vector<std::uint32_t>{3, 1, 2}));
    EXPECT_EQ(v, (std::vector<std::uint32_t>{0, 1, 2}));
    EXPECT_EQ(d, (std::vector<double>{2.5, -1.0}));
  }
  std::vector<std::uint64_t> k = {3, 1ull << 63, 2};
  sluice::radix_sort(k, order::ascending, {0, -1});
  EXPECT_EQ(k, (std::vector<std::uint64_t>{2, 3, 1ull << 63}));
}

}  // namespace
