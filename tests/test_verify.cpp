// Every registered algorithm on every device against the serial reference (src/verify).
// SLUICE_TEST_QUICK=1 limits sizes to 2^16 (the default goes to 2^22 + 1); SLUICE_TEST_SANITIZE=1 (under
// compute-sanitizer, docs/guide/tool.md) to 2^14 + 1 on the GPU, a few tiles of every variant (the pipelined
// specs below on one and five blocks take several rounds each even there), so that racecheck, which slows
// kernels by orders of magnitude, gets through the whole matrix.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "sluice/sluice.hpp"
#include "switches.hpp"
#include "verify/generators.hpp"
#include "verify/verify.hpp"

#include <omp.h>

namespace {

using namespace sluice;

struct param {
  const algorithm_info* algo;
  device dev;
};
void PrintTo(const param& p, std::ostream* os) {
  *os << to_string(p.algo->prim) << " " << p.algo->name << " on " << to_string(p.dev);
}

std::vector<param> all_params() {
  std::vector<param> v;
  for (const auto& a : algorithms())
    for (device d : {device::cpu, device::cuda, device::gl})
      if (runs_on(a, d)) v.push_back({&a, d});
  return v;
}

// The GPU's sizes under compute-sanitizer (see the top of this file); SLUICE_TEST_MAX_SIZE=N caps them at N
// instead, and SLUICE_TEST_SAMPLE=K runs about one case in K (settings::sample; racecheck over the papers'
// block compactions takes a minute a variant at 2^14 + 1, and Billeter's four minutes at 4097).
void cap_when_sanitizing(verify::settings& s) {
  const char* cap = std::getenv("SLUICE_TEST_MAX_SIZE");
  const char* sample = std::getenv("SLUICE_TEST_SAMPLE");
  if (!test_switch("SLUICE_TEST_SANITIZE") || s.dev == device::cpu) return;
  s.max_size = (1u << 14) + 1;
  if (cap && *cap) s.max_size = std::strtoull(cap, nullptr, 10);
  if (sample && *sample) s.sample = std::max<std::uint64_t>(1, std::strtoull(sample, nullptr, 10));
}

class matrix : public ::testing::TestWithParam<param> {};

TEST_P(matrix, against_reference) {
  const auto [algo, dev] = GetParam();
  if (dev == device::cuda && !device_available(device::cuda))
    GTEST_SKIP() << "no CUDA device: " << (config::has_cuda ? "no GPU present on this machine" : "sluice built without CUDA");
  if (dev == device::gl && !device_available(device::gl)) GTEST_SKIP() << "no gl device: " << gl_backend::unavailable_reason();
  std::vector<std::string> failures;
  // The CPU's one-thread loops have no blocks, tiles or threads whose edges larger inputs would reach: the quick
  // matrix (every size to 2^16) covers them, and spares the test run about eight minutes of a core.
  const bool one_loop = dev == device::cpu && (algo->name == "serial" || algo->name == "lsd-serial");
  verify::settings s{dev, test_switch("SLUICE_TEST_QUICK") || one_loop, [&](const std::string& m) {
                       if (failures.size() < 25) failures.push_back(m);
                     }};
  cap_when_sanitizing(s);
  const auto t = verify::run(*algo, s);
  for (const auto& f : failures) ADD_FAILURE() << f;
  EXPECT_EQ(t.failed, 0u);
  EXPECT_GT(t.passed, 0u) << "no case ran";
}

// A GoogleTest name from any text: every character but letters and digits becomes '_'.
std::string test_name(std::string n) {
  for (auto& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}
std::string spec_name(const ::testing::TestParamInfo<const char*>& p) { return test_name(p.param); }

std::string name_of(const ::testing::TestParamInfo<param>& p) {
  return test_name(std::string(to_string(p.param.algo->prim)) + "_" + std::string(p.param.algo->name) + "_" +
                   std::string(to_string(p.param.dev)));
}

INSTANTIATE_TEST_SUITE_P(registry, matrix, ::testing::ValuesIn(all_params()), name_of);

// The papers' parameters away from their defaults (quick matrix): block sizes at both ends, the other
// in-block scan, the other compactSIMD, few and odd processor counts, the selective switch at both ends.
const char* const cuda_specs[] = {
    "roger:scan=hillis-steele", "roger:s=2", "roger:s=1024", "roger:s=256,scan=blelloch",
    "jumping-jack:s=32,scan=hillis-steele", "jumping-jack:s=2", "jumping-jack:s=1024", "jumping-jack:s=64,scan=blelloch",
    "billeter:simd=prefix", "billeter-staged:simd=prefix", "billeter-scattered:simd=prefix", "billeter-buffered:simd=prefix",
    "billeter:P=1", "billeter:P=7", "billeter-buffered:P=3", "billeter-staged:P=130", "billeter:t=0", "billeter:t=100",
    "split:simd=prefix", "split:P=1", "split:P=5", "billeter-scan:P=1", "billeter-scan:P=33",
    "kogge-stone:threads=32", "kogge-stone:threads=256", "brent-kung:threads=32", "brent-kung:threads=128",
    "three-phase-coarsened:threads=32,items=1", "three-phase-coarsened:threads=1024,items=3",
    "three-phase-coarsened:threads=64,items=64", "streaming:threads=32", "streaming:threads=256",
    "decoupled-lookback:phased=on", "decoupled-lookback:phased=off", "decoupled-lookback:pipelined=on",
    "decoupled-lookback:pipelined=off", "decoupled-lookback:pipelined=on,blocks=1", "decoupled-lookback:pipelined=on,blocks=5",
    "decoupled-lookback:resident=on", "decoupled-lookback:resident=off", "decoupled-lookback:resident=off,phased=off",
    "decoupled-lookback:reversed=on", "decoupled-lookback:reversed=on,blocks=3", "decoupled-lookback:pipelined=on,reversed=off",
    "decoupled-lookback:pipelined=on,phased=off", "decoupled-lookback:cluster=off",
    "onesweep:portion=1", "onesweep:portion=20480", "vectorized:dynamic=on", "vectorized:dynamic=off"};

class policies : public ::testing::TestWithParam<const char*> {};

TEST_P(policies, against_reference) {
  if (!device_available(device::cuda))
    GTEST_SKIP() << "no CUDA device: " << (config::has_cuda ? "no GPU present on this machine" : "sluice built without CUDA");
  const std::string_view spec = GetParam();
  // Every CUDA entry of that name that takes the spec's parameter (decoupled-lookback: phased for compact and
  // partition, pipelined for scan, compact and partition, resident and reversed for partition; vectorized: dynamic
  // for reduce).
  int entries = 0;
  for (const auto& a : algorithms()) {
    if (!a.on_cuda || a.name != detail::base_name(spec) || !takes_params(a, spec, "test")) continue;
    ++entries;
    std::vector<std::string> failures;
    verify::settings s{device::cuda, /*quick=*/true, [&](const std::string& m) {
                         if (failures.size() < 25) failures.push_back(m);
                       }};
    cap_when_sanitizing(s);
    const auto t = verify::run(a, s, spec);
    for (const auto& f : failures) ADD_FAILURE() << to_string(a.prim) << " " << f;
    EXPECT_EQ(t.failed, 0u) << to_string(a.prim);
    EXPECT_GT(t.passed, 0u) << to_string(a.prim) << ": no case ran";
  }
  EXPECT_GT(entries, 0) << spec;
}

INSTANTIATE_TEST_SUITE_P(cuda, policies, ::testing::ValuesIn(cuda_specs), spec_name);

// The gl variants' block sizes at both ends and between (quick matrix): blocks of 2 and of 1024 elements,
// four and a quarter of a texture row.
const char* const gl_specs[] = {"roger:s=2", "roger:s=1024", "roger:s=256", "jumping-jack:s=2", "jumping-jack:s=1024",
                                "jumping-jack:s=32"};

class gl_policies : public ::testing::TestWithParam<const char*> {};

TEST_P(gl_policies, against_reference) {
  if (!device_available(device::gl)) GTEST_SKIP() << "no gl device: " << gl_backend::unavailable_reason();
  const std::string_view spec = GetParam();
  int entries = 0;
  for (const auto& a : algorithms()) {
    if (!a.on_gl || a.name != detail::base_name(spec)) continue;
    ++entries;
    std::vector<std::string> failures;
    verify::settings s{device::gl, /*quick=*/true, [&](const std::string& m) {
                         if (failures.size() < 25) failures.push_back(m);
                       }};
    const auto t = verify::run(a, s, spec);
    for (const auto& f : failures) ADD_FAILURE() << f;
    EXPECT_EQ(t.failed, 0u);
    EXPECT_GT(t.passed, 0u) << "no case ran";
  }
  EXPECT_EQ(entries, 1) << spec;
}

INSTANTIATE_TEST_SUITE_P(gl, gl_policies, ::testing::ValuesIn(gl_specs), spec_name);

// settings::sample (racecheck's thinned matrix): about one case in K, the same ones each run, and no failure
// hidden by it (the serial compaction on the quick matrix to 3000 elements).
TEST(sample, runs_about_one_case_in_k_the_same_each_time) {
  const algorithm_info* serial = nullptr;
  for (const auto& a : algorithms())
    if (a.prim == primitive::compact && a.name == "serial" && a.on_cpu) serial = &a;
  ASSERT_NE(serial, nullptr);
  auto run = [&](std::uint64_t k) {
    verify::settings s{device::cpu, /*quick=*/true, [](const std::string& m) { ADD_FAILURE() << m; }};
    s.max_size = 3000;
    s.sample = k;
    return verify::run(*serial, s);
  };
  const auto all = run(1), seventh = run(7), again = run(7);
  EXPECT_EQ(all.failed + seventh.failed, 0u);
  EXPECT_GT(all.passed, 700u);
  EXPECT_GT(seventh.passed, all.passed / 14);  // a hash, not a stride: about one in 7, within a factor of 2
  EXPECT_LT(seventh.passed, all.passed * 2 / 7);
  EXPECT_EQ(again.passed, seventh.passed);
}

// The generators fill large inputs on several threads: the same values whatever the thread count, and the
// random flags at their ratio; nth_smallest (the benchmarks' predicate bounds) is std::nth_element's value,
// for every arithmetic type it serves, below and above its parallel size, on random, repeated and signed data.
TEST(generators, fill_the_same_on_any_thread_count) {
  const std::uint64_t n = (std::uint64_t{1} << 17) + 3;  // past the parallel size
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto v1 = verify::make_values<std::uint32_t>(n, 5);
  const auto f1 = verify::make_flags(n, {verify::pattern::random, 0.3}, 9);
  const auto w1 = verify::make_values<float>(n, 6, verify::value_kind::sum);
  const auto k1 = verify::make_keys<std::uint64_t>(n, verify::key_pattern::specials, 4);
  omp_set_num_threads(3);
  EXPECT_TRUE(verify::make_values<std::uint32_t>(n, 5) == v1);
  EXPECT_TRUE(verify::make_flags(n, {verify::pattern::random, 0.3}, 9) == f1);
  EXPECT_TRUE(verify::make_values<float>(n, 6, verify::value_kind::sum) == w1);
  EXPECT_TRUE(verify::make_keys<std::uint64_t>(n, verify::key_pattern::specials, 4) == k1);
  omp_set_num_threads(threads);
  EXPECT_FALSE(verify::make_values<std::uint32_t>(n, 6) == v1) << "another seed, another stream";
  const auto kept = std::count_if(f1.begin(), f1.end(), [](std::uint8_t f) { return f != 0; });
  EXPECT_NEAR(static_cast<double>(kept) / static_cast<double>(n), 0.3, 0.01);
  EXPECT_TRUE(std::all_of(w1.begin(), w1.end(), [](float x) { return x >= -1.0f && x <= 1.0f; }));
  const auto [lo, hi] = std::minmax_element(w1.begin(), w1.end());
  EXPECT_LT(*lo, -0.99f);
  EXPECT_GT(*hi, 0.99f);
}

template <class T>
void nth_smallest_is_nth_element(const std::vector<T>& v, const char* what, std::vector<std::uint64_t> qs = {}) {
  qs.insert(qs.end(), {0, v.size() / 10, v.size() / 2, v.size() * 9 / 10, v.size() - 1});
  for (const std::uint64_t q : qs) {
    std::vector<T> c = v;
    std::nth_element(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(q), c.end());
    EXPECT_EQ(verify::nth_smallest(v, q), c[q]) << what << " n=" << v.size() << " q=" << q;
  }
}
TEST(generators, nth_smallest_is_nth_element) {
  for (const std::uint64_t n : {std::uint64_t{1}, std::uint64_t{1000}, (std::uint64_t{1} << 17) + 5}) {
    nth_smallest_is_nth_element(verify::make_values<std::uint32_t>(n, 1), "u32");
    nth_smallest_is_nth_element(verify::make_values<std::int32_t>(n, 2), "i32");
    nth_smallest_is_nth_element(verify::make_values<std::uint64_t>(n, 3), "u64");
    nth_smallest_is_nth_element(verify::make_values<std::int64_t>(n, 4), "i64");
    nth_smallest_is_nth_element(verify::make_values<float>(n, 5, verify::value_kind::sum), "f32 in [-1, 1)");
    nth_smallest_is_nth_element(verify::make_values<double>(n, 6), "f64");
    nth_smallest_is_nth_element(verify::make_keys<std::uint32_t>(n, verify::key_pattern::few_distinct, 7), "u32, 4 distinct");
    nth_smallest_is_nth_element(verify::make_keys<std::int32_t>(n, verify::key_pattern::all_equal, 8), "i32, all equal");
    std::vector<float> signed_zeros(n);
    for (std::uint64_t i = 0; i < n; ++i) signed_zeros[i] = i % 3 == 0 ? -0.0f : i % 3 == 1 ? 0.0f : -1.5f;
    nth_smallest_is_nth_element(signed_zeros, "f32, -1.5 and both zeros");
  }
  // The q-th at either side of a bucket's edge (the histogram's buckets are the top 16 bits: 0..65535 in bucket 0).
  std::vector<std::uint32_t> ramp((std::uint64_t{1} << 17) + 5);
  for (std::size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<std::uint32_t>(ramp.size() - 1 - i);
  nth_smallest_is_nth_element(ramp, "u32 ramp", {65535, 65536, 65537});
  EXPECT_THROW(verify::nth_smallest(std::vector<std::uint32_t>{1, 2}, 2), std::out_of_range);
}

// The CPU backend at every SIMD level and at 1, 2 and more threads than this machine has cores: every CPU
// entry that takes the plan's parameters, on the quick generator matrix (the registry test above runs the
// default plan on the full one; cpu_test.cpp's cpu_levels_at_streaming_sizes the non-temporal paths).
struct cpu_plan_param {
  const char* simd;
  int threads;
};
class cpu_plans : public ::testing::TestWithParam<cpu_plan_param> {};

TEST_P(cpu_plans, against_reference) {
  const auto [simd, threads] = GetParam();
  const std::string level = simd;
  const auto best = cpu_backend::detected_simd();
  if ((level == "avx512" && best != cpu_backend::simd_level::avx512) ||
      (level == "avx2" && best == cpu_backend::simd_level::scalar))
    GTEST_SKIP() << "this processor has no " << level << " (it has " << to_string(best) << ")";
  const std::string spec_params = ":simd=" + level + ",threads=" + std::to_string(threads);
  int entries = 0;
  for (const auto& a : algorithms()) {
    if (!a.on_cpu || a.params.empty()) continue;
    ++entries;
    std::vector<std::string> failures;
    verify::settings s{device::cpu, /*quick=*/true, [&](const std::string& m) {
                         if (failures.size() < 25) failures.push_back(m);
                       }};
    // Under SLUICE_TEST_QUICK (the ASan stage of scripts/test.sh) about one case in three: a plan's whole quick
    // matrix takes six minutes of a core there, and the uninstrumented stage runs every case of every plan.
    if (test_switch("SLUICE_TEST_QUICK")) s.sample = 3;
    const auto t = verify::run(a, s, std::string(a.name) + spec_params);
    for (const auto& f : failures) ADD_FAILURE() << to_string(a.prim) << " " << a.name << " " << f;
    EXPECT_EQ(t.failed, 0u) << to_string(a.prim) << " " << a.name;
    EXPECT_GT(t.passed, 0u) << to_string(a.prim) << " " << a.name << ": no case ran";
  }
  EXPECT_EQ(entries, 17);  // vectorized, billeter-scan, billeter (compact, compact_unordered), split (partition, partition_unordered), lsd-parallel, msd-lsd
                          // (radix_sort, segmented_radix_sort), three-phase (unique, run_length_encode, reduce_by_key, scan_by_key, segmented_reduce,
                          // segmented_scan), multisplit, radix-select
}

INSTANTIATE_TEST_SUITE_P(cpu, cpu_plans,
                         ::testing::Values(cpu_plan_param{"avx512", 1}, cpu_plan_param{"avx512", 2}, cpu_plan_param{"avx512", 8},
                                           cpu_plan_param{"avx2", 1}, cpu_plan_param{"avx2", 2}, cpu_plan_param{"avx2", 8},
                                           cpu_plan_param{"scalar", 1}, cpu_plan_param{"scalar", 2}, cpu_plan_param{"scalar", 8}),
                         [](const ::testing::TestParamInfo<cpu_plan_param>& p) {
                           return std::string(p.param.simd) + "_threads_" + std::to_string(p.param.threads);
                         });

}  // namespace
