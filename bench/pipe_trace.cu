// Where a round of the pipelined compact goes (not part of the build): per block and round, %globaltimer
// stamps at the round's start, its tile arrived, A done (ranks), B done (count published, look-back), and C
// issued (staged and stored); percentiles of each phase at 2^28 u32 by predicate at 10/50/90% kept and with
// flags (pipelined=on) at 50%, beside the untraced kernel's time and a copy.
// Arguments: none (stop 32's shapes), `u64`, `u32big` (stop 32), `u32store` and `probe` (stop 33: three blocks
// per SM; B's parts and two buffers), `shapes2` (stop 33: the shapes with the look-back's words decoded in B;
// build it without -DSLUICE_PIPE_TRACE, which then times the kernels alone and prints no phases), `flags` (stop 35:
// the flags' shapes at 10 / 50 / 90% kept; likewise without the trace), `packed` (stop 40: larger tiles with the
// lagged tiles' ranks packed; likewise), `lag1` (stop 40: a lag of one round; likewise), `late`
// (stop 40, run 3: a lag of three rounds, the elements read into registers after C; its late_load shapes were
// removed after the run: build commit 08103da to repeat it), `reread` (stop 41, runs 1-2: C's elements read
// again from memory; build commit b2a291e), `l2` (stop 41, run 3: L2 evict_first policies on the bulk copies; build
// commit d5525a7), `stages3` (stop 41: a third buffer at 7 vectors), `final` (stop 42: the default shapes traced),
// `early` (stop 42, run 3: the next round's look-back counts asked for early, C's staging used from both ends;
// build commit 0af24c7), `direct` and `tracedirect` (stop 42, runs 4-5: sparse tiles stored from registers, traced;
// build commit 8450ebb). Traced, the wide look-back also counts thread 0's re-reads of words not yet published.
// `perthread` (stop 43, run 3: the wide look-back's counts read 2 a thread against 4; build commit d9ad959).
// `twoended` and `traceteo` (stop 44, run 1: two-ended staging and a cursor; build commit 9b924bc).
// `h200` (stop 46: 3-4 buffers for compact_if and the partition pass, on an H200; build without the trace).
// `ceiling` (stop 47: the default shapes, built a second time with -DSLUICE_COMPACT_STUDY_SKIP_LOOKBACK: the
// wide look-back reads no counts, each tile's run goes to out + its first index; outputs wrong, not checked);
// `pass50` (stop 47: partition's pipelined pass, the default shape, at 50% kept, for ncu); `banks` (stop 47: the
// default shapes, u32 and u64, built from the library's headers and again with
// docs/results/h200/stop47/compact-register-banks.patch applied: the held tiles in register banks).
// `stop50` (stop 50: the library's shapes and predicates, 8-byte ones with the comparison fixed and in banks; build
// from commit c343379's headers with and without the opaque zero, then a study macro, the library's since 5327faa),
// `stop50ncu` (one case each for ncu) and `stop50u32` (run 4: three builds, described there). `stop51` (stop 51: the
// library's u32, flags and u64 cases, for builds in turn).
// `shapes48` (stop 48: with the held tiles in rotating banks, 4-byte shapes that fit without spills: 8 vectors
// with a lag of one round, a third buffer; compact_if and partition's pass; build without the trace).
// Build: nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -DSLUICE_PIPE_TRACE -Iinclude -Ibuild/include bench/pipe_trace.cu src/runtime.cpp src/gl/unavailable.cpp -o pipe_trace
#include <algorithm>
#include <cstring>
#include <numeric>
#include <cstdio>
#include <random>
#include <string_view>
#include <vector>

#include "event_median.cuh"
#include "sluice/cuda/compact/decoupled_lookback.cuh"

using namespace sluice::cuda_backend;
using sluice::detail::setting;
namespace sl = select_lookback;

template <class T>
struct below {
  T limit;
  __host__ __device__ bool operator()(T x) const { return x < limit; }
};

int failures = 0;
bool checking = true;  // stop 50: outputs checked in the first repetition only (twice_checked_once)
float copy_ms = 0;
const u64 total_bytes = u64{1} << 30;  // 2^28 u32, 2^27 u64
unsigned long long* tr = nullptr;
const u64 slots = (total_bytes / 4 / 1024 + 8192) * 10;  // tiles of at least 1024 elements, plus the last rounds

template <class T>
double quantile(std::vector<T> v, double p) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(p * (v.size() - 1))];
}

