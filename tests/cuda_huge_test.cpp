// Inputs past 32-bit indices (SLUICE_TEST_HUGE=1): every primitive, every element checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

// The huge tests' inputs, a hash of the index: 2^32 + 1000 bytes with flags keeping about a third, and
// 2^31 + 1000 four-byte words. They run only with SLUICE_TEST_HUGE=1.
constexpr std::size_t huge_bytes = (std::size_t{1} << 32) + 1000, huge_words = (std::size_t{1} << 31) + 1000;
bool huge_wanted() { return test_switch("SLUICE_TEST_HUGE"); }
void huge_byte_input(std::vector<std::uint8_t>& h, std::vector<std::uint8_t>& f) {
  h.resize(huge_bytes), f.resize(huge_bytes);
  for (std::size_t i = 0; i < huge_bytes; ++i) {
    const std::uint64_t x = (i * 0x9e3779b97f4a7c15ull) >> 40;
    h[i] = static_cast<std::uint8_t>(x);
    f[i] = static_cast<std::uint8_t>((x >> 8) % 3 == 0);
  }
}
std::vector<std::uint32_t> huge_word_input() {
  std::vector<std::uint32_t> h(huge_words);
  for (std::size_t i = 0; i < huge_words; ++i) h[i] = static_cast<std::uint32_t>((i * 0x9e3779b97f4a7c15ull) >> 32);
  return h;
}

// The huge tests' checks, one pass over the host arrays each.
// Stable selection: how many of got's first elements differ from the elements of h that kept(i) selects, in
// order, and how many it selects.
struct run_check {
  std::uint64_t wrong, kept;
};
template <class T, class Kept>
run_check check_kept_run(const std::vector<T>& got, const std::vector<T>& h, Kept kept) {
  run_check c{0, 0};
  for (std::size_t i = 0; i < h.size(); ++i)
    if (kept(i)) c.wrong += got[c.kept++] != h[i];
  return c;
}
// Stable partition with `count` reported kept: the kept run, then from `count` on the rejected run, both in
// input order; `end` is where the rejected run ends (h.size() when all is well).
struct partition_check {
  std::uint64_t wrong, kept, end;
};
template <class T, class Kept>
partition_check check_partition(const std::vector<T>& got, const std::vector<T>& h, std::uint64_t count, Kept kept) {
  partition_check c{0, 0, count};
  for (std::size_t i = 0; i < h.size(); ++i) c.wrong += kept(i) ? got[c.kept++] != h[i] : got[c.end++] != h[i];
  return c;
}
// Keys h sorted with values that were their input positions, checked in O(n): keys in order, each value a
// position holding its key, every position once, equal keys in input order (stable). The places that fail.
template <class K, class V>
std::uint64_t pair_sort_errors(const std::vector<K>& h, const std::vector<K>& keys, const std::vector<V>& vals) {
  const std::size_t n = h.size();
  std::vector<bool> seen(n);
  std::uint64_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const V v = vals[i];
    const bool ok = v < n && !seen[v] && keys[i] == h[v] && (i == 0 || keys[i - 1] < keys[i] || (keys[i - 1] == keys[i] && vals[i - 1] < v));
    if (v < n) seen[v] = true;
    wrong += !ok;
  }
  return wrong;
}

