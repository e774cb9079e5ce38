// Scans on the GPU: misaligned starts, the pipelined path, float scans that repeat bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

// Starts that are not 16-byte aligned (in and out offset alike, or differently) take the element-wise path of
// the vectorised scans; every CUDA scan must give the serial answer there, in place or not.
TEST_F(gpu, scans_of_misaligned_ranges) {
  const std::size_t n = 3 * 4096 + 77;
  std::vector<std::uint32_t> host(n + 8);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<std::uint32_t>(i * 2654435761u >> 7);
  device_buffer<std::uint32_t> in(host), out(n + 8);
  for (const auto& a : algorithms()) {
    if (a.prim != primitive::scan || !a.on_cuda) continue;
    for (std::size_t off_in : {0, 1, 3})
      for (std::size_t off_out : {0, 1, 2}) {
        std::span<const std::uint32_t> src(in.data() + off_in, n);
        std::span<std::uint32_t> dst(out.data() + off_out, n);
        std::vector<std::uint32_t> want(n);
        std::uint32_t run = 7;  // exclusive, init 7
        for (std::size_t i = 0; i < n; ++i) want[i] = run, run += host[off_in + i];
        sluice::exclusive_scan(src, dst, 7u, sum{}, {device::cuda, a.name});
        const auto got = out.download();
        EXPECT_TRUE(std::equal(want.begin(), want.end(), got.begin() + off_out)) << a.name << " in+" << off_in << " out+" << off_out;
      }
    // In place at an odd offset.
    device_buffer<std::uint32_t> io(host);
    std::span<std::uint32_t> x(io.data() + 1, n);
    sluice::inclusive_scan(x, x, sum{}, {device::cuda, a.name});
    const auto got = io.download();
    std::uint32_t run = 0;
    bool same = got[0] == host[0];
    for (std::size_t i = 0; i < n; ++i) run += host[1 + i], same = same && got[1 + i] == run;
    EXPECT_TRUE(same) << a.name << " in place at +1";
  }
}

// From 2^24 four-byte elements the default scan takes its pipelined path (bulk copies, a cooperative
// persistent grid): every element checked, inclusive, exclusive and in place, called directly and replayed
// from a CUDA graph.
TEST_F(gpu, large_scans_take_the_pipelined_path_and_capture_in_a_cuda_graph) {
  // A partial last tile whose bytes end off a 16-byte unit; sanitizing, 2^18 + 4097 with the pipeline named.
  const std::size_t n = (std::size_t{1} << (sanitizing() ? 18 : 24)) + 4097;
  std::vector<std::uint32_t> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 7);
  std::vector<std::uint32_t> incl(n), excl(n);
  std::uint32_t acc = 0;
  for (std::size_t i = 0; i < n; ++i) excl[i] = acc + 5u, acc += h[i], incl[i] = acc;
  device_buffer<std::uint32_t> in(h), out(n), inplace(h), graphed(n);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  const options opt{device::cuda, sanitizing() ? pipelined_spec() : "best", s};
  sluice::inclusive_scan(in, out, sum{}, opt);
  EXPECT_TRUE(out.download() == incl);
  sluice::exclusive_scan(in, out, 5u, sum{}, opt);
  EXPECT_TRUE(out.download() == excl);
  sluice::inclusive_scan(inplace, inplace, sum{}, opt);
  EXPECT_TRUE(inplace.download() == incl);
  cudaGraph_t g;
  ASSERT_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
  sluice::exclusive_scan(in, graphed, 5u, sum{}, opt);
  ASSERT_EQ(cudaStreamEndCapture(s, &g), cudaSuccess);
  cudaGraphExec_t exec;
  ASSERT_EQ(cudaGraphInstantiate(&exec, g, 0), cudaSuccess);
  for (int i = 0; i < 2; ++i) ASSERT_EQ(cudaGraphLaunch(exec, s), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  EXPECT_TRUE(graphed.download() == excl);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
}

