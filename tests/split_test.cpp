// The k-way split through the public API: the registry's entries, every refused argument (with nothing written),
// a hash-join-like call with a function of the element, split_async leaving out ids outside [0, k), and the
// same answer for every thread count, idle and beside busy threads. The verification matrix
// (src/verify/verify_split.cpp) checks every registered variant against the reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "sluice/sluice.hpp"
#include "test_support.hpp"
#include "verify/busy_threads.hpp"

namespace {

using sluice::device;
using sluice::errc;
using sluice::options;
using sluice::primitive;
using sluice_test::expect_error;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

std::vector<u32> random_u32(u64 n, u64 seed) {
  std::mt19937_64 g(seed);
  std::vector<u32> v(n);
  for (auto& x : v) x = static_cast<u32>(g());
  return v;
}

// The stable split by hand: bucket 0's elements in order, then bucket 1's...
template <class T, class B>
std::pair<std::vector<T>, std::vector<u64>> by_hand(const std::vector<T>& in, B bucket_of, u32 k) {
  std::vector<std::vector<T>> buckets(k);
  for (const T& x : in) buckets[bucket_of(x)].push_back(x);
  std::pair<std::vector<T>, std::vector<u64>> r;
  for (const auto& b : buckets) {
    r.second.push_back(r.first.size());
    r.first.insert(r.first.end(), b.begin(), b.end());
  }
  r.second.push_back(r.first.size());
  return r;
}

TEST(split, is_registered_on_the_cpu) {
  const auto& best = sluice::find_algorithm(primitive::split, device::cpu, "best", "test");
  EXPECT_EQ(best.name, "multisplit");
  EXPECT_TRUE(best.stable);
  EXPECT_TRUE(sluice::takes_params(best, "multisplit:threads=2", "t"));
  EXPECT_EQ(sluice::find_algorithm(primitive::split, device::cpu, "serial", "test").name, "serial");
  EXPECT_EQ(sluice::to_string(primitive::split), "split");
  expect_error(errc::unsupported, {"the gl device has no split algorithm"},
               [] { (void)sluice::find_algorithm(primitive::split, device::gl, "best", "test"); });
}

TEST(split, refuses_bad_arguments_and_writes_nothing) {
  const auto in = random_u32(1000, 1);
  std::vector<u32> out(1000, 7);
  std::vector<u64> offsets(257, 7);
  const auto untouched = [&] {
    EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](u32 x) { return x == 7; }));
    EXPECT_TRUE(std::all_of(offsets.begin(), offsets.end(), [](u64 x) { return x == 7; }));
  };
  expect_error(errc::invalid_argument, {"split", "'k'", "is 0"}, [&] { sluice::split(in, sluice::radix_digit{0, 1}, 0, out, offsets); });
  expect_error(errc::invalid_argument, {"'k'", "is 257", "[1, 256]"}, [&] { sluice::split(in, [](u32 x) { return x % 257; }, 257, out, offsets); });
  expect_error(errc::invalid_argument, {"'bucket_offsets'", "holds 16", "17 are needed"},
               [&] { sluice::split(in, sluice::radix_digit{0, 4}, 16, out, std::span<u64>(offsets).first(16)); });
  expect_error(errc::invalid_argument, {"'out'", "holds 999", "1000 are needed"},
               [&] { sluice::split(in, sluice::radix_digit{0, 4}, 16, std::span<u32>(out).first(999), offsets); });
  expect_error(errc::invalid_argument, {"bucket_of", "bits must be in [1, 8]"}, [&] { sluice::split(in, sluice::radix_digit{0, 9}, 256, out, offsets); });
  expect_error(errc::invalid_argument, {"bucket_of", "shift in [0, 32)"}, [&] { sluice::split(in, sluice::radix_digit{32, 4}, 16, out, offsets); });
  // An id outside [0, k): refused before anything is written, naming the first such element.
  std::vector<u32> ids(1000);
  for (u32 i = 0; i < 1000; ++i) ids[i] = i == 613 ? 16 : i % 16;
  expect_error(errc::invalid_argument, {"bucket_of(in[613]) is 16", "not in [0, k = 16)"},
               [&] { sluice::split(ids, [](u32 x) { return x; }, 16, out, offsets); });
  expect_error(errc::invalid_argument, {"bucket_of(in[0]) is -1"}, [&] { sluice::split(in, [](u32) { return -1; }, 16, out, offsets); });
  untouched();
  // In place, or out overlapping the offsets.
  std::vector<u32> data = in;
  expect_error(errc::unsupported, {"'out' aliases 'in'"}, [&] { sluice::split(data, sluice::radix_digit{0, 4}, 16, data, offsets); });
  std::vector<u64> both(2000);
  expect_error(errc::invalid_argument, {"'bucket_offsets' overlaps 'out'"},
               [&] { sluice::split(std::vector<u64>(1000, 1), sluice::radix_digit{0, 4}, 16, std::span<u64>(both).first(1000), std::span<u64>(both).subspan(900, 17)); });
  expect_error(errc::invalid_argument, {"unknown algorithm 'fast'"},
               [&] { sluice::split(in, sluice::radix_digit{0, 4}, 16, out, offsets, options{device::cpu, "fast", nullptr}); });
}

