// The async forms in CUDA graphs, and a process's first calls inside a stream capture.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

// A process's first sluice calls may come inside a stream capture (global mode, which forbids making a memory
// pool then): a reduction, a scan and a compaction captured and replayed, each result right. Meaningful when
// it runs first in its process, so run it alone too (--gtest_filter=gpu.first_calls_of_a_process_*).
TEST_F(gpu, first_calls_of_a_process_may_come_inside_a_capture) {
  const std::size_t n = 300001;
  std::vector<std::uint32_t> h(n);
  std::vector<std::uint8_t> hf(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 9), hf[i] = static_cast<std::uint8_t>(i % 3 == 0);
  device_buffer<std::uint32_t> in(h), scanned(n), kept(n), total(1);
  device_buffer<std::uint8_t> flags(hf);
  device_buffer<std::uint64_t> count(1);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  const options o{device::cuda, "best", s};
  cudaGraph_t g;
  ASSERT_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
  try {
    sluice::reduce_async(in, total.data(), 0u, sum{}, o);
    sluice::inclusive_scan(in, scanned, sum{}, o);
    sluice::compact_async(in, flags, kept, count.data(), o);
  } catch (...) {
    (void)cudaStreamEndCapture(s, &g);
    cudaStreamDestroy(s);
    throw;
  }
  ASSERT_EQ(cudaStreamEndCapture(s, &g), cudaSuccess);
  cudaGraphExec_t ge;
  ASSERT_EQ(cudaGraphInstantiate(&ge, g, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(ge, s), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  std::vector<std::uint32_t> want(n), want_kept;
  std::inclusive_scan(h.begin(), h.end(), want.begin());
  for (std::size_t i = 0; i < n; ++i)
    if (hf[i]) want_kept.push_back(h[i]);
  EXPECT_EQ(total.download()[0], want.back());
  EXPECT_TRUE(scanned.download() == want);
  ASSERT_EQ(count.download()[0], want_kept.size());
  std::vector<std::uint32_t> got = kept.download();
  got.resize(want_kept.size());
  EXPECT_TRUE(got == want_kept);
  cudaGraphExecDestroy(ge);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
}

// The async forms never sync the host, so a whole compaction can be captured in a CUDA graph and replayed.
TEST_F(gpu, async_forms_capture_in_a_cuda_graph) {
  const std::size_t n = 100000;
  std::vector<std::uint32_t> h(n);
  std::iota(h.begin(), h.end(), 0u);
  device_buffer<std::uint32_t> in(h), out(n), sums(n);
  device_buffer<std::uint64_t> count(4);
  device_buffer<std::uint32_t> total(1), kept(n), unordered(n), split(n);
  std::vector<std::uint32_t> hk(n);
  for (std::size_t i = 0; i < n; ++i) hk[i] = static_cast<std::uint32_t>((i * 2654435761u) % 1000003u);
  device_buffer<std::uint32_t> sort_keys(hk), sort_values(h);
  std::vector<std::uint8_t> hf(n);
  for (std::size_t i = 0; i < n; ++i) hf[i] = i % 3 == 0;
  device_buffer<std::uint8_t> flags(hf);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  const options opt{device::cuda, "best", s};
  (void)sluice::compact_if(in, out, less_than(777u), opt);  // first call outside capture: warms the scratch pool
  cudaGraph_t g;
  ASSERT_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
  sluice::compact_if_async(in, out, less_than(1000u), count.data(), opt);
  sluice::inclusive_scan(in, sums, sum{}, opt);
  sluice::reduce_async(in, total.data(), 0u, sum{}, opt);
  sluice::compact_async(in, flags, kept, count.data() + 1, opt);
  sluice::compact_unordered_async(in, flags, unordered, count.data() + 2, opt);
  sluice::partition_flagged_async(in, flags, split, count.data() + 3, opt);
  sluice::radix_sort(sort_keys, sort_values, order::ascending, {}, {device::cuda, "onesweep", s});
  ASSERT_EQ(cudaStreamEndCapture(s, &g), cudaSuccess);
  cudaGraphExec_t exec;
  ASSERT_EQ(cudaGraphInstantiate(&exec, g, 0), cudaSuccess);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(cudaGraphLaunch(exec, s), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  const auto counts = count.download();
  EXPECT_EQ(counts[0], 1000u);
  const std::uint64_t thirds = (n + 2) / 3;
  EXPECT_EQ(counts[1], thirds);
  EXPECT_EQ(counts[2], thirds);
  EXPECT_EQ(counts[3], thirds);
  const auto k = kept.download(), sp = split.download();
  auto u = unordered.download();
  std::sort(u.begin(), u.begin() + thirds);
  for (std::uint32_t i = 0; i < thirds; ++i) ASSERT_TRUE(k[i] == 3 * i && u[i] == 3 * i && sp[i] == 3 * i) << i;
  for (std::uint32_t i = 0, r = 0; i < n; ++i)
    if (i % 3) ASSERT_EQ(sp[thirds + r++], i) << i;
  const auto o = out.download();
  for (std::uint32_t i = 0; i < 1000; ++i) ASSERT_EQ(o[i], i);
  EXPECT_EQ(sums.download()[n - 1], static_cast<std::uint32_t>(std::uint64_t{n} * (n - 1) / 2));
  EXPECT_EQ(total.download()[0], static_cast<std::uint32_t>(std::uint64_t{n} * (n - 1) / 2));
  std::vector<std::uint32_t> order_of(n);
  std::iota(order_of.begin(), order_of.end(), 0u);
  std::stable_sort(order_of.begin(), order_of.end(), [&](std::uint32_t a, std::uint32_t b) { return hk[a] < hk[b]; });
  const auto sk = sort_keys.download(), sv = sort_values.download();
  for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(sk[i] == hk[order_of[i]] && sv[i] == order_of[i]) << i;
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
}

// compact_unordered_if_async on the GPU: every CUDA entry of compact_unordered against the kept set, the count in
// device memory; best captured in a CUDA graph and replayed twice; into a short output the full count, only kept
// elements and nothing past its end.
TEST_F(gpu, compact_unordered_if_async_captures_in_a_cuda_graph) {
  const std::size_t n = 300001;
  std::vector<std::uint32_t> h(n), want;
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<std::uint32_t>(i * 2654435761u);  // distinct: the factor is odd
  const auto pred = less_than(std::uint32_t{1} << 30);  // about a quarter kept
  for (const std::uint32_t x : h)
    if (pred(x)) want.push_back(x);
  std::sort(want.begin(), want.end());
  device_buffer<std::uint32_t> in(h), out(n);
  device_buffer<std::uint64_t> count(1);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  const auto kept = [&](std::size_t k) {
    std::vector<std::uint32_t> g = out.download();
    g.resize(k);
    std::sort(g.begin(), g.end());
    return g;
  };
  for (const auto& a : algorithms()) {
    if (a.prim != primitive::compact_unordered || !a.on_cuda) continue;
    SCOPED_TRACE(a.name);
    sluice::compact_unordered_if_async(in, out, pred, count.data(), {device::cuda, a.name, s});
    ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
    ASSERT_EQ(count.download()[0], want.size());
    EXPECT_TRUE(kept(want.size()) == want);
  }
  const captured graph(s, [&] { sluice::compact_unordered_if_async(in, out, pred, count.data(), {device::cuda, "best", s}); });
  for (int r = 0; r < 2; ++r) {
    ASSERT_EQ(cudaMemsetAsync(out.data(), 0xff, n * sizeof(std::uint32_t), s), cudaSuccess);
    ASSERT_TRUE(graph.launch());
    ASSERT_EQ(count.download()[0], want.size()) << "replay " << r;
    EXPECT_TRUE(kept(want.size()) == want) << "replay " << r;
  }
  const std::size_t short_size = want.size() / 2 + 3;
  device_buffer<std::uint32_t> guarded(std::vector<std::uint32_t>(short_size + 64, ~0u));  // ~0u is never kept
  sluice::compact_unordered_if_async(in, std::span<std::uint32_t>(guarded.data(), short_size), pred, count.data(), {device::cuda, "best", s});
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  EXPECT_EQ(count.download()[0], want.size()) << "short output";
  std::vector<std::uint32_t> g = guarded.download(), written(g.begin(), g.begin() + static_cast<std::ptrdiff_t>(short_size));
  std::sort(written.begin(), written.end());
  EXPECT_TRUE(std::includes(want.begin(), want.end(), written.begin(), written.end())) << "short output: not kept elements";
  EXPECT_TRUE(std::all_of(g.begin() + static_cast<std::ptrdiff_t>(short_size), g.end(), [](std::uint32_t x) { return x == ~0u; }))
      << "written past the output's end";
  cudaStreamDestroy(s);
}

}  // namespace
