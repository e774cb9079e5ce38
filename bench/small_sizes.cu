// Study (not part of the build): where one call's time goes at small n, for issue 5's goal of 0.6x CUB's
// time at 2^16. For n from 2^10 to 2^20 (u32; or the sizes named on the command line), the median CUDA-event time of one call and of 20 calls back
// to back, with counts and results left on the device (no host copy inside the timing): an empty kernel
// (the floor of any call that launches one kernel), two empty kernels (the floor of two), sluice's default
// through the public API (its async forms) and CUB at its best (int counts, temporary storage allocated once)
// for inclusive_scan, compact with flags, partition with flags, compact_if and reduce. Every sluice result is
// checked against CUB's first. The host's time per call, and of the pieces of the scan's host path (stop 49).
// For the kernels' own durations run it under ncu with SMALL_SIZES_ONCE=1 in its environment (`env
// SMALL_SIZES_ONCE=1 ncu ...`: each call three times a size, no timing loops).
// Build (after the library, build/libsluice.a):
//   nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild/include -Ibench bench/small_sizes.cu \
//     build/libsluice.a -lEGL -lOpenGL -ltbb -lcuda -Xcompiler -fopenmp -o small_sizes
#include <cub/device/device_partition.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <vector>

#include "event_median.cuh"
#include "sluice/cuda/reduce/vectorized.cuh"
#include "sluice/cuda/scan/decoupled_lookback.cuh"
#include "sluice/sluice.hpp"

__global__ void empty_kernel() {}

struct below {
  unsigned v;
  __host__ __device__ bool operator()(unsigned x) const { return x < v; }
};

int failures = 0;

// Microseconds of the host per call of f, the median of 11 batches of 200 calls (no synchronisation inside a
// batch: the stream's queue takes the work, so this is what the calling thread spends).
template <class F>
double host_us(F f) {
  std::vector<double> t;
  for (int r = 0; r < 11; ++r) {
    cudaDeviceSynchronize();
    const auto a = std::chrono::steady_clock::now();
    for (int i = 0; i < 200; ++i) f();
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count() / 200);
  }
  cudaDeviceSynchronize();
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Median of one call between two events, the median per call of `batch` calls between two events, and the
// host's time per call.
template <class F>
void report(unsigned long long n, const char* what, F f) {
  const float one = event_median_ms(5, 51, [] {}, f);
  const int batch = 20;
  const float many = event_median_ms(2, 11, [] {}, [&] {
    for (int i = 0; i < batch; ++i) f();
  });
  std::printf("n=%-8llu %-26s one call %7.2f us   back to back %7.2f us   host %6.2f us\n", n, what, one * 1e3, many * 1e3 / batch,
              host_us(f));
}

