// Tuning study of radix_sort "onesweep" (not part of the build): threads and keys per thread of the digit
// pass, for u32 keys, u32 pairs (2^28) and u64 keys (2^27), beside cub::DeviceRadixSort and a device copy;
// each configuration's result is checked against CUB's. Run: onesweep_tuning [log2 n] [pairs|spin]. (The study of
// pairs whose values load after the keys' scatter, 'late', is in commit fd76746: slower at every shape.)
// Build: nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild/include bench/onesweep_tuning.cu src/runtime.cpp src/gl/unavailable.cpp -o onesweep_tuning
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string_view>
#include <vector>

#include "event_median.cuh"

#include <cub/device/device_radix_sort.cuh>

#include "sluice/cuda/sort/onesweep.cuh"

using namespace sluice::cuda_backend;

template <unsigned KeyBytes, unsigned Threads, unsigned Items, unsigned MinBlocks = 2, bool Ballots = true, unsigned Sleep = 64, unsigned Window = 8>
struct tune : onesweep::policy<KeyBytes, false> {
  static constexpr unsigned threads = Threads, items = Items, tile = Threads * Items, min_blocks = MinBlocks;
  static constexpr unsigned lookback_sleep_ns = Sleep, lookback_window = Window;
  static constexpr bool match_by_ballots = Ballots;
  static constexpr u64 portion = (u64{1} << 28) / tile * tile;
};

template <class Setup, class F>
float median_ms(Setup setup, F f) {
  return event_median_ms(3, 10, setup, f);
}

