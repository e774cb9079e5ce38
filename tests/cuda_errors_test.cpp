// The GPU's argument checks: host pointers, managed and pinned memory, algorithm parameters, element layouts.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

TEST_F(gpu, host_pointer_is_refused) {
  std::vector<std::uint32_t> host(16);
  expect_error(errc::invalid_argument, {"sluice::reduce:", "'in'", "host memory"}, [&] { (void)sluice::reduce(host, 0u, sum{}, {device::cuda}); });
}

// The pointer check passes device memory on the driver's one answer (the memory type); managed memory takes
// the runtime's full answer and is taken, pinned host memory is host memory and refused, as pageable memory is.
TEST_F(gpu, managed_memory_is_taken_and_pinned_host_memory_refused) {
  const std::size_t n = 1000;
  std::uint32_t* managed = nullptr;
  ASSERT_EQ(cudaMallocManaged(&managed, (n + 1) * sizeof(std::uint32_t)), cudaSuccess);
  for (std::size_t i = 0; i < n; ++i) managed[i] = static_cast<std::uint32_t>(i);
  const std::span<const std::uint32_t> in(managed, n);
  EXPECT_EQ(sluice::reduce(in, 0u, sum{}, {device::cuda}), n * (n - 1) / 2);
  sluice::reduce_async(in, managed + n, 0u, sum{}, {device::cuda});  // the result into managed memory too
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(managed[n], n * (n - 1) / 2);
  EXPECT_EQ(cudaFree(managed), cudaSuccess);

  std::uint32_t* pinned = nullptr;
  ASSERT_EQ(cudaMallocHost(&pinned, 16 * sizeof(std::uint32_t)), cudaSuccess);
  device_buffer<std::uint32_t> on_device(std::vector<std::uint32_t>(16, 1));
  expect_error(errc::invalid_argument, {"sluice::reduce:", "'in'", "host memory"},
               [&] { (void)sluice::reduce(std::span<const std::uint32_t>(pinned, 16), 0u, sum{}, {device::cuda}); });
  expect_error(errc::invalid_argument, {"sluice::reduce_async:", "'result'", "host memory"},
               [&] { sluice::reduce_async(on_device, pinned, 0u, sum{}, {device::cuda}); });
  EXPECT_EQ(cudaFreeHost(pinned), cudaSuccess);
}

TEST_F(gpu, bad_parameters_name_the_algorithm_and_the_choices) {
  device_buffer<std::uint32_t> v(std::vector<std::uint32_t>(100, 1));
  device_buffer<std::uint8_t> f(std::vector<std::uint8_t>(100, 1));
  device_buffer<std::uint32_t> out(100);
  auto call = [&](const char* spec) { return [&, spec] { (void)sluice::compact(v, f, out, {device::cuda, spec}); }; };
  expect_error(errc::invalid_argument, {"sluice::compact", "'roger:s=3'", "power of two in [2, 1024]"}, call("roger:s=3"));
  expect_error(errc::invalid_argument, {"'roger:s=2048'", "[2, 1024]"}, call("roger:s=2048"));
  expect_error(errc::invalid_argument, {"unknown parameter 'q'", "valid: s, scan"}, call("roger:q=1"));
  expect_error(errc::invalid_argument, {"'s' is not key=value"}, call("roger:s"));
  expect_error(errc::invalid_argument, {"scan=kogge", "blelloch, hillis-steele"}, call("roger:scan=kogge"));
  expect_error(errc::invalid_argument, {"'decoupled-lookback:phased=maybe'", "auto, on, off"}, call("decoupled-lookback:phased=maybe"));
  EXPECT_EQ(sluice::compact(v, f, out, {device::cuda, "decoupled-lookback:phased=on"}), 100u);
  expect_error(errc::invalid_argument, {"blocks=0", "[1, 1048576]"}, call("decoupled-lookback:blocks=0"));
  EXPECT_EQ(sluice::compact(v, f, out, {device::cuda, "decoupled-lookback:pipelined=on,blocks=1"}), 100u);
  expect_error(errc::invalid_argument, {"cluster=on", "auto, off"}, call("decoupled-lookback:cluster=on"));
  EXPECT_EQ(sluice::compact(v, f, out, {device::cuda, "decoupled-lookback:cluster=off"}), 100u);
  expect_error(errc::invalid_argument, {"unknown parameter 'dynamic'", "valid: phased, resident, pipelined, reversed, blocks"},
               [&] { (void)sluice::partition_flagged(v, f, out, {device::cuda, "decoupled-lookback:dynamic=on"}); });
  expect_error(errc::invalid_argument, {"unknown parameter 't'", "valid: P, simd"}, call("billeter-staged:t=5"));
  expect_error(errc::invalid_argument, {"P=0"}, call("billeter:P=0"));
  expect_error(errc::invalid_argument, {"takes no parameters"}, call("horn:s=1"));
  EXPECT_EQ(sluice::compact(v, f, out, {device::cuda, "roger:s=128,scan=hillis-steele"}), 100u);
}

