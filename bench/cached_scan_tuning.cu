// Tuning study (not part of the build; stop 27, docs/performance.md "An L2-resident two-phase scan"): a scan
// that reads its input from DRAM once and a second time from L2. Billeter et al. Sec. 3's count / prefix / move,
// done per round of resident tiles: each persistent block reduces its tile of round s (phase A, DRAM) and scans
// its tile of round s - Lag (phase B), whose second read should hit in L2. Two ways to give phase B its prefix:
// `cached_scan`: every block sums the published aggregates of the round itself (no atomics, no waiting on a
// neighbour; 8 bytes per tile of the round read by every block), and `cached_scan_last`: the round's last block
// (an atomic count, its answer awaited only at the end of the step) scans them into one prefix word per tile.
// u32 inclusive sum at 2^24, 2^26, 2^28, beside cub::DeviceScan, sluice's default (the pipelined decoupled
// look-back) and a device copy; every configuration checked against a host scan first (six sizes up to 2^28).
// "one K": configuration K alone, three calls at 2^28 (for ncu).
// Build: nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild/include bench/cached_scan_tuning.cu src/runtime.cpp src/gl/unavailable.cpp -o cached_scan_tuning
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/atomic>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string_view>
#include <vector>

#include "event_median.cuh"
#include "sluice/cuda/scan/decoupled_lookback.cuh"

using namespace sluice::cuda_backend;
using u32 = unsigned;

// How the two reads and the store treat L2: plain; first read kept (evict_last), second read and store streamed
// (evict_first); only the second read and the store streamed.
enum hint : int { plain = 0, keep = 1, stream = 2 };

__device__ inline u64 evict_last_policy() {
  u64 pol;
  asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
  return pol;
}
template <int H>
__device__ inline uint4 load_first(const uint4* p, u64 pol) {
  if constexpr (H == keep) {
    uint4 v;
    asm("ld.global.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
        : "l"(p), "l"(pol));
    return v;
  } else {
    return *p;
  }
}
template <int H>
__device__ inline uint4 load_second(const uint4* p) {
  if constexpr (H == plain) return *p;
  else return __ldcs(p);
}
template <int H>
__device__ inline void store(uint4* p, uint4 v) {
  if constexpr (H == plain) *p = v;
  else __stcs(p, v);
}

// Tile t of Items x Threads elements, read for its sum (the first read): vector j of thread i is the tile's
// (j Threads + i)-th, so each load instruction of the block covers contiguous bytes; zeros past n.
template <int Items, int Threads, int H>
__device__ void load_first_tile(const u32* in, u64 n, u64 t, u32 (&x)[Items], u64 pol) {
  constexpr u64 tile = Items * Threads;
  if ((t + 1) * tile <= n) {
    const uint4* p = reinterpret_cast<const uint4*>(in + t * tile);
    for (int j = 0; j < Items / 4; ++j) {
      const uint4 v = load_first<H>(p + j * Threads + threadIdx.x, pol);
      x[4 * j] = v.x, x[4 * j + 1] = v.y, x[4 * j + 2] = v.z, x[4 * j + 3] = v.w;
    }
  } else {
    for (int j = 0; j < Items; ++j) {
      const u64 i = t * tile + u64(j) * Threads + threadIdx.x;
      x[j] = i < n ? in[i] : 0u;
    }
  }
}
// Tile t read again for its scan (the second read), blocked: thread i holds elements [i Items, (i + 1) Items).
template <int Items, int Threads, int H>
__device__ void load_second_tile(const u32* in, u64 n, u64 t, u32 (&x)[Items]) {
  const u64 first = t * (Items * Threads) + u64(threadIdx.x) * Items;
  if ((t + 1) * (Items * Threads) <= n) {
    const uint4* p = reinterpret_cast<const uint4*>(in + first);
    for (int j = 0; j < Items / 4; ++j) {
      const uint4 v = load_second<H>(p + j);
      x[4 * j] = v.x, x[4 * j + 1] = v.y, x[4 * j + 2] = v.z, x[4 * j + 3] = v.w;
    }
  } else {
    for (int j = 0; j < Items; ++j) x[j] = first + j < n ? in[first + j] : 0u;
  }
}
// The scanned tile t back, blocked as load_second_tile read it; nothing past n.
template <int Items, int Threads, int H>
__device__ void store_tile(u32* out, u64 n, u64 t, const u32 (&x)[Items]) {
  const u64 first = t * (Items * Threads) + u64(threadIdx.x) * Items;
  if ((t + 1) * (Items * Threads) <= n) {
    uint4* p = reinterpret_cast<uint4*>(out + first);
    for (int j = 0; j < Items / 4; ++j) store<H>(p + j, make_uint4(x[4 * j], x[4 * j + 1], x[4 * j + 2], x[4 * j + 3]));
  } else {
    for (int j = 0; j < Items; ++j)
      if (first + j < n) out[first + j] = x[j];
  }
}

