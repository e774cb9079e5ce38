// Compaction on the GPU: misaligned starts, one thread block cluster, the pipelined path, dense and sparse tiles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

// Every CUDA compaction and partition at element, output and flag offsets that break 16-byte alignment:
// the vector paths must neither fault nor misread, and the element path must match them.
template <class T>
void moves_of_misaligned_ranges() {
  const std::size_t n = 70 * 8192 + 77;  // past the phased threshold of the flagged single pass (32 tiles) for u32 and u16
  std::vector<T> host(n + 8);
  std::vector<std::uint8_t> flags(n + 8);
  for (std::size_t i = 0; i < host.size(); ++i) {
    host[i] = static_cast<T>(i * 2654435761u >> 7);
    flags[i] = (i * 40503u >> 5) % 3 ? static_cast<std::uint8_t>(i | 1) : 0;  // about 2/3 kept, any non-zero byte
  }
  device_buffer<T> in(host), out(n + 8);
  device_buffer<std::uint8_t> fl(flags);
  for (const auto& a : algorithms()) {
    if (!a.on_cuda || (a.prim != primitive::compact && a.prim != primitive::compact_unordered && a.prim != primitive::partition &&
                       a.prim != primitive::partition_unordered))
      continue;
    for (std::size_t off_in : {0, 1, 3})
      for (std::size_t off_out : {0, 2})
        for (std::size_t off_flags : {off_in, std::size_t{1}}) {
          std::span<const T> src(in.data() + off_in, n);
          std::span<const std::uint8_t> f(fl.data() + off_flags, n);
          std::span<T> dst(out.data() + off_out, n);
          std::vector<T> kept, rejected;
          for (std::size_t i = 0; i < n; ++i) (flags[off_flags + i] ? kept : rejected).push_back(host[off_in + i]);
          const options o{device::cuda, a.name};
          std::uint64_t c = 0;
          if (a.prim == primitive::compact) c = sluice::compact(src, f, dst, o);
          else if (a.prim == primitive::compact_unordered) c = sluice::compact_unordered(src, f, dst, o);
          else if (a.prim == primitive::partition) c = sluice::partition_flagged(src, f, dst, o);
          else c = sluice::partition_unordered_flagged(src, f, dst, o);
          const bool part = a.prim == primitive::partition || a.prim == primitive::partition_unordered;
          EXPECT_EQ(c, part ? n - rejected.size() : kept.size()) << a.name;
          auto got = out.download();
          if (a.prim == primitive::partition_unordered) {  // the rejected run as a multiset
            std::vector<T> back(got.begin() + off_out + kept.size(), got.begin() + off_out + n);
            std::sort(back.begin(), back.end()), std::sort(rejected.begin(), rejected.end());
            EXPECT_TRUE(back == rejected) << a.name << " rejected run";
          } else if (part) {
            kept.insert(kept.end(), rejected.begin(), rejected.end());
          }
          std::vector<T> mine(got.begin() + off_out, got.begin() + off_out + kept.size());
          if (a.prim == primitive::compact_unordered) std::sort(mine.begin(), mine.end()), std::sort(kept.begin(), kept.end());
          EXPECT_TRUE(mine == kept) << to_string(a.prim) << " " << a.name << " " << sizeof(T) << "-byte in+" << off_in
                                    << " out+" << off_out << " flags+" << off_flags;
        }
  }
}
TEST_F(gpu, moves_of_misaligned_ranges_u32) { moves_of_misaligned_ranges<std::uint32_t>(); }
TEST_F(gpu, moves_of_misaligned_ranges_u16) { moves_of_misaligned_ranges<std::uint16_t>(); }

