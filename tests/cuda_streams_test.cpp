// What sluice keeps per stream between calls: small calls' scratch, look-back states and their epochs.
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

// Small calls borrow their stream's own scratch (src/runtime.cpp, stream_scratch) instead of the pool's: many
// reductions and scans back to back on two streams at once, on streams destroyed and made anew (more than the
// cache holds), and inside a graph replayed on a third stream while direct calls run on the first, each
// result right. A call that shared a buffer with another in flight would mix their partials.
TEST_F(gpu, small_calls_reuse_their_streams_scratch_safely) {
  const std::size_t n = 300000, calls = 200;  // partials and look-back states of a few KiB each
  std::vector<std::uint32_t> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 20);
  device_buffer<std::uint32_t> in(h), sums_a(n), sums_b(n);
  device_buffer<std::uint32_t> results(2 * calls + 2);
  auto expected = [&](std::size_t len) {
    std::uint32_t t = 0;
    for (std::size_t i = 0; i < len; ++i) t += h[i];
    return t;
  };
  cudaStream_t a, b, c;
  ASSERT_EQ(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithFlags(&c, cudaStreamNonBlocking), cudaSuccess);
  auto len_of = [&](std::size_t k) { return n - 997 * (k % 256); };
  // A graph of one reduction, captured on a, replayed on c below.
  cudaGraph_t g;
  cudaGraphExec_t ge;
  ASSERT_EQ(cudaStreamBeginCapture(a, cudaStreamCaptureModeGlobal), cudaSuccess);
  sluice::reduce_async(std::span<const std::uint32_t>(in.data(), n), results.data() + 2 * calls, 0u, sum{}, {device::cuda, "best", a});
  ASSERT_EQ(cudaStreamEndCapture(a, &g), cudaSuccess);
  ASSERT_EQ(cudaGraphInstantiate(&ge, g, 0), cudaSuccess);
  for (std::size_t k = 0; k < calls; ++k) {
    const std::size_t la = len_of(k), lb = len_of(k + 101);
    sluice::reduce_async(std::span<const std::uint32_t>(in.data(), la), results.data() + 2 * k, 0u, sum{}, {device::cuda, "best", a});
    sluice::reduce_async(std::span<const std::uint32_t>(in.data(), lb), results.data() + 2 * k + 1, 0u, sum{}, {device::cuda, "best", b});
    if (k % 50 == 0) ASSERT_EQ(cudaGraphLaunch(ge, c), cudaSuccess);
  }
  sluice::inclusive_scan(std::span<const std::uint32_t>(in.data(), n), std::span<std::uint32_t>(sums_a.data(), n), sum{}, {device::cuda, "best", a});
  sluice::inclusive_scan(std::span<const std::uint32_t>(in.data(), n), std::span<std::uint32_t>(sums_b.data(), n), sum{}, {device::cuda, "best", b});
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto r = results.download();
  for (std::size_t k = 0; k < calls; ++k) {
    ASSERT_EQ(r[2 * k], expected(len_of(k))) << "stream a, call " << k;
    ASSERT_EQ(r[2 * k + 1], expected(len_of(k + 101))) << "stream b, call " << k;
  }
  EXPECT_EQ(r[2 * calls], expected(n)) << "the graph";
  std::vector<std::uint32_t> want(n);
  std::inclusive_scan(h.begin(), h.end(), want.begin());
  EXPECT_EQ(sums_a.download(), want);
  EXPECT_EQ(sums_b.download(), want);
  // Streams made and destroyed, more than the cache keeps: each call still right.
  for (int k = 0; k < 80; ++k) {
    cudaStream_t t;
    ASSERT_EQ(cudaStreamCreate(&t), cudaSuccess);
    const std::size_t len = len_of(k * 7);
    EXPECT_EQ(sluice::reduce(std::span<const std::uint32_t>(in.data(), len), 0u, sum{}, {device::cuda, "best", t}), expected(len))
        << "stream " << k;
    ASSERT_EQ(cudaStreamDestroy(t), cudaSuccess);
  }
  EXPECT_GT(sluice::release_scratch(), 0u);  // the streams' buffers among them
  EXPECT_EQ(sluice::reduce(std::span<const std::uint32_t>(in.data(), n), 0u, sum{}, {device::cuda, "best", a}), expected(n));
  cudaGraphExecDestroy(ge);
  cudaGraphDestroy(g);
  for (cudaStream_t s : {a, b, c}) cudaStreamDestroy(s);
}

