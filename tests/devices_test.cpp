// Devices that are not there: what a call on them says.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
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

// With CUDA built in and no GPU present (a CI machine with nvcc and no GPU), every call on the cuda device says so
// in the same words, whichever CUDA call first meets the missing GPU: a synchronous count takes its scratch word
// before the device is checked, and without a driver CUDA's own report (cudaErrorInsufficientDriver) reads as if
// a GPU were there.
TEST(api, cuda_without_a_gpu_says_no_gpu_is_present) {
  if (!config::has_cuda) GTEST_SKIP() << "sluice built without CUDA: its cuda calls say that instead (cuda_without_a_device_is_no_device)";
  if (device_available(device::cuda)) GTEST_SKIP() << "a CUDA GPU is present: the no-GPU message cannot be exercised here";
  std::vector<std::uint32_t> v(4, 1), o(4);
  std::vector<std::uint8_t> f(4, 1);
  std::uint64_t count = 0;
  std::uint32_t result = 0;
  const options cuda{device::cuda};
  const auto pred = less_than(2u);
  const std::vector<std::pair<std::string, std::function<void()>>> calls = {
      {"reduce", [&] { (void)sluice::reduce(v, 0u, sum{}, cuda); }},
      {"reduce_async", [&] { sluice::reduce_async(v, &result, 0u, sum{}, cuda); }},
      {"inclusive_scan", [&] { sluice::inclusive_scan(v, o, sum{}, cuda); }},
      {"exclusive_scan", [&] { sluice::exclusive_scan(v, o, 0u, sum{}, cuda); }},
      {"compact", [&] { (void)sluice::compact(v, f, o, cuda); }},
      {"compact_async", [&] { sluice::compact_async(v, f, o, &count, cuda); }},
      {"compact_if", [&] { (void)sluice::compact_if(v, o, pred, cuda); }},
      {"compact_if_async", [&] { sluice::compact_if_async(v, o, pred, &count, cuda); }},
      {"compact_unordered", [&] { (void)sluice::compact_unordered(v, f, o, cuda); }},
      {"compact_unordered_if", [&] { (void)sluice::compact_unordered_if(v, o, pred, cuda); }},
      {"compact_unordered_if_async", [&] { sluice::compact_unordered_if_async(v, o, pred, &count, cuda); }},
      {"partition", [&] { (void)sluice::partition(v, o, pred, cuda); }},
      {"partition_flagged", [&] { (void)sluice::partition_flagged(v, f, o, cuda); }},
      {"partition_unordered", [&] { (void)sluice::partition_unordered(v, o, pred, cuda); }},
      {"partition_unordered_flagged", [&] { (void)sluice::partition_unordered_flagged(v, f, o, cuda); }},
      {"partition_async", [&] { sluice::partition_async(v, o, pred, &count, cuda); }},
      {"radix_sort", [&] { sluice::radix_sort(o, order::ascending, {}, cuda); }},
      {"device_buffer", [] { device_buffer<int> b(10); }},
      {"device_buffer", [&] { device_buffer<std::uint32_t> b(v); }},
  };
  for (const auto& [fn, call] : calls) {
    SCOPED_TRACE(fn);
    expect_error(errc::no_device, {"sluice::" + fn + ": the cuda device was asked for, but no CUDA GPU is present"}, call);
    try {
      call();
    } catch (const sluice::error& e) {
      EXPECT_EQ(std::string(e.what()).find(" failed: "), std::string::npos) << "a CUDA call's failure, not the missing GPU: " << e.what();
    }
  }
}

}  // namespace