// 2 to 16 tiles of the single pass run as one thread block cluster (cluster_prefix.cuh) for the scans, compact and
// the partitions by predicate: the tiles' counts (the scan's aggregates) exchanged in shared memory in place of the
// look-back. On both sides of that range, at its edges and in it (u32 tiles of 8192, u64 of 4096: 2^16 is 8 and 16
// tiles), every form against the host and against the look-back (cluster=off; the flagged partition, which takes no
// cluster, by both specs), every element; and the `_async` forms of one cluster captured in a CUDA graph and
// replayed twice.
template <class T>
void one_cluster_or_the_look_back(std::size_t tile) {
  const std::vector<std::size_t> sizes{tile + 1, 3 * tile + 5, 8 * tile, 16 * tile, 16 * tile + 1};
  const std::size_t top = sizes.back();
  std::vector<T> h(top);
  std::vector<std::uint8_t> hf(top);
  for (std::size_t i = 0; i < top; ++i)
    h[i] = static_cast<T>(static_cast<std::uint32_t>(i * 2654435761u) >> 7), hf[i] = static_cast<std::uint8_t>(h[i] % 5 < 2);
  const T limit = T(1) << 24;  // about half kept by the predicate
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  device_buffer<T> in(h), out(top);
  device_buffer<std::uint8_t> flags(hf);
  for (const std::size_t n : sizes) {
    SCOPED_TRACE("n=" + std::to_string(n) + (sizeof(T) == 4 ? " u32" : " u64"));
    const std::span<const T> i(in.data(), n);
    const std::span<const std::uint8_t> f(flags.data(), n);
    const std::span<T> o(out.data(), n);
    std::vector<T> by_pred, rejected_p, by_flags, rejected_f, incl(n), excl(n);
    for (std::size_t k = 0; k < n; ++k) {
      (h[k] < limit ? by_pred : rejected_p).push_back(h[k]);
      (hf[k] ? by_flags : rejected_f).push_back(h[k]);
    }
    std::inclusive_scan(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(n), incl.begin());
    std::exclusive_scan(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(n), excl.begin(), T(3));
    const auto got = [&](std::size_t k) {
      EXPECT_EQ(cudaStreamSynchronize(s), cudaSuccess);  // the scans return before their kernel ends; s does not wait for the copy's stream
      std::vector<T> g = out.download();
      g.resize(k);
      return g;
    };
    const auto both = [](std::vector<T> a, const std::vector<T>& b) { return a.insert(a.end(), b.begin(), b.end()), a; };
    for (const char* spec : {"best", "decoupled-lookback:cluster=off"}) {
      SCOPED_TRACE(spec);
      const options o_{device::cuda, spec, s};
      EXPECT_EQ(sluice::compact_if(i, o, less_than(limit), o_), by_pred.size());
      EXPECT_TRUE(got(by_pred.size()) == by_pred) << "compact_if";
      EXPECT_EQ(sluice::compact(i, f, o, o_), by_flags.size());
      EXPECT_TRUE(got(by_flags.size()) == by_flags) << "compact";
      EXPECT_EQ(sluice::partition(i, o, less_than(limit), o_), by_pred.size());
      EXPECT_TRUE(got(n) == both(by_pred, rejected_p)) << "partition";
      EXPECT_EQ(sluice::partition_flagged(i, f, o, o_), by_flags.size());
      EXPECT_TRUE(got(n) == both(by_flags, rejected_f)) << "partition_flagged";
      EXPECT_EQ(sluice::partition_unordered(i, o, less_than(limit), o_), by_pred.size());
      std::vector<T> u = got(n), rest(u.begin() + static_cast<std::ptrdiff_t>(by_pred.size()), u.end()), want_rest = rejected_p;
      u.resize(by_pred.size());
      std::sort(rest.begin(), rest.end()), std::sort(want_rest.begin(), want_rest.end());
      EXPECT_TRUE(u == by_pred && rest == want_rest) << "partition_unordered";
      sluice::inclusive_scan(i, o, sum{}, o_);
      EXPECT_TRUE(got(n) == incl) << "inclusive_scan";
      sluice::exclusive_scan(i, o, T(3), sum{}, o_);
      EXPECT_TRUE(got(n) == excl) << "exclusive_scan";
    }
    if (n == 8 * tile) {
      device_buffer<std::uint64_t> counts(2);
      device_buffer<T> kept(n), split(n), sums(n);
      const options o_{device::cuda, "best", s};
      const captured graph(s, [&] {
        sluice::compact_if_async(i, std::span<T>(kept.data(), n), less_than(limit), counts.data(), o_);
        sluice::partition_flagged_async(i, f, std::span<T>(split.data(), n), counts.data() + 1, o_);
        sluice::inclusive_scan(i, std::span<T>(sums.data(), n), sum{}, o_);
      });
      for (int r = 0; r < 2; ++r) {
        ASSERT_TRUE(graph.launch());
        const auto c = counts.download();
        EXPECT_EQ(c[0], by_pred.size());
        EXPECT_EQ(c[1], by_flags.size());
        std::vector<T> k = kept.download();
        k.resize(by_pred.size());
        EXPECT_TRUE(k == by_pred) << "graph: compact_if_async";
        EXPECT_TRUE(split.download() == both(by_flags, rejected_f)) << "graph: partition_flagged_async";
        EXPECT_TRUE(sums.download() == incl) << "graph: inclusive_scan";
      }
    }
  }
  cudaStreamDestroy(s);
}
TEST_F(gpu, small_inputs_run_as_one_cluster_u32) { one_cluster_or_the_look_back<std::uint32_t>(8192); }
TEST_F(gpu, small_inputs_run_as_one_cluster_u64) { one_cluster_or_the_look_back<std::uint64_t>(4096); }

