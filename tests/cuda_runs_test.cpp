// The runs family on the GPU: unique, unique_by_key, run_length_encode and non_trivial_runs against a std::
// reference over runs that span many tiles, tile edges, float keys (NaN, -0.0), every value width; short
// outputs written up to their end and no further, counts left in device memory, and the GPU's own argument
// errors (outputs overlapping inputs, a host count).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

const options on_gpu{device::cuda};

using runs_t = std::vector<std::pair<std::uint64_t, std::uint64_t>>;  // (first, length)

template <class T>
runs_t std_runs(const std::vector<T>& in) {
  runs_t r;
  for (std::uint64_t i = 0; i < in.size();) {
    std::uint64_t j = i + 1;
    while (j < in.size() && in[j] == in[i]) ++j;
    r.emplace_back(i, j - i);
    i = j;
  }
  return r;
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Runs of lengths drawn from [1, max_len], values from a small alphabet (so equal neighbouring runs merge).
template <class T>
std::vector<T> runs_of(std::uint64_t n, std::uint64_t max_len, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<T> v(n);
  for (std::uint64_t i = 0; i < n;) {
    const std::uint64_t len = 1 + g() % max_len;
    const T x = static_cast<T>(g() % 5);
    for (std::uint64_t k = 0; k < len && i < n; ++k) v[i++] = x;
  }
  return v;
}

// Every form on one input, against the reference: counts, outputs and the guards past the outputs' ends.
template <class T>
void check_all(const std::vector<T>& host, const std::string& what) {
  SCOPED_TRACE(what);
  const runs_t runs = std_runs(host);
  const std::uint64_t r = runs.size(), n = host.size(), guard = 3;
  device_buffer<T> in(host), out(r + guard);
  device_buffer<std::uint64_t> a(r + guard), b(r + guard);
  std::vector<std::uint32_t> idx(n);
  for (std::uint64_t i = 0; i < n; ++i) idx[i] = static_cast<std::uint32_t>(i * 7 + 1);
  device_buffer<std::uint32_t> values(idx), out_values(r + guard);
  const auto outs = std::span(out.data(), r);
  const auto as = std::span(a.data(), r), bs = std::span(b.data(), r);
  const auto poison = [&] {
    out.fill_bytes(0xab), a.fill_bytes(0xab), b.fill_bytes(0xab), out_values.fill_bytes(0xab);
  };
  auto expect_guard = [&](const auto& got, const char* name) {
    std::remove_cvref_t<decltype(got[0])> p;
    std::memset(&p, 0xab, sizeof p);
    for (std::uint64_t i = r; i < r + guard; ++i) ASSERT_TRUE(same_bits(got[i], p)) << name << ": written past the end at " << i;
  };

  poison();
  ASSERT_EQ(sluice::unique(in, outs, on_gpu), r);
  auto keys = out.download();
  for (std::uint64_t k = 0; k < r; ++k) ASSERT_TRUE(same_bits(keys[k], host[runs[k].first])) << "unique at " << k;
  expect_guard(keys, "unique");

  poison();
  ASSERT_EQ(sluice::unique_by_key(in, values, outs, std::span(out_values.data(), r), on_gpu), r);
  keys = out.download();
  const auto vals = out_values.download();
  for (std::uint64_t k = 0; k < r; ++k) {
    ASSERT_TRUE(same_bits(keys[k], host[runs[k].first])) << "unique_by_key key at " << k;
    ASSERT_EQ(vals[k], idx[runs[k].first]) << "unique_by_key value at " << k;
  }
  expect_guard(vals, "unique_by_key values");

  poison();
  ASSERT_EQ(sluice::run_length_encode(in, outs, bs, on_gpu), r);
  keys = out.download();
  auto lens = b.download();
  for (std::uint64_t k = 0; k < r; ++k) {
    ASSERT_TRUE(same_bits(keys[k], host[runs[k].first])) << "run_length_encode element at " << k;
    ASSERT_EQ(lens[k], runs[k].second) << "run_length_encode count at " << k;
  }
  expect_guard(lens, "run_length_encode counts");

  runs_t long_runs;
  for (const auto& x : runs)
    if (x.second > 1) long_runs.push_back(x);
  poison();
  ASSERT_EQ(sluice::non_trivial_runs(in, as, bs, on_gpu), long_runs.size());
  const auto offs = a.download();
  lens = b.download();
  for (std::uint64_t k = 0; k < long_runs.size(); ++k) {
    ASSERT_EQ(offs[k], long_runs[k].first) << "non_trivial_runs offset at " << k;
    ASSERT_EQ(lens[k], long_runs[k].second) << "non_trivial_runs length at " << k;
  }
  for (std::uint64_t k = long_runs.size(); k < r + guard; ++k) ASSERT_EQ(offs[k], 0xababababababababull) << "non_trivial_runs past the count";
}

// Sizes around the tiles of 4-byte (4096) and 8-byte (2048) keys, and runs from length 1 to longer than many tiles.
TEST_F(gpu, runs_match_the_reference) {
  std::uint64_t seed = 1;
  for (std::uint64_t n : {1ull, 2ull, 2047ull, 2048ull, 2049ull, 4095ull, 4096ull, 4097ull, 3 * 4096ull + 77, (1ull << 20) + 3})
    for (std::uint64_t max_len : {1ull, 2ull, 8ull, 1000ull, 20000ull}) {
      const std::string what = "n=" + std::to_string(n) + " max_len=" + std::to_string(max_len);
      check_all(runs_of<std::uint32_t>(n, max_len, ++seed), "u32 " + what);
      check_all(runs_of<std::uint64_t>(n, max_len, ++seed), "u64 " + what);
      if (n < 5000) check_all(runs_of<std::uint8_t>(n, max_len, ++seed), "u8 " + what);
    }
}

// One run across 2^22 elements (a thousand tiles none of which holds a head), and alternating runs.
TEST_F(gpu, runs_all_equal_and_alternating) {
  check_all(std::vector<std::int32_t>(std::size_t{1} << 22, -5), "all equal");
  std::vector<std::int64_t> alt(100001);
  for (std::size_t i = 0; i < alt.size(); ++i) alt[i] = static_cast<std::int64_t>(i % 2);
  check_all(alt, "alternating");
}

// Floats compare with ==: every NaN is a run of its own, -0.0 and +0.0 are one run (kept as the first).
TEST_F(gpu, runs_of_floats) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> f = {nan, nan, -0.0f, 0.0f, 0.0f, 1.5f, 1.5f, nan, 2.0f};
  for (int k = 0; k < 12; ++k) f.insert(f.end(), f.begin(), f.begin() + 9);  // across tile edges
  check_all(f, "float");
  std::vector<double> d(5000, -0.0);
  for (std::size_t i = 0; i < d.size(); i += 3) d[i] = 0.0;
  check_all(d, "double zeros");
}