constexpr u64 published = u64{1} << 32;  // an aggregate word: this bit, and the tile's u32 sum below it
constexpr int aggs_per_thread = 4;       // the round's aggregates each thread reads: grid <= threads x this
template <class T>
using device_ref = cuda::atomic_ref<T, cuda::thread_scope_device>;
__device__ inline u64 await_published(u64* p, u64 w) {
  while (!(w & published)) w = device_ref<u64>(*p).load(cuda::std::memory_order_relaxed);
  return w;
}

// What one thread brings to phase B's block scan: its items' sum, and its share of the round's aggregates
// before the block's tile and in all.
struct part {
  u32 items, before, all;
};
struct add_parts {
  __device__ part operator()(const part& a, const part& b) const { return {a.items + b.items, a.before + b.before, a.all + b.all}; }
};

template <int Items, int Threads, int Lag, int H, int MinBlocks, bool Overlap>
__global__ __launch_bounds__(Threads, MinBlocks) void cached_scan(const u32* in, u32* out, u64 n, u64 tiles, u32 G, u64* agg) {
  using reduce_t = cub::BlockReduce<u32, Threads>;
  using scan_t = cub::BlockScan<part, Threads>;
  __shared__ typename reduce_t::TempStorage reduce_tmp;
  __shared__ typename scan_t::TempStorage scan_tmp;
  const u64 pol = evict_last_policy();
  const u64 rounds = ceil_div(tiles, G);
  u32 running = 0;  // the sum of every round before the one phase B scans
  u32 xa[Items], xb[Items];
  u64 w[aggs_per_thread];
  // Phase A's loads: the tile of round `step`, the first read (DRAM).
  auto load_a = [&](u64 t) { load_first_tile<Items, Threads, H>(in, n, t, xa, pol); };
  // Phase A proper: the tile's sum, published for every block's phase B.
  auto reduce_a = [&](u64 t) {
    const u32 a = reduce_t(reduce_tmp).Sum(xa);
    if (threadIdx.x == 0) device_ref<u64>(agg[t]).store(published | a, cuda::std::memory_order_relaxed);
  };
  // Phase B's loads: the tile of round q (the second read, L2) and this thread's share of round q's aggregates.
  auto load_b = [&](u64 q, u64 t) {
    load_second_tile<Items, Threads, H>(in, n, t, xb);
    const u32 members = static_cast<u32>(min(u64{G}, tiles - q * G));
    for (int i = 0; i < aggs_per_thread; ++i) {
      const u32 k = threadIdx.x + i * Threads;
      w[i] = k < members ? device_ref<u64>(agg[q * G + k]).load(cuda::std::memory_order_relaxed) : published;
    }
  };
  // Phase B proper: wait for any aggregate not yet published, scan the tile from the sum of everything before it.
  auto scan_b = [&](u64 q, u64 t) {
    part mine{0, 0, 0};
    for (int i = 0; i < aggs_per_thread; ++i) {
      const u32 k = threadIdx.x + i * Threads;
      w[i] = await_published(agg + q * G + k, w[i]);
      mine.all += u32(w[i]);
      if (k < blockIdx.x) mine.before += u32(w[i]);
    }
    for (int j = 0; j < Items; ++j) mine.items += xb[j];
    part total;
    scan_t(scan_tmp).ExclusiveScan(mine, mine, part{0, 0, 0}, add_parts{}, total);
    u32 acc = running + total.before + mine.items;
    running += total.all;
    for (int j = 0; j < Items; ++j) xb[j] = acc += xb[j];
    store_tile<Items, Threads, H>(out, n, t, xb);
  };
  for (u64 step = 0; step < rounds + Lag; ++step) {
    const u64 ta = step * G + blockIdx.x, q = step - Lag, tb = q * G + blockIdx.x;
    const bool a = step < rounds && ta < tiles, b = step >= Lag && tb < tiles;
    if (Overlap) {  // both tiles' loads in flight together
      if (a) load_a(ta);
      if (b) load_b(q, tb);
      if (a) reduce_a(ta);
      if (b) scan_b(q, tb);
    } else {
      if (a) load_a(ta), reduce_a(ta);
      if (b) load_b(q, tb), scan_b(q, tb);
    }
  }
}

