// Study (not part of the build; stop 52): could a synchronous call return sooner by watching its mapped host slot
// than by cudaStreamSynchronize? The synchronous compact and partition forms have their kernels store the count
// into pinned host memory mapped into the device, then wait for the stream; the host learns that the stream is done
// only after the kernel's last block has ended and the GPU has signalled the stream's completion. Here a kernel of
// one tile a block (8192 u32 copied, as a compact at 100% kept moves them) ends each block with a release add on a
// done counter; the last block to arrive stores the count into the slot after a system-scope fence, so that when
// the slot changes every block's stores are done. Ways to wait, in turn, one call each per round, 101 rounds, the
// device idle before each call (as the production suite times it):
//   async      the launch alone (the GPU's time, as an `_async` call)
//   sync       launch, cudaStreamSynchronize, read the slot (the library's way)
//   poll       the slot set to a sentinel, launch, spin until it changes (cudaStreamQuery every 4096 reads, so a
//              kernel that fails cannot hang the host), read it
//   poll+sync  poll, then cudaStreamSynchronize as well (what the wait for the kernel's end adds after the slot)
// Each between two CUDA events (the suite's way: the stop event recorded when the host returns) and by the host's
// wall clock; every count and output checked.
// Build: nvcc -std=c++20 -O3 -arch=sm_90 bench/sync_poll.cu -o sync_poll
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda/atomic>

using u32 = unsigned;
using u64 = unsigned long long;

constexpr unsigned threads = 256, tile = 8192;
constexpr u64 sentinel = ~u64{0};

#define CK(x)                                                                                   \
  do {                                                                                          \
    cudaError_t e_ = (x);                                                                       \
    if (e_ != cudaSuccess) std::printf("%s: %s\n", #x, cudaGetErrorString(e_)), std::exit(1); \
  } while (0)

__global__ void __launch_bounds__(threads) copy_tiles(const uint4* in, uint4* out, u64 n, unsigned* done, u64* slot) {
  const u64 first = u64{blockIdx.x} * tile / 4, end = min(first + tile / 4, n / 4);
  for (u64 i = first + threadIdx.x; i < end; i += threads) out[i] = in[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> d(*done);
    if (d.fetch_add(1, cuda::std::memory_order_acq_rel) == gridDim.x - 1) {
      d.store(0, cuda::std::memory_order_relaxed);  // the next call's counter
      cuda::atomic_ref<u64, cuda::thread_scope_system>(*slot).store(n, cuda::std::memory_order_release);
    }
  }
}

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 101;
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  u64* slot = nullptr;
  CK(cudaHostAlloc(&slot, 4096, cudaHostAllocMapped | cudaHostAllocPortable));
  unsigned* done = nullptr;
  CK(cudaMalloc(&done, sizeof(unsigned)));
  CK(cudaMemset(done, 0, sizeof(unsigned)));
  const char* names[] = {"async", "sync", "poll", "poll+sync"};
  std::printf("n,way,event_us,wall_us,failures\n");
  for (const int lg : {16, 20, 24, 28}) {
    const u64 n = u64{1} << lg;
    uint4 *in = nullptr, *out = nullptr;
    CK(cudaMalloc(&in, n * 4));
    CK(cudaMalloc(&out, n * 4));
    std::vector<u32> h(n);
    for (u64 i = 0; i < n; ++i) h[i] = static_cast<u32>(i * 2654435761u);
    CK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
    const unsigned grid = static_cast<unsigned>((n + tile - 1) / tile);
    std::vector<float> ev[4];
    std::vector<double> wall[4];
    int failures[4] = {};
    for (int r = 0; r < rounds + 3; ++r)
      for (int k = 0; k < 4; ++k) {
        const int way = (r + k) % 4;  // each round starts from the next way
        CK(cudaDeviceSynchronize());
        *reinterpret_cast<volatile u64*>(slot) = sentinel;
        const auto t0 = std::chrono::steady_clock::now();
        CK(cudaEventRecord(e0, s));
        copy_tiles<<<grid, threads, 0, s>>>(in, out, n, done, slot);
        u64 got = sentinel;
        if (way == 1) {
          CK(cudaStreamSynchronize(s));
          got = *reinterpret_cast<volatile u64*>(slot);
        } else if (way >= 2) {
          for (unsigned i = 1;; ++i) {
            got = cuda::atomic_ref<u64, cuda::thread_scope_system>(*slot).load(cuda::std::memory_order_acquire);
            if (got != sentinel) break;
            if (i % 4096 == 0 && cudaStreamQuery(s) != cudaErrorNotReady) {
              got = *reinterpret_cast<volatile u64*>(slot);
              break;
            }
          }
          if (way == 3) CK(cudaStreamSynchronize(s));
        }
        const auto t1 = std::chrono::steady_clock::now();
        CK(cudaEventRecord(e1, s));
        CK(cudaEventSynchronize(e1));
        if (way == 0) got = *reinterpret_cast<volatile u64*>(slot);
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        if (got != n) ++failures[way];
        if (r == 0) {  // the output, checked once a size and way
          std::vector<u32> o(n);
          CK(cudaMemcpy(o.data(), out, n * 4, cudaMemcpyDeviceToHost));
          if (o != h) ++failures[way];
          CK(cudaMemset(out, 0, n * 4));
        }
        if (r >= 3) ev[way].push_back(ms * 1000), wall[way].push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      }
    for (int w = 0; w < 4; ++w) {
      std::sort(ev[w].begin(), ev[w].end());
      std::sort(wall[w].begin(), wall[w].end());
      std::printf("%llu,%s,%.2f,%.2f,%d\n", n, names[w], ev[w][ev[w].size() / 2], wall[w][wall[w].size() / 2], failures[w]);
    }
    CK(cudaFree(in));
    CK(cudaFree(out));
  }
  return 0;
}
