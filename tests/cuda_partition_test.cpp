// Partition on the GPU: both sides of the resident grid, the pipelined pass, the unordered single pass.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

// Partition: up to as many tiles as the device holds at once, one cooperative launch whose tiles wait for
// the last tile's inclusive prefix (the kept total); past that, the phased path (tile counts, their scan, the
// move without look-back), or with phased=off a count pass and the look-back. Both sides of that line (8192-element u32 tiles; an H100 holds about 528), flags and predicate,
// every resident setting, every element checked, and a resident partition captured in a CUDA graph.
TEST_F(gpu, partitions_on_both_sides_of_the_resident_grid) {
  const std::uint32_t limit = 1u << 24;  // about half kept by the predicate
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  // Sanitizing: no size past the resident grid; resident=off takes its paths at 40 tiles.
  const std::vector<std::size_t> sizes = sanitizing() ? std::vector<std::size_t>{8192 + 1, 40 * 8192 + 77}
                                                      : std::vector<std::size_t>{8192 + 1, 300 * 8192 + 77, 2000 * 8192 + 5};
  for (const std::size_t n : sizes) {
    std::vector<std::uint32_t> h(n), by_flags, by_pred, rejected_f, rejected_p;
    std::vector<std::uint8_t> hf(n);
    for (std::size_t i = 0; i < n; ++i) {
      h[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 7);
      hf[i] = static_cast<std::uint8_t>(h[i] % 5 < 2 ? 1 + i % 255 : 0);
      (hf[i] ? by_flags : rejected_f).push_back(h[i]);
      (h[i] < limit ? by_pred : rejected_p).push_back(h[i]);
    }
    const std::size_t kept_f = by_flags.size(), kept_p = by_pred.size();
    by_flags.insert(by_flags.end(), rejected_f.begin(), rejected_f.end());
    by_pred.insert(by_pred.end(), rejected_p.begin(), rejected_p.end());
    device_buffer<std::uint32_t> in(h), out(n);
    device_buffer<std::uint8_t> flags(hf);
    for (const char* spec : {"best", "decoupled-lookback:resident=on", "decoupled-lookback:resident=off",
                             "decoupled-lookback:resident=on,phased=off", "decoupled-lookback:resident=off,phased=off",
                             "decoupled-lookback:resident=off,phased=on"}) {
      SCOPED_TRACE(std::string(spec) + " n=" + std::to_string(n));
      const options o{device::cuda, spec, s};
      EXPECT_EQ(sluice::partition_flagged(in, flags, out, o), kept_f);
      EXPECT_TRUE(out.download() == by_flags);
      EXPECT_EQ(sluice::partition(in, out, less_than(limit), o), kept_p);
      EXPECT_TRUE(out.download() == by_pred);
    }
    if (n == sizes[1]) {  // resident
      device_buffer<std::uint64_t> count(1);
      const captured graph(s, [&] { sluice::partition_async(in, out, less_than(limit), count.data(), {device::cuda, "best", s}); });
      for (int i = 0; i < 2; ++i) ASSERT_TRUE(graph.launch());
      EXPECT_EQ(count.download()[0], kept_p);
      EXPECT_TRUE(out.download() == by_pred);
    }
  }
  cudaStreamDestroy(s);
}

// Large partitions by predicate: the pipelined pass that writes the rejected run reversed from the end and flips
// it (reversed=on), the sample that decides on the device between it and the phased path (pipelined=on, which
// best runs from 256 MiB on; at 90% kept the pass, whose tail the phased move's grid then flips, at 10% the
// phased path, whose tile counts the pass kernel takes), the same sample followed by the count pass and the
// single pass (pipelined=on,phased=off), the phased path (best at this size) and the count pass with the single
// pass (pipelined=off,phased=off), u32 and u64, a partial last tile off a 16-byte unit, every element checked,
// and the pass, the sample and best each captured in a CUDA graph and replayed twice.
template <class T>
void large_partitions_by_predicate(std::size_t n) {
  const auto spec = [](const char* params) {  // sanitizing: a grid of 7 blocks, several rounds each
    return std::string("decoupled-lookback:") + params + (sanitizing() ? ",blocks=7" : "");
  };
  std::vector<T> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<T>((i * 2654435761u) >> 7 & ((1u << 25) - 1));
  device_buffer<T> in(h), out(n);
  device_buffer<std::uint64_t> count(1);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  for (const double kept_ratio : {0.9, 0.1}) {
    const T limit = static_cast<T>(kept_ratio * (1u << 25));
    std::vector<T> want, rejected;
    for (const T v : h) (v < limit ? want : rejected).push_back(v);
    const std::size_t kept = want.size();
    want.insert(want.end(), rejected.begin(), rejected.end());
    for (const std::string& sp : {std::string("best"), spec("reversed=on"), spec("pipelined=on"), spec("pipelined=on,reversed=off"),
                                  spec("pipelined=on,phased=off"), spec("pipelined=off,phased=off")}) {
      SCOPED_TRACE(sp + " kept " + std::to_string(kept_ratio) + " n=" + std::to_string(n));
      cudaMemsetAsync(out.data(), 0xff, n * sizeof(T), s);
      EXPECT_EQ(sluice::partition(in, out, less_than(limit), {device::cuda, sp, s}), kept);
      EXPECT_TRUE(out.download() == want);
    }
    for (const std::string& sp : {std::string("best"), spec("reversed=on"), spec("pipelined=on")}) {
      SCOPED_TRACE("graph " + sp + " kept " + std::to_string(kept_ratio));
      const captured graph(s, [&] { sluice::partition_async(in, out, less_than(limit), count.data(), {device::cuda, sp, s}); });
      for (int i = 0; i < 2; ++i) {
        cudaMemsetAsync(out.data(), 0xff, n * sizeof(T), s);
        ASSERT_TRUE(graph.launch());
        EXPECT_EQ(count.download()[0], kept);
        EXPECT_TRUE(out.download() == want);
      }
    }
  }
  cudaStreamDestroy(s);
}
TEST_F(gpu, large_partitions_take_the_pipelined_path_and_capture_in_a_cuda_graph) {
  const std::size_t n = (std::size_t{1} << (sanitizing() ? 16 : 23)) + 4097;
  large_partitions_by_predicate<std::uint64_t>(n);
  large_partitions_by_predicate<std::uint32_t>(n + 2);
}

