// Study of the stable partition by predicate at 1 GiB of input (2^28 u32, 2^27 u64; log2=K: 2^K bytes; not part
// of the build): the phased path (tile counts, their scan, the move: reversed=off), the pipelined pass that writes
// the rejected run reversed from the end, then the flip (reversed=on), and the sampled choice between the two on
// the device (pipelined=on, and `best` from 256 MiB on), beside CUB's partition with the reversal of its tail (the
// production suite's peer) and a device copy, at kept ratios from 0.1 to 0.95: where the reversed pass overtakes
// counting first (the sample's threshold, reversed_from_kept_hundredths), and what the choice costs; then the
// pass and the flips alone. Every variant's count and every element are checked against the host first.
// Build: nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild/include bench/partition_tuning.cu src/runtime.cpp src/gl/unavailable.cpp -o partition_tuning
// Run: partition_tuning [u32|u64]... [log2=K] [ratio=R] (default both types, 2^30 bytes of input, every ratio below;
// ratio=R: that kept ratio alone, as for one profiled launch under ncu)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string_view>
#include <vector>

#include "event_median.cuh"
#include "sluice/cuda/compact/decoupled_lookback.cuh"
#include "sluice/cuda/partition/cub.cuh"

using namespace sluice::cuda_backend;
using sluice::detail::setting;
namespace sl = select_lookback;

template <class T>
struct below {  // keeps x < limit
  T limit;
  __host__ __device__ bool operator()(T x) const { return x < limit; }
};

int failures = 0;

// The pipelined pass alone, reversed layout (no flip): what run_pipelined_partition launches first.
template <class T, class Sel, class Pipe>
void pass_alone(const T* in, T* out, u64 n, Sel sel, u64* count, unsigned long long* words) {
  auto* kernel = sl::pipelined_compact_kernel<T, Sel, lookback::tuning, Pipe, sl::mode::partition>;
  const u64 tiles = ceil_div(n, Pipe::tile);
  const u64 grid = resident_grid(kernel, Pipe::threads, Pipe::shared_bytes, tiles, 0, "t", "t");
  lookback::launch_states state(lookback::count_state::bytes(tiles), n < lookback::count_state::kept_limit, 0, "t");
  const sl::partition_args part{false, reinterpret_cast<unsigned*>(words + 1024)};
  launch_cooperative(kernel, grid, Pipe::threads, Pipe::shared_bytes, 0, "t", "t", in, sel, out, n, n, count, state.spare_counter(),
                     lookback::count_state::at(state.states(), tiles, state.epoch()), part);
}

constexpr double kept_ratios[] = {0.1, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95};

