// The inputs of sluice::dist's tests on MPI ranks (dist_test.cpp) and on NCCL ranks (cuda_dist_nccl_test.cpp):
// n values from a seed, integers below 1000, or for floats eighths of integers in [-125, 125], so that float
// sums stay exact while they are below 2^24.
#pragma once
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

namespace sluice_test {

template <class T>
std::vector<T> values(std::uint64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>) x = static_cast<T>(static_cast<std::int64_t>(g() % 2001) - 1000) / T(8);
    else x = static_cast<T>(g() % 1000);
  }
  return v;
}

}  // namespace sluice_test
