// Where reduce's equal-share body loses its microsecond to CUB at 2^21-2^27 (stop 39; not part of the build).
// The library's body_kernel is taken apart: copies of it that stop after each of its steps, so that each
// step's cost is the difference of two rows, beside CUB's two kernels and the library's own call:
//   library    vectorized::run (the equal-share body below 256 MiB, the dynamic chunks from there), and the same
//              with dynamic=off and =on, and at n - 100 (a tail) and at in + 1, n - 2 (a head and a tail);
//   full       the copy below, all steps (the library's kernel, its counter reset by the last block);
//   lean-last  the last block folds the partials and writes init op that, without combine_in_order's block
//              reduce (valid where there is no head and no tail, as in every size here);
//   lean-nofence  lean-last without the acquire fence in every thread of the last block (thread 0's
//              acquiring count and the barrier after it order the loads);
//   lean-relaxed*  lean-last with the count relaxed and no fence: a timing only, as the partials are then not
//              ordered before the count (checked all the same);
//   lean-warp  lean-last, warp 0 alone folding the partials (up to 12 vectors a lane, all loaded at once);
//   no-fold    the last block returns once it knows it is last (no result);
//   no-count   each block writes its partial and returns (CUB's first kernel's shape; no result);
//   *-waves    the same kernel on CUB's grid: one 16 KiB block tile a block up to 5 resident waves;
//   steal P% nK  equal shares of the first P % of the warp tiles, then the rest in n KiB chunks drawn by the
//              blocks as they finish their shares (steal_copy), the new end (packed words, relaxed count);
//   lib-body 2x, lib-body waves  the library's body_kernel (its new end) on twice the equal shares' grid and on
//              CUB's;
//   cub        cub::DeviceReduce::Sum, temporary storage allocated once.
// Each is timed 20 launches back to back between two events (the host's time hidden) and one launch
// between two events, the variants in turn round by round, medians of the rounds. u32 sum of random
// values; the rows with a result are checked against the host's sum first. "trace": per block %globaltimer
// stamps (start, loads folded, counted done; the last block's fold and its result) of full and full-waves
// at 2^24, their quantiles relative to the first block's start. "once": each variant 5 times at 2^22 and
// 2^24, untimed, for ncu. "steal": only the library's rows, the steal rows and cub, from 2^24.
// Build: nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild/include -Ibench bench/reduce_tail.cu src/runtime.cpp src/gl/unavailable.cpp -o reduce_tail
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <functional>
#include <cstdio>
#include <random>
#include <string_view>
#include <vector>

#include "sluice/cuda/reduce/vectorized.cuh"

using namespace sluice::cuda_backend;
namespace vz = sluice::cuda_backend::vectorized;

using Op = sluice::sum;
using u32 = std::uint32_t;
using P = vz::policy<u32>;

enum mode : int { full = 0, lean_last = 1, no_fold = 2, no_count = 3, lean_nofence = 4, lean_relaxed = 5, lean_warp = 6 };

// Warp 0 alone folds partials[0, count) in order: lane l a contiguous run of up to 12 vectors (count <= 6144
// u32), all loaded at once, then an ordered tree; lane 0 gets the fold.
__device__ u32 warp_fold_partials(const u32* partials, u64 count) {
  constexpr unsigned most = 12;
  const unsigned lane = threadIdx.x & 31u;
  const u64 vectors = (count + 3) / 4, from = lane * vectors / 32, to = (lane + 1) * vectors / 32;
  vec16<u32> v[most];
#pragma unroll
  for (unsigned j = 0; j < most; ++j)
    if (from + j < to) {
      if ((from + j) * 4 + 4 <= count) {
        v[j].raw = reinterpret_cast<const uint4*>(partials)[from + j];
      } else {
        for (unsigned e = 0; e < 4; ++e) v[j].e[e] = (from + j) * 4 + e < count ? partials[(from + j) * 4 + e] : 0u;
      }
    }
  maybe<u32> x{0, false};
#pragma unroll
  for (unsigned j = 0; j < most; ++j)
    if (from + j < to)
#pragma unroll
      for (unsigned e = 0; e < 4; ++e)
        if ((from + j) * 4 + e < count) x = maybe<u32>{x.has ? x.v + v[j].e[e] : v[j].e[e], true};
  return vz::warp_reduce_maybe_in_order(x, maybe_op<u32, Op>{Op{}}).v;
}

