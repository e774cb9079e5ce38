// Tuning study of reduce "vectorized" (not part of the build): loads in flight, blocks per SM and the
// single-launch limit, for u32 and f32 sums from 2^10 to 2^30, beside cub::DeviceReduce::Reduce (pre-allocated scratch, int count,
// cuda::std::plus as sluice's CUB peer calls it) and a device copy of the same bytes. Rates as the
// production suite's: GB/s of the bytes read, fraction of the copy's rate (bytes read + written). Every
// configuration is checked first: u32 exactly, f32 within 1e-5 of a host double sum and bitwise the same
// on a second run; each also at a start one element past the 16-byte boundary. "quick": fewer cases; "small":
// sizes up to 2^16 only, with every single-launch limit; "commuting": the quick sizes with the layouts for
// commuting operators below; "bulk": the quick sizes with the bulk-copy layouts below;
// "dynamic": the quick sizes with the dynamic chunks below and a trace of the default's block end times;
// "mid": 2^17 to 2^23 only, back to back as well, with other shapes of the default;
// "grid": the quick sizes from 2^24 with the dynamic kernel's grid resident (the library's, since stop 34) and
// at 8 blocks an SM (stop 28's, of which only the resident part draws chunks), each timed twice, CUB between;
// "fold": the same sizes with the last block's fold of the partials at 4, 8 and 16 loads a lane (stop 35);
// "occupancy": 2^20 and 2^22 to 2^28 with the dynamic kernel at 8 blocks an SM (stop 38), each row twice;
// "order": 2^10 to 2^17 with the one-block kernel's fold in input order against the default, whose lanes fold
// their own elements first for the built-in operators that commute; "edges" (stop 46): the library's 128 KiB chunks
// and 64 KiB ones at n and at in + 1, n - 2 (the kernels with the edges' code), from 2^24; "lastfold": 2^22 to 2^26 with the
// equal-share body whose last block folds the partials as T by runs of vectors (stop 38's run 2 took "order" where the
// policy's flag also turned the lanes' fold on in the body and dynamic kernels; it measured slower there at
// 2^22-2^23 and they keep the fold in order).
// Build: nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild/include bench/reduce_tuning.cu src/runtime.cpp src/gl/unavailable.cpp -o reduce_tuning
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "event_median.cuh"
#include <cuda/ptx>

#include "sluice/cuda/reduce/vectorized.cuh"

using namespace sluice::cuda_backend;

// (Block runs and batched final-block loads, also measured on 2026-11-22, were slower; commit 9adcc94 has
// them and this study's rows for them.)
template <class T, unsigned V, unsigned B, u64 Single = 8192>
struct cfg : vectorized::policy<T, V, B> {
  static constexpr u64 single_launch_max = Single;
};

// What the layouts below share. Their split of the input: the head up to the first 16-byte boundary, whole
// tiles of `tile` elements, the tail.
struct body_split {
  u64 head, tiles, tail_at;
};
template <class T>
body_split split_body(const T* in, u64 n, u64 tile) {
  u64 head = (16 - reinterpret_cast<std::uintptr_t>(in) % 16) % 16 / sizeof(T);
  if (head > n) head = n;
  const u64 tiles = (n - head) / tile;
  return {head, tiles, head + tiles * tile};
}
// *result = head + partials[0, blocks) + tail, by the default's final kernel.
template <class T>
void final_fold(const T* in, u64 n, const body_split& b, const maybe<T>* partials, u64 blocks, T* result) {
  using P = vectorized::policy<T>;
  vectorized::final_kernel<P, T, sluice::sum><<<1, P::final_threads>>>(in, b.head, partials, blocks, b.tail_at, n, sluice::sum{}, T{}, result);
}
// Whole block: thread 0 stores `part` (its own) as the block's partial and counts the block done in *done;
// true in every thread of the last block to finish, which then sees every block's partial.
template <class T>
__device__ bool last_to_finish(maybe<T> part, maybe<T>* partials, unsigned* done) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = part;
    last = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*done).fetch_add(1u, cuda::memory_order_acq_rel) == gridDim.x - 1;
  }
  __syncthreads();
  if (last) cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
  return last;
}

