// Devices that are not there: what a call on them says.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

TEST(api, cuda_without_a_device_is_no_device) {
  if (device_available(device::cuda)) GTEST_SKIP() << "a CUDA device is present: the no-device path cannot be exercised here";
  std::vector<std::uint32_t> v(4);
  expect_error(errc::no_device, {"sluice::reduce", "cuda"}, [&] { (void)sluice::reduce(v, 0u, sum{}, {device::cuda}); });
  std::vector<std::uint8_t> f(4);
  expect_error(errc::no_device, {"compact"}, [&] { (void)sluice::compact(v, f, v, {device::cuda}); });
  expect_error(errc::no_device, {"device_buffer"}, [] { device_buffer<int> b(10); });
  EXPECT_EQ(sluice::release_scratch(), 0u);  // nothing to give back, and no error
}

}  // namespace