__device__ __forceinline__ u64 now() {
  u64 t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// body_kernel (include/sluice/cuda/reduce/vectorized.cuh) step by step; stamps[5 b + k] when Trace.
template <int Mode, bool Trace>
__global__ void __launch_bounds__(P::threads, P::body_min_blocks)
    body_copy(const u32* in, u64 head, u64 tiles, u64 tail_at, u64 n, u32 init, u32* result, u32* partials, unsigned* done,
              u64* stamps) {
  __shared__ maybe<u32> warp_part[P::warps];
  __shared__ maybe<u32> total;
  __shared__ bool last;
  const Op op{};
  if (Trace && threadIdx.x == 0) stamps[5 * blockIdx.x] = now();
  const u32* body = in + head;
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x & 31u;
  const u64 units = static_cast<u64>(gridDim.x) * P::warps, u = static_cast<u64>(blockIdx.x) * P::warps + warp;
  const u64 first = u * tiles / units, last_tile = (u + 1) * tiles / units;
  maybe<u32> acc{0, false};
  for (u64 t = first; t < last_tile; ++t) acc = vz::fold_warp_tile<P>(acc, body + t * P::warp_tile, op);
  if (lane == 0) warp_part[warp] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    if (Trace) stamps[5 * blockIdx.x + 1] = now();
    maybe<u32> b = warp_part[0];
    for (unsigned w = 1; w < P::warps; ++w) b = maybe_op<u32, Op>{op}(b, warp_part[w]);
    partials[blockIdx.x] = b.v;
    if constexpr (Mode != no_count) {
      constexpr auto order = Mode == lean_relaxed ? cuda::memory_order_relaxed : cuda::memory_order_acq_rel;
      const unsigned before = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*done).fetch_add(1u, order);
      last = before == gridDim.x - 1;
      if (Trace) stamps[5 * blockIdx.x + 2] = now();
    }
  }
  if constexpr (Mode == no_count) return;
  __syncthreads();
  if (!last) return;
  if (threadIdx.x == 0) *done = 0;  // every other block has counted: the next launch's count
  if constexpr (Mode == no_fold) return;
  if constexpr (Mode != lean_nofence && Mode != lean_relaxed) cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
  if constexpr (Mode == lean_warp) {
    if (threadIdx.x < 32) {
      const u32 all = warp_fold_partials(partials, gridDim.x);
      if (threadIdx.x == 0) *result = op(init, all);
    }
    return;
  }
  const u32 all = vz::fold_partials_in_order<P, u32, Op, P::per_vector * P::body_fold_vectors>(vz::slots<u32, false>{partials}, gridDim.x, op);
  if (Trace && threadIdx.x == 0) stamps[5 * blockIdx.x + 3] = now();
  if constexpr (Mode != full) {
    if (threadIdx.x == 0) *result = op(init, all);
  } else {
    if (threadIdx.x == 0) total = maybe<u32>{all, true};
    __syncthreads();
    vz::combine_in_order<P>(in, head, &total, 1, tail_at, n, op, init, result);
  }
  if (Trace && threadIdx.x == 0) stamps[5 * blockIdx.x + 4] = now();
}

// One epoch counter for every row that leaves packed words in `words` (never zeroed: each launch's epoch
// differs from every earlier one's).
unsigned next_epoch() {
  static unsigned epoch = 0;
  return epoch = epoch % (sluice::cuda_backend::kept_state_epochs - 1) + 1;
}