// Two layouts for operators that commute as well (sum, min, max: the reduction order is still fixed, so f32
// sums stay the same from run to run), measured against the in-order default (docs/performance.md "Reduce").
// Their partials go to a buffer allocated once (the copy's output), where the default's run() takes them from
// sluice's stream-ordered pool each call; stop 24 measured that allocation at about 2.5 us a call:
// - warp runs, each thread accumulating its lanes' elements over the whole run, one warp reduction at the end
//   (the default reduces every 16-byte vector across the warp in order: five shuffles per vector);
// - block runs as CUB lays them out: `Waves` waves of BlocksPerSm blocks per SM, block b a contiguous run of
//   block tiles (256 threads x V vectors), thread t loading vectors t, t + 256, ... of each, accumulating in
//   registers; one block reduction at the end.
namespace commuting {
// How the 16-byte loads go: plain, through the non-coherent path (ld.global.nc, CUB's LOAD_LDG), streaming
// (ld.global.cs, evict first), or non-coherent without L1 allocation and with a 256-byte L2 prefetch hint.
enum class ld { plain, nc, cs, nc_256 };
template <ld L>
__device__ __forceinline__ uint4 load16(const uint4* p) {
  if constexpr (L == ld::plain) {
    return *p;
  } else if constexpr (L == ld::nc) {
    return __ldg(p);
  } else if constexpr (L == ld::cs) {
    return __ldcs(p);
  } else {
    uint4 v;
    asm("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
        : "l"(p));
    return v;
  }
}
template <class T>
__device__ T block_sum(T acc) {
  using block_reduce = cub::BlockReduce<T, 256>;
  __shared__ typename block_reduce::TempStorage storage;
  return block_reduce(storage).Sum(acc);
}
// acc plus every element of V 16-byte vectors at src[j * stride + index], j < V, all loads in flight first.
template <class T, unsigned V, ld L>
__device__ __forceinline__ T fold_vectors(T acc, const uint4* src, unsigned stride, unsigned index) {
  vec16<T> v[V];
#pragma unroll
  for (unsigned j = 0; j < V; ++j) v[j].raw = load16<L>(src + j * stride + index);
#pragma unroll
  for (unsigned j = 0; j < V; ++j)
#pragma unroll
    for (unsigned e = 0; e < 16 / sizeof(T); ++e) acc += v[j].e[e];
  return acc;
}
template <class T, unsigned V, ld L>
__global__ void __launch_bounds__(256) warp_runs(const T* body, u64 tiles, maybe<T>* partials) {
  constexpr unsigned tile = 32 * V * (16 / sizeof(T));
  const u64 units = u64{gridDim.x} * 8, u = u64{blockIdx.x} * 8 + threadIdx.x / 32;
  const u64 first = u * tiles / units, last = (u + 1) * tiles / units;
  T acc = T{};
  for (u64 t = first; t < last; ++t)
    acc = fold_vectors<T, V, L>(acc, reinterpret_cast<const uint4*>(body + t * tile), 32, threadIdx.x & 31u);
  const T b = block_sum(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = {b, true};
}
template <class T, unsigned V, ld L>
__global__ void __launch_bounds__(256) block_runs(const T* body, u64 tiles, maybe<T>* partials) {
  constexpr unsigned tile = 256 * V * (16 / sizeof(T));
  const u64 first = u64{blockIdx.x} * tiles / gridDim.x, last = (u64{blockIdx.x} + 1) * tiles / gridDim.x;
  T acc = T{};
  for (u64 t = first; t < last; ++t)
    acc = fold_vectors<T, V, L>(acc, reinterpret_cast<const uint4*>(body + t * tile), 256, threadIdx.x);
  const T b = block_sum(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = {b, true};
}

// Block runs (Block) or warp runs; the head, tail and partials through the default's final kernel.
// Pool: the partials from sluice's stream-ordered pool each call, as the default's run() takes them.
template <class T, bool Block, unsigned V, unsigned BlocksPerSm, unsigned Waves, ld L, bool Pool = false>
void run(const T* in, u64 n, T* result, T* scratch_area) {
  constexpr u64 tile = (Block ? 256 : 32) * V * (16 / sizeof(T));
  const body_split b = split_body(in, n, tile);
  const u64 tiles = b.tiles;
  const u64 cap = u64(multiprocessor_count("reduce_tuning")) * BlocksPerSm * Waves;  // blocks at most
  auto* partials = reinterpret_cast<maybe<T>*>(scratch_area);
  scratch pooled;
  if constexpr (Pool) {
    pooled = scratch(cap * sizeof(maybe<T>), cudaStream_t{}, "reduce_tuning");
    partials = pooled.as<maybe<T>>();
  }
  u64 blocks = 0;
  if (tiles > 0) {
    blocks = Block ? tiles : ceil_div(tiles, u64{8});
    if (blocks > cap) blocks = cap;
    if constexpr (Block)
      block_runs<T, V, L><<<unsigned(blocks), 256>>>(in + b.head, tiles, partials);
    else
      warp_runs<T, V, L><<<unsigned(blocks), 256>>>(in + b.head, tiles, partials);
  }
  final_fold(in, n, b, partials, blocks, result);
}
}  // namespace commuting

// Bulk-copy layouts (stop 28): a grid of BlocksPerSm blocks per SM streams tiles of TileBytes through
// Stages buffers of shared memory by bulk copies (cp.async.bulk, completing on an mbarrier per buffer),
// the way the pipelined scan reads; each warp then folds its eighth of the tile from shared memory in input
// order (lane l reads vector 32 j + l; the ordered shuffle tree per vector, as the default's). The question:
// do bulk copies read DRAM closer to its peak than 16-byte loads (ncu: CUB 93.0%, the default 89.4%)?
// Contiguous: block b takes a contiguous run of tiles and folds them in order (any associative operator);
// RoundRobin: block b takes tiles b, b + G, ... (the whole grid reads one front, as the scan's rounds do),
// which keeps the result the same from run to run but needs an operator that commutes. The last block to
// finish (a count in `done`, reset by it) folds init, head, the blocks' partials and the tail as the
// default's does. Body: whole tiles from the first 16-byte boundary; the tail, up to a tile, is folded by
// the last block element by element (slow for large tails: only the check sizes have them).
namespace bulk {
template <class T, unsigned TileBytes, unsigned Stages, unsigned BlocksPerSm, bool RoundRobin>
struct shape {
  static constexpr unsigned threads = 256, warps = 8;
  static constexpr unsigned tile_bytes = TileBytes, tile = TileBytes / sizeof(T), tile_vectors = TileBytes / 16;
  static constexpr unsigned lane_vectors = tile_vectors / warps / 32;
  static constexpr unsigned blocks_per_sm = BlocksPerSm, stages = Stages;
  static constexpr bool round_robin = RoundRobin;
  static constexpr std::size_t shared_bytes = std::size_t{Stages} * TileBytes;
  static_assert(lane_vectors >= 1 && tile_vectors % (warps * 32) == 0, "whole vectors for every lane");
};

template <class T, class Op, class S>
__global__ void __launch_bounds__(S::threads, S::blocks_per_sm)
    kernel(const T* in, u64 head, u64 tiles, u64 tail_at, u64 n, Op op, T* result, maybe<T>* partials, unsigned* done) {
  using P = vectorized::policy<T>;
  extern __shared__ uint4 buffers[];
  __shared__ alignas(8) std::uint64_t arrived[S::stages];
  __shared__ maybe<T> warp_part[2][S::warps];
  const maybe_op<T, Op> mop{op};
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x & 31u;
  const bool leader = threadIdx.x == 0;  // issues the bulk copies, folds the warps' parts
  const u64 g = gridDim.x, b = blockIdx.x;
  const u64 first = S::round_robin ? b : b * tiles / g, step = S::round_robin ? g : 1,
            count = S::round_robin ? (tiles > b ? (tiles - b + g - 1) / g : 0) : (b + 1) * tiles / g - b * tiles / g;
  const T* body = in + head;
  auto receive = [&](unsigned s, u64 r) {
    const std::uint32_t bytes = S::tile_bytes;
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared, &arrived[s], bytes);
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, buffers + std::size_t{s} * S::tile_vectors,
                             body + (first + r * step) * S::tile, bytes, &arrived[s]);
  };
  if (leader) {
    for (unsigned s = 0; s < S::stages; ++s) cuda::ptx::mbarrier_init(&arrived[s], 1);
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
    for (unsigned s = 0; s < S::stages && s < count; ++s) receive(s, s);
  }
  __syncthreads();
  maybe<T> block_acc{T{}, false};
  for (u64 r = 0; r < count; ++r) {
    const unsigned s = static_cast<unsigned>(r % S::stages);
    while (!cuda::ptx::mbarrier_try_wait_parity(&arrived[s], static_cast<unsigned>(r / S::stages) & 1u)) {
    }
    // The warp's eighth of the tile, as the default folds a warp tile of lane_vectors vectors per lane.
    const T* part = reinterpret_cast<const T*>(buffers + std::size_t{s} * S::tile_vectors + warp * (S::tile_vectors / S::warps));
    const maybe<T> acc = vectorized::fold_warp_tile<vectorized::policy<T, S::lane_vectors>>(maybe<T>{T{}, false}, part, op);
    if (lane == 0) warp_part[r & 1][warp] = acc;
    __syncthreads();  // buffer s read by every warp: it may be refilled
    if (leader) {
      if (r + S::stages < count) receive(s, r + S::stages);
#pragma unroll
      for (unsigned w = 0; w < S::warps; ++w) block_acc = mop(block_acc, warp_part[r & 1][w]);
    }
  }
  if (!last_to_finish(block_acc, partials, done)) return;  // (block_acc: the leader's, thread 0)
  vectorized::combine_in_order<P>(in, head, partials, gridDim.x, tail_at, n, op, T{}, result);
  if (threadIdx.x == 0) *done = 0;  // the next call's count
}

// partials_area: room for the grid's partials; done: one zeroed counter (each call leaves it zero).
template <class T, class S>
void run(const T* in, u64 n, T* result, void* partials_area, unsigned* done) {
  const body_split b = split_body(in, n, S::tile);
  auto* partials = static_cast<maybe<T>*>(partials_area);
  if (b.tiles == 0) return final_fold(in, n, b, partials, 0, result);
  auto* k = kernel<T, sluice::sum, S>;
  static bool set = false;
  if (!set) cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(S::shared_bytes)), set = true;
  u64 blocks = u64(multiprocessor_count("reduce_tuning")) * S::blocks_per_sm;
  if (blocks > b.tiles) blocks = b.tiles;
  k<<<unsigned(blocks), S::threads, S::shared_bytes>>>(in, b.head, b.tiles, b.tail_at, n, sluice::sum{}, result, partials, done);
}
}  // namespace bulk

