// The built-in comparisons (types.hpp, threshold): exact on their own and through every compaction and
// partition, on the CPU and, with CUDA, on the GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

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

#if SLUICE_HAS_CUDA
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
#endif

}  // namespace
