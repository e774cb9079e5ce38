// The segmented sort on the GPU at sizes past the verification matrix's, against the CPU's answer: many short
// segments (the warp and block tiers), a few long ones (each sorted alone) and many long ones (the two
// whole-range sorts), keys alone and with values, both orders, the tiered default and the cub peer.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "sluice/device_buffer.hpp"
#include "sluice/sort.hpp"
#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;
using u64 = std::uint64_t;

template <class K>
std::vector<K> keys(u64 n, u64 seed) {
  std::mt19937_64 g(seed);
  std::vector<K> v(n);
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<K>) x = static_cast<K>(static_cast<double>(static_cast<std::int64_t>(g() % 4001)) / 3.0 - 600.0);
    else x = static_cast<K>(g() % 100003);  // ties
  }
  return v;
}

// Segment lengths drawn from [0, max_len], over the whole input.
std::vector<u64> offsets(u64 n, u64 max_len, u64 seed) {
  std::mt19937_64 g(seed);
  std::vector<u64> off = {0};
  while (off.back() < n) off.push_back(std::min(n, off.back() + g() % (max_len + 1)));
  return off;
}

template <class K>
void check(u64 n, const std::vector<u64>& off, order ord, const char* algo) {
  SCOPED_TRACE(std::string(algo) + ", n = " + std::to_string(n) + ", " + std::to_string(off.size() - 1) + " segments" +
               (ord == order::descending ? ", descending" : ", ascending"));
  const auto h = keys<K>(n, n + off.size());
  std::vector<K> want = h;
  std::vector<std::uint32_t> want_v(n);
  for (u64 i = 0; i < n; ++i) want_v[i] = static_cast<std::uint32_t>(i);
  sluice::segmented_radix_sort(want, want_v, off, ord);
  device_buffer<K> k(h);
  std::vector<std::uint32_t> iota(n);
  for (u64 i = 0; i < n; ++i) iota[i] = static_cast<std::uint32_t>(i);
  device_buffer<std::uint32_t> v(iota);
  device_buffer<u64> o(off);
  sluice::segmented_radix_sort(k, v, o, ord, {}, options{device::cuda, algo});
  const auto got = k.download();
  ASSERT_EQ(std::memcmp(got.data(), want.data(), n * sizeof(K)), 0);
  ASSERT_EQ(v.download(), want_v);
  device_buffer<K> alone(h);
  sluice::segmented_radix_sort(alone, o, ord, {}, options{device::cuda, algo});
  ASSERT_EQ(std::memcmp(alone.download().data(), want.data(), n * sizeof(K)), 0);
}

TEST_F(gpu, segmented_radix_sort_matches_the_cpu_past_the_matrix) {
  const u64 n = sanitizing() ? (u64{1} << 16) + 3 : (u64{1} << 23) + 3;
  for (const char* algo : {"tiered", "cub"}) {
    for (const auto ord : {order::ascending, order::descending}) {
      check<std::uint32_t>(n, offsets(n, 100, 1), ord, algo);      // the warp tier
      check<float>(n, offsets(n, 2048, 2), ord, algo);             // the block tier
      check<std::uint64_t>(n, {0, 5, n / 3, n / 3 + 4097, n}, ord, algo);  // a few long segments, each sorted alone
      check<double>(n, offsets(n, 40000, 3), ord, algo);            // many long segments
    }
  }
}

}  // namespace
