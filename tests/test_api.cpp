// The public API's contract: argument errors, aliasing, capacities, custom operators, async forms, devices.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <array>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <stdexcept>
#include <numeric>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "sluice/sluice.hpp"
#include "switches.hpp"
#if SLUICE_HAS_CUDA
#include <cuda_runtime.h>
#endif

namespace {

using namespace sluice;

// Expect a sluice::error with this code whose message contains every fragment.
template <class F>
void expect_error(errc code, std::vector<std::string> fragments, F&& f) {
  try {
    f();
    ADD_FAILURE() << "no error thrown";
  } catch (const sluice::error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    for (const auto& frag : fragments) EXPECT_NE(std::string(e.what()).find(frag), std::string::npos) << e.what() << " lacks " << frag;
  }
}

TEST(api, ten_line_example) {
  std::vector<float> x = {3, -1, 4, -1, 5, -9, 2, 6};
  std::vector<float> pos(x.size());
  const auto kept = sluice::compact_if(x, pos, greater_than(0.0f));
  EXPECT_EQ(kept, 5u);
  EXPECT_EQ(std::vector<float>(pos.begin(), pos.begin() + 5), (std::vector<float>{3, 4, 5, 2, 6}));
  EXPECT_EQ(sluice::reduce(x), 9.0f);
  EXPECT_EQ(sluice::reduce(x, -100.0f, maximum{}), 6.0f);
  std::vector<float> sums(x.size());
  sluice::inclusive_scan(x, sums);
  EXPECT_EQ(sums.back(), 9.0f);
  std::vector<std::int32_t> keys = {5, -2, 7, -2, 0};
  std::vector<std::uint32_t> vals = {0, 1, 2, 3, 4};
  sluice::radix_sort(keys, vals, order::descending);
  EXPECT_EQ(keys, (std::vector<std::int32_t>{7, 5, 0, -2, -2}));
  EXPECT_EQ(vals, (std::vector<std::uint32_t>{2, 0, 4, 1, 3}));  // stable: the first -2 stays first
}

// A spec with parameters goes to the entries of its name that know every key (sluice verify --algo, the
// policies tests): decoupled-lookback's `pipelined` and `blocks` are the scan's, compact's and partition's, `phased`
// compact's and partition's, `resident` and `reversed` partition's.
TEST(api, specs_with_parameters_go_to_the_entries_that_know_them) {
  const auto& scan = find_algorithm(primitive::scan, device::cuda, "decoupled-lookback", "t");
  const auto& compact = find_algorithm(primitive::compact, device::cuda, "decoupled-lookback", "t");
  const auto& cpu = find_algorithm(primitive::compact, device::cpu, "billeter", "t");
  EXPECT_TRUE(takes_params(scan, "decoupled-lookback", "t"));
  EXPECT_TRUE(takes_params(scan, "decoupled-lookback:pipelined=on", "t"));
  EXPECT_FALSE(takes_params(scan, "decoupled-lookback:phased=on", "t"));
  EXPECT_TRUE(takes_params(compact, "decoupled-lookback:phased=off", "t"));
  EXPECT_TRUE(takes_params(compact, "decoupled-lookback:pipelined=on", "t"));
  EXPECT_TRUE(takes_params(compact, "decoupled-lookback:phased=off,pipelined=on", "t"));
  EXPECT_TRUE(takes_params(scan, "decoupled-lookback:pipelined=on,blocks=3", "t"));
  EXPECT_TRUE(takes_params(compact, "decoupled-lookback:blocks=3", "t"));
  const auto& partition = find_algorithm(primitive::partition, device::cuda, "decoupled-lookback", "t");
  EXPECT_TRUE(takes_params(partition, "decoupled-lookback:phased=on", "t"));
  EXPECT_TRUE(takes_params(partition, "decoupled-lookback:phased=off,pipelined=on", "t"));
  EXPECT_TRUE(takes_params(partition, "decoupled-lookback:pipelined=on,reversed=off,blocks=3", "t"));
  EXPECT_FALSE(takes_params(scan, "decoupled-lookback:reversed=on", "t"));
  EXPECT_FALSE(takes_params(compact, "decoupled-lookback:reversed=on", "t"));
  EXPECT_TRUE(takes_params(partition, "decoupled-lookback:phased=off,resident=on", "t"));
  EXPECT_FALSE(takes_params(compact, "decoupled-lookback:resident=on", "t"));
  EXPECT_TRUE(takes_params(scan, "decoupled-lookback:cluster=off", "t"));
  EXPECT_TRUE(takes_params(compact, "decoupled-lookback:cluster=off,phased=off", "t"));
  EXPECT_TRUE(takes_params(partition, "decoupled-lookback:cluster=off,resident=on", "t"));
  EXPECT_TRUE(takes_params(find_algorithm(primitive::partition_unordered, device::cuda, "decoupled-lookback", "t"),
                           "decoupled-lookback:cluster=off", "t"));
  const auto& reduce = find_algorithm(primitive::reduce, device::cuda, "vectorized", "t");
  EXPECT_TRUE(takes_params(reduce, "vectorized:dynamic=on", "t"));
  EXPECT_FALSE(takes_params(reduce, "vectorized:threads=2", "t"));  // the CPU entry's key
  EXPECT_TRUE(takes_params(cpu, "billeter:threads=2,simd=avx2", "t"));
  EXPECT_FALSE(takes_params(cpu, "billeter:s=2", "t"));  // "threads=" ends in "s=": a key starts after a space or comma
  // Keys listed without a default ("P", "P, simd=popc|prefix"), as the CUDA papers' variants list theirs.
  EXPECT_TRUE(takes_params(find_algorithm(primitive::scan, device::cuda, "billeter-scan", "t"), "billeter-scan:P=33", "t"));
  EXPECT_TRUE(takes_params(find_algorithm(primitive::compact, device::cuda, "billeter", "t"), "billeter:P=7,simd=prefix,t=0", "t"));
  EXPECT_FALSE(takes_params(find_algorithm(primitive::compact, device::cuda, "billeter", "t"), "billeter:simd=prefix,Q=1", "t"));
  expect_error(errc::invalid_argument, {"'billeter:=2'", "is not key=value"}, [&] { (void)takes_params(cpu, "billeter:=2", "t"); });
}

TEST(api, null_with_size_is_refused) {
  std::span<const std::uint32_t> bad(static_cast<const std::uint32_t*>(nullptr), 10);
  std::vector<std::uint32_t> out(10);
  expect_error(errc::invalid_argument, {"sluice::reduce:", "'in'", "null"}, [&] { (void)sluice::reduce(bad); });
  expect_error(errc::invalid_argument, {"inclusive_scan", "'in'"}, [&] { sluice::inclusive_scan(bad, out); });
  std::vector<std::uint8_t> flags(10, 1);
  expect_error(errc::invalid_argument, {"compact", "'in'"}, [&] { (void)sluice::compact(bad, flags, out); });
  std::span<std::uint32_t> bad_keys(static_cast<std::uint32_t*>(nullptr), 3);
  expect_error(errc::invalid_argument, {"radix_sort", "'keys'"}, [&] { sluice::radix_sort(bad_keys); });
}

TEST(api, empty_inputs) {
  std::vector<std::uint32_t> none, out;
  std::vector<std::uint8_t> flags;
  EXPECT_EQ(sluice::reduce(none, 7u), 7u);
  sluice::inclusive_scan(none, out);
  EXPECT_EQ(sluice::compact(none, flags, out), 0u);
  EXPECT_EQ(sluice::partition_flagged(none, flags, out), 0u);
  EXPECT_EQ(sluice::partition_unordered_flagged(none, flags, out), 0u);
  EXPECT_EQ(sluice::partition_unordered(none, out, less_than(1u)), 0u);
  sluice::radix_sort(out);
}

TEST(api, flags_must_match_input) {
  std::vector<std::uint32_t> in(10), out(10);
  std::vector<std::uint8_t> flags(9, 1);
  expect_error(errc::invalid_argument, {"sluice::compact", "'flags'", "9", "10"}, [&] { (void)sluice::compact(in, flags, out); });
  expect_error(errc::invalid_argument, {"partition_flagged", "'flags'"}, [&] { (void)sluice::partition_flagged(in, flags, out); });
  expect_error(errc::invalid_argument, {"partition_unordered_flagged", "'flags'"},
               [&] { (void)sluice::partition_unordered_flagged(in, flags, out); });
}

TEST(api, output_capacity) {
  std::vector<std::uint32_t> in(100);
  std::iota(in.begin(), in.end(), 0u);
  std::vector<std::uint8_t> flags(100, 1);
  std::vector<std::uint32_t> out(60, 0xdeadbeef);
  expect_error(errc::invalid_argument, {"sluice::compact", "'out'", "holds 50", "100 were selected"},
               [&] { (void)sluice::compact(in, flags, std::span<std::uint32_t>(out).first(50)); });
  for (std::size_t i = 50; i < 60; ++i) EXPECT_EQ(out[i], 0xdeadbeefu) << "wrote past the span at " << i;
  std::uint64_t count = 0;
  sluice::compact_async(in, flags, std::span<std::uint32_t>(out).first(50), &count);
  EXPECT_EQ(count, 100u);  // the async form reports the full count, writes only what fits
  std::vector<std::uint32_t> small(99);
  expect_error(errc::invalid_argument, {"sluice::partition", "'out'", "99"}, [&] { (void)sluice::partition(in, small, less_than(5u)); });
  expect_error(errc::invalid_argument, {"sluice::partition_unordered", "'out'", "99"},
               [&] { (void)sluice::partition_unordered(in, small, less_than(5u)); });
  expect_error(errc::invalid_argument, {"partition_unordered_async", "'count'", "null"},
               [&] { sluice::partition_unordered_async(in, std::vector<std::uint32_t>(100), less_than(5u), nullptr); });
  std::vector<std::uint32_t> short_scan(99);
  expect_error(errc::invalid_argument, {"inclusive_scan", "'out'"}, [&] { sluice::inclusive_scan(in, short_scan); });
}

TEST(api, aliasing) {
  std::vector<std::uint32_t> v(100);
  std::iota(v.begin(), v.end(), 0u);
  sluice::inclusive_scan(v, v);  // in place is allowed for scans
  EXPECT_EQ(v[99], 4950u);
  std::iota(v.begin(), v.end(), 0u);
  EXPECT_EQ(sluice::compact_if(v, v, less_than(10u)), 10u);  // in place compaction on the CPU
  EXPECT_EQ(v[9], 9u);
  std::span<std::uint32_t> s(v);
  expect_error(errc::invalid_argument, {"partially overlaps"}, [&] { sluice::inclusive_scan(s.first(50), s.subspan(10, 50)); });
  expect_error(errc::unsupported, {"sluice::partition", "does not run in place"}, [&] { (void)sluice::partition(s, s, less_than(3u)); });
  std::vector<std::uint32_t> keys(10);
  expect_error(errc::invalid_argument, {"radix_sort", "'values'"}, [&] { sluice::radix_sort(std::span(keys).first(8), std::span(keys).subspan(2, 8)); });
}

TEST(api, bit_range) {
  std::vector<std::uint32_t> k = {3, 1, 2};
  expect_error(errc::invalid_argument, {"radix_sort", "'bits'", "32"}, [&] { sluice::radix_sort(k, order::ascending, {0, 33}); });
  expect_error(errc::invalid_argument, {"'bits'"}, [&] { sluice::radix_sort(k, order::ascending, {-1, 8}); });
  expect_error(errc::invalid_argument, {"'bits'"}, [&] { sluice::radix_sort(k, order::ascending, {9, 8}); });
  std::vector<std::uint32_t> k2 = {0x13, 0x21, 0x12};  // sort by the low nibble only: stable on ties
  sluice::radix_sort(k2, order::ascending, {0, 4});
  EXPECT_EQ(k2, (std::vector<std::uint32_t>{0x21, 0x12, 0x13}));
}

TEST(api, unknown_algorithm_names_the_choices) {
  std::vector<std::uint32_t> v(4);
  expect_error(errc::invalid_argument, {"unknown algorithm 'nope'", "valid: best, serial"},
               [&] { (void)sluice::reduce(v, 0u, sum{}, {device::cpu, "nope"}); });
  expect_error(errc::invalid_argument, {"unknown algorithm 'cub'", "on cpu"}, [&] { (void)sluice::reduce(v, 0u, sum{}, {device::cpu, "cub"}); });
}

TEST(api, parameters_only_where_a_variant_has_them) {
  std::vector<std::uint32_t> v(4);
  expect_error(errc::invalid_argument, {"sluice::reduce", "'serial:x=1'", "takes no parameters"},
               [&] { (void)sluice::reduce(v, 0u, sum{}, {device::cpu, "serial:x=1"}); });
  expect_error(errc::invalid_argument, {"'best:s=64'", "takes no parameters"},
               [&] { (void)sluice::reduce(v, 0u, sum{}, {device::cpu, "best:s=64"}); });
  expect_error(errc::invalid_argument, {"unknown algorithm 'nope'"}, [&] { (void)sluice::reduce(v, 0u, sum{}, {device::cpu, "nope:s=1"}); });
}

// The built-in threshold (types.hpp) is each of the six comparisons exactly, NaN (only not_equal keeps it), signed
// zeros and the extremes included; the GPU's rotating pipelines launch it as one kernel per comparison
// (compact/decoupled_lookback.cuh, fixed_threshold), the CPU's SIMD paths evaluate it their own way.
template <class T>
bool native(compare op, T x, T v) {
  switch (op) {
    case compare::less: return x < v;
    case compare::less_equal: return x <= v;
    case compare::greater: return x > v;
    case compare::greater_equal: return x >= v;
    case compare::equal: return x == v;
    case compare::not_equal: return x != v;
  }
  return false;
}
constexpr compare all_comparisons[] = {compare::less, compare::less_equal, compare::greater, compare::greater_equal, compare::equal, compare::not_equal};
template <class T>
void threshold_is_each_comparison(const std::vector<T>& values) {
  for (const compare op : all_comparisons)
    for (const T v : values)
      for (const T x : values)
        EXPECT_EQ((threshold<T>{op, v}(x)), native(op, x, v)) << "op " << static_cast<int>(op) << ", x " << +x << ", threshold " << +v;
}
TEST(api, threshold_is_each_comparison_exactly) {
  for (const auto& [a, b] : {std::pair{less_than(3), threshold<int>{compare::less, 3}}, {at_most(3), {compare::less_equal, 3}},
                             {greater_than(3), {compare::greater, 3}}, {at_least(3), {compare::greater_equal, 3}},
                             {equal_to(3), {compare::equal, 3}}, {not_equal_to(3), {compare::not_equal, 3}}})
    EXPECT_TRUE(a.op == b.op && a.value == b.value);
  using f = std::numeric_limits<float>;
  using d = std::numeric_limits<double>;
  threshold_is_each_comparison<float>({-f::infinity(), f::lowest(), -1.5f, -0.0f, 0.0f, f::denorm_min(), 1.0f, f::max(), f::infinity(), f::quiet_NaN(), -f::quiet_NaN()});
  threshold_is_each_comparison<double>({-d::infinity(), d::lowest(), -1.5, -0.0, 0.0, d::denorm_min(), 1.0, d::max(), d::infinity(), d::quiet_NaN()});
  threshold_is_each_comparison<std::int32_t>({std::numeric_limits<std::int32_t>::min(), -1, 0, 1, std::numeric_limits<std::int32_t>::max()});
  threshold_is_each_comparison<std::uint32_t>({0u, 1u, 1u << 31, ~0u});
  threshold_is_each_comparison<std::int64_t>({std::numeric_limits<std::int64_t>::min(), -1, 0, std::int64_t{1} << 32, std::numeric_limits<std::int64_t>::max()});
  threshold_is_each_comparison<std::uint64_t>({0ull, 1ull, 1ull << 32, (1ull << 32) - 1, 1ull << 63, ~0ull});
  threshold_is_each_comparison<std::uint8_t>({0, 1, 127, 128, 255});
}

// Every comparison through compact_if, partition and partition_unordered on `d` with each spec: inputs with
// many equal values (float: NaN and -0.0 among them, compared bit for bit), thresholds among and outside them,
// against the comparison written out. compact_if's and partition's runs exact, partition_unordered's rejected
// run as a multiset.
template <class T>
std::vector<T> comparison_input(std::size_t n) {
  std::vector<T> h(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t k = (i * 0x9e3779b97f4a7c15ull) >> 40;
    if constexpr (std::is_floating_point_v<T>)
      h[i] = k % 11 == 0 ? std::numeric_limits<T>::quiet_NaN() : k % 7 == 0 ? T(-0.0) : static_cast<T>(static_cast<int>(k % 9) - 4);
    else if constexpr (sizeof(T) == 8)
      h[i] = static_cast<T>((k % 9) << 33 | (k >> 8 & 1));  // the high word decides, the low one differs
    else
      h[i] = static_cast<T>(k % 9);
  }
  return h;
}
template <class T>
std::uint64_t bits_of(T x) {
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof(T));
  return b;
}
template <class T>
bool same_bits(const T* a, const T* b, std::size_t k) { return k == 0 || std::memcmp(a, b, k * sizeof(T)) == 0; }
enum class form { compact_if, partition, partition_unordered };
template <class T>
std::uint64_t by_threshold(form f, device d, const std::string& spec, const std::vector<T>& h, threshold<T> p, std::vector<T>& out) {
  const options opt{d, spec};
  auto call = [&](const auto& in, auto& o) {
    return f == form::compact_if  ? sluice::compact_if(in, o, p, opt)
           : f == form::partition ? sluice::partition(in, o, p, opt)
                                  : sluice::partition_unordered(in, o, p, opt);
  };
#if SLUICE_HAS_CUDA
  if (d == device::cuda) {
    device_buffer<T> in(h), o(h.size());
    const std::uint64_t c = call(in, o);
    out = o.download();
    return c;
  }
#endif
  out.assign(h.size(), T{});
  return call(h, out);
}
template <class T>
void every_comparison(device d, const std::vector<std::string>& specs, std::size_t n, const std::vector<T>& thresholds) {
  const std::vector<T> h = comparison_input<T>(n);
  for (const compare op : all_comparisons)
    for (const T v : thresholds) {
      std::vector<T> kept, rejected;
      for (const T x : h) (native(op, x, v) ? kept : rejected).push_back(x);
      auto sorted_bits = [](const T* a, std::size_t k) {
        std::vector<std::uint64_t> b(k);
        for (std::size_t i = 0; i < k; ++i) b[i] = bits_of(a[i]);
        std::sort(b.begin(), b.end());
        return b;
      };
      for (const std::string& spec : specs)
        for (const form f : {form::compact_if, form::partition, form::partition_unordered}) {
          const std::string what = spec + " form " + std::to_string(static_cast<int>(f)) + " op " + std::to_string(static_cast<int>(op)) +
                                   " threshold " + std::to_string(+v) + " n " + std::to_string(n);
          std::vector<T> out;
          const std::uint64_t c = by_threshold(f, d, spec, h, threshold<T>{op, v}, out);
          ASSERT_EQ(c, kept.size()) << what;
          EXPECT_TRUE(same_bits(out.data(), kept.data(), kept.size())) << what << ": kept run";
          if (f == form::partition) EXPECT_TRUE(same_bits(out.data() + kept.size(), rejected.data(), rejected.size())) << what << ": rejected run";
          if (f == form::partition_unordered)
            EXPECT_TRUE(sorted_bits(out.data() + kept.size(), rejected.size()) == sorted_bits(rejected.data(), rejected.size()))
                << what << ": rejected run";
        }
    }
}
TEST(api, every_comparison_through_the_cpu_compactions) {
  const std::vector<std::string> specs{"best", "serial"};
  every_comparison<float>(device::cpu, specs, 100003, {1.0f, -0.0f, std::numeric_limits<float>::quiet_NaN()});
  every_comparison<std::uint32_t>(device::cpu, specs, 100003, {4u, 0u, ~0u});
  every_comparison<std::int64_t>(device::cpu, specs, 100003, {std::int64_t{4} << 33, 0});
}