// Equal shares of the first StaticPercent % of the warp tiles, then the rest in chunks of 8 x K warp tiles
// drawn from `counter` by the blocks as they finish (the dynamic kernel's protocol: the counter ends at
// chunks + 2 x blocks); partials as packed words counted relaxed (slots [0, blocks) the shares', then the
// chunks'), the last block folds them 6 words a lane. The last block zeroes the counter for the next launch.
template <unsigned StaticPercent, unsigned K>
__global__ void __launch_bounds__(P::threads, P::body_min_blocks)
    steal_copy(const u32* in, u64 tiles, u32* result, vz::slots<u32> partials, unsigned* counter) {
  __shared__ maybe<u32> warp_part[2][P::warps];
  __shared__ unsigned ticket[2];
  __shared__ bool last;
  const Op op{};
  const unsigned warp = threadIdx.x / 32;
  const u64 blocks = gridDim.x, units = blocks * P::warps, u = blockIdx.x * u64{P::warps} + warp;
  const u64 shared_tiles = tiles * StaticPercent / 100, chunk_tiles = u64{P::warps} * K;
  const u64 chunks = (tiles - shared_tiles + chunk_tiles - 1) / chunk_tiles;
  maybe<u32> acc{0, false};
  for (u64 t = u * shared_tiles / units; t < (u + 1) * shared_tiles / units; ++t) acc = vz::fold_warp_tile<P>(acc, in + t * P::warp_tile, op);
  vz::put_block_part<P>(acc, warp_part[0], partials, blockIdx.x, op);  // (every block has a tile: tiles >= 8 x blocks x 100 / StaticPercent)
  if (threadIdx.x == 0) ticket[1] = atomicAdd(counter, 1u);
  __syncthreads();
  for (unsigned k = 1;; ++k) {
    const u64 c = ticket[k & 1];
    if (c >= chunks) break;
    if (threadIdx.x == 0) ticket[(k + 1) & 1] = atomicAdd(counter, 1u);
    const u64 t0 = shared_tiles + c * chunk_tiles + warp * K;
    maybe<u32> a{0, false};
#pragma unroll
    for (unsigned j = 0; j < K; ++j)
      if (t0 + j < tiles) a = vz::fold_warp_tile<P>(a, in + (t0 + j) * P::warp_tile, op);
    vz::put_block_part<P>(a, warp_part[k & 1], partials, blocks + c, op);
  }
  if (threadIdx.x == 0) last = partials.count(counter) == chunks + 2 * blocks - 1;
  __syncthreads();
  if (!last) return;
  const u32 all = vz::fold_partials_in_order<P, u32, Op, P::body_fold_words>(partials, static_cast<unsigned>(blocks + chunks), op);
  if (threadIdx.x == 0) *result = all, *counter = 0;
}

struct variant {
  const char* name;
  bool has_result;
  std::function<void()> launch;
  u64 from = 0, less = 0;  // the checked sum is of h[from, n - less)
};

