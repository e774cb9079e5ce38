#include "timer.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "sluice/config.hpp"
#include "sluice/cuda/backend.hpp"
#if SLUICE_HAS_CUDA
#include <cuda_runtime.h>
#endif

namespace sluice::tool {

timing time_median(device d, int reps, const std::function<void()>& f, const std::function<void()>& setup) {
  std::vector<double> ms;
  if (setup) setup();
  f();  // warm-up: module load, scratch pool growth
#if SLUICE_HAS_CUDA
  if (d == device::cuda) {
    cudaEvent_t a, b;
    cuda_backend::check_cuda(cudaEventCreate(&a), "bench", "cudaEventCreate");
    cuda_backend::check_cuda(cudaEventCreate(&b), "bench", "cudaEventCreate");
    cuda_backend::check_cuda(cudaDeviceSynchronize(), "bench", "cudaDeviceSynchronize");
    for (int r = 0; r < reps; ++r) {
      if (setup) setup();
      cudaEventRecord(a);
      f();
      cudaEventRecord(b);
      cuda_backend::check_cuda(cudaEventSynchronize(b), "bench", "cudaEventSynchronize");
      float t = 0;
      cudaEventElapsedTime(&t, a, b);
      ms.push_back(t);
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
#endif
  if (d == device::cpu) {
    for (int r = 0; r < reps; ++r) {
      if (setup) setup();
      const auto t0 = std::chrono::steady_clock::now();
      f();
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
  }
  std::sort(ms.begin(), ms.end());
  return {ms.empty() ? 0.0 : ms[ms.size() / 2], reps};
}

void device_copy(device d, void* dst, const void* src, std::size_t bytes) {
  if (d == device::cpu) {
    std::memcpy(dst, src, bytes);
    return;
  }
#if SLUICE_HAS_CUDA
  cuda_backend::check_cuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice), "bench", "cudaMemcpyAsync");
#endif
}

}  // namespace sluice::tool
