// Top-k through the public API: the registry's entries, every refused argument (with nothing written), ties
// resolved by position, the float order of radix_sort, and the same answer for every thread count, idle and
// beside busy threads. The verification matrix (src/verify/verify_top_k.cpp) checks every registered variant
// against the reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "sluice/sluice.hpp"
#include "test_support.hpp"
#include "verify/busy_threads.hpp"

namespace {

using sluice::device;
using sluice::errc;
using sluice::options;
using sluice::order;
using sluice::output_order;
using sluice::primitive;
using sluice_test::expect_error;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

// The positions of the k largest by value (ties: lower position first), by hand.
std::vector<u64> largest_by_hand(const std::vector<u32>& in, u64 k) {
  std::vector<u64> p(in.size());
  std::iota(p.begin(), p.end(), u64{0});
  std::stable_sort(p.begin(), p.end(), [&](u64 a, u64 b) { return in[a] > in[b]; });
  p.resize(k);
  return p;
}

TEST(top_k, is_registered_on_the_cpu) {
  const auto& best = sluice::find_algorithm(primitive::top_k, device::cpu, "best", "test");
  EXPECT_EQ(best.name, "radix-select");
  EXPECT_TRUE(sluice::takes_params(best, "radix-select:threads=2", "t"));
  EXPECT_EQ(sluice::find_algorithm(primitive::top_k, device::cpu, "serial", "test").name, "serial");
  EXPECT_EQ(sluice::to_string(primitive::top_k), "top_k");
  expect_error(errc::unsupported, {"top_k"}, [] { (void)sluice::find_algorithm(primitive::top_k, device::gl, "best", "test"); });
}

TEST(top_k, refuses_bad_arguments_and_writes_nothing) {
  std::vector<u32> in(1000);
  std::iota(in.begin(), in.end(), 0u);
  std::vector<u32> out(1000, 7);
  std::vector<u64> idx(1000, 7);
  const auto untouched = [&] {
    EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](u32 x) { return x == 7; }));
    EXPECT_TRUE(std::all_of(idx.begin(), idx.end(), [](u64 x) { return x == 7; }));
  };
  expect_error(errc::invalid_argument, {"top_k", "'k'", "is 1001", "holds 1000"}, [&] { sluice::top_k(in, 1001, out, idx); });
  expect_error(errc::invalid_argument, {"'out'", "holds 9", "10 are needed"}, [&] { sluice::top_k(in, 10, std::span<u32>(out).first(9), idx); });
  expect_error(errc::invalid_argument, {"'indices'", "holds 9", "10 are needed"}, [&] { sluice::top_k(in, 10, out, std::span<u64>(idx).first(9)); });
  expect_error(errc::unsupported, {"'out' aliases 'in'"}, [&] { sluice::top_k(std::span<u32>(out), 10, std::span<u32>(out)); });
  expect_error(errc::invalid_argument, {"unknown algorithm 'fast'"}, [&] { sluice::top_k(in, 10, out, idx, order::descending, output_order::sorted, options{device::cpu, "fast", nullptr}); });
  untouched();
  sluice::top_k(in, 0, out, idx);  // k = 0: nothing to write
  untouched();
}

TEST(top_k, takes_ties_by_position_in_either_output_order) {
  // Values 0..9 repeating: the 25 largest are the ten 9s, ten 8s and the first five 7s.
  std::vector<u32> in(100);
  for (u32 i = 0; i < 100; ++i) in[i] = i % 10;
  std::vector<u32> out(25);
  std::vector<std::int64_t> idx(25);
  sluice::top_k(in, 25, out, idx);
  for (int j = 0; j < 25; ++j) {
    EXPECT_EQ(out[j], j < 10 ? 9u : j < 20 ? 8u : 7u) << j;
    EXPECT_EQ(idx[j], j < 10 ? 9 + 10 * j : j < 20 ? 8 + 10 * (j - 10) : 7 + 10 * (j - 20)) << j;
  }
  sluice::top_k(in, 25, out, idx, order::descending, output_order::input);
  std::vector<std::int64_t> want;
  for (std::int64_t i = 0; i < 100; ++i)
    if (in[i] >= 8 || (in[i] == 7 && i < 50)) want.push_back(i);
  EXPECT_EQ(idx, want);
  // The smallest: the ten 0s, then the first five 1s.
  sluice::top_k(in, 15, out, idx, order::ascending);
  for (int j = 0; j < 15; ++j) EXPECT_EQ(idx[j], j < 10 ? 10 * j : 1 + 10 * (j - 10)) << j;
}

TEST(top_k, orders_floats_as_radix_sort_does) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> in = {1.0f, -0.0f, nan, 0.0f, -inf, inf, -nan, 2.5f};
  std::vector<float> out(3);
  std::vector<u64> idx(3);
  sluice::top_k(in, 3, out, idx);
  EXPECT_EQ(idx, (std::vector<u64>{2, 5, 7}));  // +NaN above +inf, then 2.5
  sluice::top_k(in, 3, out, idx, order::ascending);
  EXPECT_EQ(idx, (std::vector<u64>{6, 4, 1}));  // -NaN below -inf, then -0.0 before +0.0
}

// Every thread count, idle and with busy threads on every processor, gives the same answer; large k (the
// threshold's bucket is not gathered) and small k (it is), keys with many ties.
TEST(top_k, every_thread_count_gives_the_same_answer) {
  std::mt19937_64 g(7);
  std::vector<u32> in(3'000'017);
  for (auto& x : in) x = static_cast<u32>(g() % 100000) << 8;
  for (u64 k : {u64{1}, u64{1000}, u64{1'500'000}}) {
    const auto want = largest_by_hand(in, k);
    for (int busy : {0, 1}) {
      const sluice::verify::busy_threads load(busy ? sluice::cpu_backend::processors() : 0);
      for (int threads : {1, 2, 3, 16, 64}) {
        SCOPED_TRACE("k " + std::to_string(k) + ", threads " + std::to_string(threads) + (busy ? ", busy" : ""));
        std::vector<u32> out(k);
        std::vector<u64> idx(k);
        sluice::top_k(in, k, out, idx, order::descending, output_order::sorted,
                      options{device::cpu, "radix-select:threads=" + std::to_string(threads), nullptr});
        EXPECT_EQ(idx, want);
        for (u64 j = 0; j < k; ++j) ASSERT_EQ(out[j], in[want[j]]) << j;
      }
    }
  }
}

}  // namespace
