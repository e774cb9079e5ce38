// The pipelined scan with the compaction's stop-32 changes (not part of the build): the wide look-back and
// buffers released after A, against the default shape, at 2^28 u32 (inclusive and exclusive sums) and f32
// (inclusive, run twice: bitwise the same), beside a device copy; every u32 output checked against the host.
// Argument "buffers" (stop 46): the library's shape against two buffers and 3-4 blocks an SM (WR6v2B3 and below).
// Argument "ceiling" (stop 47): the library's shape with and without B's loads (build a second binary with
// -DSLUICE_SCAN_STUDY_SKIP_LOOKBACK).
// Build: nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild/include bench/scan_wide.cu src/runtime.cpp src/gl/unavailable.cpp -o scan_wide
#include <cstdio>
#include <cstring>
#include <random>
#include <string_view>
#include <vector>

#include "event_median.cuh"
#include "sluice/cuda/scan/decoupled_lookback.cuh"

using namespace sluice::cuda_backend;
namespace dl = decoupled_lookback;
using dl::schedule;

//                                   T     V  S  B  order           L  wide   release
using D = dl::pipeline<unsigned>;
using R5v4 = dl::pipeline<unsigned, 5, 4, 2, schedule::keep, 2, false, true>;
using W5v5 = dl::pipeline<unsigned, 5, 5, 2, schedule::keep, 2, true, false>;
using WR5v4 = dl::pipeline<unsigned, 5, 4, 2, schedule::keep, 2, true, true>;
using WR6v3 = dl::pipeline<unsigned, 6, 3, 2, schedule::keep, 2, true, true>;
using WR4v5 = dl::pipeline<unsigned, 4, 5, 2, schedule::keep, 2, true, true>;
using WR5v4L1 = dl::pipeline<unsigned, 5, 4, 2, schedule::keep, 1, true, true>;
using WR6v2 = dl::pipeline<unsigned, 6, 2, 2, schedule::keep, 2, true, true>;  // stop 33: two buffers
using WR7v2 = dl::pipeline<unsigned, 7, 2, 2, schedule::keep, 2, true, true>;
// Stop 41's `l2` (the default with L2 evict_first policies on its bulk copies; no gain, run 3): commit d5525a7.
// Stop 43 (`scan_wide perthread`, run 3; build commit d9ad959): the wide look-back's aggregates read 2 a thread
// (grids to 512 blocks) against 4, in turn: 0.970-0.973 of the copy against 0.955-0.959; 2 is the constant since.
// Stop 46 (argument "buffers", on an H200): two buffers and more blocks an SM, which two buffers' 72 KiB
// (6 vectors) or 48 KiB (4 vectors) of shared memory a block allow.
using WR6v2B3 = dl::pipeline<unsigned, 6, 2, 3, schedule::keep, 2, true, true>;
using WR5v2B3 = dl::pipeline<unsigned, 5, 2, 3, schedule::keep, 2, true, true>;
using WR4v2B4 = dl::pipeline<unsigned, 4, 2, 4, schedule::keep, 2, true, true>;
using FD = dl::pipeline<float>;
using FWR5v4 = dl::pipeline<float, 5, 4, 2, schedule::keep, 2, true, true>;
using FWR6v3 = dl::pipeline<float, 6, 3, 2, schedule::keep, 2, true, true>;
using FWR6v2 = dl::pipeline<float, 6, 2, 2, schedule::keep, 2, true, true>;

int failures = 0;

int main(int argc, char** argv) {
  const bool buffers = argc > 1 && std::string_view(argv[1]) == "buffers";
  const bool ceiling = argc > 1 && std::string_view(argv[1]) == "ceiling";
  const u64 n = u64{1} << 28;
  std::vector<unsigned> h(n), ref(n), got(n);
  std::mt19937 g(3);
  for (auto& x : h) x = g() & 0xffff;
  unsigned *in, *out;
  cudaMalloc(&in, n * 4), cudaMalloc(&out, n * 4);
  cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice);
  const float copy = event_median_ms(3, 15, [] {}, [&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice); });
  std::printf("copy 1 GiB: %.4f ms (%.0f GB/s)\n", copy, 8.0 * n / copy / 1e6);
  auto check = [&](const char* what, bool inclusive, u64 m, auto run) {
    cudaMemset(out, 0xab, n * 4);
    run(m, inclusive);
    cudaMemcpy(got.data(), out, n * 4, cudaMemcpyDeviceToHost);
    unsigned acc = 7;  // exclusive: init 7
    u64 bad = 0;
    if (inclusive) {
      acc = 0;
      for (u64 i = 0; i < m; ++i) acc += h[i], bad += got[i] != acc;
    } else {
      for (u64 i = 0; i < m; ++i) bad += got[i] != acc, acc += h[i];
    }
    for (u64 i = m; i < n && i < m + 64; ++i) bad += got[i] != 0xababababu;
    if (bad) std::printf("check %s %s n=%llu: FAILED (%llu wrong)\n", what, inclusive ? "inclusive" : "exclusive", (unsigned long long)m, (unsigned long long)bad);
    failures += bad != 0;
  };