// partition_unordered by predicate: the single pass whose tiles write their rejected runs backwards from the end
// (pipelined=off; best below 64 MiB) and partition's pipelined pass without its flip (pipelined=on; best from 64
// MiB), u32 and u64, input and output 16-byte aligned and not, a partial last tile, 10% and 90% kept: the split
// point, the kept run in input order, the rejected run the same multiset as the input's (sorted, compared), and
// nothing written past n. best and the pass also captured in a CUDA graph and replayed twice.
template <class T>
void unordered_partitions_by_predicate(std::size_t n) {
  const auto spec = [](const char* params) { return std::string("decoupled-lookback:") + params + (sanitizing() ? ",blocks=7" : ""); };
  std::vector<T> h(n + 1);
  for (std::size_t i = 0; i < n + 1; ++i) h[i] = static_cast<T>((i * 2654435761u) >> 7 & ((1u << 25) - 1));
  device_buffer<T> in(h), out(n + 4);
  device_buffer<std::uint64_t> count(1);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  const T poison = static_cast<T>(~T{0});
  for (const double kept_ratio : {0.9, 0.1})
    for (const std::size_t off : {std::size_t{0}, std::size_t{1}}) {  // in + off, out + 3 * off
      const T limit = static_cast<T>(kept_ratio * (1u << 25));
      std::vector<T> kept, rejected;
      for (std::size_t i = off; i < off + n; ++i) (h[i] < limit ? kept : rejected).push_back(h[i]);
      std::sort(rejected.begin(), rejected.end());
      const std::span<const T> src(in.data() + off, n);
      const std::span<T> dst(out.data() + 3 * off, n);
      auto check = [&](std::uint64_t c, const std::string& what) {
        const auto got = out.download();
        EXPECT_EQ(c, kept.size()) << what;
        EXPECT_TRUE(std::equal(kept.begin(), kept.end(), got.begin() + 3 * off)) << what << ": kept run";
        std::vector<T> back(got.begin() + 3 * off + kept.size(), got.begin() + 3 * off + n);
        std::sort(back.begin(), back.end());
        EXPECT_TRUE(back == rejected) << what << ": rejected run";
        for (std::size_t i = 3 * off + n; i < got.size(); ++i) EXPECT_EQ(got[i], poison) << what << ": wrote past n at " << i;
      };
      for (const std::string& sp : {std::string("best"), spec("pipelined=on"), spec("pipelined=off"), std::string("cub")}) {
        const std::string what = sp + " kept " + std::to_string(kept_ratio) + " n=" + std::to_string(n) + " offset " + std::to_string(off);
        cudaMemsetAsync(out.data(), 0xff, (n + 4) * sizeof(T), s);
        check(sluice::partition_unordered(src, dst, less_than(limit), {device::cuda, sp, s}), what);
      }
      for (const std::string& sp : {std::string("best"), spec("pipelined=on")}) {
        const captured graph(s, [&] { sluice::partition_unordered_async(src, dst, less_than(limit), count.data(), {device::cuda, sp, s}); });
        for (int i = 0; i < 2; ++i) {
          cudaMemsetAsync(out.data(), 0xff, (n + 4) * sizeof(T), s);
          ASSERT_TRUE(graph.launch());
          check(count.download()[0], "graph " + sp);
        }
      }
    }
  cudaStreamDestroy(s);
}
TEST_F(gpu, unordered_partitions_take_one_pass_and_capture_in_a_cuda_graph) {
  const std::size_t n = (std::size_t{1} << (sanitizing() ? 16 : 22)) + 4097;  // pipelined=on takes the pass at any size
  unordered_partitions_by_predicate<std::uint64_t>(n);
  unordered_partitions_by_predicate<std::uint32_t>(n + 2);
  unordered_partitions_by_predicate<std::uint32_t>(5000);  // a few tiles
  unordered_partitions_by_predicate<std::uint32_t>(1000);  // one tile
}

}  // namespace