// Times launch(), then traces one run of it (blocks_per_sm blocks per SM) and prints each phase's percentiles.
template <class F>
void study(const char* what, double bytes, unsigned blocks_per_sm, F launch) {
  const float ms = event_median_ms(3, 11, [] {}, launch);
#ifndef SLUICE_PIPE_TRACE
  std::printf("%-44s %.4f ms  %.3f of copy\n", what, ms, bytes / ms / (2.0 * total_bytes / copy_ms));
  (void)blocks_per_sm;
  return;
#endif
  std::vector<unsigned long long> t(slots);
  cudaMemset(tr, 0, slots * 8);
  launch();
  cudaDeviceSynchronize();
  cudaMemcpy(t.data(), tr, slots * 8, cudaMemcpyDeviceToHost);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const u64 grid = u64{blocks_per_sm} * sms;
  std::vector<double> wait, a, b, b_own, b_publish, b_issue, b_staging, c, round, polls;
  for (u64 r = 0; (r + 2) * grid * 10 <= slots; ++r)
    for (u64 blk = 0; blk < grid; ++blk) {
      const unsigned long long* x = &t[(r * grid + blk) * 10];
      if (x[0] == 0) continue;
      if (x[1]) wait.push_back(double(x[1] - x[0])), a.push_back(double(x[2] - x[1]));
      b.push_back(double(x[3] - x[2])), c.push_back(double(x[4] - x[3]));
      if (x[5]) b_own.push_back(double(x[5] - x[2]));
      if (x[7]) b_publish.push_back(double(x[7] - x[2]));
      if (x[9]) polls.push_back(double(x[9] - 1));
      if (x[8] && x[6] >= x[8]) b_issue.push_back(double(x[8] - x[2])), b_staging.push_back(double(x[6] - x[8]));
      const unsigned long long* nx = x + grid * 10;
      if (nx[0]) round.push_back(double(nx[0] - x[0]));
    }
  std::printf("%-44s %.4f ms  %.3f of copy\n", what, ms, bytes / ms / (2.0 * total_bytes / copy_ms));
  // B's parts, from A's end (thread 0's stamp): thread 0 to its count published, and to its share of the wide
  // look-back summed; the copier (the block's last thread) to its refill asked for, then to the staging buffer free.
  for (auto [name, v] : {std::pair{"wait for tile", &wait}, {"A ranks", &a}, {"B look-back", &b}, {"B: published", &b_publish},
                         {"B: thread 0's", &b_own}, {"B: refill asked", &b_issue}, {"B: staging", &b_staging}, {"C store", &c},
                         {"round", &round}})
    std::printf("    %-14s ns: p10 %6.0f  p50 %6.0f  p90 %6.0f  p99 %6.0f\n", name, quantile(*v, 0.1), quantile(*v, 0.5),
                quantile(*v, 0.9), quantile(*v, 0.99));
  if (!polls.empty()) {  // wide look-back: thread 0's reads of a word not yet published, per round
    const double with = double(std::count_if(polls.begin(), polls.end(), [](double p) { return p > 0; }));
    std::printf("    %-14s   : p50 %6.0f  p90 %6.0f  p99 %6.0f  max %6.0f  rounds with any: %.1f%%\n", "B: re-reads", quantile(polls, 0.5),
                quantile(polls, 0.9), quantile(polls, 0.99), quantile(polls, 1.0), 100.0 * with / polls.size());
  }
}

template <class T>
struct harness {
  const u64 n = total_bytes / sizeof(T);
  std::vector<T> h = std::vector<T>(n);
  std::vector<T> got = std::vector<T>(n);
  std::vector<std::uint8_t> keep = std::vector<std::uint8_t>(n);
  T *in, *out;
  std::uint8_t* f;
  u64* count;
  harness() {
    std::mt19937_64 g(5);
    for (auto& x : h) x = static_cast<T>(g());
    cudaMalloc(&in, n * sizeof(T)), cudaMalloc(&out, n * sizeof(T)), cudaMalloc(&f, n), cudaMalloc(&count, 8);
    cudaMemcpy(in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  }
  ~harness() { cudaFree(in), cudaFree(out), cudaFree(f), cudaFree(count); }
  // The copy of the same bytes that every following figure is a fraction of.
  void yardstick() {
    copy_ms = event_median_ms(3, 15, [] {}, [&] { cudaMemcpyAsync(out, in, total_bytes, cudaMemcpyDeviceToDevice); });
    std::printf("copy 1 GiB: %.4f ms (%.0f GB/s)\n", copy_ms, 2.0 * total_bytes / copy_ms / 1e6);
  }
  // Every element and the count against the host, at n and n - 12345 (compact: a short capacity too).
  template <class F>
  void check(const char* what, bool partition, F launch) {
    if (sl::study_skip_lookback) return;  // the outputs are wrong by design
    if (!checking) return;
    for (u64 m : {n, n - 12345}) {
      const u64 cap = partition ? m : m - m / 3;
      cudaMemset(out, 0xab, n * sizeof(T));
      launch(m, cap);
      u64 c = 0;
      cudaMemcpy(&c, count, 8, cudaMemcpyDeviceToHost);
      cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost);
      u64 k = 0, bad = 0;
      for (u64 i = 0; i < m; ++i)
        if (keep[i]) {
          if (k < cap && got[k] != h[i]) ++bad;
          ++k;
        }
      if (partition) {
        u64 r = k;
        for (u64 i = 0; i < m; ++i)
          if (!keep[i]) bad += got[r++] != h[i];
      }
      T marker;
      std::memset(&marker, 0xab, sizeof marker);
      for (u64 i = cap; i < n && i < cap + 64; ++i) bad += got[i] != marker;
      bad += c != k;
      if (bad) std::printf("check %-40s n=%llu: FAILED (count %llu, expected %llu)\n", what, (unsigned long long)m, (unsigned long long)c, (unsigned long long)k);
      failures += bad != 0;
    }
  }
  // Pred: below<T> (a comparison fixed at compile time), sluice::threshold<T> (the library's, chosen at run time) or
  // sl::fixed_threshold<T, compare::less> (the library's fixed one), each x < limit.
  template <class Pipe, sl::mode M = sl::mode::compact, class Pred = below<T>>
  void pred(const char* name, double ratio) {
    const T limit = static_cast<T>(ratio * (sizeof(T) == 8 ? 18446744073709551616.0 : 4294967296.0));
    for (u64 i = 0; i < n; ++i) keep[i] = h[i] < limit;
    Pred p;
    if constexpr (std::is_same_v<Pred, sluice::threshold<T>>) p = Pred{sluice::compare::less, limit};
    else p = Pred{limit};
    sluice::detail::pred_select<Pred> sel{p};
    auto go = [&](u64 m, u64 cap) {
      sl::compact_settings cs{sl::phasing::automatic, setting::on};
      if constexpr (M == sl::mode::partition) cs = sl::compact_settings{sl::phasing::automatic, setting::automatic, setting::automatic, 0, setting::on};
      sl::run<M, T, decltype(sel), lookback::tuning, Pipe>({in, m}, {out, cap}, sel, count, 0, "t", cs);
    };
    char what[128];
    std::snprintf(what, sizeof what, "%s %s %.1f %s", sizeof(T) == 8 ? "u64" : "u32", M == sl::mode::partition ? "partition_if" : "compact_if", ratio, name);
    check(what, M == sl::mode::partition, go);
    const double bytes = M == sl::mode::partition ? 2.0 * n * sizeof(T) : n * double(sizeof(T)) * (1 + ratio);
    study(what, bytes, Pipe::blocks_per_sm, [&] { go(n, n); });
  }
  template <class Pipe>
  void flags(const char* name, double ratio = 0.5) {
    const T limit = static_cast<T>(ratio * (sizeof(T) == 8 ? 18446744073709551616.0 : 4294967296.0));
    for (u64 i = 0; i < n; ++i) keep[i] = h[i] < limit;
    cudaMemcpy(f, keep.data(), n, cudaMemcpyHostToDevice);
    sluice::detail::flag_select sel{f};
    auto go = [&](u64 m, u64 cap) {
      sl::run<sl::mode::compact, T, decltype(sel), lookback::tuning, Pipe>({in, m}, {out, cap}, sel, count, 0, "t",
                                                                           sl::compact_settings{sl::phasing::off, setting::on});
    };
    char what[128];
    std::snprintf(what, sizeof what, "u32 compact flags %.1f %s", ratio, name);
    check(what, false, go);
    study(what, n * double(sizeof(T)) * (1 + ratio) + n, Pipe::blocks_per_sm, [&] { go(n, n); });
  }
};