TEST(api, custom_operators_and_predicates_on_cpu) {
  struct pair_max {  // associative, not commutative-dependent: keeps the first maximum
    std::array<int, 2> operator()(std::array<int, 2> a, std::array<int, 2> b) const { return b[0] > a[0] ? b : a; }
  };
  std::vector<std::array<int, 2>> v = {{1, 0}, {5, 1}, {3, 2}, {5, 3}};
  EXPECT_EQ(sluice::reduce(v, std::array<int, 2>{-1, -1}, pair_max{}), (std::array<int, 2>{5, 1}));
  std::vector<int> x = {1, 2, 3, 4, 5, 6};
  std::vector<int> even(6);
  EXPECT_EQ(sluice::compact_if(x, even, [](int a) { return a % 2 == 0; }), 3u);
  std::vector<int> split(6);
  EXPECT_EQ(sluice::partition(x, split, [](int a) { return a > 4; }), 2u);
  EXPECT_EQ(split, (std::vector<int>{5, 6, 1, 2, 3, 4}));
  std::vector<int> any(6);  // the kept run in order; the rejected run only as a multiset
  EXPECT_EQ(sluice::partition_unordered(x, any, [](int a) { return a > 4; }), 2u);
  EXPECT_EQ(std::vector<int>(any.begin(), any.begin() + 2), (std::vector<int>{5, 6}));
  std::sort(any.begin() + 2, any.end());
  EXPECT_EQ(any, (std::vector<int>{5, 6, 1, 2, 3, 4}));
}