// The pipelined path's wide look-back combines the tiles' aggregates in one fixed order, so an f32 sum scan
// there repeats bit for bit (the single pass below 2^24 does not: docs/guide/api.md); within the documented
// tolerance of a double reference.
TEST_F(gpu, large_float_scans_repeat_bit_for_bit) {
  const std::size_t n = (std::size_t{1} << (sanitizing() ? 18 : 24)) + 4097;
  std::vector<float> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<float>((i * 2654435761u) >> 16 & 0xffff) / 65536.0f - 0.49f;
  device_buffer<float> in(h), a(n), b(n);
  const options opt{device::cuda, sanitizing() ? pipelined_spec() : "best", nullptr};
  sluice::inclusive_scan(in, a, sum{}, opt);
  sluice::inclusive_scan(in, b, sum{}, opt);
  const auto x = a.download(), y = b.download();
  ASSERT_EQ(std::memcmp(x.data(), y.data(), n * sizeof(float)), 0) << "two runs differ";
  double exact = 0, magnitude = 0;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    exact += h[i], magnitude += std::fabs(h[i]);
    bad += std::fabs(x[i] - exact) > 1e-3 * magnitude;
  }
  EXPECT_EQ(bad, 0u);
}

// Three inclusive and three exclusive scans of the same floats with `spec`: each form's runs bitwise equal, and
// within the sum tolerance of a long double reference (docs/guide/api.md).
template <class T>
void scans_repeat(std::size_t n, const char* spec) {
  SCOPED_TRACE(std::string(spec) + " n=" + std::to_string(n) + (sizeof(T) == 4 ? " f32" : " f64"));
  std::vector<T> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<T>((i * 2654435761u) >> 16 & 0xffff) / T(65536) - T(0.49);
  device_buffer<T> in(h), out(n);
  const options opt{device::cuda, spec, nullptr};
  const double tolerance = sizeof(T) == 4 ? 1e-3 : 1e-11;
  for (const bool inclusive : {true, false}) {
    std::vector<T> first;
    for (int run = 0; run < 3; ++run) {
      if (inclusive) sluice::inclusive_scan(in, out, sum{}, opt);
      else sluice::exclusive_scan(in, out, T(0.25), sum{}, opt);
      const std::vector<T> got = out.download();
      if (run == 0) {
        first = got;
        long double exact = inclusive ? 0 : 0.25L, magnitude = 0.25L;
        std::size_t bad = 0;
        for (std::size_t i = 0; i < n; ++i) {
          if (inclusive) exact += h[i];
          magnitude += std::fabs(static_cast<long double>(h[i]));
          bad += std::fabs(static_cast<long double>(got[i]) - exact) > tolerance * magnitude;
          if (!inclusive) exact += h[i];
        }
        EXPECT_EQ(bad, 0u) << (inclusive ? "inclusive" : "exclusive");
      } else {
        EXPECT_EQ(std::memcmp(got.data(), first.data(), n * sizeof(T)), 0) << (inclusive ? "inclusive" : "exclusive") << " run " << run;
      }
    }
  }
}

// Below the pipeline, the default scan of elements that are not integers looks back anchored (lookback.cuh: every
// 128th tile publishes a prefix, the others their aggregates, combined in an order the tile numbers fix), and
// 2 to 16 tiles run as one thread block cluster (cluster_prefix.cuh, in rank order): float and double scans repeat
// bit for bit at every size. Sizes in tiles (8192 floats, 4096 doubles): 3 (one cluster; with cluster=off the
// anchored single pass), 17 (past the cluster: every tile anchored at tile 0), 129 and 300 (past one and two
// anchors).
TEST_F(gpu, float_scans_below_the_pipeline_repeat_bit_for_bit) {
  for (const std::size_t tiles : {3, 17, 129, 300}) {
    if (sanitizing() && tiles > 129) continue;
    for (const char* spec : {"best", "decoupled-lookback:cluster=off"}) {
      if (tiles > 16 && spec[0] != 'b') continue;  // the same path
      scans_repeat<float>(tiles * 8192 + tiles % 7, spec);
      scans_repeat<double>(tiles * 4096 + tiles % 5, spec);
    }
  }
}

}  // namespace
