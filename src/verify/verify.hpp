// The verification matrix: every registered algorithm against the serial reference over the generators.
// Shared by the GoogleTest suite and `sluice verify`.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "sluice/algorithms.hpp"

namespace sluice::verify {

struct settings {
  device dev = device::cpu;
  bool quick = false;  // sizes up to 2^16 instead of 2^22
  std::function<void(const std::string&)> on_failure;  // called once per failed case
  std::uint64_t max_size = ~std::uint64_t{0};  // skip larger sizes (e.g. under compute-sanitizer)
  // Run about one case in `sample`, chosen by a hash of the case's name (so the same ones each run, spread
  // over types, sizes and patterns alike): for racecheck, which slows the papers' kernels a thousandfold.
  std::uint64_t sample = 1;
};

struct tally {
  std::uint64_t passed = 0;
  std::uint64_t failed = 0;
  tally& operator+=(const tally& o) {
    passed += o.passed;
    failed += o.failed;
    return *this;
  }
};

// Run every case of one registry entry on one device; `spec` adds its parameters ("roger:s=128").
tally run(const algorithm_info& algo, const settings& s, std::string_view spec = {});

// Stated floating-point tolerances against a long double reference: relative to the sum of magnitudes for
// sums, to the result for products, where a product of k factors may also be off by k unit roundoffs.
// min and max are exact.
inline constexpr double f32_tolerance = 1e-3;
inline constexpr double f64_tolerance = 1e-11;
template <class T>
inline constexpr double unit_roundoff = std::is_same_v<T, float> ? 0x1p-24 : 0x1p-53;

}  // namespace sluice::verify