TEST(api, cpu_plan_parameters_are_checked) {
  std::vector<std::uint32_t> v(4);
  expect_error(errc::invalid_argument, {"'vectorized:simd=avx9'", "simd=avx9 is not one of"},
               [&] { (void)sluice::reduce(v, 0u, sum{}, {device::cpu, "vectorized:simd=avx9"}); });
  expect_error(errc::invalid_argument, {"threads=x"}, [&] { (void)sluice::reduce(v, 0u, sum{}, {device::cpu, "vectorized:threads=x"}); });
  expect_error(errc::invalid_argument, {"unknown parameter 'P'"}, [&] { (void)sluice::compact_if(v, v, less_than(2u), {device::cpu, "billeter:P=4"}); });
}

// An exception thrown by the caller's operator or predicate on one thread reaches the caller; nothing hangs
// and the next call works.
TEST(api, cpu_exceptions_cross_the_threads) {
  std::vector<std::uint32_t> v(std::size_t{1} << 20), out(v.size());
  std::iota(v.begin(), v.end(), 0u);
  auto throws_late = [](std::uint32_t x) {
    if (x == 700000u) throw std::runtime_error("predicate failed");
    return x % 3 == 0;
  };
  for (const char* spec : {"billeter:threads=4", "billeter:threads=1"})
    EXPECT_THROW((void)sluice::compact_if(v, out, throws_late, {device::cpu, spec}), std::runtime_error) << spec;
  EXPECT_THROW((void)sluice::partition(v, out, throws_late, {device::cpu, "split:threads=3"}), std::runtime_error);
  struct throwing_sum {
    std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const {
      if (b == 900000u) throw std::runtime_error("operator failed");
      return a + b;
    }
  };
  EXPECT_THROW(sluice::inclusive_scan(v, out, throwing_sum{}, {device::cpu, "billeter-scan:threads=4"}), std::runtime_error);
  EXPECT_THROW((void)sluice::reduce(v, 0u, throwing_sum{}, {device::cpu, "vectorized:threads=4"}), std::runtime_error);
  EXPECT_EQ(sluice::compact_if(v, out, [](std::uint32_t x) { return x % 3 == 0; }), (v.size() + 2) / 3);
}

// Element-aligned starts that are not vector- or line-aligned, at every SIMD level: the same result as the
// serial variant, and nothing written past the output's end.
template <class T>
void cpu_moves_of_misaligned_ranges() {
  const std::size_t n = 100003;
  std::vector<T> base(n + 16), out_base(n + 16 + 8);
  for (std::size_t i = 0; i < base.size(); ++i) std::memset(&base[i], static_cast<int>(i * 37 + 11), sizeof(T));
  std::vector<std::uint8_t> flags_base(n + 16);
  for (std::size_t i = 0; i < flags_base.size(); ++i) flags_base[i] = (i * 2654435761u >> 7) % 3 == 0;
  for (const char* level : {"avx512", "avx2", "scalar"}) {
    if (std::string(level) == "avx512" && cpu_backend::detected_simd() != cpu_backend::simd_level::avx512) continue;
    for (std::size_t off : {std::size_t{1}, std::size_t{3}, std::size_t{5}, std::size_t{8}}) {
      std::span<const T> in(base.data() + off, n);
      std::span<const std::uint8_t> f(flags_base.data() + (off + 1) % 4, n);
      std::vector<T> want(n);
      const auto k = sluice::compact(in, f, want, {device::cpu, "serial"});
      std::fill(out_base.begin(), out_base.end(), T{});
      std::span<T> out(out_base.data() + (off + 2) % 8, k);
      const std::string spec = std::string("billeter:threads=3,simd=") + level;
      ASSERT_EQ(sluice::compact(in, f, out, {device::cpu, spec}), k) << spec << " offset " << off;
      EXPECT_TRUE(std::equal(out.begin(), out.end(), want.begin())) << spec << " offset " << off;
      for (T* p = out.data() + k; p < out_base.data() + out_base.size(); ++p) EXPECT_TRUE(*p == T{}) << spec << ": written past the end";
      std::vector<T> want_split(n), got_split(n);
      sluice::partition_flagged(in, f, want_split, {device::cpu, "serial"});
      sluice::partition_flagged(in, f, got_split, {device::cpu, std::string("split:threads=2,simd=") + level});
      EXPECT_TRUE(want_split == got_split) << level << " offset " << off;
    }
  }
}
TEST(api, cpu_moves_of_misaligned_ranges_u8) { cpu_moves_of_misaligned_ranges<std::uint8_t>(); }

