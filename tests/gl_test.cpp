// The gl device (the papers' OpenGL systems): host memory in and out, the same contract as the other devices.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

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
