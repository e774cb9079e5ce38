// Study of the stable partition by predicate at 1 GiB of input (2^28 u32, 2^27 u64; not part of the build): the
// phased path (tile counts, their scan, the move: the default before stop 29), the pipelined pass with each
// layout of the rejected run (counted first; reversed from the end, then flipped) and with the sample's choice
// (auto), beside CUB's partition with the reversal of its tail (the production suite's peer) and a device copy,
// at kept ratios from 0.1 to 0.9: where the reversed layout overtakes counting first (the sample's threshold,
// reversed_from_kept_tenths). Every variant's count and every element are checked against the host first.
// Build: nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild/include bench/partition_tuning.cu src/runtime.cpp src/gl/unavailable.cpp -o partition_tuning
// Run: partition_tuning [u32|u64]... (default both)
#include <cstdio>
#include <random>
#include <string_view>
#include <vector>

#include "event_median.cuh"
#include "sluice/cuda/compact/decoupled_lookback.cuh"
#include "sluice/cuda/partition/cub.cuh"

using namespace sluice::cuda_backend;
using sluice::detail::setting;
namespace sl = select_lookback;

template <class T>
struct below {  // keeps x < limit
  T limit;
  __host__ __device__ bool operator()(T x) const { return x < limit; }
};

int failures = 0;

template <class T>
void study(const char* type) {
  using Sel = sluice::detail::pred_select<below<T>>;
  const u64 n = (u64{1} << 30) / sizeof(T);
  std::vector<T> h(n), want(n), got(n);
  std::mt19937_64 g(29);
  for (auto& x : h) x = static_cast<T>(g());
  T *in, *out;
  u64* count;
  cudaMalloc(&in, n * sizeof(T)), cudaMalloc(&out, n * sizeof(T)), cudaMalloc(&count, 8);
  cudaMemcpy(in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  const float copy_ms = event_median_ms(3, 15, [] {}, [&] { cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice); });
  std::printf("%s n=%llu copy %.4f ms (%.1f GB/s)\n", type, (unsigned long long)n, copy_ms, 2.0 * n * sizeof(T) / copy_ms / 1e6);
  const auto with = [](setting pipelined, sl::layout rejected) {
    sl::compact_settings c;
    c.pipelined = pipelined;
    c.rejected = rejected;
    return c;
  };
  struct variant {
    const char* name;
    sl::compact_settings settings;
    bool cub;
  };
  const variant variants[] = {{"cub + tail reversal", {}, true},
                              {"phased (pipelined=off)", with(setting::off, sl::layout::sample), false},
                              {"pipelined counted", with(setting::on, sl::layout::counted), false},
                              {"pipelined reversed", with(setting::on, sl::layout::reversed), false},
                              {"pipelined auto (sample)", with(setting::on, sl::layout::sample), false}};
  for (const double ratio : {0.1, 0.3, 0.5, 0.6, 0.65, 0.7, 0.8, 0.9}) {
    const T limit = static_cast<T>(ratio * (sizeof(T) == 8 ? 18446744073709551616.0 : 4294967296.0));
    const Sel sel{below<T>{limit}};
    u64 kept = 0;
    for (const T x : h)
      if (x < limit) want[kept++] = x;
    for (u64 i = 0, r = kept; i < n; ++i)
      if (!(h[i] < limit)) want[r++] = h[i];
    float cub_ms = 0;
    for (const variant& v : variants) {
      auto launch = [&] {
        if (v.cub)
          cub_peer::partition<T, Sel>({in, n}, {out, n}, sel, count, 0, "t");
        else
          sl::run<sl::mode::partition, T, Sel>({in, n}, {out, n}, sel, count, 0, "t", v.settings);
      };
      cudaMemset(out, 0xab, n * sizeof(T));
      launch();
      u64 c = 0;
      cudaMemcpy(&c, count, 8, cudaMemcpyDeviceToHost);
      cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost);
      const bool ok = c == kept && got == want && cudaGetLastError() == cudaSuccess;
      if (!ok) ++failures;
      const float ms = event_median_ms(3, 15, [] {}, launch);
      if (v.cub) cub_ms = ms;
      std::printf("%s kept %.2f %-26s %8.4f ms  %.3f of copy  %.3f x CUB's time  %s\n", type, ratio, v.name, ms, copy_ms / ms, ms / cub_ms,
                  ok ? "ok" : "FAILED");
    }
  }
  cudaFree(in), cudaFree(out), cudaFree(count);
}

int main(int argc, char** argv) {
  bool u32 = argc == 1, u64_ = argc == 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "u32") u32 = true;
    else if (a == "u64") u64_ = true;
    else return std::fprintf(stderr, "usage: partition_tuning [u32|u64]...\n"), 2;
  }
  if (u32) study<unsigned>("u32");
  if (u64_) study<unsigned long long>("u64");
  std::printf("failures: %d\n", failures);
  return failures != 0;
}