// The same two phases, with the round's prefixes scanned once: every block counts itself in at phase A (the
// atomic's answer is awaited only at the end of the step), and the round's last block scans its aggregates into
// one prefix word per tile (and the running total past the round) while the others go on. Phase B reads one word.
struct last_scratch {
  u64* agg;      // per tile: published | its sum
  u64* prefix;   // per tile: published | the sum of every element before it
  u64* running;  // per round: published | the sum of every element up to the round's end
  u32* arrived;  // per round: blocks through phase A
};

template <int Items, int Threads, int Lag, int H, int MinBlocks>
__global__ __launch_bounds__(Threads, MinBlocks) void cached_scan_last(const u32* in, u32* out, u64 n, u64 tiles, u32 G, last_scratch s) {
  using reduce_t = cub::BlockReduce<u32, Threads>;
  using scan_t = cub::BlockScan<u32, Threads>;
  __shared__ typename reduce_t::TempStorage reduce_tmp;
  __shared__ typename scan_t::TempStorage scan_tmp;
  __shared__ bool last;
  __shared__ u64 shared_word;
  const u64 pol = evict_last_policy();
  const u64 rounds = ceil_div(tiles, G);
  for (u64 step = 0; step < rounds + Lag; ++step) {
    u32 ticket = 0, members = 0;
    const u64 ta = step * G + blockIdx.x;
    if (step < rounds && ta < tiles) {  // phase A: the first read (DRAM), the tile's sum published
      u32 x[Items];
      load_first_tile<Items, Threads, H>(in, n, ta, x, pol);
      const u32 a = reduce_t(reduce_tmp).Sum(x);
      members = static_cast<u32>(min(u64{G}, tiles - step * G));
      if (threadIdx.x == 0) {
        device_ref<u64>(s.agg[ta]).store(published | a, cuda::std::memory_order_relaxed);
        ticket = atomicAdd(&s.arrived[step], 1u);
      }
    }
    if (const u64 q = step - Lag, tb = q * G + blockIdx.x; step >= Lag && tb < tiles) {  // phase B: the second read (L2)
      u32 x[Items];
      u64 w = 0;
      if (threadIdx.x == 0) w = device_ref<u64>(s.prefix[tb]).load(cuda::std::memory_order_relaxed);
      load_second_tile<Items, Threads, H>(in, n, tb, x);
      auto prefix_op = [&](u32) { return threadIdx.x == 0 ? u32(await_published(s.prefix + tb, w)) : 0u; };
      scan_t(scan_tmp).InclusiveSum(x, x, prefix_op);
      store_tile<Items, Threads, H>(out, n, tb, x);
    }
    if (threadIdx.x == 0) last = members && ticket == members - 1;
    __syncthreads();
    if (last) {  // the round's prefixes: its aggregates scanned, after the running total past the round before
      u32 v[aggs_per_thread];
      u64 base = published;
      for (int i = 0; i < aggs_per_thread; ++i) {
        const u32 k = threadIdx.x * aggs_per_thread + i;
        v[i] = k < members ? u32(await_published(s.agg + step * G + k, device_ref<u64>(s.agg[step * G + k]).load(cuda::std::memory_order_relaxed))) : 0u;
      }
      if (threadIdx.x == 0 && step > 0) base = await_published(s.running + step - 1, 0);
      u32 total;
      scan_t(scan_tmp).ExclusiveSum(v, v, total);
      if (threadIdx.x == 0) shared_word = base;
      __syncthreads();
      base = shared_word;
      for (int i = 0; i < aggs_per_thread; ++i) {
        const u32 k = threadIdx.x * aggs_per_thread + i;
        if (k < members) device_ref<u64>(s.prefix[step * G + k]).store(published | u32(u32(base) + v[i]), cuda::std::memory_order_relaxed);
      }
      if (threadIdx.x == 0) device_ref<u64>(s.running[step]).store(published | u32(u32(base) + total), cuda::std::memory_order_relaxed);
      __syncthreads();
    }
  }
}

