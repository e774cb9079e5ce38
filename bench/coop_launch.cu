// Study (not part of the build; stop 53): what does a cooperative launch cost against a plain one? The stable
// partition's resident path (every tile's block resident at once, each waiting for the last tile's prefix) is
// launched with cudaLaunchAttributeCooperative, which guarantees that residency; its calls at 2^16 take 3-4 us more
// than compact's single pass, which a plain launch starts. Here one kernel of G blocks of 256 threads (8 to 528, the
// H100's/H200's resident count for the select kernel) that copies G tiles of 8192 u32, launched in turn:
//   plain   <<<G, 256>>>
//   coop    cudaLaunchKernelEx with cudaLaunchAttributeCooperative
// each way one call at a time (launch, then cudaStreamSynchronize; the device idle before each call, as the
// production suite's synchronous rows) and back to back (100 launches, then one sync; per launch), timed between two
// CUDA events and by the host's wall clock (the launch call alone, and launch + sync). 201 rounds, medians.
// Build: nvcc -std=c++20 -O3 -arch=sm_90 bench/coop_launch.cu -o coop_launch
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using u64 = unsigned long long;
constexpr unsigned threads = 256, tile = 8192;

#define CK(x)                                                                                   \
  do {                                                                                          \
    cudaError_t e_ = (x);                                                                       \
    if (e_ != cudaSuccess) std::printf("%s: %s\n", #x, cudaGetErrorString(e_)), std::exit(1); \
  } while (0)

__global__ void __launch_bounds__(threads) copy_tiles(const uint4* in, uint4* out) {
  const u64 first = u64{blockIdx.x} * tile / 4;
  for (u64 i = first + threadIdx.x; i < first + tile / 4; i += threads) out[i] = in[i];
}

static void launch(bool coop, unsigned grid, const uint4* in, uint4* out, cudaStream_t s) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(threads);
  config.stream = s;
  cudaLaunchAttribute a{};
  a.id = cudaLaunchAttributeCooperative;
  a.val.cooperative = 1;
  config.attrs = &a;
  config.numAttrs = coop ? 1 : 0;
  CK(cudaLaunchKernelEx(&config, copy_tiles, in, out));
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 201;
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  uint4 *in = nullptr, *out = nullptr;
  const unsigned most = 528;
  CK(cudaMalloc(&in, u64{most} * tile * 4));
  CK(cudaMalloc(&out, u64{most} * tile * 4));
  CK(cudaMemset(in, 1, u64{most} * tile * 4));
  std::printf("grid,way,one_event_us,one_wall_us,one_launch_us,b2b_event_us,b2b_launch_us\n");
  using clock = std::chrono::steady_clock;
  const auto us = [](clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); };
  for (const unsigned grid : {8u, 32u, 132u, 528u}) {
    std::vector<double> ev[2], wall[2], call[2], b2b[2], b2b_call[2];
    for (int r = 0; r < rounds; ++r) {
      for (int w0 = 0; w0 < 2; ++w0) {
        const bool coop = (w0 + r) % 2;  // in turn, the order alternating
        CK(cudaStreamSynchronize(s));
        const auto t0 = clock::now();
        CK(cudaEventRecord(e0, s));
        launch(coop, grid, in, out, s);
        const auto t1 = clock::now();
        CK(cudaEventRecord(e1, s));
        CK(cudaStreamSynchronize(s));
        const auto t2 = clock::now();
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        ev[coop].push_back(ms * 1e3), wall[coop].push_back(us(t2 - t0)), call[coop].push_back(us(t1 - t0));
        if (r % 10 == 0) {  // back to back: 100 launches, one sync
          const auto b0 = clock::now();
          CK(cudaEventRecord(e0, s));
          for (int k = 0; k < 100; ++k) launch(coop, grid, in, out, s);
          const auto b1 = clock::now();
          CK(cudaEventRecord(e1, s));
          CK(cudaStreamSynchronize(s));
          CK(cudaEventElapsedTime(&ms, e0, e1));
          b2b[coop].push_back(ms * 1e3 / 100), b2b_call[coop].push_back(us(b1 - b0) / 100);
        }
      }
    }
    for (int coop = 0; coop < 2; ++coop)
      std::printf("%u,%s,%.2f,%.2f,%.2f,%.2f,%.2f\n", grid, coop ? "coop" : "plain", median(ev[coop]), median(wall[coop]),
                  median(call[coop]), median(b2b[coop]), median(b2b_call[coop]));
  }
  return 0;
}
