// The CPU radix sorts against a stable sort of the key image (detail/radix_key.hpp) restricted to the bit range:
// keys bit for bit, values that record each key's input position (stability exact), on the inputs that reach
// msd-lsd's paths: the insertion sorts, the one-thread in-cache sort, the MSD pass with its recount when the
// sample missed the highest difference, buckets split again in and out of the cache, skipped digits; on 1, 2,
// 4 x cores and 64 threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "sluice/detail/radix_key.hpp"
#include "test_support.hpp"

namespace {

using namespace sluice;

template <class K>
std::vector<std::uint32_t> stable_order(const std::vector<K>& keys, bool descending, int begin, int end) {
  using rk = detail::radix_key<K>;
  std::vector<std::pair<typename rk::bits_t, std::uint32_t>> image(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) image[i] = {rk::window(rk::to_bits(keys[i], descending), begin, end), static_cast<std::uint32_t>(i)};
  std::stable_sort(image.begin(), image.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::uint32_t> perm(keys.size());
  for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = image[i].second;
  return perm;
}

// Sorts keys alone and keys with their positions as values by `spec`; both must equal the stable order.
template <class K>
void expect_sorted(const std::vector<K>& keys, const std::string& spec, order ord = order::ascending, bit_range bits = {}) {
  const int end = bits.end < 0 ? static_cast<int>(sizeof(K)) * 8 : bits.end;
  const auto perm = stable_order(keys, ord == order::descending, bits.begin, end);
  std::vector<K> k = keys;
  std::vector<std::uint32_t> v(keys.size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::uint32_t>(i);
  const options o{device::cpu, spec};
  radix_sort(k, v, ord, bits, o);
  std::vector<K> alone = keys;
  radix_sort(alone, ord, bits, o);
  const std::string what = spec + " n=" + std::to_string(keys.size()) + " bits [" + std::to_string(bits.begin) + "," + std::to_string(end) +
                           ")" + (ord == order::descending ? " descending" : "");
  for (std::size_t i = 0; i < keys.size(); ++i) {
    ASSERT_EQ(v[i], perm[i]) << what << ": value at " << i << " (unstable or lost)";
    ASSERT_EQ(std::memcmp(&k[i], &keys[perm[i]], sizeof(K)), 0) << what << ": pair key at " << i;
    ASSERT_EQ(std::memcmp(&alone[i], &keys[perm[i]], sizeof(K)), 0) << what << ": key at " << i;
  }
}

std::vector<std::string> thread_specs() {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return {"msd-lsd:threads=1", "msd-lsd:threads=2", "msd-lsd:threads=" + std::to_string(4 * cores), "msd-lsd:threads=64"};
}

std::vector<std::uint32_t> random_u32(std::size_t n, std::uint64_t seed, std::uint32_t mask = ~0u, std::uint32_t set = 0) {
  std::mt19937_64 g(seed);
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) x = (static_cast<std::uint32_t>(g()) & mask) | set;
  return v;
}

// Around the insertion sorts (32 keys), the one-thread sort (256 KiB of keys and values), the one-thread MSD
// pass (2^16 keys) and two pages of parts (2^14 keys a thread).
TEST(cpu_sort, sizes_at_the_edges) {
  for (std::size_t n : {0, 1, 2, 31, 32, 33, 1000, 32767, 32768, 32769, 65535, 65536, 65537, 131072 + 5})
    for (const auto& spec : {std::string("msd-lsd:threads=1"), std::string("msd-lsd:threads=2")}) {
      expect_sorted(random_u32(n, n), spec);
      expect_sorted(random_u32(n, n + 1, 0xffu), spec);  // many equal keys: stability
    }
}

TEST(cpu_sort, thread_counts) {
  const auto keys = random_u32((std::size_t{1} << 18) + 3, 7);
  const auto few = random_u32((std::size_t{1} << 18) + 3, 8, 0x3000000fu);  // 64 distinct keys, top and bottom
  for (const auto& spec : thread_specs()) {
    expect_sorted(keys, spec);
    expect_sorted(few, spec, order::descending);
  }
}

// Keys equal in the top digit, or differing only there, or only in the bottom one; all equal; the sample's
// guess of the highest difference low (one key far above the rest, where the sample does not look).
TEST(cpu_sort, shared_and_single_digits) {
  const std::size_t n = std::size_t{1} << 18;
  for (const auto& spec : {std::string("msd-lsd:threads=2"), std::string("msd-lsd:threads=3")}) {
    expect_sorted(random_u32(n, 1, 0x00ffffffu), spec);              // top byte shared
    expect_sorted(random_u32(n, 2, 0xff000000u, 0x00abcdefu), spec);  // only the top byte differs
    expect_sorted(random_u32(n, 3, 0xffu, 0x12345600u), spec);        // only the bottom byte differs
    expect_sorted(std::vector<std::uint32_t>(n, 42u), spec);
    auto outlier = random_u32(n, 4, 0xfffu);
    outlier[5] = 0xffffffffu;
    expect_sorted(outlier, spec);
  }
}

// Nine keys in ten equal (one bucket past the cache: MSD splits of its own, down to all-equal parts), the rest
// random; and keys in ten clusters.
TEST(cpu_sort, skewed_buckets) {
  const std::size_t n = 400000;
  auto skew = random_u32(n, 5);
  for (std::size_t i = 0; i < n; ++i)
    if (i % 10) skew[i] = 0x80000000u | static_cast<std::uint32_t>(i % 3);
  auto clusters = random_u32(n, 6, 0xfffu);
  for (std::size_t i = 0; i < n; ++i) clusters[i] |= static_cast<std::uint32_t>(i % 10) << 28;
  for (const auto& spec : {std::string("msd-lsd:threads=1"), std::string("msd-lsd:threads=4")}) {
    expect_sorted(skew, spec);
    expect_sorted(skew, spec, order::descending);
    expect_sorted(clusters, spec);
  }
  std::vector<std::uint64_t> wide(n);
  std::mt19937_64 g(9);
  for (std::size_t i = 0; i < n; ++i) wide[i] = i % 4 ? 7u : g();
  expect_sorted(wide, "msd-lsd:threads=2");
}

TEST(cpu_sort, bit_ranges) {
  const auto keys = random_u32(70000, 11);
  for (bit_range b : {bit_range{3, 27}, bit_range{0, 8}, bit_range{24, 32}, bit_range{5, 5}, bit_range{31, 32}, bit_range{0, 11}})
    for (const auto& spec : {std::string("msd-lsd:threads=1"), std::string("msd-lsd:threads=2")}) {
      expect_sorted(keys, spec, order::ascending, b);
      expect_sorted(keys, spec, order::descending, b);
    }
  std::vector<std::int64_t> wide(70000);
  std::mt19937_64 g(12);
  for (auto& x : wide) x = static_cast<std::int64_t>(g());
  for (bit_range b : {bit_range{17, 50}, bit_range{0, 64}, bit_range{40, 64}, bit_range{0, 1}})
    expect_sorted(wide, "msd-lsd:threads=2", order::descending, b);
}

// Signed and floating-point keys: negatives first, -0.0 before +0.0, NaNs by their sign bit at both ends (as
// the key image orders them); descending reverses that order and keeps equal keys in input order.
TEST(cpu_sort, signed_and_float_keys) {
  const std::size_t n = 70000;
  std::mt19937_64 g(13);
  std::vector<std::int32_t> i32(n);
  std::vector<std::int64_t> i64(n);
  std::vector<float> f32(n);
  std::vector<double> f64(n);
  const float specials[] = {-0.0f, 0.0f, std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::max()};
  for (std::size_t i = 0; i < n; ++i) {
    i32[i] = static_cast<std::int32_t>(g() % 2001) - 1000;
    i64[i] = static_cast<std::int64_t>(g());
    f32[i] = i % 7 == 0 ? specials[g() % 8] : std::uniform_real_distribution<float>(-1e6f, 1e6f)(g);
    f64[i] = i % 5 == 0 ? static_cast<double>(specials[g() % 8]) : std::uniform_real_distribution<double>(-1e300, 1e300)(g);
  }
  for (const auto& spec : {std::string("msd-lsd:threads=1"), std::string("msd-lsd:threads=2")})
    for (auto ord : {order::ascending, order::descending}) {
      expect_sorted(i32, spec, ord);
      expect_sorted(i64, spec, ord);
      expect_sorted(f32, spec, ord);
      expect_sorted(f64, spec, ord);
    }
  // The smallest inputs go through the insertion sort and the one-thread path with the same image.
  expect_sorted(std::vector<float>{0.0f, -0.0f, specials[2], specials[3], 1.0f, -1.0f, specials[4], specials[5]}, "msd-lsd");
}

// Values of other sizes travel with their keys, stably (16-byte values through the write-combined lines).
TEST(cpu_sort, wide_and_narrow_values) {
  struct v16 {
    std::uint32_t w[4];
  };
  const std::size_t n = (std::size_t{1} << 17) + 9;
  const auto keys = random_u32(n, 14, 0xfff0fu);
  const auto perm = stable_order(keys, false, 0, 32);
  std::vector<std::uint32_t> k = keys, k8 = keys;
  std::vector<v16> v(n);
  std::vector<std::uint8_t> v8(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = {{static_cast<std::uint32_t>(i), 1, 2, static_cast<std::uint32_t>(~i)}}, v8[i] = static_cast<std::uint8_t>(i);
  radix_sort(k, v, order::ascending, {}, {device::cpu, "msd-lsd:threads=2"});
  radix_sort(k8, v8, order::ascending, {}, {device::cpu, "msd-lsd:threads=2"});
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(v[i].w[0], perm[i]) << i;
    ASSERT_EQ(v[i].w[3], ~perm[i]) << i;
    ASSERT_EQ(v8[i], static_cast<std::uint8_t>(perm[i])) << i;
    ASSERT_EQ(k[i], keys[perm[i]]) << i;
    ASSERT_EQ(k8[i], keys[perm[i]]) << i;
  }
}

// The default is msd-lsd, and the older variants stay by name.
TEST(cpu_sort, named_variants) {
  EXPECT_EQ(find_algorithm(primitive::radix_sort, device::cpu, "best", "radix_sort").name, "msd-lsd");
  const auto keys = random_u32(70001, 15, 0xffff0u);
  for (const char* spec : {"lsd-serial", "lsd-parallel:threads=2", "msd-lsd"}) expect_sorted(keys, spec, order::descending, {4, 20});
}

}  // namespace