// Dynamic chunks (stop 28; now the library's dynamic_kernel, which these rows run with chunks of 8 x K warp
// tiles): a block draws its chunks from a ticket counter, the next drawn while it folds the current one, so
// no block reads alone at the end; the last block folds the chunks' partials in chunk order. The logs of
// stop 28's first two `dynamic` runs came from this study's own copy of that kernel (commit 0279440), whose
// partials and counters sat in buffers allocated once.
template <class T, unsigned K>
struct chunk_cfg : vectorized::policy<T> {
  static constexpr unsigned chunk_warp_tiles = K;
  static constexpr u64 chunk_tiles = u64{vectorized::policy<T>::warps} * K;
};
// "occupancy" (stop 38): the dynamic kernel held to 32 registers by __launch_bounds__(256, 8), so that 8
// blocks an SM draw chunks (the library's takes 69 registers: 3 blocks an SM), its last block folding the
// partials FV vectors a lane (2: no spill for u32), chunks of 8 x K warp tiles.
template <class T, unsigned K, unsigned FV = 2, unsigned MinBlocks = 8>
struct occupancy_cfg : vectorized::policy<T, 4, 8, 0, FV, MinBlocks> {
  static constexpr unsigned chunk_warp_tiles = K;
  static constexpr u64 chunk_tiles = u64{vectorized::policy<T>::warps} * K;
};
namespace dynamic {
// For comparison, what no block barrier per chunk would give: each warp draws its own chunks of K warp tiles
// and folds them all into one accumulator, whatever their order (a commuting operator: sum), then the block
// combines its warps once; the last block folds the blocks' partials.
template <class T, class Op, unsigned K>
__global__ void __launch_bounds__(256)
    warp_kernel(const T* in, u64 head, u64 tiles, u64 tail_at, u64 n, Op op, T* result, maybe<T>* partials, unsigned* counters) {
  using P = vectorized::policy<T>;
  __shared__ maybe<T> warp_part[P::warps];
  const maybe_op<T, Op> mop{op};
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x & 31u;
  const u64 chunks = ceil_div(tiles, u64{K});
  const T* body = in + head;
  unsigned c = lane == 0 ? atomicAdd(&counters[0], 1u) : 0;
  c = __shfl_sync(0xffffffffu, c, 0);
  maybe<T> acc{T{}, false};
  while (c < chunks) {
    unsigned next = lane == 0 ? atomicAdd(&counters[0], 1u) : 0;
#pragma unroll
    for (unsigned j = 0; j < K; ++j)
      if (u64{c} * K + j < tiles) acc = vectorized::fold_warp_tile<P>(acc, body + (u64{c} * K + j) * P::warp_tile, op);
    c = __shfl_sync(0xffffffffu, next, 0);
  }
  if (lane == 0) warp_part[warp] = acc;
  __syncthreads();
  maybe<T> b{T{}, false};  // the block's, in thread 0
  if (threadIdx.x == 0)
    for (unsigned w = 0; w < P::warps; ++w) b = mop(b, warp_part[w]);
  if (!last_to_finish(b, partials, &counters[1])) return;
  vectorized::combine_in_order<P>(in, head, partials, gridDim.x, tail_at, n, op, T{}, result);
  if (threadIdx.x == 0) counters[0] = 0, counters[1] = 0;
}
template <class T, unsigned K>
void run_warps(const T* in, u64 n, T* result, void* partials_area, unsigned* counters) {
  using P = vectorized::policy<T>;
  const body_split b = split_body(in, n, P::warp_tile);
  auto* partials = static_cast<maybe<T>*>(partials_area);
  if (b.tiles == 0) return final_fold(in, n, b, partials, 0, result);
  u64 blocks = u64(multiprocessor_count("reduce_tuning")) * P::blocks_per_sm;
  const u64 chunks = ceil_div(b.tiles, u64{K} * P::warps);
  if (blocks > chunks) blocks = chunks;
  warp_kernel<T, sluice::sum, K><<<unsigned(blocks), 256>>>(in, b.head, b.tiles, b.tail_at, n, sluice::sum{}, result, partials, counters);
}

}  // namespace dynamic