TEST_F(gpu, kit_scan_block_sizes_are_checked) {
  device_buffer<std::uint64_t> v(std::vector<std::uint64_t>(5000, 1));
  device_buffer<std::uint64_t> out(5000);
  auto call = [&](const char* spec) { return [&, spec] { sluice::inclusive_scan(v, out, sum{}, {device::cuda, spec}); }; };
  expect_error(errc::invalid_argument, {"sluice::", "threads=48", "power of two in [32, 1024]"}, call("kogge-stone:threads=48"));
  expect_error(errc::invalid_argument, {"threads=2048"}, call("brent-kung:threads=2048"));
  expect_error(errc::invalid_argument, {"unknown parameter 'items'", "valid: threads"}, call("streaming:items=2"));
  // 1024 x 64 eight-byte elements do not fit in any GPU's shared memory: a clear error, not a failed launch.
  expect_error(errc::invalid_argument, {"shared memory per block"}, call("three-phase-coarsened:threads=1024,items=64"));
  sluice::inclusive_scan(v, out, sum{}, {device::cuda, "three-phase-coarsened:threads=1024,items=5"});  // 56 KiB: opts in
  EXPECT_EQ(out.download().back(), 5000u);
}

TEST_F(gpu, odd_element_layouts_move_on_the_gpu) {
  struct rgb { std::uint8_t r, g, b, a; };  // 4 bytes, aligned to 1: refused with a clear error
  struct pair32 { float a, b; };             // 8 bytes, aligned to 4: runs on storage<8, 4>
  std::vector<pair32> h = {{1, 2}, {3, 4}, {5, 6}};
  device_buffer<pair32> in(h), out(3);
  device_buffer<std::uint8_t> f(std::vector<std::uint8_t>{1, 0, 7});
  EXPECT_EQ(sluice::compact(in, f, out, {device::cuda}), 2u);
  EXPECT_EQ(out.download()[1].b, 6.0f);
  device_buffer<rgb> c(3), co(3);
  expect_error(errc::unsupported, {"4 bytes aligned to 1"}, [&] { (void)sluice::compact(c, f, co, {device::cuda}); });
}

// Flags and out may not share a byte on the GPU either: every flagged form, synchronous or not, refuses them before
// any kernel runs, and nothing is written; flags right after out are fine.
TEST_F(gpu, flags_overlapping_out_are_refused) {
  std::vector<std::uint8_t> h(48);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<std::uint8_t>(i % 3 == 0);
  device_buffer<std::uint8_t> buf(h), in(std::vector<std::uint8_t>(16, 9));
  device_buffer<std::uint64_t> count(1);
  const std::span<const std::uint8_t> flags(buf.data() + 16, 16);  // 5 of them set
  const std::span<std::uint8_t> out(buf.data() + 8, 16);
  const options o{device::cuda};
  const std::vector<std::string> said = {"'out'", "overlaps 'flags'"};
  expect_error(errc::invalid_argument, said, [&] { (void)sluice::compact(in, flags, out, o); });
  expect_error(errc::invalid_argument, said, [&] { sluice::compact_async(in, flags, out, count.data(), o); });
  expect_error(errc::invalid_argument, said, [&] { (void)sluice::compact_unordered(in, flags, out, o); });
  expect_error(errc::invalid_argument, said, [&] { sluice::compact_unordered_async(in, flags, out, count.data(), o); });
  expect_error(errc::invalid_argument, said, [&] { (void)sluice::partition_flagged(in, flags, out, o); });
  expect_error(errc::invalid_argument, said, [&] { sluice::partition_flagged_async(in, flags, out, count.data(), o); });
  expect_error(errc::invalid_argument, said, [&] { (void)sluice::partition_unordered_flagged(in, flags, out, o); });
  expect_error(errc::invalid_argument, said, [&] { sluice::partition_unordered_flagged_async(in, flags, out, count.data(), o); });
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_TRUE(buf.download() == h) << "written before the error";
  EXPECT_EQ(sluice::compact(in, flags, std::span<std::uint8_t>(buf.data() + 32, 16), o), 5u);
}

}  // namespace