// partition_unordered's CPU split over many blocks (each block moved right after its count, its rejected run
// placed from the end): flags and predicate, 1 and 3 threads, every SIMD level here, an output off its
// alignment; the split point and kept run as the serial partition's, the rejected run the same multiset, and
// nothing written outside the output.
template <class T>
void cpu_unordered_split(std::size_t n) {
  std::vector<T> in(n);
  std::vector<std::uint8_t> flags(n);
  for (std::size_t i = 0; i < n; ++i) {
    in[i] = static_cast<T>((i * 2654435761u) >> 5);
    flags[i] = (i * 40503u >> 9) % 5 < 2;  // about 40% kept, in runs
  }
  const T limit = static_cast<T>(std::numeric_limits<T>::max() / 10 * 3);
  std::vector<T> want(n), want_if(n);
  const std::uint64_t k = sluice::partition_flagged(in, flags, want, {device::cpu, "serial"});
  const std::uint64_t k_if = sluice::partition(in, want_if, less_than(limit), {device::cpu, "serial"});
  auto sorted_tail = [](std::vector<T> v, std::uint64_t from) {
    std::sort(v.begin() + static_cast<std::ptrdiff_t>(from), v.end());
    return v;
  };
  want = sorted_tail(want, k), want_if = sorted_tail(want_if, k_if);
  std::vector<T> base(n + 8);
  for (const char* level : {"avx512", "avx2", "scalar"}) {
    if (std::string(level) == "avx512" && cpu_backend::detected_simd() != cpu_backend::simd_level::avx512) continue;
    for (int threads : {1, 3}) {
      const std::string spec = "split:threads=" + std::to_string(threads) + ",simd=" + level;
      for (const bool by_flags : {true, false}) {
        std::fill(base.begin(), base.end(), T{7});
        const std::span<T> out(base.data() + 3, n);
        const std::uint64_t got = by_flags ? sluice::partition_unordered_flagged(in, flags, out, {device::cpu, spec})
                                           : sluice::partition_unordered(in, out, less_than(limit), {device::cpu, spec});
        EXPECT_EQ(got, by_flags ? k : k_if) << spec;
        EXPECT_TRUE(sorted_tail(std::vector<T>(out.begin(), out.end()), got) == (by_flags ? want : want_if))
            << spec << (by_flags ? " flags" : " predicate") << " n=" << n;
        for (std::size_t i : {std::size_t{0}, std::size_t{1}, std::size_t{2}, n + 3, n + 4, n + 5, n + 6, n + 7})
          EXPECT_EQ(base[i], T{7}) << spec << ": written outside out at " << i;
      }
    }
  }
}
TEST(api, cpu_unordered_split_over_many_blocks) {
  cpu_unordered_split<std::uint32_t>(1000003);  // 16 blocks of 256 KiB
  cpu_unordered_split<std::uint8_t>(1500001);
  cpu_unordered_split<std::uint64_t>(300007);
}
TEST(api, cpu_moves_of_misaligned_ranges_u16) { cpu_moves_of_misaligned_ranges<std::uint16_t>(); }
TEST(api, cpu_moves_of_misaligned_ranges_u32) { cpu_moves_of_misaligned_ranges<std::uint32_t>(); }
TEST(api, cpu_moves_of_misaligned_ranges_u64) { cpu_moves_of_misaligned_ranges<std::uint64_t>(); }
TEST(api, cpu_moves_of_misaligned_ranges_vec4u) { cpu_moves_of_misaligned_ranges<vec4u>(); }

// Outputs from 16 MiB on are written with non-temporal stores: every level against the serial variants there.
TEST(api, cpu_levels_at_streaming_sizes) {
  const std::size_t n = (std::size_t{1} << 22) + 3;
  std::vector<std::uint32_t> v(n);
  std::vector<std::uint8_t> f(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint32_t>(i * 2654435761u), f[i] = v[i] >> 31;
  std::vector<std::uint32_t> want(n), got(n);
  for (const char* level : {"avx512", "avx2", "scalar"}) {
    if (std::string(level) == "avx512" && cpu_backend::detected_simd() != cpu_backend::simd_level::avx512) continue;
    const std::string p = std::string(":threads=2,simd=") + level;
    auto same = [&](const char* what) { EXPECT_TRUE(want == got) << what << " " << level; };
    EXPECT_EQ(sluice::compact(v, f, got, {device::cpu, "billeter" + p}), sluice::compact(v, f, want, {device::cpu, "serial"}));
    same("compact");
    EXPECT_EQ(sluice::compact_if(v, got, less_than(1u << 30), {device::cpu, "billeter" + p}),
              sluice::compact_if(v, want, less_than(1u << 30), {device::cpu, "serial"}));
    same("compact_if");
    EXPECT_EQ(sluice::partition(v, got, greater_than(3u << 30), {device::cpu, "split" + p}),
              sluice::partition(v, want, greater_than(3u << 30), {device::cpu, "serial"}));
    same("partition");
    sluice::inclusive_scan(v, got, sum{}, {device::cpu, "billeter-scan" + p});
    sluice::inclusive_scan(v, want, sum{}, {device::cpu, "serial"});
    same("inclusive_scan");
    sluice::exclusive_scan(v, got, 7u, maximum{}, {device::cpu, "billeter-scan" + p});
    sluice::exclusive_scan(v, want, 7u, maximum{}, {device::cpu, "serial"});
    same("exclusive_scan");
    EXPECT_EQ(sluice::reduce(v, 0u, sum{}, {device::cpu, "vectorized" + p}), sluice::reduce(v, 0u, sum{}, {device::cpu, "serial"}));
  }
}

TEST(api, cuda_without_a_device_is_no_device) {
  if (device_available(device::cuda)) GTEST_SKIP() << "a CUDA device is present: the no-device path cannot be exercised here";
  std::vector<std::uint32_t> v(4);
  expect_error(errc::no_device, {"sluice::reduce", "cuda"}, [&] { (void)sluice::reduce(v, 0u, sum{}, {device::cuda}); });
  std::vector<std::uint8_t> f(4);
  expect_error(errc::no_device, {"compact"}, [&] { (void)sluice::compact(v, f, v, {device::cuda}); });
  expect_error(errc::no_device, {"device_buffer"}, [] { device_buffer<int> b(10); });
  EXPECT_EQ(sluice::release_scratch(), 0u);  // nothing to give back, and no error
}

TEST(api, list_has_a_default_per_primitive_and_device) {
  for (auto p : {primitive::reduce, primitive::scan, primitive::compact, primitive::compact_unordered, primitive::partition,
                 primitive::partition_unordered, primitive::radix_sort})
    for (auto d : {device::cpu, device::cuda}) {
      const auto& a = find_algorithm(p, d, "best", "test");
      EXPECT_TRUE(runs_on(a, d)) << to_string(p);
    }
  for (auto p : {primitive::reduce, primitive::compact, primitive::compact_unordered})  // the papers' systems on gl
    EXPECT_TRUE(find_algorithm(p, device::gl, "best", "test").on_gl) << to_string(p);
}

#if SLUICE_HAS_CUDA
class gpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!device_available(device::cuda)) GTEST_SKIP() << "no CUDA device: no GPU present on this machine";
  }
};

