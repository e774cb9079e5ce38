// reduce_by_key, the scans by key and the segmented reduce and scans on the GPU, against a serial reference:
// runs and segments across tile edges, empty and huge segments, millions of empty ones, elements outside the
// segments left untouched, float results that repeat bit for bit, short outputs, and the offsets' errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;
using u64 = std::uint64_t;

const options on_gpu{device::cuda};

template <class T>
std::vector<T> random_values(u64 n, u64 seed) {
  std::mt19937_64 g(seed);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(g() % 1000) - static_cast<T>(std::is_signed_v<T> ? 500 : 0);
  return v;
}

// Keys in runs of lengths from [1, max_len].
template <class K>
std::vector<K> run_keys(u64 n, u64 max_len, u64 seed) {
  std::mt19937_64 g(seed);
  std::vector<K> k(n);
  K key = 0;
  for (u64 i = 0; i < n;) {
    const u64 len = 1 + g() % max_len;
    key = static_cast<K>(key + 1 + g() % 3);
    for (u64 j = 0; j < len && i < n; ++j) k[i++] = key;
  }
  return k;
}

template <class K, class V, class Op>
void check_by_key(const std::vector<K>& keys, const std::vector<V>& values, Op op, V init, const std::string& what) {
  SCOPED_TRACE(what);
  const u64 n = keys.size();
  std::vector<K> want_k;
  std::vector<V> want_v, want_incl(n), want_excl(n);
  for (u64 i = 0; i < n; ++i) {
    const bool head = i == 0 || keys[i] != keys[i - 1];
    if (head) want_k.push_back(keys[i]), want_v.push_back(values[i]);
    else want_v.back() = op(want_v.back(), values[i]);
    want_excl[i] = head ? init : op(want_excl[i - 1], values[i - 1]);
    want_incl[i] = want_v.back();
  }
  device_buffer<K> dk(keys), ok(want_k.size() + 2);
  device_buffer<V> dv(values), ov(want_k.size() + 2), out(n);
  ASSERT_EQ(sluice::reduce_by_key(dk, dv, std::span(ok.data(), want_k.size()), std::span(ov.data(), want_k.size()), op, on_gpu), want_k.size());
  const auto gk = ok.download();
  const auto gv = ov.download();
  for (u64 r = 0; r < want_k.size(); ++r) {
    ASSERT_EQ(gk[r], want_k[r]) << "reduce_by_key key at " << r;
    ASSERT_EQ(gv[r], want_v[r]) << "reduce_by_key value at " << r;
  }
  sluice::inclusive_scan_by_key(dk, dv, out, op, on_gpu);
  auto got = out.download();
  for (u64 i = 0; i < n; ++i) ASSERT_EQ(got[i], want_incl[i]) << "inclusive_scan_by_key at " << i;
  sluice::exclusive_scan_by_key(dk, dv, dv, init, op, on_gpu);  // in place
  got = dv.download();
  for (u64 i = 0; i < n; ++i) ASSERT_EQ(got[i], want_excl[i]) << "exclusive_scan_by_key in place at " << i;
}

TEST_F(gpu, by_key_matches_the_reference) {
  u64 seed = 10;
  for (u64 n : {1ull, 2ull, 2047ull, 2048ull, 2049ull, 4095ull, 4096ull, 4097ull, 5 * 4096ull + 3, (1ull << 20) + 7})
    for (u64 max_len : {1ull, 7ull, 300ull, 50000ull}) {
      const std::string what = "n=" + std::to_string(n) + " max_len=" + std::to_string(max_len);
      const auto k32 = run_keys<std::uint32_t>(n, max_len, ++seed);
      check_by_key(k32, random_values<std::int32_t>(n, ++seed), sum{}, 3, "u32/i32 sum " + what);
      check_by_key(k32, random_values<std::uint64_t>(n, ++seed), maximum{}, std::uint64_t{0}, "u32/u64 max " + what);
      check_by_key(run_keys<std::int64_t>(n, max_len, ++seed), random_values<std::int32_t>(n, ++seed), minimum{}, 1000, "i64/i32 min " + what);
    }
}