// "lastfold" (stop 38): the equal-share body's last block folding its blocks' partials (one T each) by runs of
// FV 16-byte loads a lane (fold_partials_in_order), against 2 (the library's since stop 38). Run 7 of stop 38
// measured it as this study's own copy of the kernel beside the library's body then (partials as maybe<T>
// through block_reduce_in_order; commit d3e34e0 has both); the library adopted the copy, so the rows now run
// the library's body_kernel with body_fold_vectors = FV.
template <class T, unsigned FV>
struct body_fold_cfg : vectorized::policy<T> {
  static constexpr unsigned body_fold_vectors = FV;
};

// Where the default's time ends (stop 28): its body as the default runs it (warp runs of 2 KiB tiles, 8 blocks
// per SM, one wave), each block stamping %globaltimer when it starts and when its warps are done, so the
// spread of the blocks' end times shows how long the last blocks read alone (the tail a dynamic share of
// the work would shorten).
namespace traced {
__device__ inline unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
template <class T>
__global__ void __launch_bounds__(256) body(const T* in, u64 tiles, maybe<T>* partials, unsigned long long* stamps) {
  using P = vectorized::policy<T>;
  __shared__ maybe<T> warp_part[P::warps];
  if (threadIdx.x == 0) stamps[2 * blockIdx.x] = now();
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x & 31u;
  const u64 units = static_cast<u64>(gridDim.x) * P::warps, u = static_cast<u64>(blockIdx.x) * P::warps + warp;
  maybe<T> acc{T{}, false};
  for (u64 t = u * tiles / units; t < (u + 1) * tiles / units; ++t) acc = vectorized::fold_warp_tile<P>(acc, in + t * P::warp_tile, sluice::sum{});
  if (lane == 0) warp_part[warp] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    maybe<T> b = warp_part[0];
    for (unsigned w = 1; w < P::warps; ++w) b = maybe_op<T, sluice::sum>{}(b, warp_part[w]);
    partials[blockIdx.x] = b;
    stamps[2 * blockIdx.x + 1] = now();
  }
}
// One traced run of n elements from an aligned `in`: prints the kernel's span and the spread of the blocks' ends.
template <class T>
void report(const char* type, const T* in, u64 n, void* partials_area) {
  using P = vectorized::policy<T>;
  const u64 tiles = n / P::warp_tile, blocks = u64(multiprocessor_count("reduce_tuning")) * P::blocks_per_sm;
  unsigned long long* stamps;
  cudaMalloc(&stamps, 2 * blocks * sizeof(unsigned long long));
  std::vector<unsigned long long> h(2 * blocks);
  for (int rep = 0; rep < 3; ++rep) {
    body<T><<<unsigned(blocks), 256>>>(in, tiles, static_cast<maybe<T>*>(partials_area), stamps);
    cudaMemcpy(h.data(), stamps, h.size() * sizeof(h[0]), cudaMemcpyDeviceToHost);
  }
  unsigned long long first_start = ~0ull, last_start = 0;
  std::vector<double> ends(blocks);
  for (u64 b = 0; b < blocks; ++b) first_start = std::min(first_start, h[2 * b]), last_start = std::max(last_start, h[2 * b]);
  for (u64 b = 0; b < blocks; ++b) ends[b] = double(h[2 * b + 1] - first_start) * 1e-3;
  std::sort(ends.begin(), ends.end());
  const auto at = [&](double q) { return ends[std::min<u64>(blocks - 1, u64(q * blocks))]; };
  std::printf("%s n=%-10llu traced default body: %llu blocks, starts within %.2f us; ends (us from the first start): "
              "first %.1f, 10%% %.1f, median %.1f, 90%% %.1f, 99%% %.1f, last %.1f\n",
              type, (unsigned long long)n, (unsigned long long)blocks, double(last_start - first_start) * 1e-3, ends[0], at(0.1),
              at(0.5), at(0.9), at(0.99), ends[blocks - 1]);
  cudaFree(stamps);
}
}  // namespace traced

// The input: a hash of the index, the same on host and device, so no host copy of up to 4 GiB is needed;
// u32 takes all 32 bits, f32 is in [0, 1) (no cancellation, so a relative tolerance means something).
__host__ __device__ inline unsigned mix(u64 i) {
  i = (i + 1) * 0x9e3779b97f4a7c15ull;
  i = (i ^ (i >> 30)) * 0xbf58476d1ce4e5b9ull;
  i = (i ^ (i >> 27)) * 0x94d049bb133111ebull;
  return static_cast<unsigned>(i >> 32);
}
template <class T>
__host__ __device__ T value(u64 i) {
  if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(mix(i) >> 8) * 0x1p-24f;
  else
    return static_cast<T>(mix(i));
}
template <class T>
__global__ void fill(T* p, u64 n) {
  for (u64 i = blockIdx.x * u64{blockDim.x} + threadIdx.x; i < n; i += u64{gridDim.x} * blockDim.x) p[i] = value<T>(i);
}