template <class K, bool Pairs>
struct study {
  u64 n;
  K *src, *keys, *ref_keys, *alt;
  unsigned *vsrc, *vals, *ref_vals, *valt;
  double copy_gbps;
  float cub_ms;
  explicit study(u64 n_) : n(n_) {
    std::vector<K> h(n);
    std::mt19937_64 g(1);
    for (auto& x : h) x = static_cast<K>(g());
    std::vector<unsigned> v(n);
    for (u64 i = 0; i < n; ++i) v[i] = static_cast<unsigned>(i);
    cudaMalloc(&src, n * sizeof(K)), cudaMalloc(&keys, n * sizeof(K)), cudaMalloc(&ref_keys, n * sizeof(K)), cudaMalloc(&alt, n * sizeof(K));
    cudaMalloc(&vsrc, n * 4), cudaMalloc(&vals, n * 4), cudaMalloc(&ref_vals, n * 4), cudaMalloc(&valt, n * 4);
    cudaMemcpy(src, h.data(), n * sizeof(K), cudaMemcpyHostToDevice);
    cudaMemcpy(vsrc, v.data(), n * 4, cudaMemcpyHostToDevice);
    const double bytes = 2.0 * n * (sizeof(K) + (Pairs ? 4 : 0));
    const float copy = median_ms([] {}, [&] { cudaMemcpyAsync(alt, src, n * sizeof(K), cudaMemcpyDeviceToDevice); if (Pairs) cudaMemcpyAsync(valt, vsrc, n * 4, cudaMemcpyDeviceToDevice); });
    copy_gbps = bytes / (copy * 1e-3) / 1e9;
    // CUB, the peer and the reference.
    void* temp = nullptr;
    std::size_t tb = 0;
    if (Pairs) cub::DeviceRadixSort::SortPairs(temp, tb, keys, alt, vals, valt, n);
    else cub::DeviceRadixSort::SortKeys(temp, tb, keys, alt, n);
    cudaMalloc(&temp, tb);
    cub_ms = median_ms(reset(), [&] {
      if (Pairs) cub::DeviceRadixSort::SortPairs(temp, tb, keys, alt, vals, valt, n);
      else cub::DeviceRadixSort::SortKeys(temp, tb, keys, alt, n);
    });
    cudaMemcpy(ref_keys, alt, n * sizeof(K), cudaMemcpyDeviceToDevice);
    cudaMemcpy(ref_vals, valt, n * 4, cudaMemcpyDeviceToDevice);
    cudaFree(temp);
    std::printf("%s n=%llu copy %.1f GB/s; cub %.3f ms = %.2f G keys/s\n", Pairs ? (sizeof(K) == 4 ? "u32+u32" : "u64+u32") : (sizeof(K) == 4 ? "u32" : "u64"),
                static_cast<unsigned long long>(n), copy_gbps, cub_ms, n / (cub_ms * 1e-3) / 1e9);
  }
  auto reset() {
    return [this] {
      cudaMemcpyAsync(keys, src, n * sizeof(K), cudaMemcpyDeviceToDevice);
      if (Pairs) cudaMemcpyAsync(vals, vsrc, n * 4, cudaMemcpyDeviceToDevice);
    };
  }
  template <class P>
  void run(const char* label) {
    const char* fn = "tune";
    const float ms = median_ms(reset(), [&] {
      if constexpr (Pairs) onesweep::sort_pass_by_pass<K, unsigned, P>(std::span<K>(keys, n), std::span<unsigned>(vals, n), false, 0, sizeof(K) * 8, nullptr, fn);
      else onesweep::sort_pass_by_pass<K, std::nullptr_t, P>(std::span<K>(keys, n), std::span<std::nullptr_t>(), false, 0, sizeof(K) * 8, nullptr, fn);
    });
    std::vector<K> a(n), b(n);
    cudaMemcpy(a.data(), keys, n * sizeof(K), cudaMemcpyDeviceToHost);
    cudaMemcpy(b.data(), ref_keys, n * sizeof(K), cudaMemcpyDeviceToHost);
    bool ok = a == b;
    if (Pairs) {
      std::vector<unsigned> c(n), d(n);
      cudaMemcpy(c.data(), vals, n * 4, cudaMemcpyDeviceToHost);
      cudaMemcpy(d.data(), ref_vals, n * 4, cudaMemcpyDeviceToHost);
      ok = ok && c == d;
    }
    std::printf("  %-10s %.3f ms = %.2f G keys/s, %.3f x cub's time, %s (%s)\n", label, ms, n / (ms * 1e-3) / 1e9, ms / cub_ms,
                ok ? "same as cub" : "WRONG", cudaGetErrorString(cudaGetLastError()));
  }
};

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  const int big = argc > 1 ? std::atoi(argv[1]) : 28;  // log2 of the large size
  if (argc > 2 && std::string_view(argv[2]) == "pairs") {  // u32 pairs: tile shape and residency, at 2^big, 2^24, 2^20
    for (int k : {big, 24, 20}) {
      study<unsigned, true> s(u64{1} << k);
      s.run<tune<4, 384, 16, 2, true, 64, 4>>("384x16 b2");
      s.run<tune<4, 256, 16, 3, true, 64, 4>>("256x16 b3");
      s.run<tune<4, 256, 20, 2, true, 64, 4>>("256x20 b2");
      s.run<tune<4, 384, 12, 2, true, 64, 4>>("384x12 b2");
      s.run<tune<4, 384, 20, 2, true, 64, 4>>("384x20 b2");
      s.run<tune<4, 512, 12, 2, true, 64, 4>>("512x12 b2");
      s.run<tune<4, 512, 15, 2, true, 64, 4>>("512x15 b2");
      s.run<tune<4, 512, 16, 2, true, 64, 4>>("512x16 b2");
      s.run<tune<4, 512, 20, 1, true, 64, 4>>("512x20 b1");
      s.run<tune<4, 384, 16, 2, true, 64, 8>>("384x16 w8");
      s.run<tune<4, 384, 16, 2, true, 0, 4>>("384x16 spin");
    }
    return 0;
  }
  if (argc > 2) {  // the spin study: pass-kernel instructions against the back-off (under ncu)
    study<unsigned, false> s(u64{1} << big);
    s.run<tune<4, 256, 16, 3, true, 0>>("spin");
    s.run<tune<4, 256, 16, 3, true, 64>>("s64");
    s.run<tune<4, 256, 16, 3, true, 1000>>("s1000");
    s.run<tune<4, 256, 16, 3, true, 64, 1>>("s64 w1");
    return 0;
  }
  {
    study<unsigned, false> s(u64{1} << big);
    s.run<tune<4, 512, 20, 2, true, 64, 4>>("512x20 b2");
    s.run<tune<4, 512, 20, 1, true, 64, 4>>("512x20 b1");
    s.run<tune<4, 512, 20, 2, true, 0, 4>>("512x20 b2 spin");
    s.run<tune<4, 512, 20, 2, true, 64, 2>>("512x20 b2 w2");
    s.run<tune<4, 512, 24, 2, true, 64, 4>>("512x24 b2");
  }
  {
    study<unsigned, true> s(u64{1} << big);
    s.run<tune<4, 384, 16, 2, true, 64, 4>>("384x16 b2");
  }
  for (int k : {24}) {
    study<unsigned, false> s(u64{1} << k);
    s.run<tune<4, 512, 20, 2, true, 64, 4>>("512x20 b2");
  }
  return 0;
}
