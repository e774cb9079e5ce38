// What Hopper's bulk copies can move (not part of the build): the ceiling under the pipelined scan and
// compact, which move every tile through shared memory by cp.async.bulk. A persistent grid (blocks per SM
// B) of one-thread copiers moves 1 GiB through S buffers of `tile` bytes each: bulk load, then bulk store
// from the same buffer (copy), or bulk load alone (read); beside cudaMemcpyAsync, a vectorized load/store
// copy kernel, and a per-thread cp.async (LDGSTS) read pipeline. Fractions are of the same run's memcpy:
// copies by (read + write) bytes, reads by the read bytes (a read moving at the copy's byte rate is 1.0).
// Build: nvcc -std=c++20 -O3 -arch=sm_90 -Iinclude -Ibuild/include bench/bulk_copy_ceiling.cu -o bulk_copy_ceiling
#include <cuda/ptx>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <string_view>

#include "event_median.cuh"

using u64 = std::uint64_t;

// Bulk pipeline: thread 0 of each block; tile t of this block in buffer t % S; store or not. Hints: L2
// evict_first policies on the loads (bit 0) and the stores (bit 1) (stop 41).
template <bool Store, unsigned Hints = 0>
__global__ void bulk_kernel(const char* in, char* out, u64 bytes, unsigned tile, unsigned stages, unsigned long long* sink) {
  extern __shared__ __align__(128) char buf[];
  __shared__ alignas(8) std::uint64_t bar[16];
  if (threadIdx.x != 0) return;
  std::uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  const u64 tiles = bytes / tile, G = gridDim.x;
  for (unsigned s = 0; s < stages; ++s) cuda::ptx::mbarrier_init(&bar[s], 1);
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  auto load = [&](unsigned s, u64 t) {
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared, &bar[s], tile);
    if constexpr (Hints & 1u)
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;" ::"r"(
                       static_cast<unsigned>(__cvta_generic_to_shared(buf + std::size_t{s} * tile))),
                   "l"(in + t * tile), "r"(tile), "r"(static_cast<unsigned>(__cvta_generic_to_shared(&bar[s]))), "l"(policy)
                   : "memory");
    else
      cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, buf + std::size_t{s} * tile, in + t * tile, tile, &bar[s]);
  };
  unsigned r = 0;
  for (; r < stages && blockIdx.x + u64{r} * G < tiles; ++r) load(r, blockIdx.x + u64{r} * G);
  unsigned long long acc = 0;
  for (unsigned round = 0;; ++round) {
    const u64 t = blockIdx.x + u64{round} * G;
    if (t >= tiles) break;
    const unsigned s = round % stages;
    while (!cuda::ptx::mbarrier_try_wait_parity(&bar[s], (round / stages) & 1u)) {
    }
    if constexpr (Store) {
      if constexpr (Hints & 2u)
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], %2, %3;" ::"l"(out + t * tile),
                     "r"(static_cast<unsigned>(__cvta_generic_to_shared(buf + std::size_t{s} * tile))), "r"(tile), "l"(policy)
                     : "memory");
      else
        cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared, out + t * tile, buf + std::size_t{s} * tile, tile);
      cuda::ptx::cp_async_bulk_commit_group();
      cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
    } else {
      acc += buf[std::size_t{s} * tile];
    }
    const u64 next = blockIdx.x + u64{round + stages} * G;
    if (next < tiles) load(s, next);
  }
  if constexpr (Store) cuda::ptx::cp_async_bulk_wait_group(cuda::ptx::n32_t<0>{});
  if (acc == 12345) *sink = acc;
}

// Plain vectorized copy: each thread 4 uint4 in flight per iteration.
__global__ void ldg_copy(const uint4* in, uint4* out, u64 n) {
  const u64 stride = u64{gridDim.x} * blockDim.x;
  for (u64 i = blockIdx.x * u64{blockDim.x} + threadIdx.x; i < n; i += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (i + k * stride < n) v[k] = in[i + k * stride];
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (i + k * stride < n) out[i + k * stride] = v[k];
  }
}

