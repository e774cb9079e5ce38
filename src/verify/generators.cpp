#include "verify/generators.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace sluice::verify {

std::vector<std::uint64_t> dense_sizes(int max_log2) {
  std::vector<std::uint64_t> s = {0, 1, 2, 3, 31, 32, 33};
  for (int k = 6; k <= max_log2; ++k) {
    const std::uint64_t p = std::uint64_t{1} << k;
    s.insert(s.end(), {p - 1, p, p + 1});
  }
  // Tile (2048) and chunk multiples that are not powers of two.
  s.insert(s.end(), {3 * 2048 - 1, 3 * 2048, 3 * 2048 + 1, 1000003});
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  s.erase(std::remove_if(s.begin(), s.end(), [&](std::uint64_t n) { return n > (std::uint64_t{1} << max_log2) + 1; }), s.end());
  return s;
}

std::vector<std::uint64_t> sparse_sizes(int max_log2) {
  // 1300007 spans several tiles per chunk on a 132-SM GPU (chunks of one 2048-element tile end near 1.08M).
  std::vector<std::uint64_t> s = {0, 1, 2, 31, 33, 255, 1023, 2047, 2048, 2049, 6143, 65537, 300007, 1300007};
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  s.erase(std::remove_if(s.begin(), s.end(), [&](std::uint64_t n) { return n > (std::uint64_t{1} << max_log2) + 1; }), s.end());
  return s;
}

std::string to_string(pattern p) {
  switch (p) {
    case pattern::random: return "random";
    case pattern::none: return "none";
    case pattern::all: return "all";
    case pattern::single_middle: return "single-middle";
    case pattern::alternating: return "alternating";
    case pattern::long_runs: return "long-runs";
    case pattern::middle_of_blocks: return "middle-of-blocks";
  }
  return "?";
}

std::string flag_case::name() const {
  if (pat != pattern::random) return to_string(pat);
  return "random" + std::to_string(static_cast<int>(std::lround(ratio * 100))) + "%";
}

std::vector<flag_case> flag_cases() {
  return {{pattern::random, 0.5}, {pattern::random, 0.1}, {pattern::random, 0.9}, {pattern::none, 0},
          {pattern::all, 1},      {pattern::single_middle, 0}, {pattern::alternating, 0.5}, {pattern::long_runs, 0.5},
          {pattern::middle_of_blocks, 1.0 / 256}};
}

std::vector<std::uint8_t> make_flags(std::uint64_t n, const flag_case& c, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> f(n, 0);
  auto mark = [&] { return static_cast<std::uint8_t>(1 + rng() % 255); };
  switch (c.pat) {
    case pattern::random: {
      // ratio x 2^64 as the cut; a ratio of 1 keeps everything (2^64 itself does not fit in 64 bits).
      const bool every = c.ratio >= 1.0;
      const auto threshold = every ? 0 : static_cast<std::uint64_t>(std::ldexp(c.ratio > 0 ? c.ratio : 0.0, 64));
      for (auto& x : f) x = (every || rng() < threshold) ? mark() : 0;
      break;
    }
    case pattern::none: break;
    case pattern::all: for (auto& x : f) x = mark(); break;
    case pattern::single_middle: if (n) f[n / 2] = mark(); break;
    case pattern::alternating: for (std::uint64_t i = 1; i < n; i += 2) f[i] = mark(); break;
    case pattern::middle_of_blocks: for (std::uint64_t i = 128; i < n; i += 256) f[i] = mark(); break;
    case pattern::long_runs: {
      bool on = rng() & 1;
      for (std::uint64_t i = 0; i < n;) {
        const std::uint64_t run = 1 + rng() % 5000;
        for (std::uint64_t j = 0; j < run && i < n; ++j, ++i) f[i] = on ? mark() : 0;
        on = !on;
      }
      break;
    }
  }
  return f;
}

template <class T>
std::vector<T> make_values(std::uint64_t n, std::uint64_t seed, value_kind kind) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<double> sum(-1.0, 1.0), prod(0.999, 1.001), wide(-1e6, 1e6);
    for (auto& x : v) x = static_cast<T>(kind == value_kind::product ? prod(rng) : kind == value_kind::sum ? sum(rng) : wide(rng));
  } else {
    for (auto& x : v) {
      std::uint64_t r[2] = {rng(), rng()};
      std::memcpy(&x, r, sizeof(T));
    }
  }
  return v;
}

std::string to_string(key_pattern p) {
  switch (p) {
    case key_pattern::random: return "random";
    case key_pattern::sorted: return "sorted";
    case key_pattern::reverse: return "reverse";
    case key_pattern::all_equal: return "all-equal";
    case key_pattern::few_distinct: return "few-distinct";
    case key_pattern::specials: return "specials";
  }
  return "?";
}

template <class K>
std::vector<K> make_keys(std::uint64_t n, key_pattern p, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<K> k(n);
  auto random_key = [&] {
    if constexpr (std::is_floating_point_v<K>) {
      return static_cast<K>(std::uniform_real_distribution<double>(-1e9, 1e9)(rng));
    } else {
      K x;
      std::uint64_t r = rng();
      std::memcpy(&x, &r, sizeof x);
      return x;
    }
  };
  switch (p) {
    case key_pattern::random:
    case key_pattern::sorted:
    case key_pattern::reverse:
      for (auto& x : k) x = random_key();
      if (p == key_pattern::sorted) std::sort(k.begin(), k.end());
      if (p == key_pattern::reverse) std::sort(k.begin(), k.end(), [](K a, K b) { return b < a; });
      break;
    case key_pattern::all_equal: std::fill(k.begin(), k.end(), random_key()); break;
    case key_pattern::few_distinct: {
      const K d[4] = {random_key(), random_key(), random_key(), random_key()};
      for (auto& x : k) x = d[rng() % 4];
      break;
    }
    case key_pattern::specials: {
      std::vector<K> s = {K(0), std::numeric_limits<K>::max(), std::numeric_limits<K>::lowest(), K(1)};
      if constexpr (std::is_floating_point_v<K>) {
        s.insert(s.end(), {K(-0.0), std::numeric_limits<K>::infinity(), -std::numeric_limits<K>::infinity(),
                           std::numeric_limits<K>::quiet_NaN(), -std::numeric_limits<K>::quiet_NaN(),
                           std::numeric_limits<K>::denorm_min(), -std::numeric_limits<K>::denorm_min()});
      } else if constexpr (std::is_signed_v<K>) {
        s.push_back(K(-1));
      }
      for (auto& x : k) x = rng() % 3 == 0 ? random_key() : s[rng() % s.size()];
      break;
    }
  }
  return k;
}

#define SLUICE_GEN(T) \
  template std::vector<T> make_values<T>(std::uint64_t, std::uint64_t, value_kind);
SLUICE_GEN(std::uint8_t) SLUICE_GEN(std::int32_t) SLUICE_GEN(std::uint32_t) SLUICE_GEN(std::int64_t)
SLUICE_GEN(std::uint64_t) SLUICE_GEN(float) SLUICE_GEN(double) SLUICE_GEN(sluice::vec4u)
#define SLUICE_KEYS(K) template std::vector<K> make_keys<K>(std::uint64_t, key_pattern, std::uint64_t);
SLUICE_KEYS(std::uint32_t) SLUICE_KEYS(std::int32_t) SLUICE_KEYS(float) SLUICE_KEYS(std::uint64_t) SLUICE_KEYS(std::int64_t)
SLUICE_KEYS(double)

}  // namespace sluice::verify
