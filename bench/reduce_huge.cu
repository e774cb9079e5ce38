// reduce "vectorized" past 2^31 elements with the dynamic chunks (stop 46: 128 KiB chunks; not part of the build):
// 2^31 + 1000 u32 (8 GiB; 65536 chunks) at the start and one element past it (a head and a tail), against a
// device reference that sums the same values in 64 bits (atomics; the low 32 bits are the wrapped sum).
// Build: nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild/include bench/reduce_huge.cu src/runtime.cpp src/gl/unavailable.cpp -o reduce_huge -lcuda
#include <cstdio>

#include "sluice/cuda/reduce/vectorized.cuh"

using namespace sluice::cuda_backend;

__global__ void fill(unsigned* p, u64 n) {
  for (u64 i = blockIdx.x * u64{blockDim.x} + threadIdx.x; i < n; i += u64{gridDim.x} * blockDim.x)
    p[i] = static_cast<unsigned>((i * 0x9e3779b97f4a7c15ull) >> 32);
}
__global__ void reference(const unsigned* p, u64 n, unsigned long long* sum) {
  unsigned long long s = 0;
  for (u64 i = blockIdx.x * u64{blockDim.x} + threadIdx.x; i < n; i += u64{gridDim.x} * blockDim.x) s += p[i];
  atomicAdd(sum, s);
}

int main() {
  const u64 n = (u64{1} << 31) + 1000;
  unsigned *in = nullptr, *result = nullptr;
  unsigned long long* ref = nullptr;
  if (cudaMalloc(&in, n * 4) != cudaSuccess || cudaMalloc(&result, 8) != cudaSuccess || cudaMalloc(&ref, 16) != cudaSuccess) {
    std::printf("no room for %llu u32\n", (unsigned long long)n);
    return 2;
  }
  fill<<<1024, 256>>>(in, n);
  int failures = 0;
  for (int shift = 0; shift < 2; ++shift) {
    const unsigned* p = in + shift;
    const u64 m = n - shift;
    cudaMemset(ref, 0, 16);
    reference<<<1024, 256>>>(p, m, ref);
    for (auto dyn : {vectorized::setting::automatic, vectorized::setting::on}) {
      vectorized::run<unsigned, sluice::sum>(p, m, result, 0u, sluice::sum{}, 0, "reduce_huge", dyn);
      unsigned got = 0;
      unsigned long long want = 0;
      cudaMemcpy(&got, result, 4, cudaMemcpyDeviceToHost);
      cudaMemcpy(&want, ref, 8, cudaMemcpyDeviceToHost);
      const bool ok = got == static_cast<unsigned>(want) && cudaGetLastError() == cudaSuccess;
      failures += !ok;
      std::printf("n=%llu start+%d dynamic=%s: %u, reference %u: %s\n", (unsigned long long)m, shift,
                  dyn == vectorized::setting::on ? "on" : "auto", got, static_cast<unsigned>(want), ok ? "ok" : "FAILED");
    }
  }
  std::printf("failures: %d; last error: %s\n", failures, cudaGetErrorString(cudaGetLastError()));
  return failures != 0;
}
