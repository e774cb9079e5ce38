// Study (not part of the build): why reduce's one-block kernel (vectorized::single_kernel, up to 128 KiB of
// input) took longer on the GPU than CUB's single-tile kernel at 2^12 (ncu, stop 36: 3.36 us against 2.46-2.50).
// Variants of one block of 256 threads summing n u32, each checked against the host's sum, then timed (the
// median of one launch between two events, 51 times), and run under ncu for the kernels' own durations:
//   contiguous  single_kernel before stop 36: thread t folds a contiguous run of 16-byte vectors (in order),
//             then an in-order block reduce of maybe<T>;
//   plain     the same layout with each thread's run folded as T (no empty-flag per element);
//   tiles     warp w folds whole warp tiles (vector j of lane l is the tile's (32 j + l)-th: every load of a
//             warp is 512 contiguous bytes), each vector reduced across the warp in lane order
//             (fold_warp_tile, body_kernel's), warps combined in order by thread 0;
//   lib       the library's single_kernel as run() launches it (device runs 4 and 5 of stop 36 timed earlier
//             forms: four tiles loaded before any was folded, and the tail loaded after the tiles; stop 38's
//             run 3 the form before: parts as maybe<T>, the tail code always compiled in); lib-tail: the
//             same with the last 100 elements as its tail;
//   commuting (stop 38) the tiles layout with each lane summing all its elements in one register, then one
//             warp reduction (redux.sync) and thread 0 over the 8 warps: an order of its own, fine for
//             operators that commute and associate exactly (integers), not input order;
//   comm-shfl, comm-maybe (stop 38) "commuting" with the ordered shuffle tree for the warp's sum, or with
//             maybe<u32> parts combined after init by thread 0;
//   in-tail, in-notail, c-tail, c-notail (stop 38) the library's single_kernel with the warps' fold in input
//             order (in) or commuting (c), with its tail code (Tail = true, no tail to fold) or compiled out;
//   cub       cub::DeviceReduce::Sum (one single-tile kernel up to 4096 u32, two kernels past it).
// Usage: reduce_single_block [LOG2,...] (default 10,12,13,14,15: 2^9 to 2^15).
// Build: nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild/include -Ibench \
//   bench/reduce_single_block.cu src/runtime.cpp src/gl/unavailable.cpp -o reduce_single_block
#include <cub/device/device_reduce.cuh>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <utility>
#include <random>
#include <vector>

#include "event_median.cuh"
#include "sluice/cuda/reduce/vectorized.cuh"

using namespace sluice::cuda_backend;
using u32 = unsigned;
using P = vectorized::policy<u32>;


// "contiguous": single_kernel before stop 36.
__global__ void __launch_bounds__(256) contiguous_kernel(const u32* in, u64 vectors, u32* result) {
  using block_reduce = cub::BlockReduce<maybe<u32>, 256>;
  __shared__ typename block_reduce::TempStorage storage;
  const maybe_op<u32, sluice::sum> mop{};
  const uint4* src = reinterpret_cast<const uint4*>(in);
  const u64 from = threadIdx.x * vectors / 256, to = (threadIdx.x + 1) * vectors / 256;
  maybe<u32> acc{0, false};
  for (u64 v0 = from; v0 < to; v0 += 8) {
    vec16<u32> w[8];
#pragma unroll
    for (unsigned k = 0; k < 8; ++k)
      if (v0 + k < to) w[k].raw = src[v0 + k];
#pragma unroll
    for (unsigned k = 0; k < 8; ++k)
      if (v0 + k < to)
#pragma unroll
        for (unsigned e = 0; e < 4; ++e) acc = mop(acc, maybe<u32>{w[k].e[e], true});
  }
  const maybe<u32> r = block_reduce(storage).Reduce(acc, mop);
  if (threadIdx.x == 0) *result = r.v;
}

// "plain": the contiguous layout, each thread's run folded as T.
__global__ void __launch_bounds__(256) plain_kernel(const u32* in, u64 vectors, u32* result) {
  using block_reduce = cub::BlockReduce<maybe<u32>, 256>;
  __shared__ typename block_reduce::TempStorage storage;
  const uint4* src = reinterpret_cast<const uint4*>(in);
  const u64 from = threadIdx.x * vectors / 256, to = (threadIdx.x + 1) * vectors / 256;
  maybe<u32> acc{0, from < to};
  u32 s = 0;
  for (u64 v0 = from; v0 < to; v0 += 8) {
    uint4 w[8];
#pragma unroll
    for (unsigned k = 0; k < 8; ++k)
      if (v0 + k < to) w[k] = src[v0 + k];
#pragma unroll
    for (unsigned k = 0; k < 8; ++k)
      if (v0 + k < to) s = s + w[k].x + w[k].y + w[k].z + w[k].w;
  }
  acc.v = s;
  const maybe<u32> r = block_reduce(storage).Reduce(acc, maybe_op<u32, sluice::sum>{});
  if (threadIdx.x == 0) *result = r.v;
}

