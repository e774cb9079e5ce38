// The API as a caller meets it first: the primitives on host vectors, custom operators and predicates.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

TEST(api, ten_line_example) {
  std::vector<float> x = {3, -1, 4, -1, 5, -9, 2, 6};
  std::vector<float> pos(x.size());
  const auto kept = sluice::compact_if(x, pos, greater_than(0.0f));
  EXPECT_EQ(kept, 5u);
  EXPECT_EQ(std::vector<float>(pos.begin(), pos.begin() + 5), (std::vector<float>{3, 4, 5, 2, 6}));
  EXPECT_EQ(sluice::reduce(x), 9.0f);
  EXPECT_EQ(sluice::reduce(x, -100.0f, maximum{}), 6.0f);
  std::vector<float> sums(x.size());
  sluice::inclusive_scan(x, sums);
  EXPECT_EQ(sums.back(), 9.0f);
  std::vector<std::int32_t> keys = {5, -2, 7, -2, 0};
  std::vector<std::uint32_t> vals = {0, 1, 2, 3, 4};
  sluice::radix_sort(keys, vals, order::descending);
  EXPECT_EQ(keys, (std::vector<std::int32_t>{7, 5, 0, -2, -2}));
  EXPECT_EQ(vals, (std::vector<std::uint32_t>{2, 0, 4, 1, 3}));  // stable: the first -2 stays first
}

TEST(api, custom_operators_and_predicates_on_cpu) {
  struct pair_max {  // associative, not commutative-dependent: keeps the first maximum
    std::array<int, 2> operator()(std::array<int, 2> a, std::array<int, 2> b) const { return b[0] > a[0] ? b : a; }
  };
  std::vector<std::array<int, 2>> v = {{1, 0}, {5, 1}, {3, 2}, {5, 3}};
  EXPECT_EQ(sluice::reduce(v, std::array<int, 2>{-1, -1}, pair_max{}), (std::array<int, 2>{5, 1}));
  std::vector<int> x = {1, 2, 3, 4, 5, 6};
  std::vector<int> even(6);
  EXPECT_EQ(sluice::compact_if(x, even, [](int a) { return a % 2 == 0; }), 3u);
  std::vector<int> split(6);
  EXPECT_EQ(sluice::partition(x, split, [](int a) { return a > 4; }), 2u);
  EXPECT_EQ(split, (std::vector<int>{5, 6, 1, 2, 3, 4}));
  std::vector<int> any(6);  // the kept run in order; the rejected run only as a multiset
  EXPECT_EQ(sluice::partition_unordered(x, any, [](int a) { return a > 4; }), 2u);
  EXPECT_EQ(std::vector<int>(any.begin(), any.begin() + 2), (std::vector<int>{5, 6}));
  std::sort(any.begin() + 2, any.end());
  EXPECT_EQ(any, (std::vector<int>{5, 6, 1, 2, 3, 4}));
}

}  // namespace