// A hash join's partitioning: rows by the hash of their key, 64 buckets.
TEST(split, partitions_by_a_function_of_the_element) {
  struct row {
    u32 key, payload;
  };
  std::vector<row> rows(300000);
  std::mt19937 g(5);
  for (u32 i = 0; i < rows.size(); ++i) rows[i] = {static_cast<u32>(g()) % 5000, i};
  const auto hash = [](const row& r) { return (r.key * 2654435761u) >> 26; };
  std::vector<row> out(rows.size());
  std::vector<u64> offsets(65);
  sluice::split(rows, hash, 64, out, offsets);
  const auto want = by_hand(rows, hash, 64);
  EXPECT_EQ(offsets, want.second);
  for (std::size_t i = 0; i < rows.size(); ++i) ASSERT_EQ(out[i].payload, want.first[i].payload) << i;
}

TEST(split, async_leaves_out_ids_outside_k) {
  const auto in = random_u32(200000, 2);
  const auto bucket = [](u32 x) { return x % 10; };  // 8 and 9 are outside k = 8
  std::vector<u32> kept;
  for (u32 x : in)
    if (x % 10 < 8) kept.push_back(x);
  const auto want = by_hand(kept, bucket, 8);
  std::vector<u32> out(in.size(), 0);
  std::vector<u64> offsets(9);
  sluice::split_async(in, bucket, 8, out, offsets);
  EXPECT_EQ(offsets, want.second);
  EXPECT_LT(offsets[8], in.size());
  EXPECT_TRUE(std::equal(want.first.begin(), want.first.end(), out.begin()));
  EXPECT_TRUE(std::all_of(out.begin() + static_cast<std::ptrdiff_t>(kept.size()), out.end(), [](u32 x) { return x == 0; }));
}

// Every thread count, idle and with busy threads on every processor, gives the stable answer; floats by the
// top byte of their image (sign and exponent: negative values first).
TEST(split, every_thread_count_gives_the_same_answer) {
  std::mt19937_64 g(3);
  std::vector<float> in(5'000'017);
  for (auto& x : in) x = static_cast<float>(static_cast<std::int64_t>(g() % 2000001) - 1000000) / 7.0f;
  const sluice::radix_digit digit{24, 8};
  const auto want = by_hand(in, digit, 256);
  for (int busy : {0, 1}) {
    const sluice::verify::busy_threads load(busy ? sluice::cpu_backend::processors() : 0);
    for (int threads : {1, 2, 3, 16, 64}) {
      SCOPED_TRACE("threads " + std::to_string(threads) + (busy ? ", busy" : ""));
      const std::string spec = "multisplit:threads=" + std::to_string(threads);
      std::vector<float> out(in.size());
      std::vector<u64> offsets(257);
      sluice::split(in, digit, 256, out, offsets, options{device::cpu, spec, nullptr});
      EXPECT_EQ(offsets, want.second);
      EXPECT_EQ(std::memcmp(out.data(), want.first.data(), out.size() * sizeof(float)), 0);
    }
  }
}

}  // namespace
