// sluice::dist on NCCL ranks: one rank per GPU is NCCL's rule, so a machine with one GPU runs one rank (the
// MPI tests, tests/dist_test.cpp, run the same algorithms on 1, 2 and 4 ranks). Each primitive on device
// memory, through NCCL's collectives and grouped send/receive, against the serial answer; sizes 0, 1, around
// the CUDA tiles and past 2^20; and the refusals. Skipped, with the reason, without a GPU or NCCL's library.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "sluice/device_buffer.hpp"
#include "sluice/dist.hpp"
#include "dist_inputs.hpp"
#include "test_support.hpp"

#if SLUICE_TEST_NCCL
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <nccl.h>

namespace {

using namespace sluice;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

// A one-rank NCCL communicator on the current GPU and a stream of its own, made with NCCL's library loaded
// at run time (as sluice loads it).
class nccl_one_rank : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!device_available(device::cuda)) GTEST_SKIP() << "no CUDA device: no GPU present on this machine";
    void* lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_GLOBAL);
    if (!lib) GTEST_SKIP() << "NCCL's library (libnccl.so.2) is not installed on this machine";
    const auto unique_id = reinterpret_cast<decltype(&ncclGetUniqueId)>(dlsym(lib, "ncclGetUniqueId"));
    const auto init_rank = reinterpret_cast<decltype(&ncclCommInitRank)>(dlsym(lib, "ncclCommInitRank"));
    destroy_ = reinterpret_cast<decltype(&ncclCommDestroy)>(dlsym(lib, "ncclCommDestroy"));
    ASSERT_TRUE(unique_id && init_rank && destroy_);
    ncclUniqueId id;
    ASSERT_EQ(unique_id(&id), ncclSuccess);
    ASSERT_EQ(init_rank(&comm_, 1, id, 0), ncclSuccess);
    ASSERT_EQ(cudaStreamCreate(&stream_), cudaSuccess);
  }
  void TearDown() override {
    if (comm_) destroy_(comm_);
    if (stream_) cudaStreamDestroy(stream_);
  }
  dist::communicator world() const { return dist::communicator(comm_, stream_); }
  options on_gpu(const char* algorithm = "best") const { return options{device::cuda, algorithm, stream_}; }

  ncclComm_t comm_ = nullptr;
  cudaStream_t stream_ = nullptr;
  decltype(&ncclCommDestroy) destroy_ = nullptr;
};

const std::vector<u64> sizes = {0, 1, 2, 1000, 3 * 4096 + 1, (u64{1} << 20) + 3};

using sluice_test::values;

TEST_F(nccl_one_rank, communicator_reads_rank_size_and_device) {
  const auto c = world();
  EXPECT_EQ(c.rank(), 0);
  EXPECT_EQ(c.size(), 1);
  EXPECT_EQ(c.where(), device::cuda);
  EXPECT_EQ(c.stream(), stream_);
  try {
    dist::communicator(static_cast<ncclComm*>(nullptr), stream_);
    ADD_FAILURE() << "a null NCCL communicator was accepted";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
  }
}

TEST_F(nccl_one_rank, allreduce_and_scans_match_the_serial_answer) {
  const auto c = world();
  for (u64 n : sizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto h = values<u64>(n, n + 1);
    device_buffer<u64> in(h), out(n + 1);
    EXPECT_EQ(dist::allreduce(c, std::span<const u64>(in.data(), n), u64{5}, sum{}, on_gpu()), std::accumulate(h.begin(), h.end(), u64{5}));
    const auto r = dist::reduce(c, std::span<const u64>(in.data(), n), 0, u64{0}, maximum{}, on_gpu());
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(*r, h.empty() ? 0 : *std::max_element(h.begin(), h.end()));
    std::vector<u64> inc(n), exc(n);
    std::inclusive_scan(h.begin(), h.end(), inc.begin());
    std::exclusive_scan(h.begin(), h.end(), exc.begin(), u64{3});
    out.fill_bytes(0xab);
    dist::inclusive_scan(c, std::span<const u64>(in.data(), n), std::span<u64>(out.data(), n), sum{}, on_gpu());
    auto got = out.download();
    EXPECT_EQ(std::vector<u64>(got.begin(), got.end() - 1), inc);
    EXPECT_EQ(got.back(), 0xababababababababull) << "wrote past the rank's part";
    dist::exclusive_scan(c, std::span<const u64>(in.data(), n), std::span<u64>(out.data(), n), u64{3}, sum{}, on_gpu());
    got = out.download();
    EXPECT_EQ(std::vector<u64>(got.begin(), got.end() - 1), exc);
    // In place.
    dist::inclusive_scan(c, std::span<const u64>(in.data(), n), std::span<u64>(in.data(), n), sum{}, on_gpu());
    EXPECT_EQ(in.download(), inc);
  }
  const auto f = values<float>(4097, 9);
  device_buffer<float> fin(f);
  double exact = 0;  // eighths of integers: the float sum is exact
  for (float x : f) exact += x;
  EXPECT_EQ(static_cast<double>(dist::allreduce(c, std::span<const float>(fin.data(), f.size()), 0.0f, sum{}, on_gpu())), exact);
}

