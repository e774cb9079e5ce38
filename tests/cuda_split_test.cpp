// The k-way split on the GPU past one launch's portion, against the CPU's, and its async form in stream order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

std::vector<std::uint32_t> xorshift(std::size_t n) {
  std::vector<std::uint32_t> v(n);
  std::uint64_t x = 88172645463325252ull;
  for (auto& e : v) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    e = static_cast<std::uint32_t>(x);
  }
  return v;
}

// Past one launch's portion (2^28 elements) the bucket bases pass from launch to launch. Sanitizing, portions of
// 30720 elements (3 tiles of u32) and a partial last one.
TEST_F(gpu, split_past_one_portion_matches_the_cpu) {
  const std::size_t n = sanitizing() ? 3 * 30720 + 4097 : (std::size_t{1} << 28) + 4097;
  const char* spec = sanitizing() ? "multisplit:portion=30720" : "multisplit";
  const auto h = xorshift(n);
  for (const auto& [digit, k] : {std::pair{radix_digit{24, 8}, 256u}, std::pair{radix_digit{3, 5}, 20u}}) {
    SCOPED_TRACE("radix_digit{" + std::to_string(digit.shift) + ", " + std::to_string(digit.bits) + "}, k = " + std::to_string(k));
    std::vector<std::uint32_t> want(n);
    std::vector<std::uint64_t> want_offsets(k + 1);
    sluice::split_async(h, digit, k, want, want_offsets);  // ids outside [0, k) left out on the cpu
    device_buffer<std::uint32_t> in(h), out(n);
    device_buffer<std::uint64_t> offsets(k + 1);
    sluice::split_async(in, digit, k, out, offsets, {device::cuda, spec});
    EXPECT_EQ(offsets.download(), want_offsets);
    const auto got = out.download();
    EXPECT_TRUE(std::equal(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(want_offsets[k]), got.begin()));
  }
}

// split refuses ids outside [0, k) after the kernels (the offsets brought back); split_async leaves the count in
// device memory, in stream order, and puts the ids outside after the others.
TEST_F(gpu, split_outside_ids) {
  const auto h = xorshift(100000);
  device_buffer<std::uint32_t> in(h), out(h.size());
  device_buffer<std::uint64_t> offsets(9);
  expect_error(errc::invalid_argument, {"outside [0, k = 8)"}, [&] { sluice::split(in, radix_digit{0, 4}, 8, out, offsets, {device::cuda}); });
  sluice::split_async(in, radix_digit{0, 4}, 8, out, offsets, {device::cuda});
  const auto o = offsets.download();
  const auto got = out.download();
  std::uint64_t in_range = 0;
  for (auto x : h) in_range += (x & 15) < 8;
  EXPECT_EQ(o[8], in_range);
  for (std::size_t i = o[8]; i < got.size(); ++i) ASSERT_GE(got[i] & 15, 8u) << i;
  expect_error(errc::invalid_argument, {"'k'", "is 0"}, [&] { sluice::split(in, radix_digit{0, 4}, 0, out, offsets, {device::cuda}); });
}

}  // namespace