TEST_F(gpu, host_pointer_is_refused) {
  std::vector<std::uint32_t> host(16);
  expect_error(errc::invalid_argument, {"sluice::reduce:", "'in'", "host memory"}, [&] { (void)sluice::reduce(host, 0u, sum{}, {device::cuda}); });
}

// The pointer check passes device memory on the driver's one answer (the memory type); managed memory takes
// the runtime's full answer and is taken, pinned host memory is host memory and refused, as pageable memory is.
TEST_F(gpu, managed_memory_is_taken_and_pinned_host_memory_refused) {
  const std::size_t n = 1000;
  std::uint32_t* managed = nullptr;
  ASSERT_EQ(cudaMallocManaged(&managed, (n + 1) * sizeof(std::uint32_t)), cudaSuccess);
  for (std::size_t i = 0; i < n; ++i) managed[i] = static_cast<std::uint32_t>(i);
  const std::span<const std::uint32_t> in(managed, n);
  EXPECT_EQ(sluice::reduce(in, 0u, sum{}, {device::cuda}), n * (n - 1) / 2);
  sluice::reduce_async(in, managed + n, 0u, sum{}, {device::cuda});  // the result into managed memory too
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(managed[n], n * (n - 1) / 2);
  EXPECT_EQ(cudaFree(managed), cudaSuccess);

  std::uint32_t* pinned = nullptr;
  ASSERT_EQ(cudaMallocHost(&pinned, 16 * sizeof(std::uint32_t)), cudaSuccess);
  device_buffer<std::uint32_t> on_device(std::vector<std::uint32_t>(16, 1));
  expect_error(errc::invalid_argument, {"sluice::reduce:", "'in'", "host memory"},
               [&] { (void)sluice::reduce(std::span<const std::uint32_t>(pinned, 16), 0u, sum{}, {device::cuda}); });
  expect_error(errc::invalid_argument, {"sluice::reduce_async:", "'result'", "host memory"},
               [&] { sluice::reduce_async(on_device, pinned, 0u, sum{}, {device::cuda}); });
  EXPECT_EQ(cudaFreeHost(pinned), cudaSuccess);
}

TEST_F(gpu, bad_parameters_name_the_algorithm_and_the_choices) {
  device_buffer<std::uint32_t> v(std::vector<std::uint32_t>(100, 1));
  device_buffer<std::uint8_t> f(std::vector<std::uint8_t>(100, 1));
  device_buffer<std::uint32_t> out(100);
  auto call = [&](const char* spec) { return [&, spec] { (void)sluice::compact(v, f, out, {device::cuda, spec}); }; };
  expect_error(errc::invalid_argument, {"sluice::compact", "'roger:s=3'", "power of two in [2, 1024]"}, call("roger:s=3"));
  expect_error(errc::invalid_argument, {"'roger:s=2048'", "[2, 1024]"}, call("roger:s=2048"));
  expect_error(errc::invalid_argument, {"unknown parameter 'q'", "valid: s, scan"}, call("roger:q=1"));
  expect_error(errc::invalid_argument, {"'s' is not key=value"}, call("roger:s"));
  expect_error(errc::invalid_argument, {"scan=kogge", "blelloch, hillis-steele"}, call("roger:scan=kogge"));
  expect_error(errc::invalid_argument, {"'decoupled-lookback:phased=maybe'", "auto, on, off"}, call("decoupled-lookback:phased=maybe"));
  EXPECT_EQ(sluice::compact(v, f, out, {device::cuda, "decoupled-lookback:phased=on"}), 100u);
  expect_error(errc::invalid_argument, {"blocks=0", "[1, 1048576]"}, call("decoupled-lookback:blocks=0"));
  EXPECT_EQ(sluice::compact(v, f, out, {device::cuda, "decoupled-lookback:pipelined=on,blocks=1"}), 100u);
  expect_error(errc::invalid_argument, {"cluster=on", "auto, off"}, call("decoupled-lookback:cluster=on"));
  EXPECT_EQ(sluice::compact(v, f, out, {device::cuda, "decoupled-lookback:cluster=off"}), 100u);
  expect_error(errc::invalid_argument, {"unknown parameter 'dynamic'", "valid: phased, resident, pipelined, reversed, blocks"},
               [&] { (void)sluice::partition_flagged(v, f, out, {device::cuda, "decoupled-lookback:dynamic=on"}); });
  expect_error(errc::invalid_argument, {"unknown parameter 't'", "valid: P, simd"}, call("billeter-staged:t=5"));
  expect_error(errc::invalid_argument, {"P=0"}, call("billeter:P=0"));
  expect_error(errc::invalid_argument, {"takes no parameters"}, call("horn:s=1"));
  EXPECT_EQ(sluice::compact(v, f, out, {device::cuda, "roger:s=128,scan=hillis-steele"}), 100u);
}

TEST_F(gpu, kit_scan_block_sizes_are_checked) {
  device_buffer<std::uint64_t> v(std::vector<std::uint64_t>(5000, 1));
  device_buffer<std::uint64_t> out(5000);
  auto call = [&](const char* spec) { return [&, spec] { sluice::inclusive_scan(v, out, sum{}, {device::cuda, spec}); }; };
  expect_error(errc::invalid_argument, {"sluice::", "threads=48", "power of two in [32, 1024]"}, call("kogge-stone:threads=48"));
  expect_error(errc::invalid_argument, {"threads=2048"}, call("brent-kung:threads=2048"));
  expect_error(errc::invalid_argument, {"unknown parameter 'items'", "valid: threads"}, call("streaming:items=2"));
  // 1024 x 64 eight-byte elements do not fit in any GPU's shared memory: a clear error, not a failed launch.
  expect_error(errc::invalid_argument, {"shared memory per block"}, call("three-phase-coarsened:threads=1024,items=64"));
  sluice::inclusive_scan(v, out, sum{}, {device::cuda, "three-phase-coarsened:threads=1024,items=5"});  // 56 KiB: opts in
  EXPECT_EQ(out.download().back(), 5000u);
}

// Starts that are not 16-byte aligned (in and out offset alike, or differently) take the element-wise path of
// the vectorised scans; every CUDA scan must give the serial answer there, in place or not.
// Under compute-sanitizer (SLUICE_TEST_SANITIZE=1, which scripts/device_check.sh sanitize-tests sets), the
// large tests below run smaller inputs and name the paths they exist for (pipelined=on, resident=off), so that
// racecheck and initcheck, which slow kernels by orders of magnitude, finish over the same code.
bool sanitizing() { return test_switch("SLUICE_TEST_SANITIZE"); }

// What `record` enqueues on stream s, captured in a CUDA graph: launch() replays it on s and waits for it.
class captured {
 public:
  template <class Record>
  captured(cudaStream_t s, Record record) : s_(s) {
    EXPECT_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    record();
    EXPECT_EQ(cudaStreamEndCapture(s, &graph_), cudaSuccess);
    EXPECT_EQ(cudaGraphInstantiate(&exec_, graph_, 0), cudaSuccess);
  }
  ~captured() {
    cudaGraphExecDestroy(exec_);
    cudaGraphDestroy(graph_);
  }
  captured(const captured&) = delete;
  captured& operator=(const captured&) = delete;
  bool launch() const { return cudaGraphLaunch(exec_, s_) == cudaSuccess && cudaStreamSynchronize(s_) == cudaSuccess; }

 private:
  cudaStream_t s_;
  cudaGraph_t graph_{};
  cudaGraphExec_t exec_{};
};
// The pipelined path by name; sanitizing, on a grid of 7 blocks, so that at the smaller sizes each block still
// takes several rounds through its shared-memory buffers, as every block does at 2^24.
const char* pipelined_spec() { return sanitizing() ? "decoupled-lookback:pipelined=on,blocks=7" : "decoupled-lookback:pipelined=on"; }

// The six comparisons on the GPU: the single pass, the pipelines (4-byte elements: six kernels, one per comparison,
// their held tiles in rotating register banks; 8-byte ones: the compact's six kernels too, partition's pass one with
// the comparison chosen at run time, the tiles aged) and best.
TEST_F(gpu, every_comparison_through_the_gpu_compactions) {
  const std::size_t n = (std::size_t{1} << (sanitizing() ? 15 : 20)) + 77;
  const std::vector<std::string> specs{"best", pipelined_spec(), "decoupled-lookback:pipelined=off"};
  every_comparison<float>(device::cuda, specs, n, {1.0f, -0.0f, std::numeric_limits<float>::quiet_NaN()});
  every_comparison<std::uint32_t>(device::cuda, specs, n, {4u, 0u, ~0u});
  every_comparison<std::uint64_t>(device::cuda, specs, n, {std::uint64_t{4} << 33, ~std::uint64_t{0}});
  every_comparison<std::int64_t>(device::cuda, specs, n, {std::int64_t{4} << 33, -1});
  every_comparison<double>(device::cuda, specs, n, {-0.0, std::numeric_limits<double>::quiet_NaN()});
}