int failures = 0;
bool quick = false;
bool small_only = false;  // "small": sizes up to small_max, every single-launch limit
bool commuting_rows = false;  // "commuting": the commuting layouts beside the default, from 2^24 on
bool bulk_rows = false;       // "bulk": the bulk-copy layouts beside the default, from 2^24 on
bool dynamic_rows = false;    // "dynamic": the dynamic chunks and the traced body beside the default, from 2^24 on
bool mid_rows = false;        // "mid": 2^17 to 2^23, every row also back to back
bool grid_rows = false;       // "grid": the dynamic kernel's grid, resident against 8 an SM
bool fold_rows = false;       // "fold": the last block's fold of the partials, 4, 8 or 16 loads a lane
bool occupancy_rows = false;  // "occupancy": the dynamic kernel at 8 blocks an SM, 2^20 to 2^28
bool lastfold_rows = false;   // "lastfold": the body's partials as T, folded by runs of vectors, 2^22 to 2^26
bool order_rows = false;      // "order": the one-block kernel's lanes' own folds (the library's) against input order
bool edges_rows = false;      // "edges": the dynamic chunks of 128 and 64 KiB at n and with a head and a tail (in + 1, n - 2)
u64 b2b_max = u64{1} << 16;   // back-to-back times up to here
constexpr u64 small_max = u64{1} << 16;  // up to here: the single-launch grid, more repetitions, back-to-back times

template <class T>
struct study {
  const char* type;
  u64 top, n = 0;
  T *in, *out, *result;
  unsigned* done = nullptr;  // bulk's count of finished blocks; dynamic's ticket and finished counters at done + 1
  void* temp = nullptr;
  std::size_t temp_cap = 0;
  float copy_ms = 0, cub_ms = 0, cub_b2b = 0;
  // The host reference, a running sum over the sizes in increasing order: u32 wraps, f32 sums in double.
  u64 summed = 0;
  T wrapped = 0;
  double exact = 0;

  study(const char* t, u64 top_) : type(t), top(top_) {
    cudaMalloc(&in, top * sizeof(T)), cudaMalloc(&out, top * sizeof(T)), cudaMalloc(&result, 4 * sizeof(T));
    cudaMalloc(&done, 3 * sizeof(unsigned)), cudaMemset(done, 0, 3 * sizeof(unsigned));
    fill<<<1024, 256>>>(in, top);
    cub::DeviceReduce::Reduce(temp, temp_cap, in, result, static_cast<int>(top), cuda::std::plus<>{}, T{}, cudaStream_t{});
    cudaMalloc(&temp, temp_cap);
  }
  ~study() { cudaFree(in), cudaFree(out), cudaFree(result), cudaFree(temp), cudaFree(done); }

  void advance_reference(u64 to) {
    for (; summed < to; ++summed) {
      const T v = value<T>(summed);
      wrapped = static_cast<T>(wrapped + v), exact += static_cast<double>(v);
    }
  }
  bool near(T got, double want) const {
    if constexpr (std::is_floating_point_v<T>)
      return std::fabs(static_cast<double>(got) - want) <= 1e-5 * std::fabs(want) + 1e-6;
    else
      return got == static_cast<T>(static_cast<u64>(want));
  }

  // launch(p, m, r): reduce m elements from p into *r, nothing on the host. Run twice at `in` and once at
  // in + 1 (n - 1 elements: a head of 3 elements and a short last block tile).
  template <class F>
  void check(const char* label, F launch) {
    launch(in, n, result), launch(in, n, result + 1);
    if (n > 0) launch(in + 1, n - 1, result + 2);
    T got[3] = {};
    cudaMemcpy(got, result, sizeof got, cudaMemcpyDeviceToHost);
    const cudaError_t e = cudaGetLastError();
    const double want = std::is_floating_point_v<T> ? exact : static_cast<double>(wrapped);
    const T first = value<T>(0);
    const double want_shifted =
        std::is_floating_point_v<T> ? exact - first : static_cast<double>(static_cast<T>(wrapped - first));
    const bool same = std::memcmp(&got[0], &got[1], sizeof(T)) == 0;
    const bool ok = e == cudaSuccess && near(got[0], want) && same && (n == 0 || near(got[2], want_shifted));
    if (!ok) {
      ++failures;
      std::printf("  FAILED %s n=%llu %s: got %.10g %.10g (shifted %.10g), want %.10g (shifted %.10g)%s; %s\n", type,
                  (unsigned long long)n, label, double(got[0]), double(got[1]), double(got[2]), want, want_shifted,
                  same ? "" : ", runs differ", cudaGetErrorString(e));
    }
  }

  template <class F>
  float time(F f) const {
    return n <= small_max ? event_median_ms(10, 101, [] {}, f) : event_median_ms(5, 25, [] {}, f);
  }
  template <class F>
  float time_back_to_back(F f) const {  // per call, 20 calls between the events: launch overhead overlapped
    return event_median_ms(2, 21, [] {}, [&] { for (int i = 0; i < 20; ++i) f(); }) / 20;
  }
  void report(const char* label, float ms, float b2b) const {
    const double bytes = double(n) * sizeof(T), copy_rate = 2 * bytes / copy_ms;
    std::printf("%s n=%-10llu %-40s %9.4f ms %8.1f GB/s %6.3f of copy %6.3f x cub", type, (unsigned long long)n, label,
                ms, bytes / (ms * 1e-3) / 1e9, bytes / ms / copy_rate, ms / cub_ms);
    if (b2b > 0) std::printf("   back-to-back %8.4f ms %6.3f x cub", b2b, b2b / cub_b2b);
    std::printf("\n");
  }

  void cub_reduce(const T* p, u64 m, T* r) const {
    std::size_t bytes = 0;  // m <= 2^30 here: always the int count
    cub::DeviceReduce::Reduce(nullptr, bytes, p, r, static_cast<int>(m), cuda::std::plus<>{}, T{}, cudaStream_t{});
    if (bytes > temp_cap) std::printf("  cub wants %zu bytes of scratch, has %zu\n", bytes, temp_cap), std::exit(2);
    cub::DeviceReduce::Reduce(temp, bytes, p, r, static_cast<int>(m), cuda::std::plus<>{}, T{}, cudaStream_t{});
  }

