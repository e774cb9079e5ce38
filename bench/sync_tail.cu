// Study (not part of the build; stop 41): where a synchronous reduce's time goes after its kernel. The production
// suite's synchronous rows (run 7) put sluice::reduce at 1.13-1.31x the time of CUB + cudaMemcpy from 2^14 to
// 2^22 (u32 sum), where the _async forms are ahead. Beside each other, the same sum (u32, in turn, one call each
// per round, 201 rounds; host wall-clock per call, the median), ways to bring it to the host:
//   api           sluice::reduce (the public synchronous form; before this stop stream scratch, cudaMemcpyAsync to
//                 the caller's stack and cudaStreamSynchronize, since then the sum written into a mapped host slot)
//   async+pageable   sluice::reduce_async into device memory, cudaMemcpyAsync to the stack, cudaStreamSynchronize
//   async+memcpy     sluice::reduce_async into device memory, cudaMemcpy to the stack (CUB's peer's way)
//   async+pinned     sluice::reduce_async into device memory, cudaMemcpyAsync to pinned memory, cudaStreamSynchronize
//   async+slot       sluice::reduce_async into device memory, then cuda_backend::copy_to_host: in run 10 (commit
//                    27e8b6c) one thread's copy into a mapped host slot, since then cudaMemcpyAsync into a pinned slot
//   mapped           vectorized::run writing the sum straight into mapped pinned host memory, cudaStreamSynchronize
//   cub+memcpy       cub::DeviceReduce::Sum (storage allocated once), cudaMemcpy to the stack (the suite's peer)
//   cub+pinned       the same, cudaMemcpyAsync to pinned memory and cudaStreamSynchronize
// Every result is checked against the host's sum.
// Build (after the library): nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild/include -Ibench \
//   bench/sync_tail.cu build/libsluice.a -lEGL -lOpenGL -ltbb -Xcompiler -fopenmp -o sync_tail
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "sluice/cuda/reduce/vectorized.cuh"
#include "sluice/sluice.hpp"

using u32 = unsigned;
using u64 = unsigned long long;

int main() {
  const u64 top = u64{1} << 24;
  std::vector<u32> h(top);
  std::mt19937 g(11);
  for (auto& x : h) x = g() & 0xffffu;
  u32 *in, *dres, *pinned, *mapped;
  cudaMalloc(&in, top * 4), cudaMalloc(&dres, 4);
  cudaMemcpy(in, h.data(), top * 4, cudaMemcpyHostToDevice);
  cudaMallocHost(&pinned, 4);
  cudaHostAlloc(&mapped, 4, cudaHostAllocMapped);
  u32* mapped_dev = nullptr;
  cudaHostGetDevicePointer(reinterpret_cast<void**>(&mapped_dev), mapped, 0);
  sluice::options o;
  o.device = sluice::device::cuda;
  int failures = 0;
  std::printf("u32 sum, host wall-clock per synchronous call (us), median of 201 rounds, variants in turn\n");
  for (int k : {10, 14, 16, 18, 20, 22, 24}) {
    const u64 n = u64{1} << k;
    u32 expect = 0;
    for (u64 i = 0; i < n; ++i) expect += h[i];
    const std::span<const u32> s(in, n);
    void* temp = nullptr;
    std::size_t temp_bytes = 0;
    cub::DeviceReduce::Sum(nullptr, temp_bytes, in, dres, static_cast<int>(n));
    cudaMalloc(&temp, temp_bytes);
    struct variant {
      std::string name;
      std::function<u32()> f;
      std::vector<double> us;
    };
    std::vector<variant> vs = {
        {"api", [&] { return sluice::reduce(s, 0u, sluice::sum{}, o); }, {}},
        {"async+pageable", [&] {
           sluice::reduce_async(s, dres, 0u, sluice::sum{}, o);
           u32 r;
           cudaMemcpyAsync(&r, dres, 4, cudaMemcpyDeviceToHost, 0);
           cudaStreamSynchronize(0);
           return r;
         }, {}},
        {"async+memcpy", [&] {
           sluice::reduce_async(s, dres, 0u, sluice::sum{}, o);
           u32 r;
           cudaMemcpy(&r, dres, 4, cudaMemcpyDeviceToHost);
           return r;
         }, {}},
        {"async+pinned", [&] {
           sluice::reduce_async(s, dres, 0u, sluice::sum{}, o);
           cudaMemcpyAsync(pinned, dres, 4, cudaMemcpyDeviceToHost, 0);
           cudaStreamSynchronize(0);
           return *pinned;
         }, {}},
        {"async+slot", [&] {
           sluice::reduce_async(s, dres, 0u, sluice::sum{}, o);
           u32 r;
           sluice::cuda_backend::copy_to_host(&r, dres, 4, 0, "sync_tail");  // one thread copies it to a host slot
           return r;
         }, {}},
        {"mapped", [&] {
           sluice::cuda_backend::vectorized::run<u32, sluice::sum>(in, n, mapped_dev, 0u, sluice::sum{}, 0, "sync_tail");
           cudaStreamSynchronize(0);
           return *static_cast<volatile u32*>(mapped);
         }, {}},
        {"cub+memcpy", [&] {
           std::size_t b = temp_bytes;
           cub::DeviceReduce::Sum(temp, b, in, dres, static_cast<int>(n));
           u32 r;
           cudaMemcpy(&r, dres, 4, cudaMemcpyDeviceToHost);
           return r;
         }, {}},
        {"cub+pinned", [&] {
           std::size_t b = temp_bytes;
           cub::DeviceReduce::Sum(temp, b, in, dres, static_cast<int>(n));
           cudaMemcpyAsync(pinned, dres, 4, cudaMemcpyDeviceToHost, 0);
           cudaStreamSynchronize(0);
           return *pinned;
         }, {}},
    };
    for (auto& v : vs)
      for (int w = 0; w < 5; ++w)
        if (const u32 r = v.f(); r != expect) {
          std::printf("check %s n=2^%d: FAILED (%u, expected %u)\n", v.name.c_str(), k, r, expect);
          ++failures;
          break;
        }
    for (int round = 0; round < 201; ++round)
      for (std::size_t i = 0; i < vs.size(); ++i) {
        auto& v = vs[(i + round) % vs.size()];
        const auto a = std::chrono::steady_clock::now();
        const u32 r = v.f();
        v.us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count());
        failures += r != expect;
      }
    std::printf("n=2^%-2d", k);
    for (auto& v : vs) {
      std::sort(v.us.begin(), v.us.end());
      std::printf("  %s %.2f", v.name.c_str(), v.us[v.us.size() / 2]);
    }
    std::printf("\n");
    cudaFree(temp);
  }
  std::printf("failures: %d; last error: %s\n", failures, cudaGetErrorString(cudaGetLastError()));
  return failures != 0;
}
