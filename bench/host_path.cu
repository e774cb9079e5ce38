// Study (not part of the build): what the host spends in one small reduce_async call, layer by layer, beside
// CUB's call, for issue 5's goal of sluice's time <= CUB's at 2^10-2^12 (the `_async` reduce was 1.02-1.05x
// there: calls of 7-8 us, 0.1-0.4 us behind). Each layer is a batch of 200 calls with no synchronisation inside
// (what the calling thread spends a call); the layers are timed in turn, 31 rounds, and the median printed.
// Then one call between two events (the time the production suite reports), sluice, CUB and the layers in turn.
// Build (after the library, build/libsluice.a):
//   nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild/include -Ibench bench/host_path.cu \
//     build/libsluice.a -lEGL -lOpenGL -ltbb -Xcompiler -fopenmp -o host_path
#include <cub/device/device_reduce.cuh>
#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "sluice/cuda/reduce/vectorized.cuh"
#include "sluice/sluice.hpp"

__global__ void empty_kernel() {}

using u32 = unsigned;
using u64 = unsigned long long;

struct layer {
  std::string name;
  std::function<void()> f;
  std::vector<double> us;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  const sluice::options opt{sluice::device::cuda};
  const u64 top = 1 << 12;
  std::vector<u32> h(top);
  for (u64 i = 0; i < top; ++i) h[i] = static_cast<u32>(i * 2654435761u) & 0xffff;
  sluice::device_buffer<u32> in(h), result(1), cub_result(1);
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  cub::DeviceReduce::Sum(nullptr, temp_bytes, in.data(), cub_result.data(), static_cast<int>(top));
  cudaMalloc(&temp, temp_bytes);