  template <class P, class Op = sluice::sum>
  void row(const char* label, bool timed, vectorized::setting dynamic = vectorized::setting::automatic) {
    const auto launch = [dynamic](const T* p, u64 m, T* r) { vectorized::run<T, Op, P>(p, m, r, T{}, Op{}, 0, "reduce_tuning", dynamic); };
    check(label, launch);
    if (!timed) return;
    const float ms = time([&] { launch(in, n, result); });
    report(label, ms, n <= b2b_max ? time_back_to_back([&] { launch(in, n, result); }) : 0);
  }

  template <bool Block, unsigned V, unsigned B, unsigned W, commuting::ld L = commuting::ld::plain, bool Pool = false>
  void commuting_row(const char* label, bool timed) {
    const auto launch = [this](const T* p, u64 m, T* r) { commuting::run<T, Block, V, B, W, L, Pool>(p, m, r, out); };
    check(label, launch);
    if (!timed) return;
    const float ms = time([&] { launch(in, n, result); });
    report(label, ms, n <= small_max ? time_back_to_back([&] { launch(in, n, result); }) : 0);
  }

  template <unsigned TileBytes, unsigned Stages, unsigned B, bool RR>
  void bulk_row(const char* label, bool timed) {
    using S = bulk::shape<T, TileBytes, Stages, B, RR>;
    const auto launch = [this](const T* p, u64 m, T* r) { bulk::run<T, S>(p, m, r, out, done); };
    check(label, launch);
    if (!timed) return;
    const float ms = time([&] { launch(in, n, result); });
    report(label, ms, 0);
  }

  template <unsigned K>
  void dynamic_row(const char* label, bool timed) {
    const auto launch = [](const T* p, u64 m, T* r) {
      vectorized::run<T, sluice::sum, chunk_cfg<T, K>>(p, m, r, T{}, sluice::sum{}, 0, "reduce_tuning", vectorized::setting::on);
    };
    check(label, launch);
    if (!timed) return;
    const float ms = time([&] { launch(in, n, result); });
    report(label, ms, 0);
  }

  template <unsigned K>
  void dynamic_warp_row(const char* label, bool timed) {
    const auto launch = [this](const T* p, u64 m, T* r) { dynamic::run_warps<T, K>(p, m, r, out, done + 1); };
    check(label, launch);
    if (!timed) return;
    const float ms = time([&] { launch(in, n, result); });
    report(label, ms, 0);
  }

