// Synchronous results and counts through mapped host slots: from several host threads, watched as they land.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

// Runs body(t, stream, failure) on `threads` host threads at once, each on a non-blocking stream of its own;
// failure, empty where all went well, also takes the message of an exception thrown. One failure a thread.
template <class Body>
std::vector<std::string> on_own_streams(int threads, Body body) {
  std::vector<std::string> failures(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      cudaStream_t s;
      if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) return void(failures[t] = "no stream");
      try {
        body(t, s, failures[t]);
      } catch (const std::exception& e) {
        failures[t] = e.what();
      }
      cudaStreamDestroy(s);
    });
  for (auto& th : pool) th.join();
  return failures;
}

// The synchronous reduce of the default writes its result into a mapped host slot (cuda_backend::host_slot)
// and reads it once its stream is done: from several host threads at once, each on its own stream, every call
// reads its own sum (empty, one element, small, the body's grid, the dynamic chunks by name), as the async form
// leaves it in device memory; and the slots go back, so many more calls than a page holds all succeed.
TEST_F(gpu, synchronous_reduces_from_several_threads_read_their_own_results) {
  const std::size_t n = (std::size_t{1} << 20) + 5;
  std::vector<std::uint32_t> h(n);
  std::vector<float> hf(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 16), hf[i] = static_cast<float>(h[i] % 1000) / 8.0f;
  device_buffer<std::uint32_t> in(h);
  device_buffer<float> fin(hf);
  const std::size_t lens[] = {0, 1, 2, 31, 4096, 50001, n - 3, n};
  auto expected = [&](std::size_t at, std::size_t len) {
    std::uint32_t t = 7;
    for (std::size_t i = at; i < at + len; ++i) t += h[i];
    return t;
  };
  constexpr int threads = 6, calls = 120;
  const auto failures = on_own_streams(threads, [&](int t, cudaStream_t s, std::string& failure) {
    device_buffer<float> fres(1);
    for (int k = 0; k < calls && failure.empty(); ++k) {
      const std::size_t len = lens[(k + t) % std::size(lens)], at = len < n ? (k * 7 + t) % (n - len + 1) : 0;
      const char* algo = k % 5 == 4 ? "vectorized:dynamic=on" : "best";
      const std::uint32_t got = sluice::reduce(std::span<const std::uint32_t>(in.data() + at, len), 7u, sum{}, {device::cuda, algo, s});
      if (got != expected(at, len))
        failure = "u32 call " + std::to_string(k) + " (" + algo + ", n " + std::to_string(len) + "): " + std::to_string(got);
      const std::span<const float> fs(fin.data() + at, len);
      const float f = sluice::reduce(fs, 0.5f, sum{}, {device::cuda, algo, s});
      sluice::reduce_async(fs, fres.data(), 0.5f, sum{}, {device::cuda, algo, s});
      if (cudaStreamSynchronize(s) != cudaSuccess) return void(failure = "cudaStreamSynchronize");
      const float fa = fres.download()[0];
      if (std::memcmp(&f, &fa, sizeof f) != 0)
        failure = "f32 call " + std::to_string(k) + ": " + std::to_string(f) + " against the async form's " + std::to_string(fa);
    }
  });
  for (int t = 0; t < threads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
  // More calls than one page of slots holds (256), one after another: each slot went back.
  for (int k = 0; k < 600; ++k) ASSERT_EQ(sluice::reduce(std::span<const std::uint32_t>(in.data(), 4096), 7u, sum{}, {device::cuda}), expected(0, 4096));
  // The other algorithms copy their result as before.
  EXPECT_EQ(sluice::reduce(std::span<const std::uint32_t>(in.data(), n), 7u, sum{}, {device::cuda, "cub"}), expected(0, n));
  EXPECT_EQ(sluice::reduce(std::span<const std::uint32_t>(in.data(), n), 7u, sum{}, {device::cuda, "two-pass"}), expected(0, n));
}

// The synchronous reduce of the default returns as soon as its result lands in its slot, which is armed with all
// ones before the launch (cuda_backend::through_host_slot, watch::always). A result that leaves the watched word as armed
// (u64 all ones; u32 all ones, whose upper half of the word stays armed; -1 as int64) never shows a change: the watch
// ends when the stream does and the result is read all the same, from one block and from the body's grid (sizes
// around 2^20 and 2^23, the dynamic kernel by name); results next to the pattern are read as they land.
TEST_F(gpu, synchronous_reduce_of_the_watched_slots_armed_pattern) {
  for (const std::size_t n : {std::size_t{1}, std::size_t{4096}, (std::size_t{1} << 20) + 3, std::size_t{1} << 23}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    std::vector<std::uint64_t> h64(n);
    std::vector<std::uint32_t> h32(n);
    std::vector<std::int64_t> hs(n);
    for (std::size_t i = 0; i < n; ++i) h64[i] = i * 3, h32[i] = static_cast<std::uint32_t>(i * 3), hs[i] = -static_cast<std::int64_t>(i) - 2;
    h64[n / 2] = ~std::uint64_t{0}, h32[n / 3] = ~std::uint32_t{0}, hs[n - 1] = -1;
    device_buffer<std::uint64_t> in64(h64);
    device_buffer<std::uint32_t> in32(h32);
    device_buffer<std::int64_t> ins(hs);
    for (const char* algo : {"best", "vectorized:dynamic=on"}) {
      SCOPED_TRACE(algo);
      EXPECT_EQ(sluice::reduce(in64, std::uint64_t{0}, maximum{}, {device::cuda, algo}), ~std::uint64_t{0});
      EXPECT_EQ(sluice::reduce(in32, 0u, maximum{}, {device::cuda, algo}), ~std::uint32_t{0});
      EXPECT_EQ(sluice::reduce(ins, std::int64_t{-5}, maximum{}, {device::cuda, algo}), std::int64_t{-1});
      EXPECT_EQ(sluice::reduce(in64, std::uint64_t{1}, minimum{}, {device::cuda, algo}), std::min(std::uint64_t{1}, *std::min_element(h64.begin(), h64.end())));
      const std::uint32_t below = sluice::reduce(std::span<const std::uint32_t>(in32.data(), 1), 0xfffffffeu, maximum{}, {device::cuda, algo});
      EXPECT_EQ(below, h32[0] > 0xfffffffeu ? h32[0] : 0xfffffffeu);
    }
  }
}

// The synchronous compact, compact_if and partition_unordered of the default (decoupled-lookback) take their
// count straight into a mapped host slot (detail::counted): from several host threads at once, each on its own
// stream, every count and every kept element is right, the empty input (which zeroes the count by memset) takes
// the copying path, and the other algorithms keep theirs.
TEST_F(gpu, synchronous_counts_from_several_threads_read_their_own_counts) {
  const std::size_t n = 300001;
  std::vector<std::uint32_t> h(n);
  std::vector<std::uint8_t> hf(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 8), hf[i] = (h[i] >> 5) % 3 == 0;
  device_buffer<std::uint32_t> in(h);
  device_buffer<std::uint8_t> flags(hf);
  const std::size_t lens[] = {0, 1, 33, 4096, 70001, n};
  const auto pred = less_than(std::uint32_t{1} << 22);  // a quarter kept (the library's own predicate)
  constexpr int threads = 4, calls = 30;
  const auto failures = on_own_streams(threads, [&](int t, cudaStream_t s, std::string& failure) {
    device_buffer<std::uint32_t> out(n);
    for (int k = 0; k < calls && failure.empty(); ++k) {
      const std::size_t len = lens[(k + t) % std::size(lens)];
      const std::span<const std::uint32_t> si(in.data(), len);
      const std::span<std::uint32_t> so(out.data(), len);
      const options o{device::cuda, k % 4 == 3 ? "decoupled-lookback:phased=on" : "best", s};
      std::vector<std::uint32_t> kept, rejected;
      for (std::size_t i = 0; i < len; ++i) (pred(h[i]) ? kept : rejected).push_back(h[i]);
      auto check = [&](const char* what, std::uint64_t c, const std::vector<std::uint32_t>& want) {  // out starts with want
        if (cudaStreamSynchronize(s) != cudaSuccess) return void(failure = "cudaStreamSynchronize");
        auto got = out.download();
        got.resize(c);
        if (c != want.size() || !std::equal(want.begin(), want.end(), got.begin()))
          failure = std::string(what) + " call " + std::to_string(k) + " (n " + std::to_string(len) + "): count " + std::to_string(c) +
                    ", expected " + std::to_string(want.size());
      };
      check("compact_if", sluice::compact_if(si, so, pred, o), kept);
      std::vector<std::uint32_t> fk;
      for (std::size_t i = 0; i < len; ++i)
        if (hf[i]) fk.push_back(h[i]);
      check("compact", sluice::compact(si, std::span<const std::uint8_t>(flags.data(), len), so, o), fk);
      if (k % 4 == 3) continue;  // partition_unordered takes no phased=
      const std::uint64_t c = sluice::partition_unordered(si, so, pred, {device::cuda, "best", s});
      check("partition_unordered", c, kept);
      if (failure.empty()) {  // the rejected ones after them, in any order
        auto got = out.download();
        std::vector<std::uint32_t> rest(got.begin() + c, got.begin() + len), want = rejected;
        std::sort(rest.begin(), rest.end()), std::sort(want.begin(), want.end());
        if (rest != want) failure = "partition_unordered call " + std::to_string(k) + ": the rejected elements";
      }
    }
  });
  for (int t = 0; t < threads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
  device_buffer<std::uint32_t> out(n);
  std::size_t want = 0;
  for (std::size_t i = 0; i < n; ++i) want += pred(h[i]);
  // The algorithms that copy their count (the unordered forms' atomics, the stable partition, CUB's).
  EXPECT_EQ(sluice::compact_unordered_if(std::span<const std::uint32_t>(in.data(), n), std::span<std::uint32_t>(out.data(), n), pred, {device::cuda}), want);
  EXPECT_EQ(sluice::partition(std::span<const std::uint32_t>(in.data(), n), std::span<std::uint32_t>(out.data(), n), pred, {device::cuda}), want);
  EXPECT_EQ(sluice::compact_if(std::span<const std::uint32_t>(in.data(), n), std::span<std::uint32_t>(out.data(), n), pred, {device::cuda, "cub"}), want);
}

// Where the synchronous compactions and partitions of the default run the look-back's single grid (or one tile),
// the grid's last block to finish stores the count, after every element, and the call returns as soon as it lands
// (through_host_slot, watch::where_permitted): from one tile, across tile
// boundaries (8192 u32 elements a tile), to many tiles (the resident partition's, the single pass's), every such
// count is watched, each watch ends by the count's change (the watch's limit lifted, so that a slow run, under a
// sanitizer, ends the same way), and when the call returns `out` holds every element for any stream (read at once
// from another non-blocking stream, unordered with the call's). The phased path (its count stored by the last
// tile, maybe before others finish) and the copying algorithms are never watched; with phased=off every path
// is the single grid, on any GPU.
TEST_F(gpu, synchronous_counts_land_after_every_element) {
  struct lifted {
    lifted() { cuda_backend::set_watch_limit_us(1e7); }
    ~lifted() { cuda_backend::set_watch_limit_us(0); }
  } limit;
  constexpr std::size_t tile = 8192;
  const std::size_t sizes[] = {1, 100, tile - 1, tile, tile + 1, 3 * tile + 5, std::size_t{1} << 16, (std::size_t{1} << 20) + 7, std::size_t{1} << 22};
  const std::size_t n_max = sizes[std::size(sizes) - 1];
  std::vector<std::uint32_t> h(n_max);
  std::vector<std::uint8_t> hf(n_max);
  for (std::size_t i = 0; i < n_max; ++i) h[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 9), hf[i] = (h[i] >> 4) % 3 != 0;
  device_buffer<std::uint32_t> in(h), out(n_max);
  device_buffer<std::uint8_t> flags(hf);
  const auto pred = less_than(std::uint32_t{1} << 21);  // about a quarter kept
  cudaStream_t s = nullptr, other = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking), cudaSuccess);
  std::uint32_t* seen = nullptr;  // pinned: the other stream's copy of out
  ASSERT_EQ(cudaMallocHost(&seen, n_max * sizeof(std::uint32_t)), cudaSuccess);
  for (const std::size_t n : sizes) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const std::span<const std::uint32_t> si(in.data(), n);
    const std::span<const std::uint8_t> sf(flags.data(), n);
    const std::span<std::uint32_t> so(out.data(), n);
    std::vector<std::uint32_t> by_pred, by_pred_rejected, by_flag, by_flag_rejected;
    for (std::size_t i = 0; i < n; ++i) {
      (pred(h[i]) ? by_pred : by_pred_rejected).push_back(h[i]);
      (hf[i] ? by_flag : by_flag_rejected).push_back(h[i]);
    }
    const auto concat = [](std::vector<std::uint32_t> a, const std::vector<std::uint32_t>& b) { return a.insert(a.end(), b.begin(), b.end()), a; };
    // call(): the synchronous form; want: out's first elements, kept: the count; watched: 1 where the count must be
    // watched, 0 where it must not, -1 where the path is the GPU's choice (the partitions' resident grid).
    const auto check = [&](const char* what, const std::vector<std::uint32_t>& want, std::size_t kept, int watched, auto call) {
      EXPECT_EQ(cudaMemsetAsync(out.data(), 0xff, n * sizeof(std::uint32_t), s), cudaSuccess);  // no input element is all ones
      const auto before = cuda_backend::watches();
      const std::uint64_t c = call();
      EXPECT_EQ(cudaMemcpyAsync(seen, out.data(), want.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, other), cudaSuccess);
      EXPECT_EQ(cudaStreamSynchronize(other), cudaSuccess);
      const auto after = cuda_backend::watches();
      EXPECT_EQ(c, kept) << what;
      std::size_t wrong = 0, first = 0;
      for (std::size_t i = 0; i < want.size(); ++i)
        if (seen[i] != want[i] && wrong++ == 0) first = i;
      EXPECT_EQ(wrong, 0u) << what << ": first at " << first;
      const std::uint64_t permitted = after.permitted - before.permitted;
      if (watched >= 0) EXPECT_EQ(permitted, static_cast<std::uint64_t>(watched)) << what << ": watches permitted";
      EXPECT_LE(permitted, 1u) << what;
      EXPECT_EQ(after.changed - before.changed, permitted) << what << ": watches ended by the count's change";
    };
    for (const char* algo : {"best", "decoupled-lookback:phased=off"}) {
      SCOPED_TRACE(algo);
      const options o{device::cuda, algo, s};
      const int always = 1, partitions = algo[0] == 'b' && n > 4 * tile ? -1 : 1;
      check("compact_if", by_pred, by_pred.size(), always, [&] { return sluice::compact_if(si, so, pred, o); });
      check("compact", by_flag, by_flag.size(), always, [&] { return sluice::compact(si, sf, so, o); });
      check("partition", concat(by_pred, by_pred_rejected), by_pred.size(), partitions, [&] { return sluice::partition(si, so, pred, o); });
      check("partition_flagged", concat(by_flag, by_flag_rejected), by_flag.size(), partitions,
            [&] { return sluice::partition_flagged(si, sf, so, o); });
    }
    check("partition_unordered", by_pred, by_pred.size(), 1, [&] { return sluice::partition_unordered(si, so, pred, {device::cuda, "best", s}); });
    if (n > tile) {  // the phased path and a copying algorithm: never watched
      check("compact, phased", by_flag, by_flag.size(), 0, [&] { return sluice::compact(si, sf, so, {device::cuda, "decoupled-lookback:phased=on", s}); });
      check("compact_if, cub", by_pred, by_pred.size(), 0, [&] { return sluice::compact_if(si, so, pred, {device::cuda, "cub", s}); });
    }
  }
  cudaFreeHost(seen);
  cudaStreamDestroy(other);
  cudaStreamDestroy(s);
}

}  // namespace