// unique_by_key moves values of every width the library holds kernels for.
TEST_F(gpu, unique_by_key_of_every_value_width) {
  const auto keys_h = runs_of<std::uint32_t>(10000, 6, 99);
  const runs_t runs = std_runs(keys_h);
  device_buffer<std::uint32_t> keys(keys_h), out_keys(runs.size());
  auto one = [&]<class V>(V) {
    std::vector<V> vh(keys_h.size());
    for (std::size_t i = 0; i < vh.size(); ++i) std::memset(&vh[i], static_cast<int>(i * 13 + 1), sizeof(V));
    device_buffer<V> v(vh), ov(runs.size());
    ASSERT_EQ(sluice::unique_by_key(keys, v, out_keys, ov, on_gpu), runs.size());
    const auto got = ov.download();
    for (std::size_t k = 0; k < runs.size(); ++k) ASSERT_TRUE(same_bits(got[k], vh[runs[k].first])) << sizeof(V) << " bytes, at " << k;
  };
  struct v16a4 {
    std::uint32_t x[4];
  };
  struct alignas(16) v16 {
    std::uint64_t x[2];
  };
  one(std::uint8_t{}), one(std::uint16_t{}), one(float{}), one(double{}), one(v16a4{}), one(v16{});
}

// Outputs shorter than the runs: the sync forms refuse, having written exactly the outputs; the async forms
// leave the full count in device memory and write no further.
TEST_F(gpu, runs_short_outputs) {
  const auto host = runs_of<std::uint32_t>(50000, 3, 5);
  const runs_t runs = std_runs(host);
  const std::uint64_t cap = runs.size() / 2;
  device_buffer<std::uint32_t> in(host), out(cap + 1);
  device_buffer<std::uint64_t> a(cap + 1), b(cap + 1), count(1);
  out.fill_bytes(0xab), b.fill_bytes(0xab);
  expect_error(errc::invalid_argument, {"'out_unique'", "holds " + std::to_string(cap)},
               [&] { (void)sluice::run_length_encode(in, std::span(out.data(), cap), std::span(b.data(), cap), on_gpu); });
  const auto keys = out.download();
  const auto lens = b.download();
  for (std::uint64_t k = 0; k < cap; ++k) ASSERT_EQ(lens[k], runs[k].second) << k;
  ASSERT_EQ(keys[cap], 0xababababu);
  ASSERT_EQ(lens[cap], 0xababababababababull);
  sluice::unique_async(in, std::span(out.data(), cap), count.data(), on_gpu);
  ASSERT_EQ(count.download()[0], runs.size());
  sluice::non_trivial_runs_async(in, std::span(a.data(), 0), std::span(b.data(), 0), count.data(), on_gpu);
  std::uint64_t long_runs = 0;
  for (const auto& x : runs) long_runs += x.second > 1;
  ASSERT_EQ(count.download()[0], long_runs);
  // No input: a count of zero, nothing written.
  sluice::unique_async(std::span(in.data(), 0), std::span(out.data(), 0), count.data(), on_gpu);
  ASSERT_EQ(count.download()[0], 0u);
}

// The GPU forbids what the CPU allows (in place), and wants device memory for the async count.
TEST_F(gpu, runs_argument_errors) {
  device_buffer<std::uint32_t> in(100), v(100), out(100);
  device_buffer<std::uint64_t> a(100);
  expect_error(errc::unsupported, {"'out' aliases 'in'", "does not run in place"}, [&] { (void)sluice::unique(in, in, on_gpu); });
  expect_error(errc::invalid_argument, {"'out'", "overlaps 'in'"},
               [&] { (void)sluice::unique(std::span(in.data(), 50), std::span(in.data() + 10, 50), on_gpu); });
  expect_error(errc::unsupported, {"'out_unique' aliases 'in'"}, [&] { (void)sluice::run_length_encode(in, in, a, on_gpu); });
  expect_error(errc::unsupported, {"'out_values' aliases 'values'"}, [&] { (void)sluice::unique_by_key(in, v, out, v, on_gpu); });
  std::uint64_t host_count = 0;
  expect_error(errc::invalid_argument, {"'count'"}, [&] { sluice::unique_async(in, out, &host_count, on_gpu); });
  std::vector<std::uint32_t> host(100);
  expect_error(errc::invalid_argument, {"'in'"}, [&] { (void)sluice::unique(host, out, on_gpu); });
  expect_error(errc::invalid_argument, {"unknown algorithm 'three-phase'"}, [&] { (void)sluice::unique(in, out, {device::cuda, "three-phase"}); });
}

}  // namespace