  void configs(bool timed) {
    const bool all = !quick && !small_only, small = n <= small_max;
    row<vectorized::policy<T>>("default (4 vec, 8/SM; dynamic=auto)", timed);
    if (commuting_rows && n > small_max) {  // the commuting layouts (their partials in `out`, the copy's output)
      using commuting::ld;
      commuting_row<false, 4, 8, 1>("commuting warp runs 4 vec 8/SM", timed);
      commuting_row<false, 4, 8, 1, ld::nc>("commuting warp runs 4 vec 8/SM nc", timed);
      commuting_row<false, 4, 8, 1, ld::cs>("commuting warp runs 4 vec 8/SM cs", timed);
      commuting_row<false, 4, 8, 1, ld::nc_256>("commuting warp runs 4 vec 8/SM nc 256B", timed);
      commuting_row<false, 8, 8, 1, ld::nc>("commuting warp runs 8 vec 8/SM nc", timed);
      commuting_row<true, 4, 8, 1>("commuting block runs 4 vec 8/SM 1 wave", timed);
      commuting_row<true, 4, 8, 1, ld::nc>("commuting block runs 4 vec 8/SM 1 wave nc", timed);
      commuting_row<true, 4, 8, 1, ld::nc_256>("commuting block runs 4 vec 8/SM 1 wave nc 256B", timed);
      commuting_row<true, 4, 8, 5, ld::nc>("commuting block runs 4 vec 8/SM 5 waves nc", timed);
      commuting_row<false, 4, 8, 1>("commuting warp runs 4 vec 8/SM (again)", timed);
      commuting_row<false, 4, 8, 1, ld::plain, true>("commuting warp runs 4 vec 8/SM, partials from the pool", timed);
      commuting_row<true, 4, 8, 1, ld::plain, true>("commuting block runs 4 vec 8/SM 1 wave, pool", timed);
    }
    if (mid_rows) {  // the middle sizes: the library's two bodies and other shapes of the equal shares
      row<vectorized::policy<T>>("library, dynamic=on (its chunks)", timed, vectorized::setting::on);
      row<cfg<T, 2, 8>>("2 vec  8/SM", timed);
      row<cfg<T, 8, 8>>("8 vec  8/SM", timed);
      row<cfg<T, 4, 4>>("4 vec  4/SM", timed);
      row<cfg<T, 4, 16>>("4 vec 16/SM", timed);
      return;
    }
    if (grid_rows && n > small_max) {  // the dynamic kernel's grid, each twice (the second time in the other order), CUB again between
      using resident = vectorized::policy<T>;
      using eight = vectorized::policy<T, 4, 8, 8>;
      row<resident>("dynamic=on, resident grid (now)", timed, vectorized::setting::on);
      row<eight>("dynamic=on, 8 blocks an SM (before)", timed, vectorized::setting::on);
      if (timed) report("cub (again)", cub_ms = time([&] { cub_reduce(in, n, result); }), 0);
      row<eight>("dynamic=on, 8 blocks an SM (before)", timed, vectorized::setting::on);
      row<resident>("dynamic=on, resident grid (now)", timed, vectorized::setting::on);
    }
    if (fold_rows && n > small_max) {  // the last block's fold of the partials (stop 35), each twice, CUB again between
      using now = vectorized::policy<T>;                       // 8 loads a lane and group: 69 registers, 3 blocks an SM
      using four = vectorized::policy<T, 4, 8, 0, 4>;          // 4 loads: 42-46 registers, 5 an SM
      using sixteen = vectorized::policy<T, 4, 8, 0, 16>;      // 16 loads
      row<now>("dynamic=on, fold 8 vectors (now)", timed, vectorized::setting::on);
      row<four>("dynamic=on, fold 4 vectors", timed, vectorized::setting::on);
      row<sixteen>("dynamic=on, fold 16 vectors", timed, vectorized::setting::on);
      if (timed) report("cub (again)", cub_ms = time([&] { cub_reduce(in, n, result); }), 0);
      row<sixteen>("dynamic=on, fold 16 vectors", timed, vectorized::setting::on);
      row<four>("dynamic=on, fold 4 vectors", timed, vectorized::setting::on);
      row<now>("dynamic=on, fold 8 vectors (now)", timed, vectorized::setting::on);
    }
    if (lastfold_rows && n > small_max) {  // each twice, CUB again between
      row<body_fold_cfg<T, 2>>("equal shares, last block folds 2 vectors a lane", timed, vectorized::setting::off);
      row<body_fold_cfg<T, 4>>("equal shares, last block folds 4 vectors a lane", timed, vectorized::setting::off);
      if (timed) report("cub (again)", cub_ms = time([&] { cub_reduce(in, n, result); }), 0);
      row<body_fold_cfg<T, 4>>("equal shares, last block folds 4 vectors a lane", timed, vectorized::setting::off);
      row<body_fold_cfg<T, 2>>("equal shares, last block folds 2 vectors a lane", timed, vectorized::setting::off);
      return;
    }
    if (edges_rows && n > small_max) {  // stop 46: 128 KiB chunks spill 4-8 bytes with the edges' code (64 KiB: none)
      const auto shifted = [&](const char* label, auto launch) {  // in + 1, n - 2: a head of 3 elements and a tail
        if (timed) report(label, time([&] { launch(in + 1, n - 2, result); }), 0);
      };
      const auto library = [](const T* p, u64 m, T* r) { vectorized::run<T, sluice::sum>(p, m, r, T{}, sluice::sum{}, 0, "t"); };
      row<vectorized::policy<T>>("library (128 KiB chunks) at n", timed);
      shifted("library (128 KiB chunks) at in + 1, n - 2", library);
      dynamic_row<4>("64 KiB chunks at n", timed);
      shifted("64 KiB chunks at in + 1, n - 2", [](const T* p, u64 m, T* r) {
        vectorized::run<T, sluice::sum, chunk_cfg<T, 4>>(p, m, r, T{}, sluice::sum{}, 0, "t", vectorized::setting::on);
      });
      shifted("cub at in + 1, n - 2", [this](const T* p, u64 m, T* r) { cub_reduce(p, m, r); });
      row<vectorized::policy<T>>("library (128 KiB chunks) at n (again)", timed);
      shifted("library (128 KiB chunks) at in + 1, n - 2 (again)", library);
      return;
    }
    if (order_rows) {  // each twice, CUB again between
      using in_order = vectorized::policy<T, 4, 8, 0, 8, 1, false>;
      row<in_order>("one-block kernel in input order", timed);
      if (timed) report("cub (again)", cub_ms = time([&] { cub_reduce(in, n, result); }), 0);
      row<in_order>("one-block kernel in input order", timed);
      row<vectorized::policy<T>>("default (again)", timed);
      return;
    }
    if (occupancy_rows && n > small_max) {  // each twice (the second time in the other order), CUB again between
      row<vectorized::policy<T>>("library, dynamic=on (its chunks, 3/SM)", timed, vectorized::setting::on);
      row<occupancy_cfg<T, 1>>("dynamic=on 8/SM, 16 KiB chunks", timed, vectorized::setting::on);
      row<occupancy_cfg<T, 2>>("dynamic=on 8/SM, 32 KiB chunks", timed, vectorized::setting::on);
      row<occupancy_cfg<T, 4>>("dynamic=on 8/SM, 64 KiB chunks", timed, vectorized::setting::on);
      row<cfg<T, 4, 16>>("equal shares, 16/SM (two waves)", timed, vectorized::setting::off);
      if (timed) report("cub (again)", cub_ms = time([&] { cub_reduce(in, n, result); }), 0);
      row<cfg<T, 4, 16>>("equal shares, 16/SM (two waves)", timed, vectorized::setting::off);
      row<occupancy_cfg<T, 4>>("dynamic=on 8/SM, 64 KiB chunks", timed, vectorized::setting::on);
      row<occupancy_cfg<T, 2>>("dynamic=on 8/SM, 32 KiB chunks", timed, vectorized::setting::on);
      row<occupancy_cfg<T, 1>>("dynamic=on 8/SM, 16 KiB chunks", timed, vectorized::setting::on);
      row<vectorized::policy<T>>("library, dynamic=on (its chunks, 3/SM)", timed, vectorized::setting::on);
      row<vectorized::policy<T>>("default (again)", timed);
      return;
    }
    if (dynamic_rows) {  // the library's two bodies, forced
      row<vectorized::policy<T>>("library, dynamic=off (equal shares)", timed, vectorized::setting::off);
      row<vectorized::policy<T>>("library, dynamic=on (its chunks)", timed, vectorized::setting::on);
    }
    if (bulk_rows || dynamic_rows) {  // dynamic chunks (partials in `out`)
      dynamic_row<2>("dynamic chunks of 8 x 2 warp tiles (32K)", timed);
      dynamic_row<4>("dynamic chunks of 8 x 4 warp tiles (64K)", timed);
      dynamic_row<8>("dynamic chunks of 8 x 8 warp tiles (128K)", timed);
      dynamic_row<16>("dynamic chunks of 8 x 16 warp tiles (256K)", timed);
      dynamic_warp_row<8>("commuting warp chunks of 8 warp tiles (16K)", timed);
      dynamic_warp_row<16>("commuting warp chunks of 16 warp tiles (32K)", timed);
      dynamic_warp_row<32>("commuting warp chunks of 32 warp tiles (64K)", timed);
    }
    if (bulk_rows && n > small_max) {  // the bulk-copy layouts (their partials in `out`, the copy's output)
      bulk_row<32768, 6, 1, false>("bulk contiguous 32K x6, 1/SM", timed);
      bulk_row<16384, 6, 2, false>("bulk contiguous 16K x6, 2/SM", timed);
      bulk_row<8192, 8, 4, false>("bulk contiguous 8K x8, 4/SM", timed);
      bulk_row<16384, 12, 1, false>("bulk contiguous 16K x12, 1/SM", timed);
      bulk_row<32768, 3, 2, false>("bulk contiguous 32K x3, 2/SM", timed);
      bulk_row<32768, 6, 1, true>("bulk round-robin 32K x6, 1/SM", timed);
      bulk_row<16384, 6, 2, true>("bulk round-robin 16K x6, 2/SM", timed);
      bulk_row<8192, 8, 4, true>("bulk round-robin 8K x8, 4/SM", timed);
      bulk_row<16384, 12, 1, true>("bulk round-robin 16K x12, 1/SM", timed);
      row<vectorized::policy<T>>("default (again)", timed);
    }
    if ((bulk_rows || dynamic_rows) && n > small_max && timed) traced::report<T>(type, in, n, out);
    if (all) {
      row<cfg<T, 4, 16>>("4 vec 16/SM", timed);
      row<cfg<T, 8, 8>>("8 vec  8/SM", timed);
      row<cfg<T, 8, 16>>("8 vec 16/SM", timed);
    }
    if (!small) return;  // the single-launch limit matters only where n is near it
    row<cfg<T, 4, 8, 4096>>("single launch <= 4096", timed);
    if (all || small_only) {
      row<cfg<T, 4, 8, 16384>>("single launch <= 16384", timed);
      row<cfg<T, 4, 8, 32768>>("single launch <= 32768", timed);
    }
  }