// A call that takes its stream's kept look-back states and then launches nothing on them (its cooperative
// launch refused, or an exception on the way: lookback::launch_states::unused) leaves them to be zeroed when
// they are next lent, so the next call never finds a tile counter nobody reset.
TEST_F(gpu, kept_states_left_unused_are_zeroed_when_next_lent) {
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  const std::size_t bytes = 4096;
  const std::vector<unsigned char> junk(bytes, 0xab);
  unsigned e1 = 0, e2 = 0, e3 = 0;
  {
    cuda_backend::scratch a(bytes, s, "test", &e1);
    if (e1 != 0) ASSERT_EQ(cudaMemcpyAsync(a.as<void>(), junk.data(), bytes, cudaMemcpyHostToDevice, s), cudaSuccess);  // a call's words
  }
  if (e1 == 0) {
    cudaStreamDestroy(s);
    GTEST_SKIP() << "no kept states for a new stream (more than 64 streams hold them)";
  }
  {
    cuda_backend::scratch b(bytes, s, "test", &e2);
    EXPECT_EQ(e2, e1 + 1) << "kept, not zeroed: the next epoch";
    cuda_backend::kept_states_spoil(b.as<void>());
  }
  cuda_backend::scratch c(bytes, s, "test", &e3);
  EXPECT_EQ(e3, 1u) << "zeroed again: the epochs start over";
  std::vector<unsigned char> got(bytes, 1);
  ASSERT_EQ(cudaMemcpyAsync(got.data(), c.as<void>(), bytes, cudaMemcpyDeviceToHost, s), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  EXPECT_EQ(std::count(got.begin(), got.end(), 0), static_cast<long>(bytes));
  c = cuda_backend::scratch();
  cudaStreamDestroy(s);
}

// The look-back states of 4-byte scans, of compaction and partition, and the count of finished blocks of
// reduce are kept per stream between calls, not zeroed: each call's words carry its epoch, and the tile
// counters alternate (lookback::launch_states). Every kind of call on one stream in turn, at sizes that
// change from call to call, so each finds the states, counters and partials the others left; the pipelined
// kernels, partition's count pass and 8-byte scans (which zero their states) among them; the epochs cut to
// 1..4, so the kept buffer is zeroed again every fifth call. Every element checked.
TEST_F(gpu, kept_lookback_states_serve_every_kind_of_call_in_turn) {
  struct epochs_cut {
    epochs_cut() { cuda_backend::set_kept_state_epoch_limit(5); }
    ~epochs_cut() { cuda_backend::set_kept_state_epoch_limit(0); }
  } cut;
  const std::uint32_t limit = 1u << 24;  // about half kept by the predicate
  const std::vector<std::size_t> sizes{2 * 8192, 3 * 8192 + 5, 40 * 8192 + 77, 300001, 12 * 8192 - 1};
  const std::size_t top = *std::max_element(sizes.begin(), sizes.end());
  std::vector<std::uint32_t> h(top);
  std::vector<std::uint8_t> hf(top);
  for (std::size_t i = 0; i < top; ++i) {
    h[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 7);
    hf[i] = static_cast<std::uint8_t>(h[i] % 5 < 2 ? 1 + i % 255 : 0);
  }
  std::vector<std::uint64_t> h64(h.begin(), h.end());
  device_buffer<std::uint32_t> in(h), out(top);
  device_buffer<std::uint64_t> in64(h64), out64(top);
  device_buffer<std::uint8_t> flags(hf);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  const options best{device::cuda, "best", s}, piped{device::cuda, pipelined_spec(), s};
  const options single{device::cuda, "decoupled-lookback:phased=off", s},
      counted{device::cuda, "decoupled-lookback:resident=off,phased=off", s};
  constexpr int kinds = 9;
  for (int r = 0; r < 4 * kinds; ++r) {
    const int kind = r % kinds;
    const std::size_t n = sizes[(r + r / kinds) % sizes.size()];
    SCOPED_TRACE("call " + std::to_string(r) + ", kind " + std::to_string(kind) + ", n " + std::to_string(n));
    std::span<const std::uint32_t> i(in.data(), n);
    std::span<std::uint32_t> o(out.data(), n);
    std::span<const std::uint8_t> f(flags.data(), n);
    std::vector<std::uint32_t> want, rejected;
    std::uint64_t kept = 0;
    const bool by_flags = kind == 1 || kind == 7;
    for (std::size_t k = 0; k < n; ++k) ((by_flags ? hf[k] != 0 : h[k] < limit) ? want : rejected).push_back(h[k]);
    const std::size_t want_kept = want.size();
    switch (kind) {
      case 0: sluice::inclusive_scan(i, o, sum{}, best); break;
      case 1: kept = sluice::compact(i, f, o, single); break;
      case 2: kept = sluice::compact_if(i, o, less_than(limit), best); break;
      case 3: kept = sluice::partition(i, o, less_than(limit), best); break;  // resident: one cooperative launch
      case 4: EXPECT_EQ(sluice::reduce(i, 0u, sum{}, best), std::accumulate(h.begin(), h.begin() + n, 0u)); break;
      case 5: sluice::exclusive_scan(i, o, 7u, sum{}, piped); break;
      case 6: kept = sluice::compact_if(i, o, less_than(limit), piped); break;
      case 7: kept = sluice::partition_flagged(i, f, o, counted); break;  // the count pass, then the look-back
      case 8: sluice::inclusive_scan(std::span<const std::uint64_t>(in64.data(), n), std::span<std::uint64_t>(out64.data(), n), sum{}, best); break;
    }
    ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
    std::vector<std::uint32_t> got = out.download();
    got.resize(n);
    if (kind == 0 || kind == 5) {
      want.assign(n, 0);
      if (kind == 0) std::inclusive_scan(h.begin(), h.begin() + n, want.begin());
      else std::exclusive_scan(h.begin(), h.begin() + n, want.begin(), 7u);
      EXPECT_TRUE(got == want);
    } else if (kind == 8) {
      std::vector<std::uint64_t> want64(n), got64 = out64.download();
      std::inclusive_scan(h64.begin(), h64.begin() + n, want64.begin());
      got64.resize(n);
      EXPECT_TRUE(got64 == want64);
    } else if (kind != 4) {
      EXPECT_EQ(kept, want_kept);
      if (kind == 3 || kind == 7) want.insert(want.end(), rejected.begin(), rejected.end());
      else got.resize(std::min<std::size_t>(kept, n));
      EXPECT_TRUE(got == want);
    }
  }
  EXPECT_GT(sluice::release_scratch(), 0u);  // the stream's kept buffers among what went back
  cudaStreamDestroy(s);
}

}  // namespace
