// Radix sort on the GPU past one launch's portion, against CUB.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

// The default sort past one launch's portion (2^28 keys): keys and pairs agree with CUB's, bit for bit.
// Sanitizing, three portions of 30720 keys (5 pair tiles, 3 key-only tiles of u32) and a partial fourth
// (onesweep:portion=N): the same hand-over of digit bases from launch to launch at a size compute-sanitizer
// gets through.
TEST_F(gpu, radix_sort_past_one_portion_matches_cub) {
  const std::size_t n = sanitizing() ? 3 * 30720 + 4097 : (std::size_t{1} << 28) + 4097;
  const char* spec = sanitizing() ? "onesweep:portion=30720" : "onesweep";
  std::vector<std::uint32_t> hk(n), hv(n);
  std::uint64_t x = 88172645463325252ull;
  for (std::size_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    hk[i] = static_cast<std::uint32_t>(x) & 0xfff0ffffu;  // bits 16-19 zero: one digit pass sees few digits
    hv[i] = static_cast<std::uint32_t>(i);
  }
  device_buffer<std::uint32_t> k1(hk), v1(hv), k2(hk), v2(hv);
  sluice::radix_sort(k1, v1, order::ascending, {}, {device::cuda, spec});
  sluice::radix_sort(k2, v2, order::ascending, {}, {device::cuda, "cub"});
  EXPECT_TRUE(k1.download() == k2.download());
  EXPECT_TRUE(v1.download() == v2.download());
  device_buffer<std::uint32_t> k3(hk), k4(hk);
  sluice::radix_sort(k3, order::descending, {4, 28}, {device::cuda, spec});
  sluice::radix_sort(k4, order::descending, {4, 28}, {device::cuda, "cub"});
  EXPECT_TRUE(k3.download() == k4.download());
}

}  // namespace