// Float sums: one run across the whole input (a thousand tiles) and many short ones; the same bits every call,
// and close to the serial sum.
TEST_F(gpu, by_key_float_sums_repeat) {
  const u64 n = u64{1} << 22;
  std::vector<std::uint32_t> keys(n, 7);
  for (u64 i = n / 2; i < n; ++i) keys[i] = static_cast<std::uint32_t>(i / 5);
  std::vector<float> values(n);
  std::mt19937 g(3);
  for (auto& v : values) v = std::uniform_real_distribution<float>(0, 1)(g);
  device_buffer<std::uint32_t> dk(keys), ok(n);
  device_buffer<float> dv(values), ov(n), first(n);
  const u64 runs = sluice::reduce_by_key(dk, dv, ok, ov, sum{}, on_gpu);
  ASSERT_EQ(runs, 1 + (n - n / 2) / 5 + ((n / 2) % 5 != 0));
  const auto a = ov.download();
  double serial = 0;
  for (u64 i = 0; i < n / 2; ++i) serial += values[i];
  EXPECT_NEAR(a[0], serial, serial * 1e-5);
  sluice::inclusive_scan_by_key(dk, dv, first, sum{}, on_gpu);
  const auto s1 = first.download();
  for (int rep = 0; rep < 3; ++rep) {
    ASSERT_EQ(sluice::reduce_by_key(dk, dv, ok, ov, sum{}, on_gpu), runs);
    ASSERT_EQ(std::memcmp(ov.download().data(), a.data(), runs * sizeof(float)), 0) << "reduce_by_key differs on call " << rep;
    sluice::inclusive_scan_by_key(dk, dv, first, sum{}, on_gpu);
    ASSERT_EQ(std::memcmp(first.download().data(), s1.data(), n * sizeof(float)), 0) << "inclusive_scan_by_key differs on call " << rep;
  }
}

TEST_F(gpu, reduce_by_key_short_outputs) {
  const auto keys = run_keys<std::uint32_t>(100000, 4, 1);
  const auto values = random_values<std::uint32_t>(keys.size(), 2);
  u64 runs = 1;
  for (u64 i = 1; i < keys.size(); ++i) runs += keys[i] != keys[i - 1];
  const u64 cap = runs / 3;
  device_buffer<std::uint32_t> dk(keys), dv(values), ok(cap + 1), ov(cap + 1);
  device_buffer<u64> count(1);
  ok.fill_bytes(0xab), ov.fill_bytes(0xab);
  expect_error(errc::invalid_argument, {"'out_keys'", "holds " + std::to_string(cap)},
               [&] { (void)sluice::reduce_by_key(dk, dv, std::span(ok.data(), cap), std::span(ov.data(), cap), sum{}, on_gpu); });
  EXPECT_EQ(ok.download()[cap], 0xababababu);
  EXPECT_EQ(ov.download()[cap], 0xababababu);
  sluice::reduce_by_key_async(dk, dv, std::span(ok.data(), cap), std::span(ov.data(), cap), count.data(), sum{}, on_gpu);
  EXPECT_EQ(count.download()[0], runs);
}

