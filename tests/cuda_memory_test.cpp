// Device memory: device_buffer, running out of it, the scratch pool.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

// device_buffer(n) is zeroed, and the zeroes are there for a kernel on a non-blocking stream at once.
TEST_F(gpu, device_buffer_starts_zeroed) {
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  for (int round = 0; round < 3; ++round) {
    device_buffer<std::uint32_t> dirty(std::vector<std::uint32_t>(1 << 20, 0xdeadbeefu));  // leave garbage to reuse
  }
  device_buffer<std::uint32_t> b(1 << 20), sum(1);
  EXPECT_TRUE(b.download() == std::vector<std::uint32_t>(1 << 20, 0u));
  sluice::reduce_async(b, sum.data(), 0u, sluice::sum{}, {device::cuda, "best", s});
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  EXPECT_EQ(sum.download()[0], 0u);
  cudaStreamDestroy(s);
}

TEST_F(gpu, out_of_memory_then_recovers) {
  expect_error(errc::out_of_memory, {"device_buffer"}, [] { device_buffer<std::uint8_t> huge(std::size_t{1} << 50); });
  device_buffer<std::uint32_t> ok(std::vector<std::uint32_t>{1, 2, 3});
  EXPECT_EQ(sluice::reduce(ok, 0u, sum{}, {device::cuda}), 6u);
}

// The scratch pool keeps a large sort's buffers between calls, up to an eighth of the device's memory, so the
// next sort takes nothing anew; release_scratch() gives them back; and a device_buffer that needs them gets
// them without the caller asking (the pool is trimmed and the allocation tried once more).
TEST_F(gpu, scratch_is_kept_then_given_back_when_asked_or_needed) {
  const std::size_t n = std::size_t{1} << 27;  // the sort's scratch: 2 x 512 MiB of keys and values
  std::vector<std::uint32_t> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 3);
  device_buffer<std::uint32_t> keys(h), values(h);
  (void)sluice::release_scratch();
  auto free_now = [] {
    std::size_t free = 0, total = 0;
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(cudaMemGetInfo(&free, &total), cudaSuccess);
    return free;
  };
  const std::size_t slack = std::size_t{64} << 20, scratch = std::size_t{1} << 30;
  const std::size_t free_before = free_now();
  sluice::radix_sort(keys, values, order::ascending, {}, {device::cuda});
  const std::size_t free_after_sort = free_now();
  EXPECT_GE(free_before, free_after_sort + scratch) << "the sort's buffers were not kept";
  sluice::radix_sort(keys, values, order::descending, {}, {device::cuda});
  EXPECT_GE(free_after_sort + slack, free_now()) << "the second sort took its buffers anew";
  EXPECT_GE(sluice::release_scratch(), scratch);
  EXPECT_LE(free_before, free_now() + slack) << "bytes the pool still holds after release_scratch()";
  EXPECT_EQ(sluice::release_scratch(), 0u);
  auto sorted = keys.download();
  EXPECT_TRUE(std::is_sorted(sorted.rbegin(), sorted.rend()));
  // Kept again; then a buffer larger than what is free past the kept scratch: trimmed and taken.
  sluice::radix_sort(keys, values, order::ascending, {}, {device::cuda});
  const std::size_t free_kept = free_now();
  ASSERT_GE(free_before, free_kept + scratch);
  {
    device_buffer<std::uint8_t> most(free_kept + scratch / 2);
    EXPECT_EQ(most.size(), free_kept + scratch / 2);
  }
  sorted = keys.download();
  EXPECT_TRUE(std::is_sorted(sorted.begin(), sorted.end()));
}

}  // namespace
