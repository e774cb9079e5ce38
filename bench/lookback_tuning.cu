// Tuning study of the look-back (not part of the build): window per lane and back-off between polls, for
// the single-pass compact and scan at 2^28 u32, beside tile-atomic (no look-back) and a device copy.
// Build: nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild/include bench/lookback_tuning.cu src/runtime.cpp src/gl/unavailable.cpp -o lookback_tuning
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "event_median.cuh"

#define SLUICE_LOOKBACK_TRACE 1
#include "sluice/cuda/compact/decoupled_lookback.cuh"
#include "sluice/cuda/scan/decoupled_lookback.cuh"
#include "sluice/cuda/reduce/cub.cuh"
#include "sluice/cuda/reduce/vectorized.cuh"

using namespace sluice::cuda_backend;

template <unsigned K, unsigned S, unsigned B = 1>
struct tune {
  static constexpr unsigned per_lane = K;
  static constexpr unsigned sleep_ns = S;
  static constexpr unsigned min_blocks = B;
};
constexpr select_lookback::compact_settings single{select_lookback::phasing::off, sluice::detail::setting::off};

template <class F>
float median_ms(F f) {
  return event_median_ms(3, 15, [] {}, f);
}

int main() {
  const std::uint64_t n = std::uint64_t{1} << 28;
  std::vector<unsigned> h(n);
  std::vector<std::uint8_t> hf(n);
  std::mt19937 g(1);
  for (std::uint64_t i = 0; i < n; ++i) h[i] = g(), hf[i] = (g() & 1);
  unsigned *in, *out;
  std::uint8_t* f;
  std::uint64_t* count;
  cudaMalloc(&in, n * 4), cudaMalloc(&out, n * 4), cudaMalloc(&f, n), cudaMalloc(&count, 8);
  cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice), cudaMemcpy(f, hf.data(), n, cudaMemcpyHostToDevice);
  const std::uint64_t tiles = n / select_lookback::policy<unsigned>::tile;
  unsigned long long* tr;  // every compact run writes its stamps here; the last one is read back
  cudaMalloc(&tr, tiles * 32);
  cudaMemcpyToSymbol(select_lookback::trace, &tr, sizeof tr);
  const float copy = median_ms([&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice); });
  const double copy_rate = 8.0 * n / copy;
  std::printf("copy %.4f ms\n", copy);
  std::span<const unsigned> si(in, n);
  std::span<unsigned> so(out, n);
  sluice::detail::flag_select sel{f};
  auto report = [&](const char* what, double bytes, float ms) { std::printf("%-34s %.4f ms  %.3f of copy\n", what, ms, bytes / ms / copy_rate); };
  const double cbytes = 4.0 * n + n + 2.0 * n;
  report("compact phased (default)", cbytes, median_ms([&] { select_lookback::run<select_lookback::mode::compact>(si, so, sel, count, 0, "t"); }));
  report("partition phased (default)", 4.0 * n + n + 4.0 * n, median_ms([&] { select_lookback::run<select_lookback::mode::partition>(si, so, sel, count, 0, "t"); }));
  report("partition single pass", 4.0 * n + n + 4.0 * n, median_ms([&] { select_lookback::run<select_lookback::mode::partition, unsigned, sluice::detail::flag_select, tune<1, 0, 4>>(si, so, sel, count, 0, "t", single); }));
  report("compact tile-atomic", cbytes, median_ms([&] { select_lookback::run<select_lookback::mode::unordered>(si, so, sel, count, 0, "t"); }));
