// The runs family on the CPU: unique, unique_by_key, run_length_encode, non_trivial_runs and their _async forms
// against a std:: reference, over random and adversarial inputs, sizes around the three-phase blocks, thread
// counts and element types; short outputs, argument errors and the devices without a runs backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sluice/cpu/billeter.hpp"
#include "test_support.hpp"
#include "verify/generators.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

const char* const specs[] = {"best", "serial", "three-phase:threads=1", "three-phase:threads=2", "three-phase:threads=3", "three-phase:threads=8"};

// The std:: reference: the runs as (first, length), found with std::find_if.
template <class T>
std::vector<std::pair<std::uint64_t, std::uint64_t>> std_runs(const std::vector<T>& in) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> r;
  for (auto it = in.begin(); it != in.end();) {
    const auto end = std::find_if(it + 1, in.end(), [&](const T& x) { return !(x == *it); });
    r.push_back({static_cast<std::uint64_t>(it - in.begin()), static_cast<std::uint64_t>(end - it)});
    it = end;
  }
  return r;
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}
template <class T>
bool same_prefix(const std::vector<T>& got, const std::vector<T>& want, std::size_t count) {
  if (got.size() < count || want.size() < count) return false;
  for (std::size_t i = 0; i < count; ++i)
    if (!same_bits(got[i], want[i])) return false;
  return true;
}

// Runs whose edges sit on the three-phase blocks' edges and one element either side, and runs that span blocks.
template <class T>
std::vector<T> block_edged(std::uint64_t n) {
  const std::uint64_t block = cpu::block_elements<T>();
  const auto pool = verify::make_values<T>(n + 2, 77);
  std::vector<T> v(n);
  std::uint64_t r = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t m = i % block;
    if (i > 0 && (m == 0 || m == 1 || m == block - 1 || (i / block) % 3 == 2)) ++r;  // every third block: singletons
    v[i] = pool[r % pool.size()];
    if (i > 0 && v[i] == v[i - 1]) v[i] = v[i - 1] == pool[0] ? pool[1] : pool[0];
  }
  return v;
}

// Every function, synchronous and _async, on `in` under every spec, against std_runs.
template <class T>
void check_all(const std::vector<T>& in, const std::string& what) {
  const auto runs = std_runs(in);
  std::vector<T> want_unique;
  std::vector<std::uint32_t> want_index;
  std::vector<std::uint64_t> want_counts, want_nt_first, want_nt_len;
  std::vector<T> std_unique(in.size());
  std_unique.resize(static_cast<std::size_t>(std::unique_copy(in.begin(), in.end(), std_unique.begin()) - std_unique.begin()));
  for (const auto& [first, len] : runs) {
    want_unique.push_back(in[first]), want_index.push_back(static_cast<std::uint32_t>(first)), want_counts.push_back(len);
    if (len > 1) want_nt_first.push_back(first), want_nt_len.push_back(len);
  }
  if constexpr (!std::is_floating_point_v<T>)  // std::unique_copy agrees (floats: NaN aside, which the inputs here lack)
    ASSERT_TRUE(same_prefix(std_unique, want_unique, want_unique.size()) && std_unique.size() == want_unique.size()) << what;
  std::vector<std::uint32_t> index(in.size());
  for (std::size_t i = 0; i < index.size(); ++i) index[i] = static_cast<std::uint32_t>(i);
  const std::size_t n = in.size();
  for (const char* spec : specs) {
    SCOPED_TRACE(what + " " + spec);
    const options o{device::cpu, spec};
    std::vector<T> out(n);
    std::vector<std::uint32_t> out_v(n);
    std::vector<std::uint64_t> a(n), b(n);
    std::uint64_t count = ~std::uint64_t{0};
    ASSERT_EQ(sluice::unique(in, out, o), runs.size());
    EXPECT_TRUE(same_prefix(out, want_unique, runs.size()));
    sluice::unique_async(in, out, &count, o);
    EXPECT_EQ(count, runs.size());
    std::fill(out_v.begin(), out_v.end(), ~0u);
    ASSERT_EQ(sluice::unique_by_key(in, index, out, out_v, o), runs.size());
    EXPECT_TRUE(same_prefix(out, want_unique, runs.size()));
    EXPECT_TRUE(same_prefix(out_v, want_index, runs.size())) << "unique_by_key values";
    sluice::unique_by_key_async(in, index, out, out_v, &count, o);
    EXPECT_EQ(count, runs.size());
    std::fill(b.begin(), b.end(), 0);
    ASSERT_EQ(sluice::run_length_encode(in, out, b, o), runs.size());
    EXPECT_TRUE(same_prefix(out, want_unique, runs.size()));
    EXPECT_TRUE(same_prefix(b, want_counts, runs.size())) << "run_length_encode counts";
    std::fill(b.begin(), b.end(), 0);
    sluice::run_length_encode_async(in, out, b, &count, o);
    EXPECT_EQ(count, runs.size());
    EXPECT_TRUE(same_prefix(b, want_counts, runs.size())) << "run_length_encode_async counts";
    std::fill(a.begin(), a.end(), 0), std::fill(b.begin(), b.end(), 0);
    ASSERT_EQ(sluice::non_trivial_runs(in, a, b, o), want_nt_first.size());
    EXPECT_TRUE(same_prefix(a, want_nt_first, want_nt_first.size())) << "non_trivial_runs offsets";
    EXPECT_TRUE(same_prefix(b, want_nt_len, want_nt_first.size())) << "non_trivial_runs lengths";
    std::fill(a.begin(), a.end(), 0), std::fill(b.begin(), b.end(), 0);
    sluice::non_trivial_runs_async(in, a, b, &count, o);
    EXPECT_EQ(count, want_nt_first.size());
    EXPECT_TRUE(same_prefix(b, want_nt_len, want_nt_first.size())) << "non_trivial_runs_async lengths";
  }
}