TEST_F(gpu, scans_of_misaligned_ranges) {
  const std::size_t n = 3 * 4096 + 77;
  std::vector<std::uint32_t> host(n + 8);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<std::uint32_t>(i * 2654435761u >> 7);
  device_buffer<std::uint32_t> in(host), out(n + 8);
  for (const auto& a : algorithms()) {
    if (a.prim != primitive::scan || !a.on_cuda) continue;
    for (std::size_t off_in : {0, 1, 3})
      for (std::size_t off_out : {0, 1, 2}) {
        std::span<const std::uint32_t> src(in.data() + off_in, n);
        std::span<std::uint32_t> dst(out.data() + off_out, n);
        std::vector<std::uint32_t> want(n);
        std::uint32_t run = 7;  // exclusive, init 7
        for (std::size_t i = 0; i < n; ++i) want[i] = run, run += host[off_in + i];
        sluice::exclusive_scan(src, dst, 7u, sum{}, {device::cuda, a.name});
        const auto got = out.download();
        EXPECT_TRUE(std::equal(want.begin(), want.end(), got.begin() + off_out)) << a.name << " in+" << off_in << " out+" << off_out;
      }
    // In place at an odd offset.
    device_buffer<std::uint32_t> io(host);
    std::span<std::uint32_t> x(io.data() + 1, n);
    sluice::inclusive_scan(x, x, sum{}, {device::cuda, a.name});
    const auto got = io.download();
    std::uint32_t run = 0;
    bool same = got[0] == host[0];
    for (std::size_t i = 0; i < n; ++i) run += host[1 + i], same = same && got[1 + i] == run;
    EXPECT_TRUE(same) << a.name << " in place at +1";
  }
}

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

// From 2^24 four-byte elements the default scan takes its pipelined path (bulk copies, a cooperative
// persistent grid): every element checked, inclusive, exclusive and in place, called directly and replayed
// from a CUDA graph.
TEST_F(gpu, large_scans_take_the_pipelined_path_and_capture_in_a_cuda_graph) {
  // A partial last tile whose bytes end off a 16-byte unit; sanitizing, 2^18 + 4097 with the pipeline named.
  const std::size_t n = (std::size_t{1} << (sanitizing() ? 18 : 24)) + 4097;
  std::vector<std::uint32_t> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 7);
  std::vector<std::uint32_t> incl(n), excl(n);
  std::uint32_t acc = 0;
  for (std::size_t i = 0; i < n; ++i) excl[i] = acc + 5u, acc += h[i], incl[i] = acc;
  device_buffer<std::uint32_t> in(h), out(n), inplace(h), graphed(n);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  const options opt{device::cuda, sanitizing() ? pipelined_spec() : "best", s};
  sluice::inclusive_scan(in, out, sum{}, opt);
  EXPECT_TRUE(out.download() == incl);
  sluice::exclusive_scan(in, out, 5u, sum{}, opt);
  EXPECT_TRUE(out.download() == excl);
  sluice::inclusive_scan(inplace, inplace, sum{}, opt);
  EXPECT_TRUE(inplace.download() == incl);
  cudaGraph_t g;
  ASSERT_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
  sluice::exclusive_scan(in, graphed, 5u, sum{}, opt);
  ASSERT_EQ(cudaStreamEndCapture(s, &g), cudaSuccess);
  cudaGraphExec_t exec;
  ASSERT_EQ(cudaGraphInstantiate(&exec, g, 0), cudaSuccess);
  for (int i = 0; i < 2; ++i) ASSERT_EQ(cudaGraphLaunch(exec, s), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  EXPECT_TRUE(graphed.download() == excl);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
}

// The pipelined path's wide look-back combines the tiles' aggregates in one fixed order, so an f32 sum scan
// there repeats bit for bit (the single pass below 2^24 does not: docs/api.md); within the documented
// tolerance of a double reference.
TEST_F(gpu, large_float_scans_repeat_bit_for_bit) {
  const std::size_t n = (std::size_t{1} << (sanitizing() ? 18 : 24)) + 4097;
  std::vector<float> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<float>((i * 2654435761u) >> 16 & 0xffff) / 65536.0f - 0.49f;
  device_buffer<float> in(h), a(n), b(n);
  const options opt{device::cuda, sanitizing() ? pipelined_spec() : "best", nullptr};
  sluice::inclusive_scan(in, a, sum{}, opt);
  sluice::inclusive_scan(in, b, sum{}, opt);
  const auto x = a.download(), y = b.download();
  ASSERT_EQ(std::memcmp(x.data(), y.data(), n * sizeof(float)), 0) << "two runs differ";
  double exact = 0, magnitude = 0;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    exact += h[i], magnitude += std::fabs(h[i]);
    bad += std::fabs(x[i] - exact) > 1e-3 * magnitude;
  }
  EXPECT_EQ(bad, 0u);
}

// Three inclusive and three exclusive scans of the same floats with `spec`: each form's runs bitwise equal, and
// within the sum tolerance of a long double reference (docs/api.md).
template <class T>
void scans_repeat(std::size_t n, const char* spec) {
  SCOPED_TRACE(std::string(spec) + " n=" + std::to_string(n) + (sizeof(T) == 4 ? " f32" : " f64"));
  std::vector<T> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<T>((i * 2654435761u) >> 16 & 0xffff) / T(65536) - T(0.49);
  device_buffer<T> in(h), out(n);
  const options opt{device::cuda, spec, nullptr};
  const double tolerance = sizeof(T) == 4 ? 1e-3 : 1e-11;
  for (const bool inclusive : {true, false}) {
    std::vector<T> first;
    for (int run = 0; run < 3; ++run) {
      if (inclusive) sluice::inclusive_scan(in, out, sum{}, opt);
      else sluice::exclusive_scan(in, out, T(0.25), sum{}, opt);
      const std::vector<T> got = out.download();
      if (run == 0) {
        first = got;
        long double exact = inclusive ? 0 : 0.25L, magnitude = 0.25L;
        std::size_t bad = 0;
        for (std::size_t i = 0; i < n; ++i) {
          if (inclusive) exact += h[i];
          magnitude += std::fabs(static_cast<long double>(h[i]));
          bad += std::fabs(static_cast<long double>(got[i]) - exact) > tolerance * magnitude;
          if (!inclusive) exact += h[i];
        }
        EXPECT_EQ(bad, 0u) << (inclusive ? "inclusive" : "exclusive");
      } else {
        EXPECT_EQ(std::memcmp(got.data(), first.data(), n * sizeof(T)), 0) << (inclusive ? "inclusive" : "exclusive") << " run " << run;
      }
    }
  }
}

// Below the pipeline, the default scan of elements that are not integers looks back anchored (lookback.cuh: every
// 128th tile publishes a prefix, the others their aggregates, combined in an order the tile numbers fix), and
// 2 to 16 tiles run as one thread block cluster (cluster_prefix.cuh, in rank order): float and double scans repeat
// bit for bit at every size. Sizes in tiles (8192 floats, 4096 doubles): 3 (one cluster; with cluster=off the
// anchored single pass), 17 (past the cluster: every tile anchored at tile 0), 129 and 300 (past one and two
// anchors).
TEST_F(gpu, float_scans_below_the_pipeline_repeat_bit_for_bit) {
  for (const std::size_t tiles : {3, 17, 129, 300}) {
    if (sanitizing() && tiles > 129) continue;
    for (const char* spec : {"best", "decoupled-lookback:cluster=off"}) {
      if (tiles > 16 && spec[0] != 'b') continue;  // the same path
      scans_repeat<float>(tiles * 8192 + tiles % 7, spec);
      scans_repeat<double>(tiles * 4096 + tiles % 5, spec);
    }
  }
}

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

// Issue 9's huge inputs: more than 2^32 one-byte elements (compact, compact_if, partition) and more than 2^31
// four-byte ones (scan, reduce, the pipelined compact, compact_if and partition, radix sort), every element
// checked against the host: no 32-bit index may overflow. Needs about 20 GB of device memory and a few
// minutes of host checking, so it runs when asked: SLUICE_TEST_HUGE=1 (scripts/device_check.sh huge).
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