// Per-thread cp.async (16 bytes each) read pipeline: S stages of a block-wide tile, wait_group S-1.
template <unsigned S>
__global__ void ldgsts_read(const char* in, u64 bytes, unsigned tile, unsigned long long* sink) {
  extern __shared__ __align__(128) char buf[];
  const u64 tiles = bytes / tile, G = gridDim.x;
  const unsigned per = tile / 16 / blockDim.x;
  auto issue = [&](unsigned s, u64 t) {
    for (unsigned k = 0; k < per; ++k) {
      const unsigned off = (k * blockDim.x + threadIdx.x) * 16;
      const char* src = in + t * tile + off;
      char* dst = buf + std::size_t{s} * tile + off;
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(dst))), "l"(src));
    }
  };
  unsigned long long acc = 0;
  for (unsigned r = 0; r < S; ++r) {
    if (blockIdx.x + u64{r} * G < tiles) issue(r, blockIdx.x + u64{r} * G);
    asm volatile("cp.async.commit_group;");
  }
  for (unsigned round = 0;; ++round) {
    const u64 t = blockIdx.x + u64{round} * G;
    if (t >= tiles) break;
    asm volatile("cp.async.wait_group %0;" ::"n"(S - 1));
    const unsigned s = round % S;
    acc += buf[std::size_t{s} * tile + threadIdx.x * 16];  // own bytes only: no barrier needed
    const u64 next = blockIdx.x + u64{round + S} * G;
    if (next < tiles) issue(s, next);
    asm volatile("cp.async.commit_group;");
  }
  if (acc == 12345) *sink = acc;
}

template <unsigned Hints>
void hinted(const char* in, char* out, u64 bytes, int sms, float copy, unsigned long long* sink) {
  for (unsigned tile : {24576u, 28672u, 32768u})
    for (unsigned stages : {2u, 3u, 4u}) {
      const std::size_t smem = std::size_t{tile} * stages;
      if (smem * 2 > 220 * 1024) continue;
      cudaFuncSetAttribute(bulk_kernel<true, Hints>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
      const float c = event_median_ms(3, 11, [] {}, [&] { bulk_kernel<true, Hints><<<sms * 2, 32, smem>>>(in, out, bytes, tile, stages, sink); });
      std::printf("bulk L2 hints %u blocks/SM 2 tile %5u stages %u: copy %.3f of copy\n", Hints, tile, stages, copy / c);
    }
}

int main(int argc, char** argv) {
  const u64 bytes = u64{1} << 30;
  char *in, *out;
  unsigned long long* sink;
  cudaMalloc(&in, bytes), cudaMalloc(&out, bytes), cudaMalloc(&sink, 8);
  cudaMemset(in, 1, bytes);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  auto ms_of = [&](auto f) { return event_median_ms(3, 11, [] {}, f); };
  const float copy = ms_of([&] { cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice); });
  const double rate = 2.0 * bytes / copy;  // bytes per ms
  std::printf("memcpy 1 GiB: %.4f ms, %.0f GB/s\n", copy, rate / 1e6);
  if (argc > 1 && argv[1] == std::string_view("l2")) {  // stop 41: L2 evict_first policies, in (1), out (2), both (3)
    for (int rep = 0; rep < 2; ++rep) hinted<0>(in, out, bytes, sms, copy, sink), hinted<1>(in, out, bytes, sms, copy, sink),
                                      hinted<2>(in, out, bytes, sms, copy, sink), hinted<3>(in, out, bytes, sms, copy, sink);
    std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
  }
  const float ldg = ms_of([&] { ldg_copy<<<sms * 8, 256>>>(reinterpret_cast<const uint4*>(in), reinterpret_cast<uint4*>(out), bytes / 16); });
  std::printf("ldg copy (4 x 16 B per thread): %.3f of copy\n", copy / ldg);
  for (unsigned blocks : {1u, 2u, 4u})
    for (unsigned tile : {8192u, 16384u, 24576u, 32768u})
      for (unsigned stages : {2u, 3u, 4u, 6u, 8u}) {
        const std::size_t smem = std::size_t{tile} * stages;
        if (smem * blocks > 220 * 1024 || smem > 227 * 1024) continue;
        cudaFuncSetAttribute(bulk_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
        cudaFuncSetAttribute(bulk_kernel<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
        const unsigned grid = sms * blocks;
        const float c = ms_of([&] { bulk_kernel<true><<<grid, 32, smem>>>(in, out, bytes, tile, stages, sink); });
        const float r = ms_of([&] { bulk_kernel<false><<<grid, 32, smem>>>(in, out, bytes, tile, stages, sink); });
        std::printf("bulk blocks/SM %u tile %5u stages %u (in flight/SM %4zu KiB): copy %.3f of copy, read %.3f of copy rate\n", blocks,
                    tile, stages, smem * blocks / 1024, copy / c, (bytes / r) / rate);
      }
  for (unsigned blocks : {1u, 2u, 4u})
    for (unsigned tile : {16384u, 24576u}) {
      constexpr unsigned S = 4;
      const std::size_t smem = std::size_t{tile} * S;
      if (smem * blocks > 220 * 1024) continue;
      cudaFuncSetAttribute(ldgsts_read<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
      const float r = ms_of([&] { ldgsts_read<S><<<sms * blocks, 256, smem>>>(in, bytes, tile, sink); });
      std::printf("cp.async read blocks/SM %u tile %5u stages %u: read %.3f of copy rate\n", blocks, tile, S, (bytes / r) / rate);
    }
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
}
