// Tuning study of decoupled-lookback's pipelined compact path (not part of the build): vectors per thread,
// stages of bulk copies and resident blocks per SM, against the single pass, the phased path (flags),
// cub::DeviceSelect (int counts) and a device copy, for u32 with flags and with a predicate at 10%, 50% and
// 90% kept, from 2^20 to 2^28 (argument "u64": 8-byte elements, 2^21 to 2^27, both forms at every ratio);
// every configuration's output and count are checked against the host first.
// Build: nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild/include bench/pipelined_compact_tuning.cu src/runtime.cpp src/gl/unavailable.cpp -o pipelined_compact_tuning
#include <cub/device/device_select.cuh>

#include <cstdio>
#include <random>
#include <string_view>
#include <vector>

#include "event_median.cuh"
#include "sluice/cuda/compact/decoupled_lookback.cuh"

using namespace sluice::cuda_backend;
using sluice::detail::setting;
namespace sl = select_lookback;

template <class T, bool F, unsigned V, unsigned S, unsigned B, unsigned L = 1, unsigned long long MinTiles = 1>
struct cfg : sl::pipeline<T, F, V, S, B, L> {
  static constexpr u64 min_tiles = MinTiles;
  static constexpr bool built = true;  // also for 8-byte elements (argument "u64")
};

template <unsigned K>  // look-back window per lane
struct window : lookback::tuning {
  static constexpr unsigned per_lane = K;
};

template <class Fn>
float median_ms(Fn f) {
  return event_median_ms(3, 15, [] {}, f);
}

int failures = 0;
bool quick = false;  // argument "quick": the checks at the small sizes only (for compute-sanitizer)
bool crossover = false;  // argument "crossover": predicates, every power of two from 2^21 to 2^25, the
                         // single pass against the pipeline's default shape (where auto should switch)

template <class T>
struct below {  // keeps x < limit
  T limit;
  __host__ __device__ bool operator()(T x) const { return x < limit; }
};