// device_buffer(n) is zeroed, and the zeroes are there for a kernel on a non-blocking stream at once.
TEST_F(gpu, device_buffer_starts_zeroed) {
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  for (int round = 0; round < 3; ++round) {
    device_buffer<std::uint32_t> dirty(std::vector<std::uint32_t>(1 << 20, 0xdeadbeefu));  // leave garbage to reuse
  }
  device_buffer<std::uint32_t> b(1 << 20), sum(1);
  EXPECT_TRUE(b.download() == std::vector<std::uint32_t>(1 << 20, 0u));
  sluice::reduce_async(b, sum.data(), 0u, sluice::sum{}, {device::cuda, "best", s});
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  EXPECT_EQ(sum.download()[0], 0u);
  cudaStreamDestroy(s);
}

TEST_F(gpu, out_of_memory_then_recovers) {
  expect_error(errc::out_of_memory, {"device_buffer"}, [] { device_buffer<std::uint8_t> huge(std::size_t{1} << 50); });
  device_buffer<std::uint32_t> ok(std::vector<std::uint32_t>{1, 2, 3});
  EXPECT_EQ(sluice::reduce(ok, 0u, sum{}, {device::cuda}), 6u);
}

// The scratch pool keeps a large sort's buffers between calls, up to an eighth of the device's memory, so the
// next sort takes nothing anew; release_scratch() gives them back; and a device_buffer that needs them gets
// them without the caller asking (the pool is trimmed and the allocation tried once more).
TEST_F(gpu, scratch_is_kept_then_given_back_when_asked_or_needed) {
  const std::size_t n = std::size_t{1} << 27;  // the sort's scratch: 2 x 512 MiB of keys and values
  std::vector<std::uint32_t> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 3);
  device_buffer<std::uint32_t> keys(h), values(h);
  (void)sluice::release_scratch();
  auto free_now = [] {
    std::size_t free = 0, total = 0;
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(cudaMemGetInfo(&free, &total), cudaSuccess);
    return free;
  };
  const std::size_t slack = std::size_t{64} << 20, scratch = std::size_t{1} << 30;
  const std::size_t free_before = free_now();
  sluice::radix_sort(keys, values, order::ascending, {}, {device::cuda});
  const std::size_t free_after_sort = free_now();
  EXPECT_GE(free_before, free_after_sort + scratch) << "the sort's buffers were not kept";
  sluice::radix_sort(keys, values, order::descending, {}, {device::cuda});
  EXPECT_GE(free_after_sort + slack, free_now()) << "the second sort took its buffers anew";
  EXPECT_GE(sluice::release_scratch(), scratch);
  EXPECT_LE(free_before, free_now() + slack) << "bytes the pool still holds after release_scratch()";
  EXPECT_EQ(sluice::release_scratch(), 0u);
  auto sorted = keys.download();
  EXPECT_TRUE(std::is_sorted(sorted.rbegin(), sorted.rend()));
  // Kept again; then a buffer larger than what is free past the kept scratch: trimmed and taken.
  sluice::radix_sort(keys, values, order::ascending, {}, {device::cuda});
  const std::size_t free_kept = free_now();
  ASSERT_GE(free_before, free_kept + scratch);
  {
    device_buffer<std::uint8_t> most(free_kept + scratch / 2);
    EXPECT_EQ(most.size(), free_kept + scratch / 2);
  }
  sorted = keys.download();
  EXPECT_TRUE(std::is_sorted(sorted.begin(), sorted.end()));
}

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
// (through_host_slot, watch::where_permitted; docs/performance.md, "Stop 53"): from one tile, across tile
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

