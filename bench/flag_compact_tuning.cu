// Flagged compaction at 2^28 u32 (10/50/90% kept): the stable phased path (decoupled-lookback: tile counts and
// keep bits, scan of the counts, move) and compact_unordered's tile-atomic, beside a device-to-device copy of
// the same bytes, in one binary. Every output element and count is checked against the serial reference.
// Build against any tree of sluice (stop 31's A/B built it against that tree and against stop 27's and 30's):
//   nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild/include bench/flag_compact_tuning.cu \
//        src/runtime.cpp src/gl/unavailable.cpp -o flag_compact_tuning
// Run: flag_compact_tuning [log2=K]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "event_median.cuh"
#include "sluice/cuda/compact/decoupled_lookback.cuh"
#include "sluice/detail/storage.hpp"

namespace sl = sluice::cuda_backend::select_lookback;
using T = sluice::detail::storage<4, 4>;
using Sel = sluice::detail::flag_select;

int main(int argc, char** argv) {
  unsigned log2 = 28;
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]).substr(0, 5) == "log2=") log2 = static_cast<unsigned>(std::atoi(argv[i] + 5));
  const std::uint64_t n = std::uint64_t{1} << log2;
  std::vector<std::uint32_t> h(n);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::uint64_t state = 7;
  auto rng = [&] {  // splitmix64
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  for (auto& x : h) x = static_cast<std::uint32_t>(rng());
  T *in, *out;
  std::uint8_t *copy_from, *copy_to;  // the yardstick's buffers: half the must-move bytes, at most 4.5 n
  std::uint8_t* flags;
  std::uint64_t* count;
  cudaMalloc(&in, n * 4), cudaMalloc(&out, n * 4), cudaMalloc(&flags, n), cudaMalloc(&count, 8);
  cudaMalloc(&copy_from, n * 5), cudaMalloc(&copy_to, n * 5);
  cudaMemset(copy_from, 1, n * 5);
  cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice);
  std::printf("flagged compaction, u32, n = 2^%u\n", log2);
  for (const double ratio : {0.1, 0.5, 0.9}) {
    std::vector<std::uint8_t> f(n);
    std::vector<std::uint32_t> want;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t r = rng();
      f[i] = (r % 1000) < ratio * 1000 ? static_cast<std::uint8_t>(1 + (r >> 32) % 255) : 0;
      if (f[i]) want.push_back(h[i]);
    }
    cudaMemcpy(flags, f.data(), n, cudaMemcpyHostToDevice);
    // Must move: n elements and n flags read, the kept written; the copy reads half of that and writes it.
    const double bytes = static_cast<double>(n) * 5 + static_cast<double>(want.size()) * 4;
    const float copy_ms = event_median_ms(3, 20, [] {}, [&] { cudaMemcpyAsync(copy_to, copy_from, static_cast<std::size_t>(bytes / 2), cudaMemcpyDeviceToDevice); });
    std::printf("  %.0f%% kept: copy of the same bytes %.4f ms (%.0f GB/s)\n", ratio * 100, copy_ms, bytes / copy_ms / 1e6);
    auto row = [&](const char* what, auto call, bool stable) {
      cudaMemset(out, 0, n * 4);
      call();
      std::uint64_t got = 0;
      cudaMemcpy(&got, count, 8, cudaMemcpyDeviceToHost);
      std::vector<std::uint32_t> o(want.size());
      cudaMemcpy(o.data(), out, want.size() * 4, cudaMemcpyDeviceToHost);
      bool ok = got == want.size() && cudaGetLastError() == cudaSuccess;
      if (ok && stable) ok = o == want;
      if (ok && !stable) {  // the same multiset, by two order-free sums (sorting 2^28 elements takes too long)
        auto sums = [](const std::vector<std::uint32_t>& v) {
          std::uint64_t a = 0, b = 0;
          for (const std::uint32_t x : v) a += x, b += (x * 0x9e3779b97f4a7c15ull) ^ (x >> 7);
          return std::pair{a, b};
        };
        ok = sums(o) == sums(want);
      }
      const float ms = event_median_ms(3, 20, [] {}, call);
      std::printf("    %-34s %.4f ms  %6.0f GB/s  %.3f of copy  %s\n", what, ms, bytes / ms / 1e6, copy_ms / ms, ok ? "ok" : "WRONG");
    };
    const std::span<const T> is(in, n);
    const std::span<T> os(out, n);
    row("decoupled-lookback (best)", [&] { sl::compact<T, Sel>(is, os, Sel{flags}, count, nullptr, "tuning", "decoupled-lookback"); }, true);
    row("decoupled-lookback:phased=off", [&] { sl::compact<T, Sel>(is, os, Sel{flags}, count, nullptr, "tuning", "decoupled-lookback:phased=off"); }, true);
    row("tile-atomic (unordered)", [&] { sl::compact_unordered<T, Sel>(is, os, Sel{flags}, count, nullptr, "tuning"); }, false);
  }
  cudaFree(in), cudaFree(out), cudaFree(copy_from), cudaFree(copy_to), cudaFree(flags), cudaFree(count);
}