  // Sizes in increasing order (the reference runs along them); check-only ones give odd tails and heads.
  void run() {
    std::vector<std::pair<u64, bool>> sizes;  // (n, timed)
    if (mid_rows) {
      for (u64 k = 17; k <= 23; ++k) sizes.push_back({u64{1} << k, true});
    } else if (lastfold_rows) {
      for (u64 k : {22, 23, 24, 25, 26}) sizes.push_back({u64{1} << k, true});
    } else if (order_rows) {
      for (u64 k : {10, 11, 12, 13, 14, 15, 16, 17}) sizes.push_back({u64{1} << k, true});
    } else if (occupancy_rows) {
      for (u64 k = 20; k <= 28; ++k)
        if (k != 21) sizes.push_back({u64{1} << k, true});
    } else {
      for (u64 k = 10; k <= 16; ++k)
        if (!quick || k == 10 || k == 12 || k == 13 || k == 14 || k == 16) sizes.push_back({u64{1} << k, true});
    }
    for (u64 k : {24, 26, 27, 28, 30})
      if ((u64{1} << k) <= top && !small_only && !mid_rows && !occupancy_rows && !order_rows && !lastfold_rows && (!quick || k == 24 || k == 28 || ((commuting_rows || bulk_rows || dynamic_rows || grid_rows || fold_rows || edges_rows) && (k == 26 || k == 27 || k == 30)) || (fold_rows && k == 25))) sizes.push_back({u64{1} << k, true});
    for (u64 m : {u64{0}, u64{1}, u64{31}, u64{4097}, u64{12345}, u64{33000}, u64{100003}, (u64{1} << 20) + 12345})
      sizes.push_back({m, false});
    std::sort(sizes.begin(), sizes.end());
    for (const auto& [m, timed] : sizes) {
      n = m;
      advance_reference(n);
      check("cub", [&](const T* p, u64 k, T* r) { cub_reduce(p, k, r); });
      if (timed) {
        copy_ms = time([&] { cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice); });
        cub_ms = time([&] { cub_reduce(in, n, result); });
        cub_b2b = n <= b2b_max ? time_back_to_back([&] { cub_reduce(in, n, result); }) : 0;
        std::printf("%s n=%-10llu %-40s %9.4f ms %8.1f GB/s (bytes read + written)\n", type, (unsigned long long)n, "copy",
                    copy_ms, 2.0 * n * sizeof(T) / (copy_ms * 1e-3) / 1e9);
        report("cub", cub_ms, cub_b2b);
      }
      configs(timed);
      if (!timed) std::printf("%s n=%-10llu checked\n", type, (unsigned long long)n);
    }
  }
};

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  quick = argc > 1 && std::string_view(argv[1]) == "quick";
  small_only = argc > 1 && std::string_view(argv[1]) == "small";
  commuting_rows = argc > 1 && std::string_view(argv[1]) == "commuting";
  bulk_rows = argc > 1 && std::string_view(argv[1]) == "bulk";
  dynamic_rows = argc > 1 && std::string_view(argv[1]) == "dynamic";
  mid_rows = argc > 1 && std::string_view(argv[1]) == "mid";
  grid_rows = argc > 1 && std::string_view(argv[1]) == "grid";
  fold_rows = argc > 1 && std::string_view(argv[1]) == "fold";
  occupancy_rows = argc > 1 && std::string_view(argv[1]) == "occupancy";
  order_rows = argc > 1 && std::string_view(argv[1]) == "order";
  lastfold_rows = argc > 1 && std::string_view(argv[1]) == "lastfold";
  edges_rows = argc > 1 && std::string_view(argv[1]) == "edges";
  if (mid_rows) b2b_max = u64{1} << 23;
  quick = quick || commuting_rows || bulk_rows || dynamic_rows || mid_rows || grid_rows || fold_rows || occupancy_rows || order_rows || lastfold_rows || edges_rows;
  try {
    std::size_t free_bytes = 0, total = 0;
    cudaMemGetInfo(&free_bytes, &total);
    const u64 big = u64{1} << 30;  // 2^30 u32 needs 4 GiB in and 4 GiB for the copy's output
    const u64 top_u32 = 2 * big * 4 + (u64{1} << 29) <= free_bytes ? big : u64{1} << 28;
    if (top_u32 < big) std::printf("u32 2^30 skipped: %.1f GiB free\n", free_bytes / double(1 << 30));
    { study<unsigned>("u32", top_u32).run(); }
    { study<float>("f32", u64{1} << 28).run(); }
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 2;
  }
  std::printf("failures: %d; last error: %s\n", failures, cudaGetErrorString(cudaGetLastError()));
  return failures ? 1 : 0;
}