//                                T     flags V  S  B  L  runs wide release
using P_default = sl::pipeline<unsigned, false>;
using R_6v3s_2 = sl::pipeline<unsigned, false, 6, 3, 2, 2, 1, false, true>;
using R_6v3s_w2 = sl::pipeline<unsigned, false, 6, 3, 2, 2, 1, true, true>;
using R_5v4s_w2 = sl::pipeline<unsigned, false, 5, 4, 2, 2, 1, true, true>;
using R_6v4s_w2_1b = sl::pipeline<unsigned, false, 6, 4, 1, 2, 1, true, true>;
using R_8v5s_w2_1b = sl::pipeline<unsigned, false, 8, 5, 1, 2, 1, true, true>;
using Q_default = sl::pipeline<unsigned long long, false>;
using Q_6v3s_w2 = sl::pipeline<unsigned long long, false, 6, 3, 2, 2, 1, true, true>;
using Q_7v5s_w2_1b = sl::pipeline<unsigned long long, false, 7, 5, 1, 2, 1, true, true>;
using R_7v3s_w2 = sl::pipeline<unsigned, false, 7, 3, 2, 2, 1, true, true>;
using R_6v4s_w2 = sl::pipeline<unsigned, false, 6, 4, 2, 2, 1, true, true>;
using Q_5v3s_w2 = sl::pipeline<unsigned long long, false, 5, 3, 2, 2, 1, true, true>;
using Q_4v4s_w2 = sl::pipeline<unsigned long long, false, 4, 4, 2, 2, 1, true, true>;
using Q_4v3s_w2 = sl::pipeline<unsigned long long, false, 4, 3, 2, 2, 1, true, true>;
using PP_default = sl::pipeline<unsigned, false, 5, 5, 2, 1, 2>;  // the default before stop 33
using PP_6v3s_w2 = sl::pipeline<unsigned, false, 6, 3, 2, 2, 2, true, true>;
using PP_5v4s_w2 = sl::pipeline<unsigned, false, 5, 4, 2, 2, 2, true, true>;
using PQ_default = sl::pipeline<unsigned long long, false, 6, 4, 2, 1, 2>;  // the default before stop 33
using PQ_6v3s_w2 = sl::pipeline<unsigned long long, false, 6, 3, 2, 2, 2, true, true>;
using F_default = sl::pipeline<unsigned, true>;
using F_4v4s_w2 = sl::pipeline<unsigned, true, 4, 4, 2, 2, 1, true, true>;
// Stop 33: three blocks per SM (smaller tiles, fewer registers: 80 a thread at most); C storing by every
// thread instead of one bulk copy was measured too (run 1; 0.67 / 0.75 / 0.83, its parameter since removed).
using R_4v3s_w2_3b = sl::pipeline<unsigned, false, 4, 3, 3, 2, 1, true, true>;
using R_5v2s_w2_3b = sl::pipeline<unsigned, false, 5, 2, 3, 2, 1, true, true>;
using R_4v3s_w1_3b = sl::pipeline<unsigned, false, 4, 3, 3, 1, 1, true, true>;
using R_6v2s_w2 = sl::pipeline<unsigned, false, 6, 2, 2, 2, 1, true, true>;
using R_7v2s_w2 = sl::pipeline<unsigned, false, 7, 2, 2, 2, 1, true, true>;
using R_5v2s_w2 = sl::pipeline<unsigned, false, 5, 2, 2, 2, 1, true, true>;
using Q_6v2s_w2 = sl::pipeline<unsigned long long, false, 6, 2, 2, 2, 1, true, true>;
using Q_5v2s_w2 = sl::pipeline<unsigned long long, false, 5, 2, 2, 2, 1, true, true>;
using PP_6v2s_w2 = sl::pipeline<unsigned, false, 6, 2, 2, 2, 2, true, true>;
using PP_5v3s_w2 = sl::pipeline<unsigned, false, 5, 3, 2, 2, 2, true, true>;
using PQ_5v2s_w2 = sl::pipeline<unsigned long long, false, 5, 2, 2, 2, 2, true, true>;
using F_4v2s_w2 = sl::pipeline<unsigned, true, 4, 2, 2, 2, 1, true, true>;
using F_4v3s_w2 = sl::pipeline<unsigned, true, 4, 3, 2, 2, 1, true, true>;
using F_5v2s_w2 = sl::pipeline<unsigned, true, 5, 2, 2, 2, 1, true, true>;
// Stop 35: the flags' shapes at 10 / 50 / 90% kept (the default, 5 vectors and 2 buffers, was chosen at 50%).
using F_6v2s_w2 = sl::pipeline<unsigned, true, 6, 2, 2, 2, 1, true, true>;
using F_5v3s_w2 = sl::pipeline<unsigned, true, 5, 3, 2, 2, 1, true, true>;
using F_7v2s_w2 = sl::pipeline<unsigned, true, 7, 2, 2, 2, 1, true, true>;

