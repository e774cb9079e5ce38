// Tuning study of decoupled-lookback's pipelined scan path (not part of the build): stages of bulk copies
// per block, resident blocks per SM, round layouts (rescan or keep, lag 1 or 2), against the single pass,
// cub::DeviceScan and a device copy, for u32 (and u64 with the argument u64) from 2^20 to 2^28; every
// configuration's output is checked against a host scan first.
// Build: nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild/include bench/pipelined_scan_tuning.cu src/runtime.cpp src/gl/unavailable.cpp -o pipelined_scan_tuning
#include <cub/device/device_scan.cuh>

#include <cstdio>
#include <numeric>
#include <random>
#include <string_view>
#include <vector>

#include "event_median.cuh"
#include "sluice/cuda/scan/decoupled_lookback.cuh"

using namespace sluice::cuda_backend;
using lookback_tuning = sluice::cuda_backend::lookback::tuning;

using decoupled_lookback::schedule;
// A configuration: V vectors per thread, S buffers, B blocks per SM; by default the round layout of stop 21
// (rescan, lag 1), the default until stop 23.
template <class T, unsigned V, unsigned S, unsigned B, unsigned long long MinTiles = 1, schedule O = schedule::rescan, unsigned L = 1>
struct cfg : decoupled_lookback::pipeline<T, V, S, B, O, L> {
  static constexpr u64 min_tiles = MinTiles;
};
template <class T>
using single = cfg<T, 8, 4, 1, ~0ull>;

template <class T, schedule O, unsigned V = 4, unsigned S = 6, unsigned L = 1>
using sched = cfg<T, V, S, 2, 1, O, L>;

template <unsigned K>  // look-back window per lane
struct window : lookback_tuning {
  static constexpr unsigned per_lane = K;
};

template <class F>
float median_ms(F f) {
  return event_median_ms(3, 15, [] {}, f);
}

int failures = 0;
bool quick = false;  // argument "quick": the checks at the small sizes only (for compute-sanitizer)

template <class T>
void study(const char* type) {
  const u64 top = (u64{1} << 30) / sizeof(T);  // 1 GiB of input: 2^28 u32, 2^27 u64
  std::vector<T> h(top);
  std::mt19937_64 g(7);
  for (auto& v : h) v = static_cast<T>(g() & 0xffff);
  T *in, *out;
  cudaMalloc(&in, top * sizeof(T)), cudaMalloc(&out, top * sizeof(T));
  cudaMemcpy(in, h.data(), top * sizeof(T), cudaMemcpyHostToDevice);
  std::vector<T> ref(top), got(top);

  // Correctness first: inclusive and exclusive, odd sizes (the trailing elements the bulk copy leaves).
  auto check = [&](const char* what, u64 n, bool inclusive, auto launch) {
    cudaMemset(out, 0xab, n * sizeof(T));
    launch(n, inclusive);
    cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost);
    T acc = inclusive ? T{} : T{5};
    u64 bad = 0;
    for (u64 i = 0; i < n; ++i) {
      if (inclusive) acc = static_cast<T>(acc + h[i]);
      if (got[i] != acc && bad++ < 3) std::printf("  MISMATCH %s n=%llu at %llu\n", what, (unsigned long long)n, (unsigned long long)i);
      if (!inclusive) acc = static_cast<T>(acc + h[i]);
    }
    if (bad) ++failures;
    std::printf("check %-4s %-28s n=%-10llu %s %s\n", type, what, (unsigned long long)n, inclusive ? "incl" : "excl", bad ? "FAILED" : "ok");
  };
  auto sum = sluice::sum{};
