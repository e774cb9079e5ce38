// The CPU defaults on a machine that is not theirs alone: every thread count from 1 to 64 (far past the
// cores), with and without busy threads beside them, gives the serial answer, floating-point results repeat
// bit for bit whatever the thread count and the load (a block counted by a thread other than its own gives the
// same value), in place too; and a call with 8 threads per processor beside a busy machine finishes (a
// liveness check with a 60-second watchdog, not a speed check).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "sluice/cpu/backend.hpp"
#include "sluice/cpu/three_phase.hpp"
#include "sluice/sluice.hpp"
#include "verify/busy_threads.hpp"

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using sluice::device;
using sluice::options;

using sluice::cpu_backend::processors;
using sluice::verify::busy_threads;

std::vector<int> thread_counts() {
  const int p = processors();
  std::vector<int> v{1, 2, p, 4 * p, 64};
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Many blocks of every CPU default (256 KiB of input a block; 1 MiB for reduce), and a ragged end.
constexpr u64 n = 45 * 65536 + 1237;

std::vector<u32> random_u32(u64 count, u64 seed, u32 below = ~u32{0}) {
  std::mt19937_64 g(seed);
  std::vector<u32> v(count);
  for (auto& x : v) x = static_cast<u32>(g() % (u64{below} + 1));
  return v;
}

std::vector<float> random_f32(u64 count, u64 seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(count);
  for (auto& x : v) x = d(g);
  return v;
}

// Keys in runs of 1 to 15.
std::vector<u32> run_keys(u64 count, u64 seed) {
  std::mt19937_64 g(seed);
  std::vector<u32> v(count);
  u64 r = 0;
  for (u64 i = 0; i < count; ++r) {
    const u64 len = 1 + g() % 15;
    for (u64 k = 0; k < len && i < count; ++k) v[i++] = static_cast<u32>(r * 2654435761u);
  }
  return v;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// The CPU default of each primitive on `threads` threads.
class defaults_on {
 public:
  explicit defaults_on(int threads) {
    for (const auto& a : sluice::algorithms())
      if (a.on_cpu && a.best_cpu) specs_[static_cast<int>(a.prim)] = std::string(a.name) + ":threads=" + std::to_string(threads);
  }
  options operator()(sluice::primitive p) const { return {device::cpu, specs_[static_cast<int>(p)], nullptr}; }

 private:
  std::string specs_[16];
};

// Every CPU default against the serial answer (integers) or the one-thread answer (floats, bit for bit).
void check_all(int threads, const char* load) {
  using sluice::primitive;
  const defaults_on on(threads), on_one(1);
  const std::string at = std::to_string(threads) + " threads, " + load;
  SCOPED_TRACE(at);
  const auto x = random_u32(n, 1, 1000);
  const auto flags = random_u32(n, 2, 1);
  const auto f = random_f32(n, 3);

  const std::vector<u64> x64(x.begin(), x.end());
  EXPECT_EQ(sluice::reduce(x64, u64{0}, sluice::sum{}, on(primitive::reduce)), std::accumulate(x.begin(), x.end(), u64{0}));
  std::vector<u32> want(n), got(n);
  std::inclusive_scan(x.begin(), x.end(), want.begin());
  sluice::inclusive_scan(x, got, sluice::sum{}, on(primitive::scan));
  EXPECT_TRUE(got == want) << "inclusive_scan";
  std::exclusive_scan(x.begin(), x.end(), want.begin(), u32{7});
  sluice::exclusive_scan(x, got, u32{7}, sluice::sum{}, on(primitive::scan));
  EXPECT_TRUE(got == want) << "exclusive_scan";
  got = x;  // in place
  sluice::inclusive_scan(got, got, sluice::sum{}, on(primitive::scan));
  std::inclusive_scan(x.begin(), x.end(), want.begin());
  EXPECT_TRUE(got == want) << "inclusive_scan in place";

  std::vector<float> fwant(n), fgot(n);
  sluice::inclusive_scan(f, fwant, sluice::sum{}, on_one(primitive::scan));
  sluice::inclusive_scan(f, fgot, sluice::sum{}, on(primitive::scan));
  EXPECT_TRUE(same_bits(fgot, fwant)) << "float inclusive_scan, against one thread";
  fgot = f;
  sluice::inclusive_scan(fgot, fgot, sluice::sum{}, on(primitive::scan));
  EXPECT_TRUE(same_bits(fgot, fwant)) << "float inclusive_scan in place, against one thread";
  const float r1 = sluice::reduce(f, 0.0f, sluice::sum{}, on_one(primitive::reduce)),
              rp = sluice::reduce(f, 0.0f, sluice::sum{}, on(primitive::reduce));
  EXPECT_EQ(std::memcmp(&r1, &rp, sizeof r1), 0) << "float reduce: " << r1 << " against " << rp;

  std::vector<u32> kept;
  for (u64 i = 0; i < n; ++i)
    if (flags[i]) kept.push_back(x[i]);
  std::vector<std::uint8_t> fl(flags.begin(), flags.end());
  std::fill(got.begin(), got.end(), 0);
  ASSERT_EQ(sluice::compact(x, fl, got, on(primitive::compact)), kept.size());
  EXPECT_TRUE(std::equal(kept.begin(), kept.end(), got.begin())) << "compact";
  std::vector<u32> below;
  std::copy_if(x.begin(), x.end(), std::back_inserter(below), [](u32 v) { return v < 100; });
  ASSERT_EQ(sluice::compact_if(x, got, sluice::less_than(u32{100}), on(primitive::compact)), below.size());
  EXPECT_TRUE(std::equal(below.begin(), below.end(), got.begin())) << "compact_if";
  const u64 k = sluice::compact_unordered(x, fl, got, on(primitive::compact_unordered));
  ASSERT_EQ(k, kept.size());
  std::vector<u32> a(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(k)), b = kept;
  std::sort(a.begin(), a.end()), std::sort(b.begin(), b.end());
  EXPECT_TRUE(a == b) << "compact_unordered";

  std::vector<u32> split = below;
  std::copy_if(x.begin(), x.end(), std::back_inserter(split), [](u32 v) { return v >= 100; });
  ASSERT_EQ(sluice::partition(x, got, sluice::less_than(u32{100}), on(primitive::partition)), below.size());
  EXPECT_TRUE(got == split) << "partition";
  const u64 s = sluice::partition_unordered(x, got, sluice::less_than(u32{100}), on(primitive::partition_unordered));
  ASSERT_EQ(s, below.size());
  EXPECT_TRUE(std::all_of(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(s), [](u32 v) { return v < 100; }) &&
              std::all_of(got.begin() + static_cast<std::ptrdiff_t>(s), got.end(), [](u32 v) { return v >= 100; }))
      << "partition_unordered";

  const auto keys = run_keys(n, 4);
  std::vector<u32> uniq;
  std::unique_copy(keys.begin(), keys.end(), std::back_inserter(uniq));
  ASSERT_EQ(sluice::unique(keys, got, on(primitive::unique)), uniq.size());
  EXPECT_TRUE(std::equal(uniq.begin(), uniq.end(), got.begin())) << "unique";
  std::vector<u64> lengths(n), sums_want;
  std::vector<u32> out_keys(n);
  ASSERT_EQ(sluice::run_length_encode(keys, out_keys, lengths, on(primitive::run_length_encode)), uniq.size());
  std::vector<u64> len_want;
  for (u64 i = 0; i < n;) {
    u64 j = i;
    u64 sum = 0;
    while (j < n && keys[j] == keys[i]) sum += x[j++];
    len_want.push_back(j - i), sums_want.push_back(sum);
    i = j;
  }
  EXPECT_TRUE(std::equal(len_want.begin(), len_want.end(), lengths.begin())) << "run_length_encode";
  std::vector<u64> sums(n);
  ASSERT_EQ(sluice::reduce_by_key(keys, x64, out_keys, sums, sluice::sum{}, on(primitive::reduce_by_key)), uniq.size());
  EXPECT_TRUE(std::equal(sums_want.begin(), sums_want.end(), sums.begin())) << "reduce_by_key";
  std::vector<u64> scan_want(n), scan_got(n);
  for (u64 i = 0; i < n; ++i) scan_want[i] = (i > 0 && keys[i] == keys[i - 1] ? scan_want[i - 1] : 0) + x64[i];
  sluice::inclusive_scan_by_key(keys, x64, scan_got, sluice::sum{}, on(primitive::scan_by_key));
  EXPECT_TRUE(scan_got == scan_want) << "inclusive_scan_by_key";

  std::vector<u64> offsets{0};  // segments of 0 to 3000 elements
  std::mt19937_64 g(5);
  while (offsets.back() < n) offsets.push_back(std::min<u64>(n, offsets.back() + g() % 3001));
  std::vector<u64> seg(offsets.size() - 1), seg_want(offsets.size() - 1);
  for (std::size_t i = 0; i + 1 < offsets.size(); ++i)
    seg_want[i] = std::accumulate(x64.begin() + static_cast<std::ptrdiff_t>(offsets[i]), x64.begin() + static_cast<std::ptrdiff_t>(offsets[i + 1]), u64{0});
  sluice::segmented_reduce(x64, offsets, seg, u64{0}, sluice::sum{}, on(primitive::segmented_reduce));
  EXPECT_TRUE(seg == seg_want) << "segmented_reduce";

  std::vector<u32> sorted = x, sort_want = x;
  std::sort(sort_want.begin(), sort_want.end());
  sluice::radix_sort(std::span<u32>(sorted), sluice::order::ascending, {}, on(primitive::radix_sort));
  EXPECT_TRUE(sorted == sort_want) << "radix_sort";
}

// The look-back's help, made certain: the first count of block `stalled` stalls (its thread "descheduled"), so
// the threads behind it count the block themselves. In place, the second count stalls too, halfway, while the
// block's owner finishes and moves it (overwriting its input): that count must be thrown away for the
// published one. Block 0 too: it has no predecessor, but a count of it made by another thread is just as stale
// once its owner has moved it.
void stalled_block(bool in_place, u64 stalled) {
  const u64 count = 64 * 1024, block = 1024;
  std::vector<u64> x(count), out(count), want(count);
  for (u64 i = 0; i < count; ++i) x[i] = (i * 2654435761u) % 1000;
  std::inclusive_scan(x.begin(), x.end(), want.begin());
  u64* dst = in_place ? x.data() : out.data();
  std::atomic<int> counts_of_stalled{0};
  sluice::cpu::three_phase<u64>(4, count, block, nullptr, std::plus<>{},
      [&](u64 b, u64 e) {
        const int call = b == stalled * block ? counts_of_stalled.fetch_add(1) : -1;
        u64 sum = 0;
        for (u64 i = b; i < e; ++i) {
          if (call == 0 && i == b) std::this_thread::sleep_for(std::chrono::milliseconds(50));
          if (call == 1 && in_place && i == (b + e) / 2) std::this_thread::sleep_for(std::chrono::milliseconds(300));
          sum += x[i];
        }
        return sum;
      },
      [&](u64 b, u64 e, const u64* before, u64, u64) {
        u64 acc = before ? *before : 0;
        for (u64 i = b; i < e; ++i) dst[i] = acc += x[i];
      });
  EXPECT_GE(counts_of_stalled.load(), 2) << "nobody counted block " << stalled << " for its thread";
  EXPECT_TRUE(std::equal(want.begin(), want.end(), dst)) << (in_place ? "in place" : "out of place") << ", block " << stalled << " stalled";
}

TEST(cpu_schedule, a_stalled_block_is_counted_by_the_threads_behind_it) {
  for (u64 stalled : {u64{5}, u64{0}}) {
    stalled_block(false, stalled);
    stalled_block(true, stalled);
  }
}

TEST(cpu_schedule, every_thread_count_gives_the_serial_answer) {
  for (int t : thread_counts()) check_all(t, "idle");
}

TEST(cpu_schedule, every_thread_count_gives_the_serial_answer_beside_busy_threads) {
  const busy_threads load(std::max(1, processors() / 2));
  for (int t : thread_counts()) check_all(t, "half the processors busy");
}

// 8 threads per processor, every processor busy with another thread too: the calls must end. A watchdog ends
// the process with a message after 60 seconds (a hang of the schedule: a thread waiting for ever on one that
// cannot run); on an idle 2-core machine the whole test takes well under a second.
TEST(cpu_schedule, oversubscribed_calls_finish) {
  std::atomic<bool> done{false};
  std::thread watchdog([&] {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!done.load() && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (!done.load()) {
      std::fprintf(stderr, "cpu_schedule.oversubscribed_calls_finish: no result after 60 s with 8 threads per processor\n");
      std::_Exit(1);
    }
  });
  {
    const busy_threads load(processors());
    const defaults_on on(8 * processors());
    const auto x = random_u32(n, 6, 1000);
    std::vector<u32> out(n);
    for (int rep = 0; rep < 20; ++rep) {
      sluice::inclusive_scan(x, out, sluice::sum{}, on(sluice::primitive::scan));
      EXPECT_EQ(out.back(), std::accumulate(x.begin(), x.end(), u32{0}));
      EXPECT_EQ(sluice::compact_if(x, out, sluice::less_than(u32{500}), on(sluice::primitive::compact)), static_cast<u64>(std::count_if(x.begin(), x.end(), [](u32 v) { return v < 500; })));
      EXPECT_EQ(sluice::reduce(x, u32{0}, sluice::sum{}, on(sluice::primitive::reduce)), std::accumulate(x.begin(), x.end(), u32{0}));
    }
  }
  done.store(true);
  watchdog.join();
}

}  // namespace
