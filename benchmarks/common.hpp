// What the benchmarks share: their command line's numbers, the input data, and the line each prints where a
// device it needs is missing. Timing itself is `sluice bench`'s (tools/sluice/timer.hpp).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "sluice/config.hpp"
#include "sluice/options.hpp"

namespace sluice::benchmarks {

// Exit status of a benchmark whose device is absent: as `sluice bench`, 2, with the reason on stderr (ctest
// counts it as skipped).
inline constexpr int no_device_status = 2;

// "2^K" or a decimal count; anything else is a std::invalid_argument naming the option.
inline std::uint64_t parse_count(std::string_view option, std::string_view text) {
  const auto bad = [&] { return std::invalid_argument(std::string(option) + ": expected N or 2^K, got '" + std::string(text) + "'"); };
  std::uint64_t v = 0;
  const bool power = text.starts_with("2^");
  const std::string_view digits = power ? text.substr(2) : text;
  if (digits.empty() || digits.size() > 19) throw bad();
  for (const char c : digits) {
    if (c < '0' || c > '9') throw bad();
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (!power) return v;
  if (v > 40) throw bad();  // 2^40 elements is past any device this runs on
  return std::uint64_t{1} << v;
}

// A decimal in [lo, hi]; anything else is a std::invalid_argument naming the option.
inline double parse_real(std::string_view option, const char* text, double lo, double hi) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(v >= lo && v <= hi))
    throw std::invalid_argument(std::string(option) + ": expected a number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                                ", got '" + text + "'");
  return v;
}

// The i-th of a fixed stream of pseudo-random 64-bit words (splitmix64): the same input in every run.
inline std::uint64_t mix(std::uint64_t i) {
  std::uint64_t z = i * 0x9e3779b97f4a7c15ull + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// True when `d` can run work here; otherwise says why on stderr (the caller then returns no_device_status).
inline bool present_or_say(const char* benchmark, device d) {
  if (device_available(d)) return true;
  const char* why = d != device::cuda ? "it cannot be opened"
                    : config::has_cuda ? "no GPU is present"
                                       : "this build has no CUDA backend: nvcc was not found, or SLUICE_ENABLE_CUDA=OFF";
  std::fprintf(stderr, "%s: no %s device here (%s): nothing to time\n", benchmark, std::string(to_string(d)).c_str(), why);
  return false;
}

}  // namespace sluice::benchmarks