template <bool Flags, class T = unsigned>
void study(double ratio) {
  using Sel = std::conditional_t<Flags, sluice::detail::flag_select, sluice::detail::pred_select<below<T>>>;
  const char* form = Flags ? (sizeof(T) == 8 ? "u64 flags" : "flags") : (sizeof(T) == 8 ? "u64 pred " : "pred ");
  const u64 top = (u64{1} << 30) / sizeof(T);  // 1 GiB: 2^28 u32, 2^27 u64
  std::vector<T> h(top);
  std::vector<std::uint8_t> hf(top);
  std::mt19937_64 g(11);
  const T limit = static_cast<T>(ratio * (sizeof(T) == 8 ? 18446744073709551616.0 : 4294967296.0));
  for (u64 i = 0; i < top; ++i) {
    h[i] = static_cast<T>(g());
    hf[i] = h[i] < limit;  // the same elements kept either way
  }
  T *in, *out;
  std::uint8_t* f;
  u64* count;
  cudaMalloc(&in, top * sizeof(T)), cudaMalloc(&out, top * sizeof(T)), cudaMalloc(&f, top), cudaMalloc(&count, 8);
  cudaMemcpy(in, h.data(), top * sizeof(T), cudaMemcpyHostToDevice), cudaMemcpy(f, hf.data(), top, cudaMemcpyHostToDevice);
  Sel sel;
  if constexpr (Flags) sel = Sel{f};
  else sel = Sel{below<T>{limit}};
  std::vector<T> got(top);

  auto check = [&](const char* what, u64 n, u64 capacity, auto launch) {
    cudaMemset(out, 0xab, top * sizeof(T));
    launch(n, capacity);
    u64 c = 0;
    cudaMemcpy(&c, count, 8, cudaMemcpyDeviceToHost);
    cudaMemcpy(got.data(), out, (capacity + 8 < top ? capacity + 8 : top) * sizeof(T), cudaMemcpyDeviceToHost);
    u64 k = 0, bad = 0;
    for (u64 i = 0; i < n; ++i)
      if (hf[i]) {
        if (k < capacity && got[k] != h[i] && bad++ < 3) std::printf("  MISMATCH %s n=%llu out[%llu]\n", what, (unsigned long long)n, (unsigned long long)k);
        ++k;
      }
    for (u64 i = capacity; i < capacity + 8 && i < top; ++i)
      if (got[i] != static_cast<T>(0xababababababababull) && bad++ < 3) std::printf("  WRITTEN PAST CAPACITY %s n=%llu at %llu\n", what, (unsigned long long)n, (unsigned long long)i);
    if (c != k) ++bad, std::printf("  COUNT %s n=%llu: %llu, expected %llu\n", what, (unsigned long long)n, (unsigned long long)c, (unsigned long long)k);
    if (bad) ++failures;
    std::printf("check %s %.1f %-26s n=%-10llu cap=%-10llu %s\n", form, ratio, what, (unsigned long long)n, (unsigned long long)capacity, bad ? "FAILED" : "ok");
  };
#define RUN(PL, ...) RUNK(PL, lookback::tuning, __VA_ARGS__)
#define RUNK(PL, TUNE, ...)                                                                                               \
  [&](u64 n, u64 capacity) {                                                                                              \
    sl::run<sl::mode::compact, T, Sel, TUNE, __VA_ARGS__>({in, n}, {out, capacity}, sel, count, 0, "t",         \
                                                                      sl::compact_settings{sl::phasing::automatic, PL}); \
  }
  for (u64 n : {u64{1}, u64{4096} * 3 + 5, u64{4096} * 300 + 3, u64{4096} * 1000 + 4095, top - 1}) {
    if (quick && n > u64{4096} * 1000 + 4095) break;
    check("pipelined 4v 4s 2b, short out", n, n / 3, RUN(setting::on, cfg<T, Flags, 4, 4, 2, 1>));
    check("pipelined 6v 4s 1b", n, n - n / 5, RUN(setting::on, cfg<T, Flags, 6, 4, 1, 1>));
    check("pipelined 6v 5s 1b", n, n, RUN(setting::on, cfg<T, Flags, 6, 5, 1, 1>));
    if constexpr (!Flags) check("pipelined 6v 4s 2b", n, n, RUN(setting::on, cfg<T, Flags, 6, 4, 2, 1>));
    if constexpr (sizeof(T) == 8) {
      check("pipelined 5v 4s 1b", n, n, RUN(setting::on, cfg<T, Flags, 5, 4, 1, 1>));
      check("pipelined 7v 4s 1b", n, n / 2, RUN(setting::on, cfg<T, Flags, 7, 4, 1, 1>));
      check("pipelined 6v 6s 1b lag 2", n, n, RUN(setting::on, cfg<T, Flags, 6, 6, 1, 2>));
    }
    check("pipelined 8v 4s 1b lag 1", n, n, RUN(setting::on, cfg<T, Flags, 8, 4, 1, 1>));
    check("pipelined 4v 5s 2b lag 1", n, n / 2, RUN(setting::on, cfg<T, Flags, 4, 5, 2, 1>));
    if constexpr (!Flags) check("pipelined 4v 6s 2b lag 2 K=8", n, n, RUNK(setting::on, window<8>, cfg<T, Flags, 4, 6, 2, 2>));
  }
  if (quick) return (void)(cudaFree(in), cudaFree(out), cudaFree(f), cudaFree(count));
  check("single pass", top, top, RUN(setting::off, sl::compact_pipeline<T, Flags>));

  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  auto cub_run = [&](u64 n, void* t, std::size_t& b) {
    if constexpr (Flags) return cub::DeviceSelect::Flagged(t, b, in, f, out, count, static_cast<int>(n));
    else return cub::DeviceSelect::If(t, b, in, out, count, static_cast<int>(n), below<T>{limit});
  };
  cub_run(top, temp, temp_bytes);
  cudaMalloc(&temp, temp_bytes);
  for (u64 n = u64{1} << (crossover || sizeof(T) == 8 ? 21 : 20); n <= (crossover ? u64{1} << 25 : top); n *= crossover ? 2 : 4) {
    const float copy = median_ms([&] { cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice); });
    const double rate = 2.0 * n * sizeof(T) / copy;
    const double bytes = n * double(sizeof(T)) + (Flags ? n : 0) + double(sizeof(T)) * ratio * n;
    auto report = [&](const char* what, float ms) {
      std::printf("%s %.1f n=%-10llu %-26s %.4f ms  %.3f of copy\n", form, ratio, (unsigned long long)n, what, ms, bytes / ms / rate);
    };
    std::printf("%s %.1f n=%-10llu %-26s %.4f ms\n", form, ratio, (unsigned long long)n, "copy", copy);
    report("cub", median_ms([&] { cub_run(n, temp, temp_bytes); }));
#define T_(NAME, PL, ...) report(NAME, median_ms([&] { RUN(PL, __VA_ARGS__)(n, n); }));
    T_("single pass", setting::off, sl::compact_pipeline<T, Flags>)
    if constexpr (Flags) {
      report("phased", median_ms([&] {
               sl::run<sl::mode::compact>(std::span<const T>{in, n}, std::span<T>{out, n}, sel, count, 0, "t",
                                          sl::compact_settings{sl::phasing::on, setting::off});
             }));
    }
#define TK_(NAME, K, ...) report(NAME, median_ms([&] { RUNK(setting::on, window<K>, __VA_ARGS__)(n, n); }));
    T_("pipelined 4v 4s 2b lag 1", setting::on, cfg<T, Flags, 4, 4, 2, 1>)
    if constexpr (sizeof(T) == 8) {
      T_("pipelined 6v 4s 1b lag 1", setting::on, cfg<T, Flags, 6, 4, 1, 1>)
      T_("pipelined 5v 4s 1b lag 1", setting::on, cfg<T, Flags, 5, 4, 1, 1>)
      T_("pipelined 7v 4s 1b lag 1", setting::on, cfg<T, Flags, 7, 4, 1, 1>)
      T_("pipelined 6v 5s 1b lag 1", setting::on, cfg<T, Flags, 6, 5, 1, 1>)
      T_("pipelined 6v 6s 1b lag 2", setting::on, cfg<T, Flags, 6, 6, 1, 2>)
      if constexpr (!Flags) T_("pipelined 6v 4s 2b lag 1", setting::on, cfg<T, Flags, 6, 4, 2, 1>)
    } else if (!crossover) {  // the other shapes (crossover: the default's shape only)
      T_("pipelined 4v 5s 2b lag 1", setting::on, cfg<T, Flags, 4, 5, 2, 1>)
      T_("pipelined 6v 4s 1b lag 1", setting::on, cfg<T, Flags, 6, 4, 1, 1>)
      T_("pipelined 6v 5s 1b lag 1", setting::on, cfg<T, Flags, 6, 5, 1, 1>)
      if constexpr (!Flags) {
        T_("pipelined 6v 4s 2b lag 1", setting::on, cfg<T, Flags, 6, 4, 2, 1>)
        T_("pipelined 4v 5s 2b lag 2", setting::on, cfg<T, Flags, 4, 5, 2, 2>)
        T_("pipelined 4v 6s 2b lag 2", setting::on, cfg<T, Flags, 4, 6, 2, 2>)
        T_("pipelined 4v 7s 2b lag 2", setting::on, cfg<T, Flags, 4, 7, 2, 2>)
      }
    }
    T_("default (auto)", setting::automatic, sl::compact_pipeline<T, Flags>)
  }
  cudaFree(temp), cudaFree(in), cudaFree(out), cudaFree(f), cudaFree(count);
}

int main(int argc, char** argv) {
  quick = argc > 1 && std::string_view(argv[1]) == "quick";
  crossover = argc > 1 && std::string_view(argv[1]) == "crossover";
  const bool u64_elements = argc > 1 && std::string_view(argv[1]) == "u64";
  for (double r : {0.5, 0.1, 0.9}) {
    if (u64_elements) {
      study<true, unsigned long long>(r), study<false, unsigned long long>(r);
      continue;
    }
    if (r == 0.5 && !crossover) study<true>(r);
    study<false>(r);
    if (quick) break;
  }
  std::printf("failures: %d; last error: %s\n", failures, cudaGetErrorString(cudaGetLastError()));
  return failures ? 1 : 0;
}