// Huge inputs: more than 2^32 one-byte elements (compact, compact_if, partition) and more than 2^31
// four-byte ones (scan, reduce, the pipelined compact, compact_if and partition, radix sort), every element
// checked against the host: no 32-bit index may overflow. Needs about 20 GB of device memory and a few
// minutes of host checking, so it runs when asked: SLUICE_TEST_HUGE=1 (docs/guide/tool.md).
TEST_F(gpu, huge_inputs_past_32_bit_indices) {
  if (!huge_wanted()) GTEST_SKIP() << "huge inputs run with SLUICE_TEST_HUGE=1 (about 20 GB of device memory)";
  const options opt{device::cuda};
  {
    const std::size_t n = huge_bytes;
    std::vector<std::uint8_t> h, f;
    huge_byte_input(h, f);
    device_buffer<std::uint8_t> in(h), flags(f), out(n);
    std::vector<std::uint8_t>().swap(f);
    auto check_run = [&](const char* what, std::uint64_t got_count, auto kept) {
      const auto got = out.download();
      std::uint64_t k = 0, bad = 0, first_bad = 0;
      for (std::size_t i = 0; i < n; ++i)
        if (kept(i)) {
          if (got[k] != h[i] && bad++ == 0) first_bad = k;
          ++k;
        }
      EXPECT_EQ(got_count, k) << what;
      EXPECT_EQ(bad, 0u) << what << ": first wrong output at " << first_bad;
      return got;
    };
    const auto fh = flags.download();
    check_run("compact", sluice::compact(in, flags, out, opt), [&](std::size_t i) { return fh[i] != 0; });
    check_run("compact_if", sluice::compact_if(in, out, less_than<std::uint8_t>(100), opt), [&](std::size_t i) { return h[i] < 100; });
    const std::uint64_t kept = sluice::partition_flagged(in, flags, out, opt);
    const auto got = check_run("partition (kept run)", kept, [&](std::size_t i) { return fh[i] != 0; });
    std::uint64_t k = kept, bad = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (!fh[i]) bad += got[k++] != h[i];
    EXPECT_EQ(k, n);
    EXPECT_EQ(bad, 0u) << "partition (rejected run)";
  }
  {
    const std::size_t n = huge_words;
    std::vector<std::uint32_t> h = huge_word_input();
    device_buffer<std::uint32_t> in(h), out(n);
    sluice::inclusive_scan(in, out, sum{}, opt);
    auto got = out.download();
    std::uint32_t acc = 0, total = 0;
    std::uint64_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) acc += h[i], bad += got[i] != acc;
    EXPECT_EQ(bad, 0u) << "inclusive_scan";
    for (std::size_t i = 0; i < n; ++i) total += h[i];
    EXPECT_EQ(sluice::reduce(in, 0u, sum{}, opt), total);
    // The pipelines of 4-byte elements (from 2^24 on Hopper; 8.6 GB of input, byte offsets past 2^33):
    // compact with flags, and compact_if and partition by predicate at about 30% kept (partition: the phased
    // path) and 80% (the reversed pass).
    {
      std::vector<std::uint8_t> f(n);
      for (std::size_t i = 0; i < n; ++i) f[i] = static_cast<std::uint8_t>((h[i] >> 7) % 3 == 0);
      device_buffer<std::uint8_t> flags(f);
      const std::uint64_t c = sluice::compact(in, flags, out, opt);
      const run_check r = check_kept_run(out.download(), h, [&](std::size_t i) { return f[i] != 0; });
      EXPECT_EQ(c, r.kept);
      EXPECT_EQ(r.wrong, 0u) << "compact u32 (flags)";
    }
    for (const std::uint32_t limit : {0x4ccccccdu, 0xccccccccu}) {
      auto kept = [&](std::size_t i) { return h[i] < limit; };
      const std::uint64_t c = sluice::compact_if(in, out, less_than(limit), opt);
      const run_check r = check_kept_run(out.download(), h, kept);
      EXPECT_EQ(c, r.kept);
      EXPECT_EQ(r.wrong, 0u) << "compact_if u32 below " << limit;
      const std::uint64_t count = sluice::partition(in, out, less_than(limit), opt);
      const partition_check p = check_partition(out.download(), h, count, kept);
      EXPECT_EQ(count, p.kept);
      EXPECT_EQ(p.end, n);
      EXPECT_EQ(p.wrong, 0u) << "partition u32 below " << limit;
    }
    sluice::radix_sort(in, order::ascending, {}, opt);
    got = in.download();
    std::sort(h.begin(), h.end());
    EXPECT_TRUE(got == h) << "radix_sort";
  }
}

// More forms past 32-bit indices (SLUICE_TEST_HUGE=1 as above): the single-pass compact (phased=off),
// compact_unordered, partition by predicate, exclusive_scan, the single-pass inclusive scan (pipelined=off)
// and radix_sort of key-value pairs (checked in O(n) by pair_sort_errors).
TEST_F(gpu, huge_inputs_more_forms_past_32_bit_indices) {
  if (!huge_wanted()) GTEST_SKIP() << "huge inputs run with SLUICE_TEST_HUGE=1 (about 33 GB of device memory)";
  const options opt{device::cuda};
  {
    const std::size_t n = huge_bytes;
    std::vector<std::uint8_t> h, f;
    huge_byte_input(h, f);
    device_buffer<std::uint8_t> in(h), flags(f), out(n);
    std::uint64_t want_hist[256] = {}, want_kept = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (f[i]) ++want_hist[h[i]], ++want_kept;
    {  // the single pass
      const std::uint64_t c = sluice::compact(in, flags, out, {device::cuda, "decoupled-lookback:phased=off"});
      EXPECT_EQ(c, want_kept);
      EXPECT_EQ(check_kept_run(out.download(), h, [&](std::size_t i) { return f[i] != 0; }).wrong, 0u) << "compact phased=off";
    }
    {  // unordered: the kept multiset
      const std::uint64_t c = sluice::compact_unordered(in, flags, out, opt);
      EXPECT_EQ(c, want_kept);
      const auto got = out.download();
      std::uint64_t hist[256] = {};
      for (std::uint64_t i = 0; i < c && i < n; ++i) ++hist[got[i]];
      EXPECT_TRUE(std::equal(hist, hist + 256, want_hist)) << "compact_unordered";
    }
    {  // partition by predicate: kept run, then rejected run, both in input order
      const std::uint64_t c = sluice::partition(in, out, less_than<std::uint8_t>(100), opt);
      const partition_check p = check_partition(out.download(), h, c, [&](std::size_t i) { return h[i] < 100; });
      EXPECT_EQ(c, p.kept);
      EXPECT_EQ(p.end, n);
      EXPECT_EQ(p.wrong, 0u) << "partition by predicate";
    }
  }
  {
    const std::size_t n = huge_words;
    std::vector<std::uint32_t> h = huge_word_input();
    device_buffer<std::uint32_t> in(h), out(n);
    sluice::exclusive_scan(in, out, 7u, sum{}, opt);
    auto got = out.download();
    std::uint32_t acc = 7;
    std::uint64_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) bad += got[i] != acc, acc += h[i];
    EXPECT_EQ(bad, 0u) << "exclusive_scan";
    sluice::inclusive_scan(in, out, sum{}, {device::cuda, "decoupled-lookback:pipelined=off"});
    got = out.download();
    acc = 0, bad = 0;
    for (std::size_t i = 0; i < n; ++i) acc += h[i], bad += got[i] != acc;
    EXPECT_EQ(bad, 0u) << "inclusive_scan pipelined=off";
    std::vector<std::uint32_t>().swap(got);
    {
      std::vector<std::uint32_t> positions(n);
      std::iota(positions.begin(), positions.end(), 0u);  // n < 2^32: every position fits
      device_buffer<std::uint32_t> values(positions);
      std::vector<std::uint32_t>().swap(positions);
      sluice::radix_sort(in, values, order::ascending, {}, opt);
      EXPECT_EQ(pair_sort_errors(h, in.download(), values.download()), 0u) << "radix_sort pairs";
    }
  }
}

