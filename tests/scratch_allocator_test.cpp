// The caller's scratch allocator (include/sluice/scratch.hpp) on every build: the scope's checks, and calls that
// need no CUDA scratch never ask it (its GPU side: cuda_scratch_allocator_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

// Counts every call and lends nothing.
void* refuse(void* calls, std::size_t, CUstream_st*) {
  ++*static_cast<int*>(calls);
  return nullptr;
}
void take_back(void* calls, void*, std::size_t, CUstream_st*) noexcept { ++*static_cast<int*>(calls); }

TEST(api, scratch_allocator_needs_both_functions) {
  expect_error(errc::invalid_argument, {"sluice::scoped_scratch_allocator", "'allocate' is null"},
               [] { const scoped_scratch_allocator scope(scratch_allocator{nullptr, &take_back, nullptr}); });
  expect_error(errc::invalid_argument, {"sluice::scoped_scratch_allocator", "'deallocate' is null"},
               [] { const scoped_scratch_allocator scope(scratch_allocator{&refuse, nullptr, nullptr}); });
  expect_error(errc::invalid_argument, {"'allocate' is null"}, [] { const scoped_scratch_allocator scope(scratch_allocator{}); });
}

// CPU calls, inside a scope and inside a nested one, never ask the caller's allocator; without CUDA, or without
// a GPU, a cuda call still says why it cannot run rather than that the allocator lent nothing.
TEST(api, scratch_allocator_is_not_asked_by_cpu_calls) {
  int calls = 0;
  std::vector<std::uint32_t> keys(100000);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 7);
  std::vector<std::uint32_t> sums(keys.size()), kept(keys.size());
  {
    const scoped_scratch_allocator outer(scratch_allocator{&refuse, &take_back, &calls});
    sluice::inclusive_scan(keys, sums);
    const scoped_scratch_allocator inner(scratch_allocator{&refuse, &take_back, &calls});
    EXPECT_EQ(sluice::compact_if(keys, kept, less_than(1u << 24)),
              static_cast<std::uint64_t>(std::count_if(keys.begin(), keys.end(), [](std::uint32_t k) { return k < (1u << 24); })));
    sluice::radix_sort(keys);
    if (!device_available(device::cuda)) {  // the synchronous compaction takes its count's scratch first
      expect_error(errc::no_device, {"sluice::compact_if"}, [&] { (void)sluice::compact_if(keys, kept, less_than(1u), {device::cuda}); });
      expect_error(errc::no_device, {"sluice::reduce"}, [&] { (void)sluice::reduce(keys, 0u, sum{}, {device::cuda}); });
    }
  }
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  EXPECT_EQ(calls, 0);
}

}  // namespace