// Usage: small_sizes [LOG2,LOG2,...]   the sizes as powers of two (default 10 to 20; up to 30).
int main(int argc, char** argv) {
  using u32 = unsigned;
  using u64 = unsigned long long;
  const sluice::options opt{sluice::device::cuda};
  std::vector<u64> sizes;
  if (argc > 1) {
    for (const char* p = argv[1]; *p;) {
      char* end = nullptr;
      const unsigned long e = std::strtoul(p, &end, 10);
      if (end == p || e < 1 || e > 30 || (*end && *end != ','))
        return std::fprintf(stderr, "small_sizes: sizes are log2 values 1..30, comma-separated\n"), 2;
      sizes.push_back(u64{1} << e);
      p = *end ? end + 1 : end;
    }
  } else {
    for (u64 n = u64{1} << 10; n <= u64{1} << 20; n *= 2) sizes.push_back(n);
  }
  const u64 top = *std::max_element(sizes.begin(), sizes.end());
  std::vector<u32> h(top);
  std::vector<unsigned char> hf(top);
  std::mt19937 g(5);
  for (u64 i = 0; i < top; ++i) h[i] = g() & 0xffff, hf[i] = g() & 1;
  sluice::device_buffer<u32> in(h), out(top), cub_out(top);
  sluice::device_buffer<unsigned char> flags(hf);
  sluice::device_buffer<std::uint64_t> count(1);
  sluice::device_buffer<int> cub_count(1);
  sluice::device_buffer<u32> result(1), cub_result(1);
  const below pred{0x8000};  // about half kept
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  {  // the largest temporary storage any of the CUB calls asks for
    std::size_t b = 0;
    const int nn = static_cast<int>(top);
    cub::DeviceScan::InclusiveSum(nullptr, b, in.data(), out.data(), nn), temp_bytes = std::max(temp_bytes, b);
    cub::DeviceSelect::Flagged(nullptr, b, in.data(), flags.data(), out.data(), cub_count.data(), nn), temp_bytes = std::max(temp_bytes, b);
    cub::DevicePartition::Flagged(nullptr, b, in.data(), flags.data(), out.data(), cub_count.data(), nn), temp_bytes = std::max(temp_bytes, b);
    cub::DeviceSelect::If(nullptr, b, in.data(), out.data(), cub_count.data(), nn, pred), temp_bytes = std::max(temp_bytes, b);
    cub::DeviceReduce::Sum(nullptr, b, in.data(), result.data(), nn), temp_bytes = std::max(temp_bytes, b);
    cudaMalloc(&temp, temp_bytes);
  }
  {  // what the runtime calls a sluice call may make cost the host, each alone
    int dev = 0;
    cudaStreamCaptureStatus st;
    unsigned long long id = 0;
    cudaPointerAttributes a{};
    std::printf("host cudaGetDevice %.3f us, cudaPointerGetAttributes %.3f us, cudaStreamIsCapturing %.3f us, "
                "cudaStreamGetId %.3f us, cudaEventRecord %.3f us, empty kernel launch %.3f us\n",
                host_us([&] { cudaGetDevice(&dev); }), host_us([&] { cudaPointerGetAttributes(&a, in.data()); }),
                host_us([&] { cudaStreamIsCapturing(0, &st); }), host_us([&] { cudaStreamGetId(0, &id); }),
                host_us([&] {
                  static cudaEvent_t e = [] { cudaEvent_t x; cudaEventCreateWithFlags(&x, cudaEventDisableTiming); return x; }();
                  cudaEventRecord(e);
                }),
                host_us([] { empty_kernel<<<1, 32>>>(); }));
    // A scan's host time by layer at 2^16 (at most 8192 elements for the bare launch: one tile needs no
    // states); fewer where the largest size asked for is smaller.
    namespace dl = sluice::cuda_backend::decoupled_lookback;
    const std::span<const u32> i16(in.data(), std::min<u64>(top, 65536));
    const std::span<u32> o16(out.data(), i16.size());
    const u64 one_tile = std::min<u64>(top, dl::policy<u32>::tile);
    std::printf("host scan of %zu: public API %.3f us, decoupled_lookback::run %.3f us, scan_kernel launch (one tile) %.3f us\n",
                i16.size(), host_us([&] { sluice::inclusive_scan(i16, o16, sluice::sum{}, opt); }),
                host_us([&] { dl::run<u32, sluice::sum>(in.data(), out.data(), i16.size(), true, 0u, sluice::sum{}, 0, "t"); }),
                host_us([&] {
                  dl::scan_kernel<u32, sluice::sum, true, sluice::cuda_backend::lookback::tuning><<<1, 256>>>(
                      in.data(), out.data(), one_tile, sluice::sum{}, true, 0u, nullptr, nullptr, {}, false);
                }));
    // The pieces of the scan's host path (stop 49), on a stream no kernel of this study runs on (launch_states
    // borrows the stream's kept states and gives them back without a launch, which only host timing may do).
    {
      namespace lb = sluice::cuda_backend::lookback;
      cudaStream_t s2;
      cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
      using is_capturing_t = CUresult (*)(CUstream, CUstreamCaptureStatus*);
      using get_id_t = CUresult (*)(CUstream, unsigned long long*);
      using ctx_device_t = CUresult (*)(CUdevice*);
      void *p1 = nullptr, *p2 = nullptr, *p3 = nullptr;
      cudaDriverEntryPointQueryResult q{};
      cudaGetDriverEntryPointByVersion("cuStreamIsCapturing", &p1, 12000, cudaEnableDefault, &q);
      cudaGetDriverEntryPointByVersion("cuStreamGetId", &p2, 12000, cudaEnableDefault, &q);
      cudaGetDriverEntryPointByVersion("cuCtxGetDevice", &p3, 12000, cudaEnableDefault, &q);
      const auto cu_is_capturing = reinterpret_cast<is_capturing_t>(p1);
      const auto cu_get_id = reinterpret_cast<get_id_t>(p2);
      const auto cu_ctx_device = reinterpret_cast<ctx_device_t>(p3);
      CUstreamCaptureStatus cst{};
      CUdevice cdev{};
      std::mutex m;
      std::printf("host pieces: prepare (checks, 2 pointers, lookup) %.3f us, launch_states of 8 tiles (borrow and give back) %.3f us, "
                  "cudaStreamIsCapturing %.3f us, cudaStreamGetId %.3f us, cudaGetDevice %.3f us, cuStreamIsCapturing %.3f us, "
                  "cuStreamGetId %.3f us, cuCtxGetDevice %.3f us, mutex lock+unlock %.3f us\n",
                  host_us([&] {
                    (void)sluice::detail::prepare("inclusive_scan", sluice::primitive::scan, opt, std::pair{"in", i16}, std::pair{"out", o16});
                  }),
                  host_us([&] { lb::launch_states st(lb::tile_state<u32>::bytes(8), lb::tile_state<u32>::packed, s2, "t"); }),
                  host_us([&] { cudaStreamIsCapturing(s2, &st); }), host_us([&] { cudaStreamGetId(s2, &id); }),
                  host_us([&] { cudaGetDevice(&dev); }), host_us([&] { cu_is_capturing(s2, &cst); }),
                  host_us([&] { cu_get_id(s2, &id); }), host_us([&] { cu_ctx_device(&cdev); }),
                  host_us([&] { std::lock_guard l(m); }));
      cudaStreamDestroy(s2);
    }
    // A reduce's by layer at 4096 (one launch for sluice and CUB alike), beside CUB's call.
    namespace vz = sluice::cuda_backend::vectorized;
    using rp = vz::policy<u32>;
    const u64 r4 = std::min<u64>(top, 4096);
    const std::span<const u32> i4(in.data(), r4);
    std::size_t tb4 = temp_bytes;
    std::printf("host reduce of %llu: public API (async) %.3f us, vectorized::run %.3f us, single_kernel launch %.3f us, "
                "cub::DeviceReduce::Sum %.3f us\n",
                static_cast<u64>(r4), host_us([&] { sluice::reduce_async(i4, result.data(), 0u, sluice::sum{}, opt); }),
                host_us([&] { vz::run<u32, sluice::sum>(in.data(), r4, result.data(), 0u, sluice::sum{}, 0, "t"); }),
                host_us([&] { vz::single_kernel<rp, u32, sluice::sum, false><<<1, rp::final_threads>>>(in.data(), 0, r4 / rp::warp_tile,
                                                                                                r4 / rp::warp_tile * rp::warp_tile, r4, sluice::sum{}, 0u,
                                                                                                result.data()); }),
                host_us([&] { cub::DeviceReduce::Sum(temp, tb4, in.data(), cub_result.data(), static_cast<int>(r4)); }));
  }
  for (const u64 n : sizes) {
    const int nn = static_cast<int>(n);
    std::span<const u32> i(in.data(), n);
    std::span<u32> o(out.data(), n);
    std::span<const unsigned char> f(flags.data(), n);
    std::size_t tb = temp_bytes;
    auto sl_scan = [&] { sluice::inclusive_scan(i, o, sluice::sum{}, opt); };
    auto cub_scan = [&] { cub::DeviceScan::InclusiveSum(temp, tb, in.data(), cub_out.data(), nn); };
    auto sl_compact = [&] { sluice::compact_async(i, f, o, count.data(), opt); };
    auto cub_compact = [&] { cub::DeviceSelect::Flagged(temp, tb, in.data(), flags.data(), cub_out.data(), cub_count.data(), nn); };
    auto sl_partition = [&] { sluice::partition_flagged_async(i, f, o, count.data(), opt); };
    auto cub_partition = [&] { cub::DevicePartition::Flagged(temp, tb, in.data(), flags.data(), cub_out.data(), cub_count.data(), nn); };
    auto sl_compact_if = [&] { sluice::compact_if_async(i, o, sluice::less_than(0x8000u), count.data(), opt); };
    auto cub_compact_if = [&] { cub::DeviceSelect::If(temp, tb, in.data(), cub_out.data(), cub_count.data(), nn, pred); };
    auto sl_reduce = [&] { sluice::reduce_async(i, result.data(), 0u, sluice::sum{}, opt); };
    auto cub_reduce = [&] { cub::DeviceReduce::Sum(temp, tb, in.data(), cub_result.data(), nn); };
    // The reduction below the public API (the kernels as this file was compiled with them).
    auto sl_reduce_run = [&] {
      sluice::cuda_backend::vectorized::run<u32, sluice::sum>(in.data(), n, result.data(), 0u, sluice::sum{}, 0, "small_sizes");
    };

    // Checks: sluice against CUB (kept elements and counts; partition's kept run; the sum).
    auto same = [&](const char* what, bool counted, bool kept_run_only) {
      cudaDeviceSynchronize();
      std::vector<u32> a(n), b(n);
      cudaMemcpy(a.data(), out.data(), n * 4, cudaMemcpyDeviceToHost);
      cudaMemcpy(b.data(), cub_out.data(), n * 4, cudaMemcpyDeviceToHost);
      u64 m = n;
      if (counted) {
        std::uint64_t c = 0;
        int cc = 0;
        cudaMemcpy(&c, count.data(), 8, cudaMemcpyDeviceToHost);
        cudaMemcpy(&cc, cub_count.data(), 4, cudaMemcpyDeviceToHost);
        if (c != static_cast<std::uint64_t>(cc)) std::printf("MISMATCH %s n=%llu count %llu against %d\n", what, n, (u64)c, cc), ++failures;
        m = kept_run_only ? c : std::min<u64>(c, n);
      }
      for (u64 k = 0; k < m; ++k)
        if (a[k] != b[k]) {
          std::printf("MISMATCH %s n=%llu at %llu\n", what, n, k), ++failures;
          break;
        }
    };
    sl_scan(), cub_scan(), same("inclusive_scan", false, false);
    sl_compact(), cub_compact(), same("compact", true, false);
    sl_partition(), cub_partition(), same("partition", true, true);
    sl_compact_if(), cub_compact_if(), same("compact_if", true, false);
    sl_reduce(), cub_reduce(), cudaDeviceSynchronize();
    u32 r1 = 0, r2 = 0;
    cudaMemcpy(&r1, result.data(), 4, cudaMemcpyDeviceToHost), cudaMemcpy(&r2, cub_result.data(), 4, cudaMemcpyDeviceToHost);
    if (r1 != r2) std::printf("MISMATCH reduce n=%llu\n", n), ++failures;
    sl_reduce_run(), cudaDeviceSynchronize();
    cudaMemcpy(&r1, result.data(), 4, cudaMemcpyDeviceToHost);
    if (r1 != r2) std::printf("MISMATCH vectorized::run n=%llu\n", n), ++failures;

    if (std::getenv("SMALL_SIZES_ONCE")) {  // for ncu: each call three times, no timing
      for (int k = 0; k < 3; ++k)
        empty_kernel<<<1, 32>>>(), sl_scan(), cub_scan(), sl_compact(), cub_compact(), sl_compact_if(), cub_compact_if(), sl_reduce(), cub_reduce();
      cudaDeviceSynchronize();
      continue;
    }
    report(n, "empty kernel", [] { empty_kernel<<<1, 32>>>(); });
    report(n, "two empty kernels", [] { empty_kernel<<<1, 32>>>(), empty_kernel<<<1, 32>>>(); });
    report(n, "copy (cudaMemcpyAsync)", [&] { cudaMemcpyAsync(out.data(), in.data(), n * 4, cudaMemcpyDeviceToDevice); });
    report(n, "sluice inclusive_scan", sl_scan);
    report(n, "sluice decoupled_lookback::run", [&] {
      sluice::cuda_backend::decoupled_lookback::run<u32, sluice::sum>(in.data(), out.data(), n, true, 0u, sluice::sum{}, 0, "t");
    });
    report(n, "cub inclusive_scan", cub_scan);
    report(n, "sluice compact", sl_compact);
    report(n, "cub compact", cub_compact);
    report(n, "sluice partition", sl_partition);
    report(n, "cub partition", cub_partition);
    report(n, "sluice compact_if", sl_compact_if);
    report(n, "cub compact_if", cub_compact_if);
    report(n, "sluice reduce", sl_reduce);
    report(n, "cub reduce", cub_reduce);
    report(n, "sluice vectorized::run", sl_reduce_run);
  }
  cudaFree(temp);
  std::printf("failures: %d; last error: %s\n", failures, cudaGetErrorString(cudaGetLastError()));
  return failures ? 1 : 0;
}