  using get_attr_t = CUresult (*)(void*, CUpointer_attribute, CUdeviceptr);
  using get_attrs_t = CUresult (*)(unsigned, CUpointer_attribute*, void**, CUdeviceptr);
  void* p1 = nullptr;
  void* p2 = nullptr;
  cudaDriverEntryPointQueryResult q1{}, q2{};
  cudaGetDriverEntryPointByVersion("cuPointerGetAttribute", &p1, 12000, cudaEnableDefault, &q1);
  cudaGetDriverEntryPointByVersion("cuPointerGetAttributes", &p2, 12000, cudaEnableDefault, &q2);
  const auto get_attr = reinterpret_cast<get_attr_t>(p1);
  const auto get_attrs = reinterpret_cast<get_attrs_t>(p2);
  using launch_t = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void**, void**);
  void* p3 = nullptr;
  cudaDriverEntryPointQueryResult q3{};
  cudaGetDriverEntryPointByVersion("cuLaunchKernel", &p3, 12000, cudaEnableDefault, &q3);
  const auto cu_launch = reinterpret_cast<launch_t>(p3);
  if (!get_attr || !get_attrs || !cu_launch) return std::fprintf(stderr, "no driver entry points\n"), 1;

  namespace vz = sluice::cuda_backend::vectorized;
  using rp = vz::policy<u32>;
  for (const u64 n : {u64{1} << 10, u64{1} << 12}) {
    const std::span<const u32> s(in.data(), n);
    std::size_t tb = temp_bytes;
    unsigned mt = 0;
    CUpointer_attribute two[2] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED};
    unsigned mt2 = 0;
    int managed = 0;
    void* outs[2] = {&mt2, &managed};
    cudaPointerAttributes a{};
    // The same kernel launched four ways: the chevrons, cudaLaunchKernel by its host stub, cudaLaunchKernel by
    // its cudaKernel_t (cudaGetKernel: no lookup of the stub), cuLaunchKernel with that handle.
    auto* const k = vz::single_kernel<rp, u32, sluice::sum, false>;
    cudaKernel_t kh{};
    cudaGetKernel(&kh, reinterpret_cast<const void*>(k));
    const u32* kin = in.data();
    u64 khead = 0, ktiles = n / rp::warp_tile, ktail = n / rp::warp_tile * rp::warp_tile, kn = n;
    sluice::sum kop{};
    u32 kinit = 0;
    u32* kres = result.data();
    void* kargs[] = {&kin, &khead, &ktiles, &ktail, &kn, &kop, &kinit, &kres};
    auto by_stub = [&] { cudaLaunchKernel(reinterpret_cast<const void*>(k), dim3(1), dim3(rp::final_threads), kargs, 0, nullptr); };
    auto by_handle = [&] { cudaLaunchKernel(reinterpret_cast<const void*>(kh), dim3(1), dim3(rp::final_threads), kargs, 0, nullptr); };
    auto by_driver = [&] { cu_launch(reinterpret_cast<CUfunction>(kh), 1, 1, 1, rp::final_threads, 1, 1, 0, nullptr, kargs, nullptr); };
    std::vector<layer> layers = {
        {"cudaLaunchKernel (host stub)", by_stub},
        {"cudaLaunchKernel (cudaKernel_t)", by_handle},
        {"cuLaunchKernel (cudaKernel_t)", by_driver},
        {"empty kernel launch", [] { empty_kernel<<<1, 32>>>(); }},
        {"cudaGetLastError", [] { (void)cudaGetLastError(); }},
        {"cudaPointerGetAttributes", [&] { cudaPointerGetAttributes(&a, in.data()); }},
        {"cuPointerGetAttribute (memory type)", [&] { get_attr(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, reinterpret_cast<CUdeviceptr>(in.data())); }},
        {"cuPointerGetAttributes (type, managed)", [&] { get_attrs(2, two, outs, reinterpret_cast<CUdeviceptr>(in.data())); }},
        {"check_device_pointer", [&] { sluice::cuda_backend::check_device_pointer("t", "in", in.data()); }},
        {"find_algorithm (best)", [&] { (void)sluice::find_algorithm(sluice::primitive::reduce, sluice::device::cuda, "best", "t"); }},
        {"prepare (in)", [&] { (void)sluice::detail::prepare("t", sluice::primitive::reduce, opt, std::pair{"in", s}); }},
        {"single_kernel launch", [&] {
           vz::single_kernel<rp, u32, sluice::sum, false><<<1, rp::final_threads>>>(in.data(), 0, n / rp::warp_tile, n / rp::warp_tile * rp::warp_tile,
                                                                                 n, sluice::sum{}, 0u, result.data());
         }},
        {"vectorized::run (this file's)", [&] { vz::run<u32, sluice::sum>(in.data(), n, result.data(), 0u, sluice::sum{}, 0, "t"); }},
        {"cuda_backend::reduce (the library's)", [&] {
           sluice::cuda_backend::reduce<u32, sluice::sum>("vectorized", s, result.data(), 0u, sluice::sum{}, nullptr);
         }},
        {"sluice::reduce_async", [&] { sluice::reduce_async(s, result.data(), 0u, sluice::sum{}, opt); }},
        {"cub::DeviceReduce::Sum", [&] { cub::DeviceReduce::Sum(temp, tb, in.data(), cub_result.data(), static_cast<int>(n)); }},
    };
    for (int r = 0; r < 31; ++r)
      for (auto& l : layers) {
        cudaDeviceSynchronize();
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < 200; ++i) l.f();
        l.us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 200);
      }
    cudaDeviceSynchronize();
    for (auto& l : layers) std::printf("n=%-6llu host %-40s %7.3f us\n", n, l.name.c_str(), median(l.us));

    // One call between two events (the production suite's `_async` timing), the ways in turn, 201 rounds: the
    // median time between the events, and the host's wall-clock from before the first record to after the
    // second (the call alone, the device idle before it).
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0), cudaEventCreate(&e1);
    sluice::device_buffer<u32> copy_to(n);
    std::vector<layer> ways = {
        {"sluice::reduce_async", [&] { sluice::reduce_async(s, result.data(), 0u, sluice::sum{}, opt); }},
        {"cub::DeviceReduce::Sum", [&] { cub::DeviceReduce::Sum(temp, tb, in.data(), cub_result.data(), static_cast<int>(n)); }},
        {"cuda_backend::reduce (the library's)", [&] {
           sluice::cuda_backend::reduce<u32, sluice::sum>("vectorized", s, result.data(), 0u, sluice::sum{}, nullptr);
         }},
        {"vectorized::run (this file's)", [&] { vz::run<u32, sluice::sum>(in.data(), n, result.data(), 0u, sluice::sum{}, 0, "t"); }},
        {"single_kernel launch (chevrons)", [&] { k<<<1, rp::final_threads>>>(kin, khead, ktiles, ktail, kn, kop, kinit, kres); }},
        {"single_kernel by cuLaunchKernel", by_driver},
        {"empty kernel launch", [] { empty_kernel<<<1, 32>>>(); }},
        {"cudaMemcpyAsync of the input", [&] { cudaMemcpyAsync(copy_to.data(), in.data(), n * 4, cudaMemcpyDeviceToDevice); }},
    };
    std::vector<std::vector<double>> host(ways.size());
    for (int r = 0; r < 201; ++r)
      for (std::size_t j = 0; j < ways.size(); ++j) {
        const std::size_t c = (r + j) % ways.size();
        const auto t0 = std::chrono::steady_clock::now();
        cudaEventRecord(e0);
        ways[c].f();
        cudaEventRecord(e1);
        host[c].push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
        cudaEventSynchronize(e1);
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        ways[c].us.push_back(ms * 1e3);
      }
    for (std::size_t c = 0; c < ways.size(); ++c)
      std::printf("n=%-6llu one call %-40s %6.2f us between events, host %6.2f us\n", n, ways[c].name.c_str(), median(ways[c].us), median(host[c]));
    u32 r1 = 0, r2 = 0;
    cudaMemcpy(&r1, result.data(), 4, cudaMemcpyDeviceToHost), cudaMemcpy(&r2, cub_result.data(), 4, cudaMemcpyDeviceToHost);
    std::printf("n=%-6llu one call: sluice / cub %.3f; sums %s\n", n, median(ways[0].us) / median(ways[1].us), r1 == r2 ? "equal" : "DIFFER");
    cudaEventDestroy(e0), cudaEventDestroy(e1);
  }
  cudaFree(temp);
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