#define CFG(NAME, PIPE)                                                                                          \
  {                                                                                                              \
    auto run = [&](u64 m, bool inclusive) {                                                                      \
      dl::run<unsigned, sluice::sum, lookback::tuning, PIPE>(in, out, m, inclusive, 7u, sluice::sum{}, 0, "t",  \
                                                             dl::pipeline_settings{sluice::detail::setting::on}); \
    };                                                                                                           \
    if (rep == 0 && !dl::study_skip_lookback)                                                                   \
      for (u64 m : {n, n - 4097, u64{20000}, u64{1}}) check(NAME, true, m, run), check(NAME, false, m, run);     \
    const float inc = event_median_ms(3, 15, [] {}, [&] { run(n, true); });                                       \
    const float exc = event_median_ms(3, 15, [] {}, [&] { run(n, false); });                                      \
    std::printf("u32 %-34s inclusive %.4f ms %.3f of copy, exclusive %.4f ms %.3f of copy\n", NAME, inc, copy / inc, exc, copy / exc); \
  }
  // Stop 47 (argument "ceiling", on an H200): the library's shape and 3 buffers, each built twice: as is, and with
  // -DSLUICE_SCAN_STUDY_SKIP_LOOKBACK (B reads no aggregates: what the pipeline's chain moves without the
  // look-back's loads; the outputs are then wrong and not checked). Three pairs, f32 not run.
  if (dl::study_skip_lookback) std::printf("built with SLUICE_SCAN_STUDY_SKIP_LOOKBACK: no look-back, outputs wrong, not checked\n");
  for (int rep = 0; ceiling && rep < 3; ++rep) {
    CFG("wide release 6v 2s lag 2 (library)", WR6v2)
    CFG("wide release 6v 3s lag 2", WR6v3)
  }
  if (ceiling || dl::study_skip_lookback) {
    std::printf("failures: %d; last error: %s\n", failures, cudaGetErrorString(cudaGetLastError()));
    return failures != 0;
  }
  for (int rep = 0; buffers && rep < 2; ++rep) {
    CFG("wide release 6v 3s lag 2 (library)", WR6v3)
    CFG("wide release 6v 2s lag 2", WR6v2)
    CFG("wide release 6v 2s 3/SM", WR6v2B3)
    CFG("wide release 5v 2s 3/SM", WR5v2B3)
    CFG("wide release 4v 2s 4/SM", WR4v2B4)
  }
  for (int rep = 0; !buffers && rep < 2; ++rep) {
    CFG("default 5v 5s lag 2", D)
    CFG("release 5v 4s lag 2", R5v4)
    CFG("wide 5v 5s lag 2", W5v5)
    CFG("wide release 5v 4s lag 2", WR5v4)
    CFG("wide release 6v 3s lag 2", WR6v3)
    CFG("wide release 4v 5s lag 2", WR4v5)
    CFG("wide release 5v 4s lag 1", WR5v4L1)
    CFG("wide release 6v 2s lag 2", WR6v2)
    CFG("wide release 7v 2s lag 2", WR7v2)
  }
  // f32: time, and the same bits from run to run.
  float* fin = reinterpret_cast<float*>(in);
  float* fout = reinterpret_cast<float*>(out);
  std::vector<float> hf(n);
  for (u64 i = 0; i < n; ++i) hf[i] = static_cast<float>(h[i]) / 65536.0f - 0.5f;
  cudaMemcpy(fin, hf.data(), n * 4, cudaMemcpyHostToDevice);
  std::vector<float> first(n), again(n);
#define FCFG(NAME, PIPE)                                                                                             \
  {                                                                                                                  \
    auto run = [&] {                                                                                                 \
      dl::run<float, sluice::sum, lookback::tuning, PIPE>(fin, fout, n, true, 0.0f, sluice::sum{}, 0, "t",           \
                                                          dl::pipeline_settings{sluice::detail::setting::on});       \
    };                                                                                                               \
    run();                                                                                                           \
    cudaMemcpy(first.data(), fout, n * 4, cudaMemcpyDeviceToHost);                                                   \
    const float t = event_median_ms(3, 15, [] {}, run);                                                              \
    cudaMemcpy(again.data(), fout, n * 4, cudaMemcpyDeviceToHost);                                                   \
    const bool same = std::memcmp(first.data(), again.data(), n * 4) == 0;                                           \
    failures += !same;                                                                                               \
    std::printf("f32 %-34s inclusive %.4f ms %.3f of copy; the first run and the 19th bitwise the same: %s; last %g\n", NAME, t, copy / t, \
                same ? "yes" : "NO", static_cast<double>(again[n - 1]));                                             \
  }
  if (buffers) {
    FCFG("wide release 6v 3s lag 2 (library)", FWR6v3)
    FCFG("wide release 6v 2s lag 2", FWR6v2)
    FCFG("wide release 6v 3s lag 2 (library)", FWR6v3)
    FCFG("wide release 6v 2s lag 2", FWR6v2)
  } else {
    FCFG("default 5v 5s lag 2", FD)
    FCFG("wide release 5v 4s lag 2", FWR5v4)
    FCFG("wide release 6v 3s lag 2", FWR6v3)
  }
  std::printf("failures: %d; last error: %s\n", failures, cudaGetErrorString(cudaGetLastError()));
  return failures != 0;
}