template <class T>
void study(const char* type, unsigned log2_bytes, double only_ratio) {
  using Sel = sluice::detail::pred_select<below<T>>;
  const u64 n = (u64{1} << log2_bytes) / sizeof(T);
  std::vector<T> h(n), want(n), got(n);
  std::mt19937_64 g(29);
  for (auto& x : h) x = static_cast<T>(g());
  T *in, *out;
  u64* count;
  unsigned long long* words;  // the pass's block totals, then (at 1024) its layout word
  cudaMalloc(&in, n * sizeof(T)), cudaMalloc(&out, n * sizeof(T)), cudaMalloc(&count, 8), cudaMalloc(&words, 1025 * 8);
  cudaMemcpy(in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  const float copy_ms = event_median_ms(3, 15, [] {}, [&] { cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice); });
  std::printf("%s n=%llu copy %.4f ms (%.1f GB/s)\n", type, (unsigned long long)n, copy_ms, 2.0 * n * sizeof(T) / copy_ms / 1e6);
  const auto with = [](setting pipelined, setting reversed) {
    sl::compact_settings c;
    c.pipelined = pipelined;
    c.reversed = reversed;
    return c;
  };
  using run_fn = void (*)(const T*, T*, u64, Sel, u64*, sl::compact_settings);
  struct variant {
    const char* name;
    sl::compact_settings settings;
    run_fn run;  // null: the library's default shape through run()
  };
  auto cub = [](const T* i, T* o, u64 m, Sel sel, u64* c, sl::compact_settings) { cub_peer::partition<T, Sel>({i, m}, {o, m}, sel, c, 0, "t"); };
  const auto rev = with(setting::on, setting::on);
  std::vector<variant> variants = {{"cub + tail reversal", {}, cub},
                                   {"reversed=on", rev, nullptr},
                                   {"pipelined=on (sample)", with(setting::on, setting::automatic), nullptr},
                                   {"reversed=off (phased)", with(setting::automatic, setting::off), nullptr},
                                   {"best", {}, nullptr}};
  for (const double ratio : kept_ratios) {
    if (only_ratio > 0 && ratio != only_ratio) continue;
    const T limit = static_cast<T>(ratio * (sizeof(T) == 8 ? 18446744073709551616.0 : 4294967296.0));
    const Sel sel{below<T>{limit}};
    u64 kept = 0;
    for (const T x : h)
      if (x < limit) want[kept++] = x;
    for (u64 i = 0, r = kept; i < n; ++i)
      if (!(h[i] < limit)) want[r++] = h[i];
    float cub_ms = 0;
    for (const variant& v : variants) {
      auto launch = [&] {
        if (v.run)
          v.run(in, out, n, sel, count, v.settings);
        else
          sl::run<sl::mode::partition, T, Sel>({in, n}, {out, n}, sel, count, 0, "t", v.settings);
      };
      cudaMemset(out, 0xab, n * sizeof(T));
      launch();
      u64 c = 0;
      cudaMemcpy(&c, count, 8, cudaMemcpyDeviceToHost);
      cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost);
      const bool ok = c == kept && got == want && cudaGetLastError() == cudaSuccess;
      if (!ok) ++failures;
      const float ms = event_median_ms(3, 15, [] {}, launch);
      if (v.run == cub) cub_ms = ms;
      std::printf("%s kept %.2f %-26s %8.4f ms  %.3f of copy  %.3f x CUB's time  %s\n", type, ratio, v.name, ms, copy_ms / ms, ms / cub_ms,
                  ok ? "ok" : "FAILED");
    }
    // The pieces of the reversed path and of CUB's: the pass alone, and each tail reversal alone on out
    // (count = kept from the runs above; each timing reverses the tail back and forth).
    const auto pieces = [&](const char* what, auto f) {
      const float ms = event_median_ms(3, 15, [] {}, f);
      std::printf("%s kept %.2f %-26s %8.4f ms  (%.1f GB/s of its own bytes)\n", type, ratio, what, ms,
                  std::string_view(what).substr(0, 4) == "pass" ? 2.0 * n * sizeof(T) / ms / 1e6 : 2.0 * (n - kept) * sizeof(T) / ms / 1e6);
    };
    pieces("pass alone (default shape)", [&] { pass_alone<T, Sel, sl::partition_pipeline<T>>(in, out, n, sel, count, words); });
    cudaMemcpy(count, &kept, 8, cudaMemcpyHostToDevice);
    const unsigned one = 1;
    cudaMemcpy(words + 1024, &one, 4, cudaMemcpyHostToDevice);
    pieces("flip (reversed=on, and CUB's)", [&] { reverse_tail_kernel<T><<<reverse_tail_grid(n), 256>>>(out, count, n); });
    pieces("flip (the move's grid, sampled)", [&] {
      sl::select_kernel<T, Sel, sl::mode::partition, true, lookback::tuning><<<static_cast<unsigned>(ceil_div(n, sl::policy<T>::tile)), 256>>>(
          in, sel, out, n, n, count, nullptr, nullptr, lookback::count_state{}, nullptr, nullptr, nullptr,
          reinterpret_cast<unsigned*>(words + 1024), false, false, false);
    });
  }
  cudaFree(in), cudaFree(out), cudaFree(count), cudaFree(words);
}

int main(int argc, char** argv) {
  bool u32 = false, u64_ = false;
  unsigned log2_bytes = 30;
  double only_ratio = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "u32") u32 = true;
    else if (a == "u64") u64_ = true;
    else if (a.substr(0, 5) == "log2=") log2_bytes = static_cast<unsigned>(std::atoi(argv[i] + 5));
    else if (a.substr(0, 6) == "ratio=") only_ratio = std::atof(argv[i] + 6);
    else return std::fprintf(stderr, "usage: partition_tuning [u32|u64]... [log2=K: 2^K bytes of input, default 30] [ratio=R: one kept ratio]\n"), 2;
  }
  if (!u32 && !u64_) u32 = u64_ = true;
  if (log2_bytes < 16 || log2_bytes > 32) return std::fprintf(stderr, "log2=K: K from 16 to 32\n"), 2;
  if (only_ratio != 0 && std::find(std::begin(kept_ratios), std::end(kept_ratios), only_ratio) == std::end(kept_ratios))
    return std::fprintf(stderr, "ratio=R: one of 0.1, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95\n"), 2;
  if (u32) study<unsigned>("u32", log2_bytes, only_ratio);
  if (u64_) study<unsigned long long>("u64", log2_bytes, only_ratio);
  std::printf("failures: %d\n", failures);
  return failures != 0;
}
