// Study (not part of the build; stop 45): what a synchronous compact_if costs beyond its `_async` form at 2^28.
// The production suite (stop 45, run 2) put sluice's synchronous compact_if u32 at 10-21 us more than its
// `_async` call in the same run at 50% and 90% kept (0.56-0.71 ms calls) and 1.5 us at 10%; CUB's synchronous
// peer (cudaMemcpy of the count) 8-21 us more than its own. Each call between two events, the device idle
// before it (as the suite times it), these ways in turn, 41 rounds, the median:
//   async           sluice::compact_if_async, the count left in device memory
//   sync            sluice::compact_if (the count through a mapped host slot, the stream synchronized)
//   async+sync      compact_if_async, then cudaStreamSynchronize (the host's wait alone)
//   async+memcpy    compact_if_async, then cudaMemcpy of the count (CUB's peer's way)
//   cub, cub+memcpy cub::DeviceSelect::If (storage allocated once), alone and with cudaMemcpy of the count
// and the host's wall-clock per call of each. Every count is checked against CUB's.
// Build (after the library, build/libsluice.a):
//   nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild/include -Ibench bench/sync_large.cu \
//     build/libsluice.a -lEGL -lOpenGL -ltbb -Xcompiler -fopenmp -o sync_large
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "sluice/sluice.hpp"

using u32 = unsigned;
using u64 = unsigned long long;

struct below {
  u32 v;
  __host__ __device__ bool operator()(u32 x) const { return x < v; }
};

__global__ void fill(u32* p, u64 n) {
  for (u64 i = blockIdx.x * u64{blockDim.x} + threadIdx.x; i < n; i += u64{gridDim.x} * blockDim.x) {
    u64 z = i + 0x9e3779b97f4a7c15ull;  // splitmix64 of the index
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    p[i] = static_cast<u32>(z ^ (z >> 31));
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  const u64 n = u64{1} << (argc > 1 ? std::atoi(argv[1]) : 28);
  const sluice::options opt{sluice::device::cuda};
  sluice::device_buffer<u32> in(n), out(n), cub_out(n);
  fill<<<1024, 256>>>(in.data(), n);
  sluice::device_buffer<std::uint64_t> count(1);
  sluice::device_buffer<int> cub_count(1);
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  cub::DeviceSelect::If(nullptr, temp_bytes, in.data(), cub_out.data(), cub_count.data(), static_cast<int>(n), below{0});
  cudaMalloc(&temp, temp_bytes);
  cudaEvent_t a, b;
  cudaEventCreate(&a), cudaEventCreate(&b);
  int failures = 0;
  for (const double ratio : {0.1, 0.5, 0.9}) {
    const u32 bound = static_cast<u32>(ratio * 4294967296.0);
    const std::span<const u32> i(in.data(), n);
    const std::span<u32> o(out.data(), n);
    std::size_t tb = temp_bytes;
    std::uint64_t host_count = 0;
    int host_cub = 0;
    struct way {
      const char* name;
      std::function<void()> f;
      std::vector<double> us, host_us;
    };
    std::vector<way> ways = {
        {"async", [&] { sluice::compact_if_async(i, o, sluice::less_than(bound), count.data(), opt); }},
        {"sync", [&] { host_count = sluice::compact_if(i, o, sluice::less_than(bound), opt); }},
        {"async+sync", [&] {
           sluice::compact_if_async(i, o, sluice::less_than(bound), count.data(), opt);
           cudaStreamSynchronize(nullptr);
         }},
        {"async+memcpy", [&] {
           sluice::compact_if_async(i, o, sluice::less_than(bound), count.data(), opt);
           cudaMemcpy(&host_count, count.data(), 8, cudaMemcpyDeviceToHost);
         }},
        {"cub", [&] { cub::DeviceSelect::If(temp, tb, in.data(), cub_out.data(), cub_count.data(), static_cast<int>(n), below{bound}); }},
        {"cub+memcpy", [&] {
           cub::DeviceSelect::If(temp, tb, in.data(), cub_out.data(), cub_count.data(), static_cast<int>(n), below{bound});
           cudaMemcpy(&host_cub, cub_count.data(), 4, cudaMemcpyDeviceToHost);
         }},
    };
    for (auto& w : ways) w.f();  // warm-up
    cudaDeviceSynchronize();
    for (int r = 0; r < 41; ++r)
      for (std::size_t j = 0; j < ways.size(); ++j) {
        auto& w = ways[(r + j) % ways.size()];
        cudaDeviceSynchronize();
        const auto t0 = std::chrono::steady_clock::now();
        cudaEventRecord(a);
        w.f();
        cudaEventRecord(b);
        const auto t1 = std::chrono::steady_clock::now();
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        w.us.push_back(ms * 1e3);
        w.host_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      }
    std::uint64_t c = 0;
    cudaMemcpy(&c, count.data(), 8, cudaMemcpyDeviceToHost);
    cudaMemcpy(&host_cub, cub_count.data(), 4, cudaMemcpyDeviceToHost);
    const bool same = c == static_cast<std::uint64_t>(host_cub) && host_count == c;
    failures += !same;
    for (auto& w : ways)
      std::printf("n=%llu ratio=%.1f %-14s %9.2f us between events (host %9.2f us)\n", n, ratio, w.name, median(w.us), median(w.host_us));
    std::printf("n=%llu ratio=%.1f counts %s (%llu)\n", n, ratio, same ? "equal" : "DIFFER", static_cast<u64>(c));
  }
  cudaFree(temp);
  std::printf("failures: %d; last error: %s\n", failures, cudaGetErrorString(cudaGetLastError()));
  return failures ? 1 : 0;
}