template <class T>
void against_std() {
  const std::uint64_t block = cpu::block_elements<T>();
  const std::uint64_t sizes[] = {0, 1, 2, 3, block - 1, block, block + 1, (std::uint64_t{1} << 20) + 3};
  std::uint64_t seed = 40;
  for (std::uint64_t n : sizes) {
    for (const auto p : verify::run_patterns) {
      if (n > block + 1 && p != verify::run_pattern::short_runs && p != verify::run_pattern::long_runs && p != verify::run_pattern::all_equal)
        continue;  // the large size: random lengths and the one run; the rest at the block edges
      check_all(verify::make_runs<T>(n, p, ++seed), "n=" + std::to_string(n) + " " + verify::to_string(p));
    }
    check_all(block_edged<T>(n), "n=" + std::to_string(n) + " block-edged");
  }
}
TEST(runs, against_std_u8) { against_std<std::uint8_t>(); }
TEST(runs, against_std_u32) { against_std<std::uint32_t>(); }
TEST(runs, against_std_u64) { against_std<std::uint64_t>(); }
TEST(runs, against_std_f32) { against_std<float>(); }
TEST(runs, against_std_f64) { against_std<double>(); }
TEST(runs, against_std_vec4u) { against_std<vec4u>(); }

// operator==, not bits: each NaN is a run of its own, and -0.0 and +0.0 are one run (the first one kept).
TEST(runs, floats_compare_by_value) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> in = {nan, nan, -0.0, 0.0, 0.0, 1.5, 1.5, nan};
  for (const char* spec : specs) {
    SCOPED_TRACE(spec);
    std::vector<double> out(in.size());
    std::vector<std::uint64_t> counts(in.size()), first(in.size()), len(in.size());
    ASSERT_EQ(sluice::run_length_encode(in, out, counts, {device::cpu, spec}), 5u);
    EXPECT_TRUE(std::isnan(out[0]) && std::isnan(out[1]) && std::isnan(out[4]));
    EXPECT_TRUE(out[2] == 0.0 && std::signbit(out[2])) << "the run's first element, -0.0";
    EXPECT_EQ(out[3], 1.5);
    EXPECT_EQ((std::vector<std::uint64_t>(counts.begin(), counts.begin() + 5)), (std::vector<std::uint64_t>{1, 1, 3, 2, 1}));
    ASSERT_EQ(sluice::unique(in, out, {device::cpu, spec}), 5u);
    ASSERT_EQ(sluice::non_trivial_runs(in, first, len, {device::cpu, spec}), 2u);
    EXPECT_EQ((std::vector<std::uint64_t>{first[0], len[0], first[1], len[1]}), (std::vector<std::uint64_t>{2, 3, 5, 2}));
  }
}