// "tiles": warp w folds warp tiles [w T / 8, (w + 1) T / 8) with fold_warp_tile; thread 0 combines the warps.
__global__ void __launch_bounds__(256) tiles_kernel(const u32* in, u64 tiles, u32* result) {
  __shared__ maybe<u32> part[8];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x & 31u;
  maybe<u32> acc{0, false};
  for (u64 t = warp * tiles / 8; t < (warp + 1) * tiles / 8; ++t) acc = vectorized::fold_warp_tile<P>(acc, in + t * P::warp_tile, sluice::sum{});
  if (lane == 0) part[warp] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    maybe<u32> b = part[0];
    for (unsigned w = 1; w < 8; ++w) b = maybe_op<u32, sluice::sum>{}(b, part[w]);
    *result = b.v;
  }
}

// The "commuting" kernels' fold: the sum of lane `lane`'s elements of warp tiles [from, to).
__device__ __forceinline__ u32 lane_sum(const u32* in, u64 from, u64 to, unsigned lane) {
  u32 s = 0;
  for (u64 t = from; t < to; ++t) {
    const uint4* src = reinterpret_cast<const uint4*>(in + t * P::warp_tile);
    uint4 v[P::vectors];
#pragma unroll
    for (unsigned j = 0; j < P::vectors; ++j) v[j] = src[j * 32 + lane];
#pragma unroll
    for (unsigned j = 0; j < P::vectors; ++j) s += v[j].x + v[j].y + v[j].z + v[j].w;
  }
  return s;
}

// "commuting": the tiles layout, lane sums over all its vectors, one warp reduction per warp.
__global__ void __launch_bounds__(256) commuting_kernel(const u32* in, u64 tiles, u32* result) {
  __shared__ u32 part[8];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x & 31u;
  u32 s = lane_sum(in, warp * tiles / 8, (warp + 1) * tiles / 8, lane);
  s = __reduce_add_sync(0xffffffffu, s);
  if (lane == 0) part[warp] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    u32 b = 0;
    for (unsigned w = 0; w < 8; ++w) b += part[w];
    *result = b;
  }
}

// "comm-shfl": commuting with the library's ordered shuffle tree (warp_reduce_in_order) for the warp's sum.
__global__ void __launch_bounds__(256) commuting_shfl_kernel(const u32* in, u64 tiles, u32* result) {
  __shared__ u32 part[8];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x & 31u;
  u32 s = lane_sum(in, warp * tiles / 8, (warp + 1) * tiles / 8, lane);
  s = vectorized::warp_reduce_in_order(s, sluice::sum{});
  if (lane == 0) part[warp] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    u32 b = 0;
    for (unsigned w = 0; w < 8; ++w) b += part[w];
    *result = b;
  }
}

// "comm-maybe": commuting with the library's empty-flagged parts (maybe<u32>) combined by thread 0 after init.
__global__ void __launch_bounds__(256) commuting_maybe_kernel(const u32* in, u64 tiles, u32* result) {
  __shared__ maybe<u32> part[8];
  const maybe_op<u32, sluice::sum> mop{};
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x & 31u;
  const u64 from = warp * tiles / 8, to = (warp + 1) * tiles / 8;
  u32 s = lane_sum(in, from, to, lane);
  s = __reduce_add_sync(0xffffffffu, s);
  if (lane == 0) part[warp] = maybe<u32>{s, from < to};
  __syncthreads();
  if (threadIdx.x == 0) {
    maybe<u32> b{0u, true};
    for (unsigned w = 0; w < 8; ++w) b = mop(b, part[w]);
    *result = b.v;
  }
}

using Pin = vectorized::policy<u32, 4, 8, 0, 8, 1, false>;  // the warps' fold in input order
using Pc = vectorized::policy<u32, 4, 8, 0, 8, 1, true>;    // each lane's own elements first