#define RUN(...) RUNK(lookback_tuning, __VA_ARGS__)
#define RUNK(TUNE, ...) [&](u64 n, bool inclusive) { decoupled_lookback::run<T, sluice::sum, TUNE, __VA_ARGS__>(in, out, n, inclusive, T{5}, sum, 0, "t"); }
  for (u64 n : {u64{5000}, u64{4096} * 264 + 17, u64{8192} * 300 + 3, u64{8192} * 1000 + 8191, top - 1}) {
    if (quick && n > u64{8192} * 1000 + 8191) break;
    for (bool inc : {true, false}) check("pipelined 8v 6s 1b", n, inc, RUN(cfg<T, 8, 6, 1>));
    check("pipelined 4v 6s 2b", n, true, RUN(cfg<T, 4, 6, 2>));
    check("pipelined 4v 6s 2b K=8", n, false, RUNK(window<8>, cfg<T, 4, 6, 2>));
    for (bool inc : {true, false}) {
      check("keep", n, inc, RUN(sched<T, schedule::keep>));
      check("keep lag 2", n, inc, RUN(sched<T, schedule::keep, 4, 6, 2>));
      check("keep lag 2 7s", n, inc, RUN(sched<T, schedule::keep, 4, 7, 2>));
      check("keep lag 2 6v 5s 1b", n, inc, RUN(cfg<T, 6, 5, 1, 1, schedule::keep, 2>));
      check("keep lag 2 5v 5s 2b", n, inc, RUN(cfg<T, 5, 5, 2, 1, schedule::keep, 2>));
      check("keep lag 2 3v 6s 2b", n, inc, RUN(cfg<T, 3, 6, 2, 1, schedule::keep, 2>));
      check("keep lag 1 6v 4s 2b", n, inc, RUN(cfg<T, 6, 4, 2, 1, schedule::keep, 1>));
      check("keep lag 2 8v 5s 1b", n, inc, RUN(cfg<T, 8, 5, 1, 1, schedule::keep, 2>));
      check("keep lag 2 4v 5s 2b", n, inc, RUN(cfg<T, 4, 5, 2, 1, schedule::keep, 2>));
      check("keep lag 2 5v 6s 1b", n, inc, RUN(cfg<T, 5, 6, 1, 1, schedule::keep, 2>));
      check("keep lag 1 5v 4s 2b", n, inc, RUN(cfg<T, 5, 4, 2, 1, schedule::keep, 1>));
    }
  }
  if (quick) return (void)(cudaFree(in), cudaFree(out));
  check("pipelined 4v 4s 3b", top, true, RUN(cfg<T, 4, 4, 3>));
  check("pipelined 8v 4s 1b", top - 5, false, RUN(cfg<T, 8, 4, 1>));

  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, static_cast<int>(top));
  cudaMalloc(&temp, temp_bytes);
  for (u64 n = u64{1} << 20; n <= top; n *= 4) {
    const float copy = median_ms([&] { cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice); });
    const double rate = 2.0 * n * sizeof(T) / copy;
    auto report = [&](const char* what, float ms) {
      std::printf("%s n=%-10llu %-26s %.4f ms  %.3f of copy\n", type, (unsigned long long)n, what, ms, 2.0 * n * sizeof(T) / ms / rate);
    };
    report("copy", copy);
    report("cub", median_ms([&] { cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, static_cast<int>(n)); }));
#define T_(NAME, ...) report(NAME, median_ms([&] { RUN(__VA_ARGS__)(n, true); }));
    T_("single pass", single<T>)
#define TK_(NAME, K, ...) report(NAME, median_ms([&] { RUNK(window<K>, __VA_ARGS__)(n, true); }));
    T_("pipelined 4v 6s 2b", cfg<T, 4, 6, 2>)
    T_("keep 4v 6s", sched<T, schedule::keep>)
    T_("keep 4v 7s", sched<T, schedule::keep, 4, 7>)
    T_("keep 4v 5s", sched<T, schedule::keep, 4, 5>)
    T_("keep lag 2 4v 6s", sched<T, schedule::keep, 4, 6, 2>)
    T_("keep lag 2 4v 7s", sched<T, schedule::keep, 4, 7, 2>)
    T_("keep lag 2 4v 8s 1b", cfg<T, 4, 8, 1, 1, schedule::keep, 2>)
    T_("keep 8v 6s 1b", cfg<T, 8, 6, 1, 1, schedule::keep>)
    TK_("keep 4v 6s K=2", 2, sched<T, schedule::keep>)
    T_("default", decoupled_lookback::scan_pipeline<T>)
    // stop 27: larger tiles (the compact's pipeline gained from 6 vectors per thread)
    T_("keep lag 2 6v 5s 1b", cfg<T, 6, 5, 1, 1, schedule::keep, 2>)
    T_("keep lag 2 5v 5s 2b", cfg<T, 5, 5, 2, 1, schedule::keep, 2>)
    T_("keep lag 2 3v 6s 2b", cfg<T, 3, 6, 2, 1, schedule::keep, 2>)
    T_("keep lag 1 6v 4s 2b", cfg<T, 6, 4, 2, 1, schedule::keep, 1>)
    T_("keep lag 2 8v 5s 1b", cfg<T, 8, 5, 1, 1, schedule::keep, 2>)
    T_("keep lag 2 4v 5s 2b", cfg<T, 4, 5, 2, 1, schedule::keep, 2>)
    T_("keep lag 2 5v 6s 1b", cfg<T, 5, 6, 1, 1, schedule::keep, 2>)
    T_("keep lag 1 5v 4s 2b", cfg<T, 5, 4, 2, 1, schedule::keep, 1>)
    T_("keep lag 2 5v 5s 2b again", cfg<T, 5, 5, 2, 1, schedule::keep, 2>)
  }
  cudaFree(temp), cudaFree(in), cudaFree(out);
}

int main(int argc, char** argv) {
  quick = argc > 1 && std::string_view(argv[1]) == "quick";
  study<unsigned>("u32");
  if (argc > 1 && std::string_view(argv[argc - 1]) == "u64") study<unsigned long long>("u64");
  std::printf("failures: %d; last error: %s\n", failures, cudaGetErrorString(cudaGetLastError()));
  return failures ? 1 : 0;
}