#define C(K, S, B) report("compact K=" #K " sleep=" #S " min_blocks=" #B, cbytes, median_ms([&] { select_lookback::run<select_lookback::mode::compact, unsigned, sluice::detail::flag_select, tune<K, S, B>>(si, so, sel, count, 0, "t", single); }));
#define SC(K, S, B) report("scan K=" #K " sleep=" #S " min_blocks=" #B, 8.0 * n, median_ms([&] { decoupled_lookback::run<unsigned, sluice::sum, tune<K, S, B>>(in, out, n, true, 0u, sluice::sum{}, 0, "t"); }));
  C(1, 0, 1) C(1, 0, 4) C(2, 0, 4)
  SC(1, 0, 4)
  // Reduce: vectorized's loads in flight and blocks per SM, beside CUB, at three sizes (no host round trip).
  unsigned* result;
  cudaMalloc(&result, 4);
  for (std::uint64_t m : {std::uint64_t{1} << 10, std::uint64_t{1} << 16, std::uint64_t{1} << 20, n}) {
    std::printf("reduce n=%llu\n", (unsigned long long)m);
    const double rb = 4.0 * m;
    report("  cub", rb, median_ms([&] { cub_peer::reduce(std::span<const unsigned>(in, m), result, 0u, sluice::sum{}, 0, "t"); }));
#define R(V, B) report("  vectorized vectors=" #V " blocks/SM=" #B, rb, median_ms([&] { vectorized::run<unsigned, sluice::sum, vectorized::policy<unsigned, V, B>>(in, m, result, 0u, sluice::sum{}, 0, "t"); }));
    R(8, 8) R(8, 4) R(16, 4) R(16, 8) R(4, 8) R(4, 16)
  }
  // Where a tile's time goes (K=1, no sleep): start -> aggregate published -> prefix known -> stored.
  select_lookback::run<select_lookback::mode::compact, unsigned, sluice::detail::flag_select, tune<1, 0, 1>>(si, so, sel, count, 0, "t", single);
  std::vector<unsigned long long> t(tiles * 4);
  cudaMemcpy(t.data(), tr, tiles * 32, cudaMemcpyDeviceToHost);
  unsigned long long t0 = ~0ull, tend = 0;
  std::vector<double> load, wait, store, life;
  for (std::uint64_t i = 1; i < tiles; ++i) {
    t0 = std::min(t0, t[i * 4]), tend = std::max(tend, t[i * 4 + 3]);
    load.push_back(t[i * 4 + 1] - t[i * 4]), wait.push_back(t[i * 4 + 2] - t[i * 4 + 1]), store.push_back(t[i * 4 + 3] - t[i * 4 + 2]);
    life.push_back(t[i * 4 + 3] - t[i * 4]);
  }
  auto q = [](std::vector<double> v, double p) { std::sort(v.begin(), v.end()); return v[static_cast<std::size_t>(p * (v.size() - 1))]; };
  std::printf("trace: %llu tiles over %.1f us\n", (unsigned long long)tiles, (tend - t0) / 1e3);
  for (auto [name, v] : {std::pair{"load+count", &load}, {"look-back", &wait}, {"stage+store", &store}, {"life", &life}})
    std::printf("  %-12s ns: p10 %.0f  p50 %.0f  p90 %.0f  p99 %.0f\n", name, q(*v, 0.1), q(*v, 0.5), q(*v, 0.9), q(*v, 0.99));
  // Tiles in flight over time, and the prefix front: when tile i learned its prefix, against i.
  for (std::uint64_t i = 1024; i < tiles; i += tiles / 8) {
    const unsigned long long at = t[i * 4];
    std::uint64_t flying = 0, resolved_before = 0;
    for (std::uint64_t j = 0; j < tiles; ++j) {
      flying += t[j * 4] <= at && at < t[j * 4 + 3];
      resolved_before += j > 0 && t[j * 4 + 2] <= at;
    }
    std::printf("  tile %6llu: start %8.1f us, look-back %6.0f ns; tiles in flight then %llu, prefixes known then %llu\n",
                (unsigned long long)i, (at - t0) / 1e3, double(t[i * 4 + 2] - t[i * 4 + 1]), (unsigned long long)flying,
                (unsigned long long)resolved_before);
  }
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
}
