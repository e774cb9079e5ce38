// Tuning study of reduce "vectorized" (not part of the build): loads in flight, blocks per SM and the
// single-launch limit, for u32 and f32 sums from 2^10 to 2^30, beside cub::DeviceReduce::Reduce (pre-allocated scratch, int count,
// cuda::std::plus as sluice's CUB peer calls it) and a device copy of the same bytes. Rates as the
// production suite's: GB/s of the bytes read, fraction of the copy's rate (bytes read + written). Every
// configuration is checked first: u32 exactly, f32 within 1e-5 of a host double sum and bitwise the same
// on a second run; each also at a start one element past the 16-byte boundary. "quick": fewer cases; "small":
// sizes up to 2^16 only, with every single-launch limit; "commuting": the quick sizes with the layouts for
// commuting operators below.
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
#include "sluice/cuda/reduce/vectorized.cuh"

using namespace sluice::cuda_backend;

// (Block runs and batched final-block loads, also measured on 2026-11-22, were slower; commit 9adcc94 has
// them and this study's rows for them.)
template <class T, unsigned V, unsigned B, u64 Single = 8192>
struct cfg : vectorized::policy<T, V, B> {
  static constexpr u64 single_launch_max = Single;
};

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
  using P = vectorized::policy<T>;
  constexpr u64 tile = (Block ? 256 : 32) * V * (16 / sizeof(T));
  u64 head = (16 - reinterpret_cast<std::uintptr_t>(in) % 16) % 16 / sizeof(T);
  if (head > n) head = n;
  const u64 tiles = (n - head) / tile, tail_at = head + tiles * tile;
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
      block_runs<T, V, L><<<unsigned(blocks), 256>>>(in + head, tiles, partials);
    else
      warp_runs<T, V, L><<<unsigned(blocks), 256>>>(in + head, tiles, partials);
  }
  vectorized::final_kernel<P, T, sluice::sum><<<1, P::final_threads>>>(in, head, partials, blocks, tail_at, n, sluice::sum{}, T{}, result);
}
}  // namespace commuting

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
constexpr u64 small_max = u64{1} << 16;  // up to here: the single-launch grid, more repetitions, back-to-back times

template <class T>
struct study {
  const char* type;
  u64 top, n = 0;
  T *in, *out, *result;
  void* temp = nullptr;
  std::size_t temp_cap = 0;
  float copy_ms = 0, cub_ms = 0, cub_b2b = 0;
  // The host reference, a running sum over the sizes in increasing order: u32 wraps, f32 sums in double.
  u64 summed = 0;
  T wrapped = 0;
  double exact = 0;

  study(const char* t, u64 top_) : type(t), top(top_) {
    cudaMalloc(&in, top * sizeof(T)), cudaMalloc(&out, top * sizeof(T)), cudaMalloc(&result, 4 * sizeof(T));
    fill<<<1024, 256>>>(in, top);
    cub::DeviceReduce::Reduce(temp, temp_cap, in, result, static_cast<int>(top), cuda::std::plus<>{}, T{}, cudaStream_t{});
    cudaMalloc(&temp, temp_cap);
  }
  ~study() { cudaFree(in), cudaFree(out), cudaFree(result), cudaFree(temp); }

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
  void row(const char* label, bool timed) {
    const auto launch = [](const T* p, u64 m, T* r) { vectorized::run<T, Op, P>(p, m, r, T{}, Op{}, 0, "reduce_tuning"); };
    check(label, launch);
    if (!timed) return;
    const float ms = time([&] { launch(in, n, result); });
    report(label, ms, n <= small_max ? time_back_to_back([&] { launch(in, n, result); }) : 0);
  }

  template <bool Block, unsigned V, unsigned B, unsigned W, commuting::ld L = commuting::ld::plain, bool Pool = false>
  void commuting_row(const char* label, bool timed) {
    const auto launch = [this](const T* p, u64 m, T* r) { commuting::run<T, Block, V, B, W, L, Pool>(p, m, r, out); };
    check(label, launch);
    if (!timed) return;
    const float ms = time([&] { launch(in, n, result); });
    report(label, ms, n <= small_max ? time_back_to_back([&] { launch(in, n, result); }) : 0);
  }

  void configs(bool timed) {
    const bool all = !quick && !small_only, small = n <= small_max;
    row<vectorized::policy<T>>("default (4 vec, 8/SM)", timed);
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
    for (u64 k = 10; k <= 16; ++k)
      if (!quick || k == 10 || k == 12 || k == 13 || k == 14 || k == 16) sizes.push_back({u64{1} << k, true});
    for (u64 k : {24, 26, 27, 28, 30})
      if ((u64{1} << k) <= top && !small_only && (!quick || k == 24 || k == 28 || (commuting_rows && (k == 26 || k == 30)))) sizes.push_back({u64{1} << k, true});
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
        cub_b2b = n <= small_max ? time_back_to_back([&] { cub_reduce(in, n, result); }) : 0;
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
  quick = quick || commuting_rows;
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