// A short output: the synchronous forms refuse it (invalid_argument) holding the first runs, the _async forms
// leave the full count; neither writes into the guard past the output.
TEST(runs, short_outputs_are_refused_and_never_overrun) {
  const std::uint64_t n = (std::uint64_t{1} << 20) + 3;
  const auto in = verify::make_runs<std::uint32_t>(n, verify::run_pattern::short_runs, 5);
  const auto runs = std_runs(in);
  std::uint64_t nt = 0;
  for (const auto& r : runs) nt += r.second > 1;
  constexpr std::size_t guard = 64;
  constexpr std::uint32_t poison = 0xA5A5A5A5u;
  for (const char* spec : specs) {
    SCOPED_TRACE(spec);
    const options o{device::cpu, spec};
    for (const std::uint64_t cap : {std::uint64_t{0}, std::uint64_t{1}, runs.size() / 3, runs.size() - 1}) {
      std::vector<std::uint32_t> out(cap + guard, poison), out_v(cap + guard, poison);
      std::vector<std::uint64_t> a(cap + guard, poison), b(cap + guard, poison);
      const auto o_span = std::span(out).first(cap);
      const auto v_span = std::span(out_v).first(cap);
      const auto a_span = std::span(a).first(cap), b_span = std::span(b).first(cap);
      const auto untouched = [&] {
        for (std::size_t i = cap; i < cap + guard; ++i)
          if (out[i] != poison || out_v[i] != poison || a[i] != poison || b[i] != poison) return false;
        return true;
      };
      expect_error(errc::invalid_argument, {"sluice::unique:", "'out'", "runs"}, [&] { (void)sluice::unique(in, o_span, o); });
      for (std::uint64_t i = 0; i < cap; ++i) ASSERT_EQ(out[i], in[runs[i].first]) << "the first runs, at " << i;
      std::vector<std::uint32_t> index(n, 7);
      expect_error(errc::invalid_argument, {"'out_keys'"}, [&] { (void)sluice::unique_by_key(in, index, o_span, v_span, o); });
      expect_error(errc::invalid_argument, {"'out_unique'"}, [&] { (void)sluice::run_length_encode(in, o_span, b_span, o); });
      for (std::uint64_t i = 0; i < cap; ++i) ASSERT_EQ(b[i], runs[i].second) << "the first runs' lengths, at " << i;
      if (cap < nt) expect_error(errc::invalid_argument, {"'out_offsets'"}, [&] { (void)sluice::non_trivial_runs(in, a_span, b_span, o); });
      std::uint64_t count = 0;
      sluice::unique_async(in, o_span, &count, o);
      EXPECT_EQ(count, runs.size());
      sluice::unique_by_key_async(in, index, o_span, v_span, &count, o);
      EXPECT_EQ(count, runs.size());
      sluice::run_length_encode_async(in, o_span, b_span, &count, o);
      EXPECT_EQ(count, runs.size());
      sluice::non_trivial_runs_async(in, a_span, b_span, &count, o);
      EXPECT_EQ(count, nt);
      EXPECT_TRUE(untouched()) << "written past the output at capacity " << cap;
    }
  }
}

// In place on the CPU: unique (keys and values for unique_by_key) and run_length_encode's elements over their input.
TEST(runs, in_place_on_cpu) {
  const auto in = verify::make_runs<std::uint64_t>((std::uint64_t{1} << 20) + 3, verify::run_pattern::short_runs, 9);
  const auto runs = std_runs(in);
  for (const char* spec : specs) {
    SCOPED_TRACE(spec);
    const options o{device::cpu, spec};
    auto x = in;
    ASSERT_EQ(sluice::unique(x, x, o), runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) ASSERT_EQ(x[i], in[runs[i].first]) << i;
    x = in;
    std::vector<std::uint64_t> v(in.size());
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = i;
    ASSERT_EQ(sluice::unique_by_key(x, v, x, v, o), runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) ASSERT_TRUE(x[i] == in[runs[i].first] && v[i] == runs[i].first) << i;
    x = in;
    std::vector<std::uint64_t> counts(in.size());
    ASSERT_EQ(sluice::run_length_encode(x, x, counts, o), runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) ASSERT_TRUE(x[i] == in[runs[i].first] && counts[i] == runs[i].second) << i;
  }
}