float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  const bool trace = argc > 1 && std::string_view(argv[1]) == "trace";
  const bool once = argc > 1 && std::string_view(argv[1]) == "once";  // for ncu: each variant 5 times, untimed
  const bool steal_rows = argc > 1 && std::string_view(argv[1]) == "steal";
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const u64 top = u64{1} << 27;
  std::vector<u32> h(top);
  std::mt19937 g(7);
  for (auto& x : h) x = g();
  u32 *in, *result, *partials;
  unsigned* done;
  u64* stamps;
  cudaMalloc(&in, top * 4), cudaMalloc(&result, 4), cudaMalloc(&partials, 1 << 20), cudaMalloc(&done, 4);
  cudaMalloc(&stamps, u64{5} << 20);
  unsigned long long* words;
  unsigned* counters;
  cudaMalloc(&words, u64{8} << 16), cudaMalloc(&counters, 12);
  cudaMemset(words, 0, u64{8} << 16), cudaMemset(counters, 0, 12);
  cudaMemcpy(in, h.data(), top * 4, cudaMemcpyHostToDevice);
  cudaMemset(done, 0, 4);
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  cub::DeviceReduce::Sum(nullptr, temp_bytes, in, result, static_cast<int>(top));
  cudaMalloc(&temp, temp_bytes);
  std::printf("device SMs %d, u32 sum, medians of rounds (20 launches back to back / 1 launch between events)\n", sms);
  std::vector<u64> sizes;
  if (trace)
    sizes = {u64{1} << 24};
  else if (once)
    sizes = {u64{1} << 22, u64{1} << 24};
  else if (steal_rows)
    sizes = {u64{1} << 24, u64{1} << 25, u64{1} << 26, u64{1} << 27};
  else
    for (int k = 21; k <= 27; ++k) sizes.push_back(u64{1} << k);
  for (const u64 n : sizes) {
    const u64 tiles = n / P::warp_tile;  // aligned, whole tiles: no head, no tail
    const unsigned equal = static_cast<unsigned>(std::min<u64>(tiles / P::warps, u64(sms) * P::blocks_per_sm));
    const unsigned waves = static_cast<unsigned>(std::min<u64>(tiles / P::warps, u64(sms) * P::blocks_per_sm * 5));
    auto copy = [&](auto kernel, unsigned blocks) {
      return [=] { kernel<<<blocks, P::threads>>>(in, 0, tiles, n, n, 0u, result, partials, done, stamps); };
    };
    if (trace) {
      for (const auto& [name, blocks] : {std::pair{"full", equal}, std::pair{"full-waves", waves}}) {
        std::vector<u64> s(5 * u64{blocks});
        for (int rep = 0; rep < 3; ++rep) {
          for (int w = 0; w < 5; ++w) body_copy<full, true><<<blocks, P::threads>>>(in, 0, tiles, n, n, 0u, result, partials, done, stamps);
          cudaMemset(stamps, 0, s.size() * 8);
          body_copy<full, true><<<blocks, P::threads>>>(in, 0, tiles, n, n, 0u, result, partials, done, stamps);
          cudaMemcpy(s.data(), stamps, s.size() * 8, cudaMemcpyDeviceToHost);
          std::vector<double> start, folded, counted;
          u64 t0 = ~u64{0};
          for (unsigned b = 0; b < blocks; ++b) t0 = std::min(t0, s[5 * b]);
          double fold_end = 0, result_end = 0, last_counted = 0;
          for (unsigned b = 0; b < blocks; ++b) {
            start.push_back((s[5 * b] - t0) * 1e-3), folded.push_back((s[5 * b + 1] - t0) * 1e-3), counted.push_back((s[5 * b + 2] - t0) * 1e-3);
            if (s[5 * b + 4]) fold_end = (s[5 * b + 3] - t0) * 1e-3, result_end = (s[5 * b + 4] - t0) * 1e-3, last_counted = counted.back();
          }
          auto q = [](std::vector<double> v, double p) {
            std::sort(v.begin(), v.end());
            return v[static_cast<std::size_t>(p * (v.size() - 1))];
          };
          std::printf("trace n=2^24 %-10s blocks %5u  start q0/50/100 %.2f/%.2f/%.2f us  loads folded q0/10/50/90/100 %.2f/%.2f/%.2f/%.2f/%.2f  "
                      "counted q50/100 %.2f/%.2f  last block: counted %.2f, partials folded %.2f, result %.2f\n",
                      name, blocks, q(start, 0), q(start, .5), q(start, 1), q(folded, 0), q(folded, .1), q(folded, .5), q(folded, .9),
                      q(folded, 1), q(counted, .5), q(counted, 1), last_counted, fold_end, result_end);
        }
      }
      continue;
    }
    // The library's body_kernel itself on other grids: its words carry an epoch of this binary's own (never
    // zeroed: each launch's epoch differs), its counters alternate with the epoch's parity.
    auto lib_body = [=](unsigned blocks) {
      return [=] {
        const unsigned epoch = next_epoch();
        vz::slots<u32> sl{};
        sl.words = words, sl.epoch = epoch;
        vz::body_kernel<P, u32, Op, false><<<blocks, P::threads>>>(in, 0, tiles, n, n, Op{}, 0u, result, sl, counters + (epoch & 1),
                                                                   counters + (~epoch & 1));
      };
    };
    auto steal = [=](auto kernel) {
      return [=] {
        vz::slots<u32> sl{};
        sl.words = words, sl.epoch = next_epoch();
        kernel<<<equal, P::threads>>>(in, tiles, result, sl, counters + 2);
      };
    };
    std::vector<variant> vs = {
        {"library", true, [=] { vz::run<u32, Op>(in, n, result, 0u, Op{}, 0, "reduce_tail"); }},
        {"library dyn=off", true, [=] { vz::run<u32, Op>(in, n, result, 0u, Op{}, 0, "reduce_tail", vz::setting::off); }},
        {"library dyn=on", true, [=] { vz::run<u32, Op>(in, n, result, 0u, Op{}, 0, "reduce_tail", vz::setting::on); }},
        {"library n-100", true, [=] { vz::run<u32, Op>(in, n - 100, result, 0u, Op{}, 0, "reduce_tail"); }, 0, 100},
        {"library in+1,n-2", true, [=] { vz::run<u32, Op>(in + 1, n - 2, result, 0u, Op{}, 0, "reduce_tail"); }, 1, 1},
        {"lib on in+1,n-2", true, [=] { vz::run<u32, Op>(in + 1, n - 2, result, 0u, Op{}, 0, "reduce_tail", vz::setting::on); }, 1, 1},
        {"steal 75% 16K", true, steal(steal_copy<75, 1>)},
        {"steal 75% 32K", true, steal(steal_copy<75, 2>)},
        {"steal 60% 16K", true, steal(steal_copy<60, 1>)},
        {"steal 85% 16K", true, steal(steal_copy<85, 1>)},
        {"lib-body 2x", true, lib_body(std::min(2 * equal, static_cast<unsigned>(tiles / P::warps)))},
        {"lib-body waves", true, lib_body(waves)},
        {"full", true, copy(body_copy<full, false>, equal)},
        {"lean-last", true, copy(body_copy<lean_last, false>, equal)},
        {"lean-nofence", true, copy(body_copy<lean_nofence, false>, equal)},
        {"lean-relaxed*", true, copy(body_copy<lean_relaxed, false>, equal)},
        {"lean-warp", true, copy(body_copy<lean_warp, false>, equal)},
        {"no-fold", false, copy(body_copy<no_fold, false>, equal)},
        {"no-count", false, copy(body_copy<no_count, false>, equal)},
        {"full-waves", true, copy(body_copy<full, false>, waves)},
        {"lean-last-waves", true, copy(body_copy<lean_last, false>, waves)},
        {"no-count-waves", false, copy(body_copy<no_count, false>, waves)},
        {"cub", true, [=] { std::size_t tb = temp_bytes; cub::DeviceReduce::Sum(temp, tb, in, result, static_cast<int>(n)); }},
    };
    if (steal_rows)
      std::erase_if(vs, [](const variant& v) {
        const std::string_view name = v.name;
        return !(name == "library" || name == "library dyn=off" || name == "library dyn=on" || name.starts_with("steal") || name == "cub");
      });
    for (auto& v : vs) {
      if (!v.has_result) continue;
      u32 want = 0;
      for (u64 i = v.from; i < n - v.less; ++i) want += h[i];
      cudaMemset(result, 0, 4);
      v.launch();
      u32 got = 0;
      cudaMemcpy(&got, result, 4, cudaMemcpyDeviceToHost);
      if (got != want) std::printf("FAIL n=%llu %s: %u, want %u\n", (unsigned long long)n, v.name, got, want);
    }
    if (cudaGetLastError() != cudaSuccess) return std::printf("CUDA error\n"), 1;
    if (once) {
      for (auto& v : vs)
        for (int j = 0; j < 5; ++j) v.launch();
      continue;
    }
    cudaEvent_t a, b;
    cudaEventCreate(&a), cudaEventCreate(&b);
    std::vector<std::vector<float>> many(vs.size()), one(vs.size());
    const int rounds = 15, batch = 20;
    for (int r = -2; r < rounds; ++r)
      for (std::size_t k = 0; k < vs.size(); ++k) {
        const std::size_t i = (k + static_cast<std::size_t>(r + 2)) % vs.size();
        float ms;
        cudaEventRecord(a);
        for (int j = 0; j < batch; ++j) vs[i].launch();
        cudaEventRecord(b), cudaEventSynchronize(b), cudaEventElapsedTime(&ms, a, b);
        if (r >= 0) many[i].push_back(ms * 1e3f / batch);
        cudaEventRecord(a);
        vs[i].launch();
        cudaEventRecord(b), cudaEventSynchronize(b), cudaEventElapsedTime(&ms, a, b);
        if (r >= 0) one[i].push_back(ms * 1e3f);
      }
    const float cub_many = median(many.back()), cub_one = median(one.back());
    for (std::size_t i = 0; i < vs.size(); ++i)
      std::printf("n=2^%-2d %-16s back to back %8.2f us (%.3fx cub)   one call %8.2f us (%.3fx cub)\n", __builtin_ctzll(n), vs[i].name,
                  median(many[i]), median(many[i]) / cub_many, median(one[i]), median(one[i]) / cub_one);
    cudaEventDestroy(a), cudaEventDestroy(b);
  }
  if (cudaDeviceSynchronize() != cudaSuccess) return std::printf("CUDA error\n"), 1;
  return 0;
}