// The grid of a persistent kernel: every block resident (at most per_sm_cap per SM), and no more than a block
// can sum or scan the aggregates of (threads x aggs_per_thread).
template <class Kernel>
u32 resident_blocks(Kernel* kernel, int threads, int per_sm_cap = 1 << 30) {
  int per_sm = 0, sms = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  return static_cast<u32>(std::min(std::min(per_sm, per_sm_cap) * sms, threads * aggs_per_thread));
}

template <int Items, int Lag, int H, int PerSM = 1 << 30, int MinBlocks = 1, int Threads = 256>
struct cached_last {
  static constexpr int tile = Items * Threads;
  static constexpr auto kernel = cached_scan_last<Items, Threads, Lag, H, MinBlocks>;
  static u32 grid() { return resident_blocks(kernel, Threads, PerSM); }
  static void run(const u32* in, u32* out, u64 n, void* scratch_bytes) {
    const u64 tiles = ceil_div(n, tile);
    const u32 G = static_cast<u32>(std::min<u64>(grid(), tiles));
    const u64 rounds = ceil_div(tiles, G);
    last_scratch s{};
    s.agg = static_cast<u64*>(scratch_bytes);
    s.prefix = s.agg + tiles;
    s.running = s.prefix + tiles;
    s.arrived = reinterpret_cast<u32*>(s.running + rounds);
    cudaMemsetAsync(scratch_bytes, 0, tiles * 16 + rounds * 12);
    kernel<<<G, Threads>>>(in, out, n, tiles, G, s);
  }
};

// One configuration: the kernel, its resident grid and its scratch (one aggregate word per tile, zeroed).
template <int Items, int Lag, int H, bool Overlap = false, int MinBlocks = 1, int Threads = 256>
struct cached {
  static constexpr int tile = Items * Threads;
  static constexpr auto kernel = cached_scan<Items, Threads, Lag, H, MinBlocks, Overlap>;
  static u32 grid() { return resident_blocks(kernel, Threads); }
  static void run(const u32* in, u32* out, u64 n, void* scratch_bytes) {
    const u64 tiles = ceil_div(n, tile);
    const u32 G = static_cast<u32>(std::min<u64>(grid(), tiles));
    cudaMemsetAsync(scratch_bytes, 0, tiles * 8);
    kernel<<<G, Threads>>>(in, out, n, tiles, G, static_cast<u64*>(scratch_bytes));
  }
};

template <class F>
float median_ms(F f) {
  return event_median_ms(3, 15, [] {}, f);
}