TEST(runs, argument_errors) {
  std::vector<std::uint32_t> in(100, 3), out(100), v(100), short_v(99);
  std::vector<std::uint64_t> a(100), b(100), short_b(99);
  expect_error(errc::invalid_argument, {"sluice::unique_async:", "'count'", "null"}, [&] { sluice::unique_async(in, out, nullptr); });
  expect_error(errc::invalid_argument, {"'count'"}, [&] { sluice::unique_by_key_async(in, v, out, v, nullptr); });
  expect_error(errc::invalid_argument, {"'count'"}, [&] { sluice::run_length_encode_async(in, out, a, nullptr); });
  expect_error(errc::invalid_argument, {"'count'"}, [&] { sluice::non_trivial_runs_async(in, a, b, nullptr); });
  expect_error(errc::invalid_argument, {"'values'", "99"}, [&] { (void)sluice::unique_by_key(in, short_v, out, v); });
  expect_error(errc::invalid_argument, {"'out_values'"}, [&] { (void)sluice::unique_by_key(in, v, out, short_v); });
  expect_error(errc::invalid_argument, {"'out_counts'"}, [&] { (void)sluice::run_length_encode(in, out, short_b); });
  expect_error(errc::invalid_argument, {"'out_lengths'"}, [&] { (void)sluice::non_trivial_runs(in, a, short_b); });
  expect_error(errc::invalid_argument, {"'out'", "partially overlaps 'in'"},
               [&] { (void)sluice::unique(std::span(in).first(50), std::span(in).subspan(10, 50)); });
  expect_error(errc::invalid_argument, {"'out_values'", "overlaps"}, [&] { (void)sluice::unique_by_key(in, v, out, out); });
  expect_error(errc::invalid_argument, {"'out_lengths'", "overlaps 'out_offsets'"}, [&] { (void)sluice::non_trivial_runs(in, a, a); });
  std::vector<std::uint64_t> w(100, 1), wu(100);
  expect_error(errc::invalid_argument, {"'out_counts'", "overlaps 'in'"}, [&] { (void)sluice::run_length_encode(w, wu, w); });
  expect_error(errc::invalid_argument, {"'out_offsets'", "overlaps 'in'"}, [&] { (void)sluice::non_trivial_runs(w, w, b); });
  expect_error(errc::invalid_argument, {"null"}, [&] { (void)sluice::unique(std::span<const std::uint32_t>(static_cast<const std::uint32_t*>(nullptr), 5), out); });
  expect_error(errc::invalid_argument, {"unknown algorithm 'nope'", "three-phase"}, [&] { (void)sluice::unique(in, out, {device::cpu, "nope"}); });
  expect_error(errc::invalid_argument, {"three-phase:s=2"}, [&] { (void)sluice::run_length_encode(in, out, a, {device::cpu, "three-phase:s=2"}); });
  expect_error(errc::invalid_argument, {"takes no parameters"}, [&] { (void)sluice::unique(in, out, {device::cpu, "serial:threads=2"}); });
}

// Without CUDA in the build (or without a GPU) the cuda device is missing (cuda_runs_test.cpp tests the GPU);
// the registry's cuda default is the look-back, and gl has no runs algorithm.
TEST(runs, devices_without_a_runs_backend) {
  const options o{device::cuda};
  if (!device_available(device::cuda)) {
    std::vector<std::uint32_t> in(10), out(10);
    std::vector<std::uint64_t> a(10), b(10);
    expect_error(errc::no_device, {"sluice::unique:"}, [&] { (void)sluice::unique(in, out, o); });
    expect_error(errc::no_device, {"sluice::run_length_encode_async:"}, [&] {
      std::uint64_t c = 0;
      sluice::run_length_encode_async(in, out, a, &c, o);
    });
    expect_error(errc::no_device, {"sluice::non_trivial_runs:"}, [&] { (void)sluice::non_trivial_runs(in, a, b, o); });
  }
  EXPECT_EQ(find_algorithm(primitive::unique, device::cuda, "best", "unique").name, "decoupled-lookback");
  EXPECT_EQ(find_algorithm(primitive::run_length_encode, device::cuda, "best", "run_length_encode").name, "decoupled-lookback");
  expect_error(errc::unsupported, {"the gl device has no unique algorithm"},
               [] { (void)find_algorithm(primitive::unique, device::gl, "best", "unique"); });
}

}  // namespace