// Whether got begins with want's first k elements.
template <class T>
bool prefix_is(const std::vector<T>& got, const std::vector<T>& want, std::size_t k) {
  return got.size() >= k && want.size() >= k && std::equal(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(k), got.begin());
}

// Large compactions: both forms take the pipelined path (from 2^24 four-byte elements on Hopper, by predicate
// from 2^23; where it does not apply, the predicate form the single pass and the flagged form the phased one,
// which is also asked for by name): a partial last tile whose bytes end off a 16-byte unit, an output shorter than the kept run (nothing
// written past it), and both forms captured in one CUDA graph replayed twice.
TEST_F(gpu, large_compactions_take_the_pipelined_path_and_capture_in_a_cuda_graph) {
  const std::size_t n = (std::size_t{1} << (sanitizing() ? 18 : 24)) + 4097;  // sanitizing: the paths named below
  const std::uint32_t limit = 1u << 24;  // h spans [0, 2^25): about half kept by the predicate
  std::vector<std::uint32_t> h(n), by_flags, by_pred;
  std::vector<std::uint8_t> hf(n);
  for (std::size_t i = 0; i < n; ++i) {
    h[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 7);
    hf[i] = static_cast<std::uint8_t>(h[i] % 7 < 2 ? 1 + i % 255 : 0);  // any non-zero byte keeps
    if (hf[i]) by_flags.push_back(h[i]);
    if (h[i] < limit) by_pred.push_back(h[i]);
  }
  device_buffer<std::uint32_t> in(h), out(n), graphed(n), graphed_flags(n);
  const std::size_t short_size = by_flags.size() / 2 + 3;
  device_buffer<std::uint8_t> flags(hf);
  device_buffer<std::uint64_t> count(3);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  const options opt{device::cuda, "best", s};
  // The phased path, which best takes with flags below 2^24 (and for 8-byte elements).
  EXPECT_EQ(sluice::compact(in, flags, out, {device::cuda, "decoupled-lookback:phased=on", s}), by_flags.size());
  EXPECT_TRUE(prefix_is(out.download(), by_flags, by_flags.size()));
  if (sanitizing()) {  // the paths "best" takes at 2^24: the pipeline, with flags and with a predicate
    EXPECT_EQ(sluice::compact(in, flags, out, {device::cuda, pipelined_spec(), s}), by_flags.size());
    EXPECT_TRUE(prefix_is(out.download(), by_flags, by_flags.size()));
    EXPECT_EQ(sluice::compact_if(in, out, less_than(limit), {device::cuda, pipelined_spec(), s}), by_pred.size());
    EXPECT_TRUE(prefix_is(out.download(), by_pred, by_pred.size()));
  }
  EXPECT_EQ(sluice::compact(in, flags, out, opt), by_flags.size());
  EXPECT_TRUE(prefix_is(out.download(), by_flags, by_flags.size()));
  EXPECT_EQ(sluice::compact_if(in, out, less_than(limit), opt), by_pred.size());
  EXPECT_TRUE(prefix_is(out.download(), by_pred, by_pred.size()));
  // Past the output's end nothing is written; the count is the whole count.
  std::vector<std::uint32_t> sentinel(short_size + 64, 0xdeadbeefu);
  for (const char* spec : {"best", pipelined_spec()}) {
    SCOPED_TRACE(spec);
    device_buffer<std::uint32_t> guarded(sentinel);
    sluice::compact_async(in, flags, std::span<std::uint32_t>(guarded.data(), short_size), count.data(), {device::cuda, spec, s});
    ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
    EXPECT_EQ(count.download()[0], by_flags.size());
    const auto g = guarded.download();
    EXPECT_TRUE(prefix_is(g, by_flags, short_size));
    EXPECT_TRUE(std::all_of(g.begin() + static_cast<std::ptrdiff_t>(short_size), g.end(), [](std::uint32_t v) { return v == 0xdeadbeefu; }));
  }
  EXPECT_EQ(sluice::compact(in, flags, out, {device::cuda, pipelined_spec(), s}), by_flags.size());
  EXPECT_TRUE(prefix_is(out.download(), by_flags, by_flags.size()));
  cudaGraph_t graph;
  ASSERT_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
  sluice::compact_if_async(in, graphed, less_than(limit), count.data() + 1, opt);
  sluice::compact_async(in, flags, graphed_flags, count.data() + 2, opt);
  ASSERT_EQ(cudaStreamEndCapture(s, &graph), cudaSuccess);
  cudaGraphExec_t exec;
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  for (int i = 0; i < 2; ++i) ASSERT_EQ(cudaGraphLaunch(exec, s), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  EXPECT_EQ(count.download()[1], by_pred.size());
  EXPECT_TRUE(prefix_is(graphed.download(), by_pred, by_pred.size()));
  EXPECT_EQ(count.download()[2], by_flags.size());
  EXPECT_TRUE(prefix_is(graphed_flags.download(), by_flags, by_flags.size()));
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(s);
}

// The compact's pipeline on a grid of 2 blocks (about 20 rounds each), over runs of about a tile (7168 u32, 3072
// u64) that are all kept, none kept, one kept in the middle, all but the first kept, and every other one kept, in
// turn, with a partial last tile: so that a block's consecutive runs, which C stages at the staging buffer's two
// ends in turn, are by turns dense and sparse, overlapping and apart, and empty. Flags and predicate, u32 and u64,
// every element and count checked; into an output of half the kept elements, nothing written past its end.
template <class T>
void compactions_of_dense_and_sparse_tiles() {
  const std::size_t run = sizeof(T) == 4 ? 7168 : 3072, runs = sanitizing() ? 13 : 41, n = runs * run + 13;
  const T limit = T{1} << 20;  // kept values are their index (below it), rejected ones 2^20 + index
  std::vector<T> h(n), want;
  std::vector<std::uint8_t> hf(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t k = i % run;
    bool keep = false;
    switch (i / run % 5) {
      case 0: keep = true; break;
      case 1: keep = false; break;
      case 2: keep = k == run / 2; break;
      case 3: keep = k != 0; break;
      default: keep = k % 2 == 1;
    }
    h[i] = static_cast<T>(keep ? i : limit + i);
    hf[i] = keep ? static_cast<std::uint8_t>(1 + i % 255) : 0;
    if (keep) want.push_back(h[i]);
  }
  device_buffer<T> in(h), out(n);
  device_buffer<std::uint8_t> flags(hf);
  device_buffer<std::uint64_t> count(1);
  const char* spec = "decoupled-lookback:pipelined=on,blocks=2";
  EXPECT_EQ(sluice::compact(in, flags, out, {device::cuda, spec}), want.size());
  EXPECT_TRUE(prefix_is(out.download(), want, want.size())) << "flags";
  EXPECT_EQ(sluice::compact_if(in, out, less_than(limit), {device::cuda, spec}), want.size());
  EXPECT_TRUE(prefix_is(out.download(), want, want.size())) << "predicate";
  const std::size_t short_size = want.size() / 2 + 3;
  const T poison = static_cast<T>(~T{0});
  for (const bool by_flags : {true, false}) {
    device_buffer<T> guarded(std::vector<T>(short_size + 64, poison));
    const std::span<T> dst(guarded.data(), short_size);
    if (by_flags) sluice::compact_async(in, flags, dst, count.data(), {device::cuda, spec});
    else sluice::compact_if_async(in, dst, less_than(limit), count.data(), {device::cuda, spec});
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(count.download()[0], want.size()) << (by_flags ? "flags" : "predicate") << ", short output";
    const auto g = guarded.download();
    EXPECT_TRUE(prefix_is(g, want, short_size)) << (by_flags ? "flags" : "predicate") << ", short output";
    EXPECT_TRUE(std::all_of(g.begin() + static_cast<std::ptrdiff_t>(short_size), g.end(), [&](T v) { return v == poison; }))
        << (by_flags ? "flags" : "predicate") << ": written past the output's end";
  }
}
TEST_F(gpu, compactions_of_dense_and_sparse_tiles_through_two_blocks) {
  compactions_of_dense_and_sparse_tiles<std::uint32_t>();
  compactions_of_dense_and_sparse_tiles<std::uint64_t>();
}

}  // namespace