// The segmented reference, and the check of all three forms on one (values, offsets).
template <class T, class Op>
void check_segmented(const std::vector<T>& values, const std::vector<u64>& offsets, Op op, T init, const std::string& what) {
  SCOPED_TRACE(what);
  const u64 n = values.size(), segs = offsets.size() - 1;
  std::vector<T> want_r(segs), want_incl(values), want_excl(values);
  for (u64 s = 0; s < segs; ++s) {
    T acc = init, run{};
    for (u64 i = offsets[s]; i < offsets[s + 1]; ++i) {
      want_excl[i] = acc;
      acc = op(acc, values[i]);
      run = i == offsets[s] ? values[i] : op(run, values[i]);
      want_incl[i] = run;
    }
    want_r[s] = acc;
  }
  device_buffer<T> dv(values), out_r(segs + 1), out(n);
  device_buffer<u64> doff(offsets);
  out_r.fill_bytes(0x5a);
  sluice::segmented_reduce(dv, doff, std::span(out_r.data(), segs), init, op, on_gpu);
  const auto r = out_r.download();
  for (u64 s = 0; s < segs; ++s) ASSERT_EQ(r[s], want_r[s]) << "segmented_reduce at segment " << s;
  T poison;
  std::memset(&poison, 0x5a, sizeof poison);
  ASSERT_EQ(std::memcmp(&r[segs], &poison, sizeof(T)), 0) << "segmented_reduce wrote past its segments";
  out.upload(values);  // outside the segments out keeps what it held: the values
  sluice::segmented_inclusive_scan(dv, doff, out, op, on_gpu);
  auto got = out.download();
  for (u64 i = 0; i < n; ++i) ASSERT_EQ(got[i], want_incl[i]) << "segmented_inclusive_scan at " << i;
  sluice::segmented_exclusive_scan(dv, doff, dv, init, op, on_gpu);  // in place
  got = dv.download();
  for (u64 i = 0; i < n; ++i) ASSERT_EQ(got[i], want_excl[i]) << "segmented_exclusive_scan in place at " << i;
}

TEST_F(gpu, segmented_matches_the_reference) {
  std::mt19937_64 g(5);
  for (u64 n : {0ull, 1ull, 4095ull, 4096ull, 4097ull, 3 * 4096ull + 5, (1ull << 20) + 3}) {
    const auto v = random_values<std::int32_t>(n, n + 1);
    const std::string at = " n=" + std::to_string(n);
    check_segmented(v, {0, n}, sum{}, 2, "one segment" + at);
    check_segmented(v, {0}, sum{}, 2, "no segment" + at);
    check_segmented(v, std::vector<u64>(9, n / 2), sum{}, 2, "all empty" + at);
    std::vector<u64> uniform = {0};
    while (uniform.back() + 37 <= n) uniform.push_back(uniform.back() + 37);
    check_segmented(v, uniform, maximum{}, -1000, "length 37, not reaching the end" + at);
    // Power-law lengths with empty segments among them, starting past 0.
    std::vector<u64> power = {n / 7};
    while (power.back() < n) {
      const u64 len = static_cast<u64>(std::pow(2.0, static_cast<double>(g() % 1400) / 100.0)) - 1;
      power.push_back(std::min(n, power.back() + len));
      if (g() % 4 == 0) power.push_back(power.back());
    }
    check_segmented(v, power, sum{}, 0, "power law" + at);
    check_segmented(random_values<double>(n, n + 2), power, minimum{}, 1e9, "power law, double min" + at);
  }
  // Ten times more segments than elements: most empty, several starting at every element.
  const u64 n = 100000;
  std::vector<u64> dense(10 * n + 1);
  for (u64 s = 0; s < dense.size(); ++s) dense[s] = s / 10;
  check_segmented(random_values<std::uint32_t>(n, 9), dense, sum{}, 1u, "ten segments an element");
}

TEST_F(gpu, segmented_offset_errors) {
  device_buffer<std::uint32_t> v(100), out(10);
  out.fill_bytes(0x5a);
  device_buffer<u64> decreasing(std::vector<u64>{0, 10, 5, 100}), past(std::vector<u64>{0, 50, 101}), none(0);
  expect_error(errc::invalid_argument, {"'offsets' decreases at 2"}, [&] { sluice::segmented_reduce(v, decreasing, out, 0u, sum{}, on_gpu); });
  expect_error(errc::invalid_argument, {"'offsets'", "past"}, [&] { sluice::segmented_inclusive_scan(v, past, v, sum{}, on_gpu); });
  expect_error(errc::invalid_argument, {"'offsets'", "empty"}, [&] { sluice::segmented_reduce(v, none, out, 0u, sum{}, on_gpu); });
  for (auto x : out.download()) ASSERT_EQ(x, 0x5a5a5a5au) << "written before the offsets were refused";
  std::vector<u64> host = {0, 100};
  expect_error(errc::invalid_argument, {"'offsets'"}, [&] { sluice::segmented_reduce(v, host, out, 0u, sum{}, on_gpu); });
}

}  // namespace