int failures = 0;

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::string_view(argv[1]) == "quick";
  const u64 top = u64{1} << 28;
  std::vector<u32> h(top), got(top);
  std::mt19937_64 g(7);
  for (auto& v : h) v = static_cast<u32>(g() & 0xffff);
  u32 *in, *out;
  void* scratch_bytes;
  cudaMalloc(&in, top * 4), cudaMalloc(&out, top * 4), cudaMalloc(&scratch_bytes, 32 << 20);
  cudaMemcpy(in, h.data(), top * 4, cudaMemcpyHostToDevice);

  auto check = [&](const char* what, u64 n, auto launch) {
    cudaMemset(out, 0xab, n * 4);
    launch(n);
    const cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(got.data(), out, n * 4, cudaMemcpyDeviceToHost);
    u32 acc = 0;
    u64 bad = 0;
    for (u64 i = 0; i < n; ++i) {
      acc += h[i];
      if (got[i] != acc && bad++ < 3) std::printf("  MISMATCH %s n=%llu at %llu\n", what, (unsigned long long)n, (unsigned long long)i);
    }
    if (bad || e != cudaSuccess) ++failures;
    std::printf("check %-28s n=%-10llu %s %s\n", what, (unsigned long long)n, bad ? "FAILED" : "ok", cudaGetErrorString(e));
  };
#define CFG(NAME, ...) {NAME, [&](u64 n) { __VA_ARGS__::run(in, out, n, scratch_bytes); }, __VA_ARGS__::grid(), __VA_ARGS__::tile}
  struct config {
    const char* name;
    std::function<void(u64)> run;
    u32 grid;
    int tile;
  };
  const std::vector<config> configs = {
      CFG("16 items lag 1 plain", cached<16, 1, plain>),
      CFG("16 items lag 1 keep", cached<16, 1, keep>),
      CFG("16 items lag 1 stream", cached<16, 1, stream>),
      CFG("16 items lag 2 keep overlap", cached<16, 2, keep, true>),
      CFG("8 items lag 1 keep", cached<8, 1, keep>),
      CFG("8 items lag 2 keep", cached<8, 2, keep>),
      CFG("8 items lag 3 keep", cached<8, 3, keep>),
      CFG("8 items lag 2 keep overlap", cached<8, 2, keep, true>),
      CFG("8 items lag 3 keep overlap", cached<8, 3, keep, true>),
      CFG("last: 16 items lag 1 keep", cached_last<16, 1, keep>),
      CFG("last: 8 items lag 2 keep", cached_last<8, 2, keep>),
      CFG("last: 8 items lag 2 keep 4b/SM", cached_last<8, 2, keep, 4>),
  };
  if (argc > 2 && std::string_view(argv[1]) == "one") {  // one configuration, three calls at 2^28 (for ncu)
    for (int i = 0; i < 3; ++i) configs[std::atoi(argv[2])].run(top);
    std::printf("one %s: %s\n", configs[std::atoi(argv[2])].name, cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
  }
  for (const auto& c : configs)
    std::printf("config %-28s grid %u blocks, tile %d, round %.1f MiB\n", c.name, c.grid, c.tile, c.grid * c.tile * 4.0 / (1 << 20));
  for (const auto& c : configs)
    for (u64 n : {u64{5000}, u64{4096} * 264 + 17, u64{4096} * 1056 * 3 + 4099, u64{1} << 24 | 3, top - 1, top}) {
      if (quick && n > (u64{1} << 24)) break;
      check(c.name, n, c.run);
    }
  if (quick) return failures ? 1 : 0;

  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, static_cast<int>(top));
  cudaMalloc(&temp, temp_bytes);
  for (u64 n = u64{1} << 24; n <= top; n *= 4) {
    const float copy = median_ms([&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice); });
    auto report = [&](const char* what, float ms) {
      std::printf("n=%-10llu %-30s %.4f ms  %.3f of copy\n", (unsigned long long)n, what, ms, copy / ms);
    };
    report("copy", copy);
    report("cub", median_ms([&] { cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, static_cast<int>(n)); }));
    report("sluice default (pipelined)", median_ms([&] {
             decoupled_lookback::run<u32, sluice::sum, lookback::tuning, decoupled_lookback::scan_pipeline<u32>>(in, out, n, true, 0u,
                                                                                                          sluice::sum{}, 0, "t");
           }));
    for (const auto& c : configs) report(c.name, median_ms([&] { c.run(n); }));
  }
  std::printf("failures: %d; last error: %s\n", failures, cudaGetErrorString(cudaGetLastError()));
  return failures ? 1 : 0;
}