int main(int argc, char** argv) {
  std::vector<unsigned> logs = {10, 12, 13, 14, 15};
  if (argc > 1) {
    logs.clear();
    for (char* p = argv[1]; *p;) {
      logs.push_back(static_cast<unsigned>(std::strtoul(p, &p, 10)));
      if (*p == ',') ++p;
    }
  }
  const u64 top = u64{1} << 15;
  std::vector<u32> h(top);
  std::mt19937 g(7);
  for (auto& x : h) x = g();
  u32 *in, *res;
  cudaMalloc(&in, top * 4), cudaMalloc(&res, 4);
  cudaMemcpy(in, h.data(), top * 4, cudaMemcpyHostToDevice);
  void* temp = nullptr;
  std::size_t tb = 0;
  cub::DeviceReduce::Sum(nullptr, tb, in, res, static_cast<int>(top));
  cudaMalloc(&temp, tb);
  int failures = 0;
  for (unsigned lg : logs) {
    const u64 n = u64{1} << lg;
    if (lg < 9 || lg > 15) return std::fprintf(stderr, "sizes are 2^9 to 2^15\n"), 2;
    u32 want = 0;
    for (u64 i = 0; i < n; ++i) want += h[i];
    std::size_t b = tb;
    const auto contiguous = [&] { contiguous_kernel<<<1, 256>>>(in, n / 4, res); };
    const auto lib = [&] {
      vectorized::single_kernel<P, u32, sluice::sum, false><<<1, 256>>>(in, 0, n / P::warp_tile, n / P::warp_tile * P::warp_tile, n, sluice::sum{}, 0u, res);
    };
    const auto lib_tail = [&] {  // the last 100 elements as the tail
      const u64 tiles = (n - 100) / P::warp_tile;
      vectorized::single_kernel<P, u32, sluice::sum, true><<<1, 256>>>(in, 0, tiles, tiles * P::warp_tile, n, sluice::sum{}, 0u, res);
    };
    const u64 tl = n / P::warp_tile, tail_at = tl * P::warp_tile;
    const auto lib_in_tail = [&] { vectorized::single_kernel<Pin, u32, sluice::sum, true><<<1, 256>>>(in, 0, tl, tail_at, n, sluice::sum{}, 0u, res); };
    const auto lib_in_notail = [&] { vectorized::single_kernel<Pin, u32, sluice::sum, false><<<1, 256>>>(in, 0, tl, tail_at, n, sluice::sum{}, 0u, res); };
    const auto lib_c_tail = [&] { vectorized::single_kernel<Pc, u32, sluice::sum, true><<<1, 256>>>(in, 0, tl, tail_at, n, sluice::sum{}, 0u, res); };
    const auto lib_c_notail = [&] { vectorized::single_kernel<Pc, u32, sluice::sum, false><<<1, 256>>>(in, 0, tl, tail_at, n, sluice::sum{}, 0u, res); };
    const auto comm_shfl = [&] { commuting_shfl_kernel<<<1, 256>>>(in, tl, res); };
    const auto comm_maybe = [&] { commuting_maybe_kernel<<<1, 256>>>(in, tl, res); };
    const auto plain = [&] { plain_kernel<<<1, 256>>>(in, n / 4, res); };
    const auto tiles = [&] { tiles_kernel<<<1, 256>>>(in, n / P::warp_tile, res); };
    const auto commuting = [&] { commuting_kernel<<<1, 256>>>(in, n / P::warp_tile, res); };
    const auto cubr = [&] { cub::DeviceReduce::Sum(temp, b, in, res, static_cast<int>(n)); };
    const std::pair<const char*, std::function<void()>> vs[] = {{"contiguous", contiguous}, {"plain", plain}, {"tiles", tiles}, {"commuting", commuting}, {"comm-shfl", comm_shfl}, {"comm-maybe", comm_maybe},
                                                                  {"in-tail", lib_in_tail}, {"in-notail", lib_in_notail}, {"c-tail", lib_c_tail},
                                                                  {"c-notail", lib_c_notail}, {"lib", lib}, {"lib-tail", lib_tail}, {"cub", cubr}};
    for (const auto& [name, f] : vs) {
      cudaMemset(res, 0, 4);
      f();
      u32 got = 0;
      cudaMemcpy(&got, res, 4, cudaMemcpyDeviceToHost);
      if (got != want) std::printf("MISMATCH %s n=%llu: %u against %u\n", name, n, got, want), ++failures;
      const float ms = event_median_ms(5, 51, [] {}, f);
      const float b2b = event_median_ms(2, 21, [] {}, [&] { for (int i = 0; i < 20; ++i) f(); }) / 20;
      std::printf("n=%-6llu %-10s one launch %6.2f us   back to back %6.2f us\n", n, name, ms * 1e3, b2b * 1e3);
    }
  }
  std::printf("failures: %d; last error: %s\n", failures, cudaGetErrorString(cudaGetLastError()));
  return failures ? 1 : 0;
}