TEST_F(nccl_one_rank, compact_if_and_partition_match_the_serial_answer) {
  const auto c = world();
  for (u64 n : sizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto h = values<u32>(n, 2 * n + 1);
    std::vector<u32> kept, parted = h;
    std::copy_if(h.begin(), h.end(), std::back_inserter(kept), [](u32 x) { return x < 300; });
    std::stable_partition(parted.begin(), parted.end(), [](u32 x) { return x < 300; });
    device_buffer<u32> in(h), out(n + 1);
    for (const auto b : {dist::balance::none, dist::balance::even}) {
      out.fill_bytes(0xab);
      const auto p = dist::compact_if(c, std::span<const u32>(in.data(), n), std::span<u32>(out.data(), n), less_than(300u), b, on_gpu());
      EXPECT_EQ(p.total, kept.size());
      EXPECT_EQ(p.count, kept.size());
      EXPECT_EQ(p.offset, 0u);
      const auto got = out.download();
      EXPECT_EQ(std::vector<u32>(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(p.count)), kept);
      EXPECT_EQ(got.back(), 0xababababu) << "wrote past the rank's part";
    }
    const auto p = dist::partition(c, std::span<const u32>(in.data(), n), std::span<u32>(out.data(), n), less_than(300u), on_gpu());
    EXPECT_EQ(p.total, kept.size());
    auto got = out.download();
    got.pop_back();
    EXPECT_EQ(got, parted);
  }
}

TEST_F(nccl_one_rank, radix_sort_is_stable_on_device_memory) {
  const auto c = world();
  for (u64 n : sizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto keys = values<u32>(n, 3 * n + 1);  // few distinct keys: stability shows
    std::vector<u32> pos(n);
    std::iota(pos.begin(), pos.end(), 0u);
    std::stable_sort(pos.begin(), pos.end(), [&](u32 a, u32 b) { return keys[a] > keys[b]; });
    device_buffer<u32> k(keys), v(pos.size()), ok(n + 1), ov(n + 1);
    std::vector<u32> iota(n);
    std::iota(iota.begin(), iota.end(), 0u);
    v.upload(iota);
    ok.fill_bytes(0xab);
    const auto p = dist::radix_sort(c, std::span<const u32>(k.data(), n), std::span<const u32>(v.data(), n), std::span<u32>(ok.data(), n + 1),
                                    std::span<u32>(ov.data(), n + 1), order::descending, on_gpu());
    EXPECT_EQ(p.count, n);
    EXPECT_EQ(p.total, n);
    const auto gk = ok.download(), gv = ov.download();
    for (u64 i = 0; i < n; ++i) {
      ASSERT_EQ(gv[i], pos[i]) << "position " << i;
      ASSERT_EQ(gk[i], keys[pos[i]]) << "position " << i;
    }
    EXPECT_EQ(gk[n], 0xababababu) << "wrote past the rank's share";
    // Keys alone, 64-bit signed, ascending.
    const auto wide = values<std::int64_t>(n, 5 * n + 1);
    auto want = wide;
    std::sort(want.begin(), want.end());
    device_buffer<std::int64_t> wk(wide), wo(n);
    dist::radix_sort(c, std::span<const std::int64_t>(wk.data(), n), std::span<std::int64_t>(wo.data(), n), order::ascending, on_gpu());
    EXPECT_EQ(wo.download(), want);
  }
}

TEST_F(nccl_one_rank, refusals_are_errors_not_hangs) {
  const auto c = world();
  device_buffer<u32> in(std::vector<u32>(100, 1)), out(100);
  try {  // the spans are device memory: opt.device must say so
    (void)dist::allreduce(c, std::span<const u32>(in.data(), 100));
    ADD_FAILURE() << "opt.device = cpu was accepted on NCCL ranks";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::unsupported) << e.what();
  }
  try {
    dist::inclusive_scan(c, std::span<const u32>(in.data(), 100), std::span<u32>(out.data(), 99), sum{}, on_gpu());
    ADD_FAILURE() << "a too-small out was accepted";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
  }
  try {
    dist::radix_sort(c, std::span<const u32>(in.data(), 100), std::span<u32>(out.data(), 50), order::ascending, on_gpu());
    ADD_FAILURE() << "an out smaller than the rank's share was accepted";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
  }
  std::vector<u32> host(10, 1);
  EXPECT_THROW(dist::radix_sort(c, host, order::ascending, on_gpu()), error);  // std::vector keys are host memory
  // Still in step.
  EXPECT_EQ(dist::allreduce(c, std::span<const u32>(in.data(), 100), 0u, sum{}, on_gpu()), 100u);
}

}  // namespace

#else

TEST(nccl_one_rank, needs_nccl_header) {
  // Built without NCCL's header: the NCCL communicator is refused with the reason.
  try {
    sluice::dist::communicator(static_cast<ncclComm*>(nullptr), nullptr);
    ADD_FAILURE() << "an NCCL communicator was made in a build without NCCL";
  } catch (const sluice::error& e) {
    EXPECT_EQ(e.code(), sluice::errc::unsupported) << e.what();
  }
}

#endif