// Wide elements past 32-bit element indices (SLUICE_TEST_HUGE=1 as above): 2^31 + 1000 eight-byte
// elements (compact and partition with flags, the single-pass 8-byte scan, reduce, radix_sort of u32 keys
// with 8-byte values) and 2^31 + 1000 sixteen-byte ones (compact: 34 GB in, 34 GB out), every element checked.
TEST_F(gpu, huge_wide_elements_past_32_bit_indices) {
  if (!huge_wanted()) GTEST_SKIP() << "huge inputs run with SLUICE_TEST_HUGE=1 (about 72 GB of device memory)";
  const options opt{device::cuda};
  const std::size_t n = huge_words;
  auto hash = [](std::size_t i) { return i * 0x9e3779b97f4a7c15ull; };
  std::vector<std::uint8_t> f(n);
  for (std::size_t i = 0; i < n; ++i) f[i] = static_cast<std::uint8_t>((hash(i) >> 50) % 3 == 0);
  device_buffer<std::uint8_t> flags(f);
  auto kept = [&](std::size_t i) { return f[i] != 0; };
  {  // first, while the device is empty: 34 GB in and 34 GB out leave no room for the pool's leftovers
    std::vector<vec4u> h(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t x = hash(i);
      h[i] = {static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i >> 32), static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(x >> 32)};
    }
    device_buffer<vec4u> in(h), out(n);
    const std::uint64_t c = sluice::compact(in, flags, out, opt);
    const run_check r = check_kept_run(out.download(), h, kept);
    EXPECT_EQ(c, r.kept);
    EXPECT_EQ(r.wrong, 0u) << "compact vec4u";
  }
  {
    std::vector<std::uint64_t> h(n);
    for (std::size_t i = 0; i < n; ++i) h[i] = hash(i) >> 3;
    device_buffer<std::uint64_t> in(h), out(n);
    const std::uint64_t c = sluice::compact(in, flags, out, opt);
    const run_check r = check_kept_run(out.download(), h, kept);
    EXPECT_EQ(c, r.kept);
    EXPECT_EQ(r.wrong, 0u) << "compact u64";
    const std::uint64_t count = sluice::partition_flagged(in, flags, out, opt);
    const partition_check p = check_partition(out.download(), h, count, kept);
    EXPECT_EQ(count, p.kept);
    EXPECT_EQ(p.end, n);
    EXPECT_EQ(p.wrong, 0u) << "partition u64";
    sluice::inclusive_scan(in, out, sum{}, opt);
    const auto got = out.download();
    std::uint64_t acc = 0, bad = 0;
    for (std::size_t i = 0; i < n; ++i) acc += h[i], bad += got[i] != acc;
    EXPECT_EQ(bad, 0u) << "inclusive_scan u64";
    EXPECT_EQ(sluice::reduce(in, std::uint64_t{0}, sum{}, opt), acc) << "reduce u64";
  }
  {  // u32 keys with 8-byte values: each value its input position, checked as in the pairs test above
    std::vector<std::uint32_t> hk = huge_word_input();
    std::vector<std::uint64_t> positions(n);
    std::iota(positions.begin(), positions.end(), std::uint64_t{0});
    device_buffer<std::uint32_t> keys(hk);
    device_buffer<std::uint64_t> values(positions);
    std::vector<std::uint64_t>().swap(positions);
    sluice::radix_sort(keys, values, order::ascending, {}, opt);
    EXPECT_EQ(pair_sort_errors(hk, keys.download(), values.download()), 0u) << "radix_sort u32 keys, u64 values";
  }
}

}  // namespace