// Stop 40: the lagged tiles' ranks packed (packed_ranks), which frees the registers for 7 vectors of u32.
using R_8v2s_w2 = sl::pipeline<unsigned, false, 8, 2, 2, 2, 1, true, true>;
using Q_7v2s_w2 = sl::pipeline<unsigned long long, false, 7, 2, 2, 2, 1, true, true>;
using PP_7v2s_w2 = sl::pipeline<unsigned, false, 7, 2, 2, 2, 2, true, true>;
using PQ_6v2s_w2 = sl::pipeline<unsigned long long, false, 6, 2, 2, 2, 2, true, true>;

using R_7v2s_w1 = sl::pipeline<unsigned, false, 7, 2, 2, 1, 1, true, true>;
using R_8v2s_w1 = sl::pipeline<unsigned, false, 8, 2, 2, 1, 1, true, true>;
using R_6v2s_w1 = sl::pipeline<unsigned, false, 6, 2, 2, 1, 1, true, true>;
using R_7v3s_w1 = sl::pipeline<unsigned, false, 7, 3, 2, 1, 1, true, true>;
using PP_8v2s_w1 = sl::pipeline<unsigned, false, 8, 2, 2, 1, 2, true, true>;

// Stop 41 (`stages3`: R_7v3s_w2, Q_6v3s_w2): 3 buffers at 7 vectors (u32) and 6 (u64). Studies removed after their runs: `reread`
// (the stored tile's elements read again from memory in C's round; build commit b2a291e) and `l2` (L2
// evict_first policies on the bulk copies; commit d5525a7).

// Stop 42 (`early`, run 3): the next round's look-back counts asked for in B and C's staging used from both ends,
// pipeline parameters removed after the run (build commit 0af24c7).

// Stop 42 (`direct`, run 4; `tracedirect`, run 5): C of a sparse tile storing its kept elements from registers straight
// to out, and early asks, pipeline parameters removed after the runs (build commit 8450ebb).

// Stop 43 (`ahead`, run 1; branch study/ahead-asks, build commit 831e487): each round asking at its start for the
// next round's look-back counts, 2 counts a thread: slower (0.77 of the copy at 10% kept against 0.92-0.93).
// Stop 43 (`perthread`, run 3; build commit d9ad959): the wide look-back's counts read 2 a thread (grids to 512
// blocks) against 4, in turn: u32 by predicate at 10% kept 0.930-0.936 against 0.923-0.925, the others level or
// a little ahead; 2 is the pipelines' constant since.
// Stop 44 (`twoended`, `traceteo`, run 1; branch study/two-ended-w2, build commit 9b924bc): C's run staged at the
// staging buffer's two ends in turn, and written through a cursor, against the default, in turn: u32 by predicate
// at 10% kept 0.944-0.951 against 0.926-0.931, u64 0.957 against 0.934, flags level; the default since (`final`
// traces it).

// Stop 50: the library's own fixed comparison (x < limit) for 4- and 8-byte elements; runs f twice, the outputs
// checked the first time only; the library's u32 compact_if and partition pass cases.
using fixed32 = sl::fixed_threshold<unsigned, sluice::compare::less>;
using fixed64 = sl::fixed_threshold<unsigned long long, sluice::compare::less>;
template <class F>
void twice_checked_once(F f) {
  for (int rep = 0; rep < 2; ++rep) checking = rep == 0, f();
  checking = true;
}
void library_u32_cases(harness<unsigned>& u) {
  for (double r : {0.1, 0.5, 0.9}) u.pred<sl::compact_pipeline<unsigned, false>, sl::mode::compact, fixed32>("compact (default)", r);
  for (double r : {0.1, 0.9}) u.pred<sl::partition_pipeline<unsigned>, sl::mode::partition, fixed32>("pass (default)", r);
}