// A process's first sluice calls may come inside a stream capture (global mode, which forbids making a memory
// pool then): a reduction, a scan and a compaction captured and replayed, each result right. Meaningful when
// it runs first in its process: scripts/device_check.sh runs it alone before the suite.
TEST_F(gpu, first_calls_of_a_process_may_come_inside_a_capture) {
  const std::size_t n = 300001;
  std::vector<std::uint32_t> h(n);
  std::vector<std::uint8_t> hf(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 9), hf[i] = static_cast<std::uint8_t>(i % 3 == 0);
  device_buffer<std::uint32_t> in(h), scanned(n), kept(n), total(1);
  device_buffer<std::uint8_t> flags(hf);
  device_buffer<std::uint64_t> count(1);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  const options o{device::cuda, "best", s};
  cudaGraph_t g;
  ASSERT_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
  try {
    sluice::reduce_async(in, total.data(), 0u, sum{}, o);
    sluice::inclusive_scan(in, scanned, sum{}, o);
    sluice::compact_async(in, flags, kept, count.data(), o);
  } catch (...) {
    (void)cudaStreamEndCapture(s, &g);
    cudaStreamDestroy(s);
    throw;
  }
  ASSERT_EQ(cudaStreamEndCapture(s, &g), cudaSuccess);
  cudaGraphExec_t ge;
  ASSERT_EQ(cudaGraphInstantiate(&ge, g, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(ge, s), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  std::vector<std::uint32_t> want(n), want_kept;
  std::inclusive_scan(h.begin(), h.end(), want.begin());
  for (std::size_t i = 0; i < n; ++i)
    if (hf[i]) want_kept.push_back(h[i]);
  EXPECT_EQ(total.download()[0], want.back());
  EXPECT_TRUE(scanned.download() == want);
  ASSERT_EQ(count.download()[0], want_kept.size());
  std::vector<std::uint32_t> got = kept.download();
  got.resize(want_kept.size());
  EXPECT_TRUE(got == want_kept);
  cudaGraphExecDestroy(ge);
  cudaGraphDestroy(g);
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

// The async forms never sync the host, so a whole compaction can be captured in a CUDA graph and replayed.
TEST_F(gpu, async_forms_capture_in_a_cuda_graph) {
  const std::size_t n = 100000;
  std::vector<std::uint32_t> h(n);
  std::iota(h.begin(), h.end(), 0u);
  device_buffer<std::uint32_t> in(h), out(n), sums(n);
  device_buffer<std::uint64_t> count(4);
  device_buffer<std::uint32_t> total(1), kept(n), unordered(n), split(n);
  std::vector<std::uint32_t> hk(n);
  for (std::size_t i = 0; i < n; ++i) hk[i] = static_cast<std::uint32_t>((i * 2654435761u) % 1000003u);
  device_buffer<std::uint32_t> sort_keys(hk), sort_values(h);
  std::vector<std::uint8_t> hf(n);
  for (std::size_t i = 0; i < n; ++i) hf[i] = i % 3 == 0;
  device_buffer<std::uint8_t> flags(hf);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  const options opt{device::cuda, "best", s};
  (void)sluice::compact_if(in, out, less_than(777u), opt);  // first call outside capture: warms the scratch pool
  cudaGraph_t g;
  ASSERT_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
  sluice::compact_if_async(in, out, less_than(1000u), count.data(), opt);
  sluice::inclusive_scan(in, sums, sum{}, opt);
  sluice::reduce_async(in, total.data(), 0u, sum{}, opt);
  sluice::compact_async(in, flags, kept, count.data() + 1, opt);
  sluice::compact_unordered_async(in, flags, unordered, count.data() + 2, opt);
  sluice::partition_flagged_async(in, flags, split, count.data() + 3, opt);
  sluice::radix_sort(sort_keys, sort_values, order::ascending, {}, {device::cuda, "onesweep", s});
  ASSERT_EQ(cudaStreamEndCapture(s, &g), cudaSuccess);
  cudaGraphExec_t exec;
  ASSERT_EQ(cudaGraphInstantiate(&exec, g, 0), cudaSuccess);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(cudaGraphLaunch(exec, s), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  const auto counts = count.download();
  EXPECT_EQ(counts[0], 1000u);
  const std::uint64_t thirds = (n + 2) / 3;
  EXPECT_EQ(counts[1], thirds);
  EXPECT_EQ(counts[2], thirds);
  EXPECT_EQ(counts[3], thirds);
  const auto k = kept.download(), sp = split.download();
  auto u = unordered.download();
  std::sort(u.begin(), u.begin() + thirds);
  for (std::uint32_t i = 0; i < thirds; ++i) ASSERT_TRUE(k[i] == 3 * i && u[i] == 3 * i && sp[i] == 3 * i) << i;
  for (std::uint32_t i = 0, r = 0; i < n; ++i)
    if (i % 3) ASSERT_EQ(sp[thirds + r++], i) << i;
  const auto o = out.download();
  for (std::uint32_t i = 0; i < 1000; ++i) ASSERT_EQ(o[i], i);
  EXPECT_EQ(sums.download()[n - 1], static_cast<std::uint32_t>(std::uint64_t{n} * (n - 1) / 2));
  EXPECT_EQ(total.download()[0], static_cast<std::uint32_t>(std::uint64_t{n} * (n - 1) / 2));
  std::vector<std::uint32_t> order_of(n);
  std::iota(order_of.begin(), order_of.end(), 0u);
  std::stable_sort(order_of.begin(), order_of.end(), [&](std::uint32_t a, std::uint32_t b) { return hk[a] < hk[b]; });
  const auto sk = sort_keys.download(), sv = sort_values.download();
  for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(sk[i] == hk[order_of[i]] && sv[i] == order_of[i]) << i;
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
}

// The default sort past one launch's portion (2^28 keys): keys and pairs agree with CUB's, bit for bit.
// Sanitizing, three portions of 30720 keys (5 pair tiles, 3 key-only tiles of u32) and a partial fourth
// (onesweep:portion=N): the same hand-over of digit bases from launch to launch at a size compute-sanitizer
// gets through.
TEST_F(gpu, radix_sort_past_one_portion_matches_cub) {
  const std::size_t n = sanitizing() ? 3 * 30720 + 4097 : (std::size_t{1} << 28) + 4097;
  const char* spec = sanitizing() ? "onesweep:portion=30720" : "onesweep";
  std::vector<std::uint32_t> hk(n), hv(n);
  std::uint64_t x = 88172645463325252ull;
  for (std::size_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    hk[i] = static_cast<std::uint32_t>(x) & 0xfff0ffffu;  // bits 16-19 zero: one digit pass sees few digits
    hv[i] = static_cast<std::uint32_t>(i);
  }
  device_buffer<std::uint32_t> k1(hk), v1(hv), k2(hk), v2(hv);
  sluice::radix_sort(k1, v1, order::ascending, {}, {device::cuda, spec});
  sluice::radix_sort(k2, v2, order::ascending, {}, {device::cuda, "cub"});
  EXPECT_TRUE(k1.download() == k2.download());
  EXPECT_TRUE(v1.download() == v2.download());
  device_buffer<std::uint32_t> k3(hk), k4(hk);
  sluice::radix_sort(k3, order::descending, {4, 28}, {device::cuda, spec});
  sluice::radix_sort(k4, order::descending, {4, 28}, {device::cuda, "cub"});
  EXPECT_TRUE(k3.download() == k4.download());
}

TEST_F(gpu, odd_element_layouts_move_on_the_gpu) {
  struct rgb { std::uint8_t r, g, b, a; };  // 4 bytes, aligned to 1: refused with a clear error
  struct pair32 { float a, b; };             // 8 bytes, aligned to 4: runs on storage<8, 4>
  std::vector<pair32> h = {{1, 2}, {3, 4}, {5, 6}};
  device_buffer<pair32> in(h), out(3);
  device_buffer<std::uint8_t> f(std::vector<std::uint8_t>{1, 0, 7});
  EXPECT_EQ(sluice::compact(in, f, out, {device::cuda}), 2u);
  EXPECT_EQ(out.download()[1].b, 6.0f);
  device_buffer<rgb> c(3), co(3);
  expect_error(errc::unsupported, {"4 bytes aligned to 1"}, [&] { (void)sluice::compact(c, f, co, {device::cuda}); });
}
#endif

// The gl device (the papers' OpenGL systems): host memory in and out, the same contract as the other devices.
class gl : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!device_available(device::gl)) GTEST_SKIP() << "no gl device: " << gl_backend::unavailable_reason();
  }
};

TEST_F(gl, primitives_without_a_gl_system_say_so) {
  std::vector<std::uint32_t> v(8), o(8);
  std::vector<std::uint8_t> f(8, 1);
  expect_error(errc::unsupported, {"sluice::inclusive_scan", "gl device has no scan"}, [&] { sluice::inclusive_scan(v, o, sum{}, {device::gl}); });
  expect_error(errc::unsupported, {"gl device has no partition"}, [&] { (void)sluice::partition_flagged(v, f, o, {device::gl}); });
  expect_error(errc::unsupported, {"gl device has no radix_sort"}, [&] { sluice::radix_sort(v, order::ascending, {}, {device::gl}); });
  expect_error(errc::invalid_argument, {"unknown algorithm 'cub'", "roger", "horn"}, [&] { (void)sluice::compact(v, f, o, {device::gl, "cub"}); });
  expect_error(errc::invalid_argument, {"roger:q=1", "unknown parameter 'q'"}, [&] { (void)sluice::compact(v, f, o, {device::gl, "roger:q=1"}); });
  expect_error(errc::invalid_argument, {"s=3", "power of two"}, [&] { (void)sluice::compact(v, f, o, {device::gl, "roger:s=3"}); });
}

TEST_F(gl, what_the_shaders_cannot_evaluate_is_refused) {
  std::vector<std::uint32_t> v = {1, 2, 3, 4}, o(4);
  expect_error(errc::unsupported, {"gl device has no shaders for this predicate"},
               [&] { (void)sluice::compact_if(v, o, [](std::uint32_t x) { return x > 2; }, {device::gl}); });
  struct three { std::uint8_t a, b, c; };
  std::vector<three> t(4), to(4);
  std::vector<std::uint8_t> f(4, 1);
  expect_error(errc::unsupported, {"elements of 3 bytes"}, [&] { (void)sluice::compact(t, f, to, {device::gl}); });
  struct mul_by { std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const { return a * b + 1; } };
  expect_error(errc::unsupported, {"element type and operator"}, [&] { (void)sluice::reduce(v, 0u, mul_by{}, {device::gl}); });
}

TEST_F(gl, in_place_and_small_outputs) {
  std::vector<std::uint32_t> v(10000);
  std::vector<std::uint8_t> f(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::uint32_t>(i), f[i] = i % 3 == 0;
  for (const char* algo : {"roger", "horn", "geometry-shader"}) {
    auto w = v;
    const auto k = sluice::compact(w, f, w, {device::gl, algo});  // in place: the stream is in textures first
    ASSERT_EQ(k, 3334u) << algo;
    for (std::size_t i = 0; i < k; ++i) ASSERT_EQ(w[i], 3 * i) << algo;
    std::vector<std::uint32_t> small(10, 7);
    std::uint64_t count = 0;
    sluice::compact_async(v, f, std::span(small).first(5), &count, {device::gl, algo});
    EXPECT_EQ(count, 3334u) << algo;
    EXPECT_EQ(small[4], 12u) << algo;
    EXPECT_EQ(small[5], 7u) << algo << ": wrote past the output";
  }
}

TEST_F(gl, reduce_matches_its_cuda_namesake_order) {
  // Goeddeke's 2x2 tree: op(val1, op(val2, op(val3, val4))) per group; with an exact op any order agrees,
  // and the float sum of a 2x2 grid is the one the tree gives.
  std::vector<float> v = {1e8f, 1.0f, -1e8f, 1.0f};  // grid [[1e8, 1], [-1e8, 1]]: 1e8 + (1 + (1 + -1e8))
  const float got = sluice::reduce(v, 0.0f, sum{}, {device::gl});
  const float want = 0.0f + (1e8f + (1.0f + (1.0f + -1e8f)));
  EXPECT_EQ(got, want);
  std::vector<std::int64_t> w = {-5, 7, -9000000000ll, 3};
  EXPECT_EQ(sluice::reduce(w, std::int64_t{0}, minimum{}, {device::gl}), -9000000000ll);
  EXPECT_EQ(sluice::reduce(w, std::int64_t{0}, sum{}, {device::gl}), -8999999995ll);
}

TEST(api, gl_without_a_context_is_no_device) {
  if (device_available(device::gl)) GTEST_SKIP() << "a gl device is present: the no-device path cannot be exercised here";
  std::vector<std::uint32_t> v(4);
  expect_error(errc::no_device, {"sluice::reduce", "gl device is not available"}, [&] { (void)sluice::reduce(v, 0u, sum{}, {device::gl}); });
}

}  // namespace