int finish() {
  std::printf("failures: %d; last error: %s\n", failures, cudaGetErrorString(cudaGetLastError()));
  return failures != 0;
}

int main(int argc, char** argv) {
#ifdef SLUICE_PIPE_TRACE
  cudaMalloc(&tr, slots * 8);
  cudaMemcpyToSymbol(sl::pipe_trace, &tr, sizeof tr);
#endif
  if (argc > 1 && std::string_view(argv[1]) == "stop50u32") {  // stop 50, run 4: u32 only, built from commit 6c9b1bf's
    // headers three ways: as they were; B's scan of the warps' counts as cub::WarpScan<unsigned, 8> (3 shuffle steps,
    // not 5; level, not kept); A's keep bits set under the test's predicate (the library's since)
    harness<unsigned> u;
    u.yardstick();
    twice_checked_once([&] {
      library_u32_cases(u);
      u.flags<sl::compact_pipeline<unsigned, true>>("compact flags (default)", 0.1);
    });
    return finish();
  }
  if (argc > 1 && std::string_view(argv[1]) == "stop51") {  // stop 51: the library's cases of every pipeline shape, for
    // builds of B's count sum and barriers in turn (docs/results/h200/stop51); build without the trace
    harness<unsigned> u;
    u.yardstick();
    twice_checked_once([&] {
      library_u32_cases(u);
      for (double r : {0.1, 0.5}) u.flags<sl::compact_pipeline<unsigned, true>>("compact flags (default)", r);
    });
    harness<unsigned long long> q;
    q.yardstick();
    twice_checked_once([&] {
      for (double r : {0.1, 0.5, 0.9}) q.pred<sl::compact_pipeline<unsigned long long, false>, sl::mode::compact, fixed64>("compact (default)", r);
      for (double r : {0.1, 0.9})
        q.pred<sl::partition_pipeline<unsigned long long>, sl::mode::partition, sluice::threshold<unsigned long long>>("pass (default)", r);
    });
    return finish();
  }
  if (argc > 1 && std::string_view(argv[1]) == "stop50ncu") {  // stop 50: one case each for ncu (outputs not checked)
    checking = false;
    if (argc > 2 && std::string_view(argv[2]) == "u64") {
      harness<unsigned long long> q;
      q.yardstick();
      q.pred<sl::compact_pipeline<unsigned long long, false>, sl::mode::compact, sluice::threshold<unsigned long long>>("compact run-time (default)", 0.1);
    } else {
      harness<unsigned> u;
      u.yardstick();
      u.pred<sl::compact_pipeline<unsigned, false>, sl::mode::compact, fixed32>("compact (default)", 0.1);
    }
    return finish();
  }
  if (argc > 1 && std::string_view(argv[1]) == "stop50") {  // stop 50: the library's shapes with its own predicates, for
    // builds with and without the opaque zero (stop 50, run 1); 8-byte elements' comparison chosen at run time (the
    // library's today), fixed per kernel, and fixed with the held tiles in rotating banks; build without the trace
    using runtime64 = sluice::threshold<unsigned long long>;
    using Q_rot = sl::pipeline<unsigned long long, false, 6, 2, 2, 2, 1, true, true, true>;
    using PQ_rot = sl::pipeline<unsigned long long, false, 5, 2, 2, 2, 2, true, true, true>;
    {
      harness<unsigned> u;
      u.yardstick();
      twice_checked_once([&] { library_u32_cases(u); });
    }
    harness<unsigned long long> q;
    q.yardstick();
    twice_checked_once([&] {
      for (double r : {0.1, 0.5, 0.9}) {
        q.pred<sl::compact_pipeline<unsigned long long, false>, sl::mode::compact, runtime64>("compact run-time (default)", r);
        q.pred<sl::compact_pipeline<unsigned long long, false>, sl::mode::compact, fixed64>("compact fixed", r);
        q.pred<Q_rot, sl::mode::compact, fixed64>("compact fixed rotating", r);
      }
      for (double r : {0.1, 0.9}) {
        q.pred<sl::partition_pipeline<unsigned long long>, sl::mode::partition, runtime64>("pass run-time (default)", r);
        q.pred<sl::partition_pipeline<unsigned long long>, sl::mode::partition, fixed64>("pass fixed", r);
        q.pred<PQ_rot, sl::mode::partition, fixed64>("pass fixed rotating", r);
      }
    });
    return finish();
  }
  if (argc > 1 && std::string_view(argv[1]) == "ceiling") {  // stop 47: the default with and without B's loads
    // (a second binary built with -DSLUICE_COMPACT_STUDY_SKIP_LOOKBACK), without the trace, on an H200
    if (sl::study_skip_lookback) std::printf("built with SLUICE_COMPACT_STUDY_SKIP_LOOKBACK: no look-back, outputs wrong, not checked\n");
    harness<unsigned> u;
    u.yardstick();
    for (int rep = 0; rep < 2; ++rep) {
      for (double r : {0.1, 0.5, 0.9}) u.pred<sl::compact_pipeline<unsigned, false>>("release 7v 2s 2b lag 2 wide (default)", r);
      u.flags<sl::compact_pipeline<unsigned, true>>("release 7v 2s 2b lag 2 wide (default)", 0.1);
    }
    return finish();
  }
  if (argc > 1 && std::string_view(argv[1]) == "shapes48") {  // stop 48: shapes with rotating banks; build without the trace
    harness<unsigned> u;
    u.yardstick();
    for (int rep = 0; rep < 2; ++rep) {
      for (double r : {0.1, 0.5, 0.9}) {
        u.pred<sl::compact_pipeline<unsigned, false>>("release 7v 2s 2b lag 2 wide (default)", r);
        u.pred<R_8v2s_w1>("release 8v 2s 2b lag 1 wide", r);
        u.pred<R_8v2s_w2>("release 8v 2s 2b lag 2 wide (16 bytes spilled)", r);
        u.pred<R_7v3s_w2>("release 7v 3s 2b lag 2 wide (8 bytes spilled)", r);
      }
      for (double r : {0.1, 0.9}) {
        u.pred<sl::partition_pipeline<unsigned>, sl::mode::partition>("pass release 6v 2s 2b lag 2 wide (default)", r);
        u.pred<PP_8v2s_w1, sl::mode::partition>("pass release 8v 2s 2b lag 1 wide", r);
        u.pred<PP_6v3s_w2, sl::mode::partition>("pass release 6v 3s 2b lag 2 wide", r);
      }
    }
    return finish();
  }
  if (argc > 1 && std::string_view(argv[1]) == "banks") {  // stop 47: the library's shapes, for builds before and after
    {                                                         // rotate_rounds (registers in banks)
      harness<unsigned> u;
      u.yardstick();
      for (double r : {0.1, 0.5, 0.9}) u.pred<sl::compact_pipeline<unsigned, false>>("compact (default)", r);
      for (double r : {0.1, 0.5}) u.flags<sl::compact_pipeline<unsigned, true>>("compact (default)", r);
      u.pred<sl::partition_pipeline<unsigned>, sl::mode::partition>("pass (default)", 0.9);
    }
    harness<unsigned long long> q;
    q.yardstick();
    for (double r : {0.1, 0.5}) q.pred<sl::compact_pipeline<unsigned long long, false>>("compact (default)", r);
    q.pred<sl::partition_pipeline<unsigned long long>, sl::mode::partition>("pass (default)", 0.9);
    return finish();
  }
  if (argc > 1 && std::string_view(argv[1]) == "pass50") {  // stop 47: partition's pass at 50% kept, for ncu
    harness<unsigned> u;
    u.yardstick();
    u.pred<sl::partition_pipeline<unsigned>, sl::mode::partition>("pass release 6v 2s 2b lag 2 wide (default)", 0.5);
    return finish();
  }
  if (argc > 1 && std::string_view(argv[1]) == "h200") {  // stop 46: more buffers on an H200; build without the trace
    harness<unsigned> u;
    u.yardstick();
    for (double r : {0.1, 0.5, 0.9}) {
      u.pred<R_7v2s_w2>("release 7v 2s 2b lag 2 wide (default)", r);
      u.pred<R_7v3s_w2>("release 7v 3s 2b lag 2 wide", r);
      u.pred<R_6v3s_w2>("release 6v 3s 2b lag 2 wide", r);
      u.pred<R_5v4s_w2>("release 5v 4s 2b lag 2 wide", r);
    }
    for (double r : {0.1, 0.9}) {
      u.pred<PP_6v2s_w2, sl::mode::partition>("pass release 6v 2s 2b lag 2 wide (default)", r);
      u.pred<PP_6v3s_w2, sl::mode::partition>("pass release 6v 3s 2b lag 2 wide", r);
      u.pred<PP_5v3s_w2, sl::mode::partition>("pass release 5v 3s 2b lag 2 wide", r);
      u.pred<PP_5v4s_w2, sl::mode::partition>("pass release 5v 4s 2b lag 2 wide", r);
    }
    return finish();
  }
  if (argc > 1 && std::string_view(argv[1]) == "final") {  // stop 42: the default shapes' rounds traced (build with the trace)
    harness<unsigned> u;
    u.yardstick();
    for (double r : {0.1, 0.5, 0.9}) u.pred<sl::compact_pipeline<unsigned, false>>("release 7v 2s 2b lag 2 wide (default)", r);
    u.flags<sl::compact_pipeline<unsigned, true>>("release 7v 2s 2b lag 2 wide (default)", 0.1);
    return finish();
  }
  if (argc > 1 && std::string_view(argv[1]) == "stages3") {  // stop 41: a third buffer at 7 vectors; build without the trace
    {
      harness<unsigned> u;
      u.yardstick();
      for (double r : {0.1, 0.5, 0.9}) {
        u.pred<R_7v2s_w2>("release 7v 2s 2b lag 2 wide (default)", r);
        u.pred<R_7v3s_w2>("release 7v 3s 2b lag 2 wide", r);
        u.pred<R_7v2s_w2>("release 7v 2s 2b lag 2 wide (default, again)", r);
        u.pred<R_7v3s_w2>("release 7v 3s 2b lag 2 wide (again)", r);
      }
    }
    {
      harness<unsigned long long> q;
      q.yardstick();
      for (double r : {0.1, 0.5, 0.9}) {
        q.pred<Q_6v2s_w2>("release 6v 2s 2b lag 2 wide (default)", r);
        q.pred<Q_6v3s_w2>("release 6v 3s 2b lag 2 wide", r);
      }
    }
    return finish();
  }
  if (argc > 1 && std::string_view(argv[1]) == "lag1") {  // stop 40: a lag of one round, two tiles in registers; build without the trace
    harness<unsigned> u;
    u.yardstick();
    for (double r : {0.1, 0.5, 0.9}) {
      u.pred<R_6v2s_w2>("release 6v 2s 2b lag 2 wide (the default until stop 40)", r);
      u.pred<R_7v2s_w2>("release 7v 2s 2b lag 2 wide", r);
      u.pred<R_6v2s_w1>("release 6v 2s 2b lag 1 wide", r);
      u.pred<R_7v2s_w1>("release 7v 2s 2b lag 1 wide", r);
      u.pred<R_8v2s_w1>("release 8v 2s 2b lag 1 wide", r);
      u.pred<R_7v3s_w1>("release 7v 3s 2b lag 1 wide", r);
      u.pred<R_7v2s_w2>("release 7v 2s 2b lag 2 wide (again)", r);
    }
    return finish();
  }
  if (argc > 1 && std::string_view(argv[1]) == "packed") {  // stop 40: larger tiles with the ranks packed; build without the trace
    {
      harness<unsigned> u;
      u.yardstick();
      for (double r : {0.1, 0.5, 0.9}) {
        u.pred<R_6v2s_w2>("release 6v 2s 2b lag 2 wide (the default until stop 40)", r);
        u.pred<R_7v2s_w2>("release 7v 2s 2b lag 2 wide", r);
        u.pred<R_8v2s_w2>("release 8v 2s 2b lag 2 wide", r);
        u.pred<R_6v2s_w2>("release 6v 2s 2b lag 2 wide (the default until stop 40, again)", r);
      }
      for (double r : {0.1, 0.5, 0.9}) {
        u.flags<F_5v2s_w2>("release 5v 2s 2b lag 2 wide (the default until stop 40)", r);
        u.flags<F_6v2s_w2>("release 6v 2s 2b lag 2 wide", r);
        u.flags<F_7v2s_w2>("release 7v 2s 2b lag 2 wide", r);
      }
      for (double r : {0.5, 0.9}) {
        u.pred<sl::partition_pipeline<unsigned>, sl::mode::partition>("pass release 6v 2s 2b lag 2 wide (default)", r);
        u.pred<PP_7v2s_w2, sl::mode::partition>("pass release 7v 2s 2b lag 2 wide", r);
      }
    }
    {
      harness<unsigned long long> q;
      for (double r : {0.1, 0.5, 0.9}) {
        q.pred<sl::compact_pipeline<unsigned long long, false>>("release 6v 2s 2b lag 2 wide (default)", r);
        q.pred<Q_7v2s_w2>("release 7v 2s 2b lag 2 wide", r);
      }
      q.pred<sl::partition_pipeline<unsigned long long>, sl::mode::partition>("pass release 5v 2s 2b lag 2 wide (default)", 0.9);
      q.pred<PQ_6v2s_w2, sl::mode::partition>("pass release 6v 2s 2b lag 2 wide", 0.9);
    }
    return finish();
  }
  if (argc > 1 && std::string_view(argv[1]) == "flags") {  // the flags' shapes at 10 / 50 / 90% kept (stop 35); build without the trace
    harness<unsigned> u;
    u.yardstick();
    for (double r : {0.1, 0.5, 0.9}) {
      u.flags<F_5v2s_w2>("release 5v 2s 2b lag 2 wide (the default until stop 40)", r);
      u.flags<F_6v2s_w2>("release 6v 2s 2b lag 2 wide", r);
      u.flags<F_7v2s_w2>("release 7v 2s 2b lag 2 wide", r);
      u.flags<F_5v3s_w2>("release 5v 3s 2b lag 2 wide", r);
      u.flags<F_4v2s_w2>("release 4v 2s 2b lag 2 wide", r);
      u.flags<F_5v2s_w2>("release 5v 2s 2b lag 2 wide (the default until stop 40, again)", r);
    }
    return finish();
  }
  if (argc > 1 && std::string_view(argv[1]) == "shapes2") {  // with the words decoded in B (stop 33); build without the trace
    {
      harness<unsigned> u;
      u.yardstick();
      for (double r : {0.1, 0.5, 0.9}) {
        u.pred<R_6v3s_w2>("release 6v 3s 2b lag 2 wide (default)", r);
        u.pred<R_6v2s_w2>("release 6v 2s 2b lag 2 wide", r);
        u.pred<R_7v2s_w2>("release 7v 2s 2b lag 2 wide", r);
        u.pred<R_5v2s_w2>("release 5v 2s 2b lag 2 wide", r);
      }
      for (double r : {0.5, 0.9}) {
        u.pred<PP_default, sl::mode::partition>("pass 5v 5s 2b lag 1 (default)", r);
        u.pred<PP_6v3s_w2, sl::mode::partition>("pass release 6v 3s 2b lag 2 wide", r);
        u.pred<PP_6v2s_w2, sl::mode::partition>("pass release 6v 2s 2b lag 2 wide", r);
        u.pred<PP_5v3s_w2, sl::mode::partition>("pass release 5v 3s 2b lag 2 wide", r);
      }
      u.flags<F_4v4s_w2>("pipelined release 4v 4s lag 2 wide (default)");
      u.flags<F_4v3s_w2>("pipelined release 4v 3s lag 2 wide");
      u.flags<F_4v2s_w2>("pipelined release 4v 2s lag 2 wide");
      u.flags<F_5v2s_w2>("pipelined release 5v 2s lag 2 wide");
    }
    {
      harness<unsigned long long> q;
      for (double r : {0.1, 0.5, 0.9}) {
        q.pred<Q_default>("7v 4s 1b lag 1 (default)", r);
        q.pred<Q_6v3s_w2>("release 6v 3s 2b lag 2 wide", r);
        q.pred<Q_6v2s_w2>("release 6v 2s 2b lag 2 wide", r);
        q.pred<Q_5v2s_w2>("release 5v 2s 2b lag 2 wide", r);
        q.pred<Q_4v3s_w2>("release 4v 3s 2b lag 2 wide", r);
      }
      q.pred<PQ_default, sl::mode::partition>("pass 6v 4s 2b lag 1 (default)", 0.9);
      q.pred<PQ_6v3s_w2, sl::mode::partition>("pass release 6v 3s 2b lag 2 wide", 0.9);
      q.pred<PQ_5v2s_w2, sl::mode::partition>("pass release 5v 2s 2b lag 2 wide", 0.9);
    }
    return finish();
  }
  if (argc > 1 && std::string_view(argv[1]) == "probe") {  // B's parts; two buffers (stop 33)
    harness<unsigned> u;
    u.yardstick();
    for (double r : {0.1, 0.5, 0.9}) {
      u.pred<R_6v3s_w2>("release 6v 3s 2b lag 2 wide (default)", r);
      u.pred<R_6v2s_w2>("release 6v 2s 2b lag 2 wide", r);
    }
    return finish();
  }
  if (argc > 1 && std::string_view(argv[1]) == "u32store") {  // three blocks per SM (stop 33)
    harness<unsigned> u;
    u.yardstick();
    for (double r : {0.1, 0.5, 0.9}) {
      u.pred<R_6v3s_w2>("release 6v 3s 2b lag 2 wide (default)", r);
      u.pred<R_4v3s_w2_3b>("release 4v 3s 3b lag 2 wide", r);
      u.pred<R_5v2s_w2_3b>("release 5v 2s 3b lag 2 wide", r);
      u.pred<R_4v3s_w1_3b>("release 4v 3s 3b lag 1 wide", r);
    }
    return finish();
  }
  if (argc > 1 && std::string_view(argv[1]) == "u32big") {  // larger u32 tiles (stop 32, run 14)
    harness<unsigned> u;
    u.yardstick();
    for (double r : {0.1, 0.5, 0.9}) {
      u.pred<R_6v3s_w2>("release 6v 3s 2b lag 2 wide (default)", r);
      u.pred<R_7v3s_w2>("release 7v 3s 2b lag 2 wide", r);
      u.pred<R_6v4s_w2>("release 6v 4s 2b lag 2 wide", r);
    }
    return finish();
  }
  if (argc > 1 && std::string_view(argv[1]) == "u64") {  // the 8-byte shapes without spills (stop 32, run 13)
    harness<unsigned long long> q;
    q.yardstick();
    for (double r : {0.1, 0.5, 0.9}) {
      q.pred<Q_default>("7v 4s 1b lag 1 (default)", r);
      q.pred<Q_6v3s_w2>("release 6v 3s 2b lag 2 wide", r);
      q.pred<Q_5v3s_w2>("release 5v 3s 2b lag 2 wide", r);
      q.pred<Q_4v4s_w2>("release 4v 4s 2b lag 2 wide", r);
      q.pred<Q_4v3s_w2>("release 4v 3s 2b lag 2 wide", r);
    }
    return finish();
  }
  {
    harness<unsigned> u;
    u.yardstick();
    for (double r : {0.1, 0.5, 0.9}) {
      u.pred<P_default>("6v 4s 2b lag 1 (default)", r);
      u.pred<R_6v3s_2>("release 6v 3s 2b lag 2", r);
      u.pred<R_6v3s_w2>("release 6v 3s 2b lag 2 wide", r);
      u.pred<R_5v4s_w2>("release 5v 4s 2b lag 2 wide", r);
      u.pred<R_6v4s_w2_1b>("release 6v 4s 1b lag 2 wide", r);
      u.pred<R_8v5s_w2_1b>("release 8v 5s 1b lag 2 wide", r);
    }
    for (double r : {0.5, 0.9}) {
      u.pred<PP_default, sl::mode::partition>("pass 5v 5s 2b lag 1 (default)", r);
      u.pred<PP_6v3s_w2, sl::mode::partition>("pass release 6v 3s 2b lag 2 wide", r);
      u.pred<PP_5v4s_w2, sl::mode::partition>("pass release 5v 4s 2b lag 2 wide", r);
    }
    u.flags<F_default>("pipelined 4v 5s lag 1 (default)");
    u.flags<F_4v4s_w2>("pipelined release 4v 4s lag 2 wide");
  }
  {
    harness<unsigned long long> q;
    for (double r : {0.1, 0.5, 0.9}) {
      q.pred<Q_default>("7v 4s 1b lag 1 (default)", r);
      q.pred<Q_6v3s_w2>("release 6v 3s 2b lag 2 wide", r);
      q.pred<Q_7v5s_w2_1b>("release 7v 5s 1b lag 2 wide", r);
    }
    q.pred<PQ_default, sl::mode::partition>("pass 6v 4s 2b lag 1 (default)", 0.9);
    q.pred<PQ_6v3s_w2, sl::mode::partition>("pass release 6v 3s 2b lag 2 wide", 0.9);
  }
  return finish();
}
