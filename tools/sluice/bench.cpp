// `sluice bench`: times sluice's algorithms (and the peers: CUB on the GPU, std and oneTBB on the CPU) beside
// a copy of the same bytes in the same run, and writes one CSV row per measurement. Each row's fraction is of
// that copy (cudaMemcpy; on the CPU memcpy-mt, a memcpy split over the threads), except CPU reduce rows: those
// are a fraction of the same-run read rate (the "read" row, a sum of the same bytes over the threads), since a
// reduction writes nothing.
#include "bench.hpp"
#include "bench_core.hpp"
#include "cub_direct.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <numeric>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#if SLUICE_BENCH_HAS_TBB  // CPU peers only: libstdc++ runs std::execution::par on oneTBB
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_scan.h>

#include <execution>
#endif

#include "sluice/sluice.hpp"
#include "timer.hpp"
#include "verify/generators.hpp"
#include "verify/verify.hpp"

namespace sluice::tool {

const bench_args* args = nullptr;
volatile std::uint64_t sink_int;
volatile float sink_float;

// The names `best` resolved to (label_of): rows labelled with them pass the filter --algo best.
std::set<std::string> best_labels;

// --async (production): the rows of the _async forms are labelled "<algorithm> async".
constexpr std::string_view async_suffix = " async";
bool async_forms() { return args && args->async_forms; }
bool is_async_label(const std::string& algo) { return algo.ends_with(async_suffix); }
// What follows a row's algorithm for primitive p: " async" with --async, for the primitives whose plain form
// returns its count or sum to the host (all but the scans, which never wait).
std::string form_of(primitive p) { return async_forms() && p != primitive::scan ? std::string(async_suffix) : std::string(); }
std::string without_form(const std::string& algo) {
  return is_async_label(algo) ? algo.substr(0, algo.size() - async_suffix.size()) : algo;
}

bool wanted(const std::string& prim, const std::string& label) {
  if (prim == "copy" || prim == "read" || args == nullptr) return true;
  if (!args->only_primitive.empty() && prim != args->only_primitive) return false;
  if (args->only_algos.empty()) return true;
  const std::string algo = without_form(label);
  for (const auto& a : args->only_algos)
    if (algo == a || detail::base_name(algo) == a || (a == "best" && best_labels.count(algo))) return true;
  return false;
}

// Whether --primitive leaves any of `prims` in: the production suite builds no inputs for the others.
bool primitive_wanted(std::initializer_list<std::string_view> prims) {
  if (args == nullptr || args->only_primitive.empty()) return true;
  return std::find(prims.begin(), prims.end(), std::string_view(args->only_primitive)) != prims.end();
}
bool moves_wanted() {
  return primitive_wanted({"compact", "compact_unordered", "partition", "compact_if", "partition_if", "partition_unordered_if"});
}

namespace {
const auto run_start = std::chrono::steady_clock::now();
}
double elapsed_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count(); }

row* runner::measure(const std::string& prim, const std::string& algo, const std::string& type, double ratio, double bytes,
                     const std::function<void()>& f, const std::function<void()>& setup) {
  if (!wanted(prim, algo)) return nullptr;
  const auto t = time_median(d_, reps_, f, setup);
  return record(prim, algo, type, ratio, bytes, t.median_ms, t.repetitions);
}

void runner::measure_each(const std::string& prim, const std::string& type, double ratio, double bytes,
                          const std::vector<std::pair<std::string, std::function<void()>>>& candidates) {
  std::vector<const std::pair<std::string, std::function<void()>>*> kept;
  std::vector<std::function<void()>> fs;
  for (const auto& c : candidates)
    if (wanted(prim, c.first)) kept.push_back(&c), fs.push_back(c.second);
  if (fs.empty()) return;
  const auto t = time_interleaved(d_, reps_, fs);
  for (std::size_t i = 0; i < kept.size(); ++i) record(prim, kept[i]->first, type, ratio, bytes, t[i].median_ms, t[i].repetitions);
}

row* runner::record(const std::string& prim, const std::string& algo, const std::string& type, double ratio, double bytes,
                    double median_ms, int repetitions) {
  if (!wanted(prim, algo)) return nullptr;
  const double gbps = bytes / (median_ms * 1e-3) / 1e9;
  const bool of_read = prim == "reduce" && read_gbps_ > 0;
  const double base = of_read ? read_gbps_ : copy_gbps_;
  rows_.push_back({prim, algo, std::string(to_string(d_)), type, n_, ratio, 0, median_ms, gbps, base > 0 ? gbps / base : 1.0,
                   repetitions, busy_});
  // The progress line: seconds since the start, then the measurement ("busy": see yardstick_bytes).
  std::printf("[%7.1f s] %-18s %-22s %-5s n=%-11llu ratio=%-5s %10.4f ms %9.1f GB/s %6.3f of %s%s\n", elapsed_s(), prim.c_str(),
              algo.c_str(), type.c_str(), static_cast<unsigned long long>(n_),
              ratio < 0 ? "-" : std::to_string(ratio).substr(0, 4).c_str(), median_ms, gbps, rows_.back().frac,
              of_read ? "read" : "copy", busy_ ? " busy" : "");
  std::fflush(stdout);
  return &rows_.back();
}

std::vector<std::string> names(primitive p, device d) {
  std::vector<std::string> v;
  for (const auto& a : algorithms())
    if (a.prim == p && runs_on(a, d)) v.emplace_back(a.name);
  return v;
}

// names(p, d), and the --algo values with parameters that a variant of p on d takes (quick: "billeter:threads=2").
std::vector<std::string> specs_of(primitive p, device d) {
  std::vector<std::string> v = names(p, d);
  if (args)
    for (const auto& spec : args->only_algos)
      if (detail::base_name(spec).size() != spec.size())
        for (const auto& a : algorithms())
          if (a.prim == p && runs_on(a, d) && a.name == detail::base_name(spec) && takes_params(a, spec, "bench")) v.push_back(spec);
  return v;
}

void yardstick_bytes(runner& r, device d, void* out, const void* in, std::size_t elem_bytes, const std::string& type) {
  if (d == device::cpu) {
    static bool told = false;
    if (!told)
      std::printf("cpu yardsticks and parallel peers: %d threads (SLUICE_CPU_THREADS, else OMP_NUM_THREADS, else all)\n", cpu_threads());
    told = true;
  }
  r.set_copy_rate(0);
  // The fastest of three medians: the yardstick is the copy this device does, and one slow batch would flatter
  // every fraction of it (an H100, 2026-11: one median of the 2^20 copy took 51 us against its neighbours' 7-10).
  // Their spread says whether the machine looks busy (bench.hpp, busy_spread).
  const auto copy = [&] { device_copy(d, out, in, r.n() * elem_bytes); };
  timing best = time_median(d, r.reps(), copy);
  double slowest = best.median_ms;
  for (int k = 1; k < 3; ++k) {
    const timing t = time_median(d, r.reps(), copy);
    slowest = std::max(slowest, t.median_ms);
    if (t.median_ms < best.median_ms) best = t;
  }
  const double spread = slowest - best.median_ms;
  const bool busy = spread_looks_busy(best.median_ms, slowest);
  if (busy)
    std::printf("warning: the machine looks busy: the copy yardstick's three medians at n = %llu (%s) span %.4f .. %.4f ms"
                " (%.0f%%, over %.0f%%): this size's fractions may mislead (machine_busy=1 in the CSV)\n",
                static_cast<unsigned long long>(r.n()), type.c_str(), best.median_ms, slowest, 100 * spread / best.median_ms, 100 * busy_spread);
  r.set_busy(busy);
  r.record("copy", d == device::cuda ? "cudaMemcpy" : "memcpy-mt", type, -1, 2.0 * static_cast<double>(r.n()) * static_cast<double>(elem_bytes),
           best.median_ms, best.repetitions);
  r.set_copy_rate(r.rows().back().gbps);
}

std::string label_of(primitive p, device d, const std::string& spec) {
  if (spec != "best") return spec;
  std::string name(find_algorithm(p, d, spec, "bench").name);
  best_labels.insert(name);
  return name;
}

// CPU only: the read of the same n u32 (bytes read), a sum over the threads as memcpy-mt slices them; every
// following reduce row of `r` is a fraction of it.
void read_yardstick(runner& r, device d, buf<std::uint32_t>& in) {
  if (d != device::cpu) return;
  r.set_read_rate(0);
  r.measure("read", "read-mt", "u32", -1, static_cast<double>(r.n()) * sizeof(std::uint32_t),
            [&] { sink_int = cpu_read(in.host.data(), r.n()); });
  r.set_read_rate(r.rows().back().gbps);
}

#if SLUICE_BENCH_HAS_TBB
void tbb_inclusive_scan(const std::uint32_t* src, std::uint32_t* dst, std::size_t n) {
  // The lambda form: a pre-scan pass sums a subrange, a final pass writes its running sums.
  tbb::parallel_scan(
      tbb::blocked_range<std::size_t>(0, n), std::uint32_t{0},
      [=](const tbb::blocked_range<std::size_t>& range, std::uint32_t sum, bool is_final) {
        if (is_final)
          for (std::size_t i = range.begin(); i != range.end(); ++i) dst[i] = sum += src[i];
        else
          for (std::size_t i = range.begin(); i != range.end(); ++i) sum += src[i];
        return sum;
      },
      std::plus<std::uint32_t>{});
}
#endif

namespace {

// The standard library's serial split by flag bytes (as std_copy_if_flags).
template <class T>
std::size_t std_partition_copy_flags(const std::vector<T>& in, const std::vector<std::uint8_t>& flags, std::vector<T>& kept,
                                     std::vector<T>& rejected) {
  const T* base = in.data();
  return static_cast<std::size_t>(
      std::partition_copy(in.begin(), in.end(), kept.begin(), rejected.begin(), [&](const T& x) { return flags[&x - base] != 0; }).first -
      kept.begin());
}

void suite_at(runner& r, device d, std::uint64_t n) {
  using u32 = std::uint32_t;
  const double b = static_cast<double>(n) * sizeof(u32);
  buf<u32> in(verify::make_values<u32>(n, 1), d), out(std::vector<u32>(n), d), keys(std::vector<u32>(n), d);
  buf<float> fin(verify::make_values<float>(n, 2, verify::value_kind::sum), d);
  auto flags = verify::make_flags(n, {verify::pattern::random, 0.5}, 3);
  buf<std::uint8_t> fl(flags, d);
  const double kept = static_cast<double>(std::count_if(flags.begin(), flags.end(), [](auto f) { return f != 0; }));

  yardstick(r, d, in, out, "u32");  // a copy of the same n elements (bytes read + bytes written)
  read_yardstick(r, d, in);

  for (const auto& a : specs_of(primitive::reduce, d)) {
    options o{d, a, nullptr};
    r.measure("reduce", a, "u32", -1, b, [&] { sink_int = sluice::reduce(in.span(), u32{0}, sum{}, o); });
    r.measure("reduce", a, "f32", -1, b, [&] { sink_float = sluice::reduce(fin.span(), 0.0f, sum{}, o); });
  }
  for (const auto& a : specs_of(primitive::scan, d)) {
    options o{d, a, nullptr};
    r.measure("inclusive_scan", a, "u32", -1, 2 * b, [&] { sluice::inclusive_scan(in.span(), out.span(), sum{}, o); });
  }
  for (const auto& a : specs_of(primitive::compact, d)) {
    options o{d, a, nullptr};
    r.measure("compact", a, "u32", 0.5, b + n + kept * 4, [&] { sink_int = sluice::compact(in.span(), fl.span(), out.span(), o); });
  }
  for (const auto& a : specs_of(primitive::compact_unordered, d)) {
    options o{d, a, nullptr};
    r.measure("compact_unordered", a, "u32", 0.5, b + n + kept * 4,
              [&] { sink_int = sluice::compact_unordered(in.span(), fl.span(), out.span(), o); });
  }
  for (const auto& a : specs_of(primitive::partition, d)) {
    options o{d, a, nullptr};
    r.measure("partition", a, "u32", 0.5, 2 * b + n, [&] { sink_int = sluice::partition_flagged(in.span(), fl.span(), out.span(), o); });
  }
  for (const auto& a : specs_of(primitive::radix_sort, d)) {
    options o{d, a, nullptr};
    r.measure("radix_sort", a, "u32", -1, 2 * b, [&] { sluice::radix_sort(keys.span(), order::ascending, {}, o); },
              [&] { device_copy(d, keys.span().data(), in.span().data(), n * sizeof(u32)); });
  }
  if (d == device::cpu) {  // the standard library beside the CPU backend
    r.measure("reduce", "std::reduce", "u32", -1, b, [&] { sink_int = std::reduce(in.host.begin(), in.host.end(), u32{0}); });
    r.measure("inclusive_scan", "std::inclusive_scan", "u32", -1, 2 * b,
              [&] { std::inclusive_scan(in.host.begin(), in.host.end(), out.host.begin()); });
    r.measure("compact", "std::copy_if", "u32", 0.5, b + n + kept * 4, [&] { sink_int = std_copy_if_flags(in.host, flags, out.host); });
    r.measure("radix_sort", "std::sort", "u32", -1, 2 * b, [&] { std::sort(keys.host.begin(), keys.host.end()); },
              [&] { keys.host = in.host; });
  }
}

// The papers' compactions beside CUB (Flagged and If) and the copy. Flags are bytes; the bytes that
// must move are the elements read once, the flags read once and the kept elements written once.
template <class T>
void compaction_ratios(runner& r, device d, std::uint64_t n, const std::string& type, const std::vector<double>& ratios,
                       const std::vector<std::string>& specs) {
  const double b = static_cast<double>(n) * sizeof(T);
  buf<T> in(random_elements<T>(n), d), out(std::vector<T>(n), d);
  yardstick(r, d, in, out, type);
  for (double ratio : ratios) {
    const auto flags = verify::make_flags(n, {verify::pattern::random, ratio}, 3);
    buf<std::uint8_t> fl(flags, d);
    const double kept = static_cast<double>(std::count_if(flags.begin(), flags.end(), [](auto f) { return f != 0; }));
    const double moved = b + static_cast<double>(n) + kept * sizeof(T);
    for (const auto& spec : specs) {
      options o{d, spec, nullptr};
      r.measure("compact", spec, type, ratio, moved, [&] { sink_int = sluice::compact(in.span(), fl.span(), out.span(), o); });
    }
    if constexpr (std::is_same_v<T, std::uint32_t>) {
      // The If form: keep x < ratio * 2^32 (random values: about `ratio` of them); no flags to read.
      const auto cut = static_cast<std::uint64_t>(std::ldexp(ratio, 32));
      const T bound = cut > 0xffffffffull ? T{0xffffffffu} : static_cast<T>(cut);
      const double kept_if = static_cast<double>(std::count_if(in.host.begin(), in.host.end(), [&](T x) { return ratio >= 1 || x < bound; }));
      for (const char* spec : {"cub", "billeter", "scan-scatter"}) {
        options o{d, spec, nullptr};
        if (ratio >= 1)
          r.measure("compact_if", spec, type, ratio, b + kept_if * sizeof(T), [&] { sink_int = sluice::compact_if(in.span(), out.span(), at_most(T{0xffffffffu}), o); });
        else
          r.measure("compact_if", spec, type, ratio, b + kept_if * sizeof(T), [&] { sink_int = sluice::compact_if(in.span(), out.span(), less_than(bound), o); });
      }
    }
    if (std::is_same_v<T, std::uint32_t>)
      for (const char* spec : {"jumping-jack", "warp-atomic"}) {
        options o{d, spec, nullptr};
        r.measure("compact_unordered", spec, type, ratio, moved, [&] { sink_int = sluice::compact_unordered(in.span(), fl.span(), out.span(), o); });
      }
  }
}

void compaction_suite(std::vector<row>& all, device d) {
  using u32 = std::uint32_t;
  const std::vector<std::string> specs = {"cub", "scan-scatter", "horn", "roger", "billeter", "billeter-staged", "billeter-scattered",
                                          "billeter-buffered", "billeter:simd=prefix", "billeter-staged:simd=prefix",
                                          "billeter-scattered:simd=prefix", "billeter-buffered:simd=prefix", "sort-compact"};
  std::vector<double> ratios;
  for (int k = 0; k <= 10; ++k) ratios.push_back(k / 10.0);
  auto add = [&](runner& r) { all.insert(all.end(), r.rows().begin(), r.rows().end()); };
  for (std::uint64_t n : {std::uint64_t{1} << 22, std::uint64_t{1} << 26}) {
    std::printf("[compaction] u32, n = %llu, valid ratio 0 .. 1\n", static_cast<unsigned long long>(n));
    runner r(d, n, 20);
    compaction_ratios<u32>(r, d, n, "u32", ratios, specs);
    add(r);
  }
  const std::uint64_t n = std::uint64_t{1} << 26;
  {
    std::printf("[compaction] 64- and 128-bit elements at 50%%\n");
    runner r(d, n, 20);
    compaction_ratios<std::uint64_t>(r, d, n, "u64", {0.5}, specs);
    add(r);
    runner r2(d, n, 20);
    compaction_ratios<detail::storage<16, 16>>(r2, d, n, "b128", {0.5}, specs);
    add(r2);
  }
  // Roger Table I (60% valid) and the block-size studies of Roger Fig. 11 and Moreira Fig. 10.
  for (std::uint64_t m : {std::uint64_t{1} << 18, std::uint64_t{1} << 20, std::uint64_t{1} << 22, std::uint64_t{1} << 24}) {
    std::printf("[compaction] Roger Table I sizes, n = %llu, 60%% valid\n", static_cast<unsigned long long>(m));
    runner r(d, m, 20);
    std::vector<std::string> table1 = {"horn", "roger", "roger:scan=hillis-steele", "scan-scatter", "billeter", "cub"};
    if (m == (std::uint64_t{1} << 22))
      for (int s = 8; s <= 1024; s *= 2) table1.push_back("roger:s=" + std::to_string(s));
    compaction_ratios<u32>(r, d, m, "u32", {0.6}, table1);
    add(r);
  }
  {
    std::printf("[compaction] jumping-jack block sizes, n = 2^22\n");
    runner r(d, std::uint64_t{1} << 22, 20);
    buf<u32> in(verify::make_values<u32>(r.n(), 1), d), out(std::vector<u32>(r.n()), d);
    yardstick(r, d, in, out, "u32");
    for (double ratio : {0.5, 0.1, 0.02}) {
      const auto flags = verify::make_flags(r.n(), {verify::pattern::random, ratio}, 3);
      buf<std::uint8_t> fl(flags, d);
      const double kept = static_cast<double>(std::count_if(flags.begin(), flags.end(), [](auto f) { return f != 0; }));
      for (int s = 16; s <= 1024; s *= 2)
        for (const char* scan : {"blelloch", "hillis-steele"}) {
          const std::string spec = "jumping-jack:s=" + std::to_string(s) + "+scan=" + scan;
          const std::string real = "jumping-jack:s=" + std::to_string(s) + ",scan=" + scan;
          options o{d, real, nullptr};
          r.measure("compact_unordered", spec, "u32", ratio, 4.0 * r.n() + r.n() + kept * 4,
                    [&] { sink_int = sluice::compact_unordered(in.span(), fl.span(), out.span(), o); });
        }
    }
    add(r);
  }
}

// The papers' reductions and scans at 2^22, 2^25 and 2^28 beside CUB and the copy; the billeter
// processor count and the coarsened scan as the block-size study.
void scan_reduce_suite(std::vector<row>& all, device d) {
  using u32 = std::uint32_t;
  for (std::uint64_t n : {std::uint64_t{1} << 22, std::uint64_t{1} << 25, std::uint64_t{1} << 28}) {
    std::printf("[scan-reduce] n = %llu\n", static_cast<unsigned long long>(n));
    runner r(d, n, 20);
    const double b = static_cast<double>(n) * sizeof(u32);
    buf<u32> in(verify::make_values<u32>(n, 1), d), out(std::vector<u32>(n), d);
    yardstick(r, d, in, out, "u32");
    for (const auto& a : names(primitive::reduce, d)) {
      options o{d, a, nullptr};
      r.measure("reduce", a, "u32", -1, b, [&] { sink_int = sluice::reduce(in.span(), u32{0}, sum{}, o); });
    }
    std::vector<std::string> scans = names(primitive::scan, d);
    for (int p : {132, 528, 2112, 4224, 8448, 16896}) scans.push_back("billeter-scan:P=" + std::to_string(p));
    for (const auto& a : scans) {
      options o{d, a, nullptr};
      r.measure("inclusive_scan", a, "u32", -1, 2 * b, [&] { sluice::inclusive_scan(in.span(), out.span(), sum{}, o); });
    }
    all.insert(all.end(), r.rows().begin(), r.rows().end());
  }
  if (d != device::cuda) return;
  // The teaching kit's work-efficiency question by block size, at Billeter Table 4's 32M: Kogge-Stone
  // (n log n operations) against Brent-Kung (2n) and the coarsened scan, each block size from a warp to 1024.
  const std::uint64_t n = std::uint64_t{1} << 25;
  std::printf("[scan-reduce] block sizes at n = %llu\n", static_cast<unsigned long long>(n));
  runner r(d, n, 10);
  const double b = static_cast<double>(n) * sizeof(u32);
  buf<u32> in(verify::make_values<u32>(n, 1), d), out(std::vector<u32>(n), d);
  yardstick(r, d, in, out, "u32");
  for (const char* a : {"kogge-stone", "brent-kung", "three-phase-coarsened", "streaming"})
    for (int threads = 32; threads <= 1024; threads *= 2) {
      const std::string spec = std::string(a) + ":threads=" + std::to_string(threads);
      options o{d, spec, nullptr};
      r.measure("inclusive_scan", spec, "u32", -1, 2 * b, [&] { sluice::inclusive_scan(in.span(), out.span(), sum{}, o); });
      if (r.rows().back().algo == spec) r.rows().back().block_size = threads;
    }
  all.insert(all.end(), r.rows().begin(), r.rows().end());
}

// The production suite: the defaults ("best") beside their peer (CUB on the GPU, the standard library on the CPU) and the
// copy, at every power of two, u32 and f32; at 2^28 the valid ratios 0.1, 0.5, 0.9 and the predicate forms;
// at 2^27 the 64- and 128-bit compactions.
// The default and its peer; with --algo, exactly the algorithms asked for (parameters allowed).
std::vector<std::string> production_peers(device d) {
  if (args && !args->only_algos.empty()) {  // the peers' own labels (std::sort, cub-unstable) select rows the suite times anyway
    std::vector<std::string> v;
    for (const auto& a : args->only_algos)
      if (a == "best" || a == "cub" || std::any_of(algorithms().begin(), algorithms().end(), [&](const algorithm_info& al) {
            return runs_on(al, d) && al.name == detail::base_name(a);
          }))
        v.push_back(a);
    return v;
  }
  return d == device::cuda ? std::vector<std::string>{"best", "cub"} : std::vector<std::string>{"best"};
}

// One case of the production suite: every peer's call (`call(options)`), timed together (runner::measure_each),
// its rows labelled with what the peer's name resolves to for primitive p, then form_of(p). On the GPU the peer
// "cub" runs CUB called directly (cub_direct.hpp): `cubs` holds the makers of those calls by label, "cub" first;
// the others (partition's "cub-unstable") are timed beside it.
using cub_makers = std::vector<std::pair<std::string, std::function<cub_direct::call()>>>;
template <class Call>
void measure_peers(runner& r, const std::vector<std::string>& peers, primitive p, const std::string& prim, const std::string& type,
                   double ratio, double bytes, const Call& call, const cub_makers& cubs = {}) {
  std::vector<std::pair<std::string, std::function<void()>>> candidates;
  const std::string form = form_of(p);
  for (const auto& a : peers) {
    const options o{r.dev(), a, nullptr};
    if (a == "cub" && r.dev() == device::cuda && !cubs.empty()) {
      for (const auto& [label, make] : cubs)
        if (wanted(prim, label + form)) candidates.emplace_back(label + form, make());
      continue;
    }
    candidates.emplace_back(label_of(p, r.dev(), a) + form, [o, &call] { call(o); });
  }
  r.measure_each(prim, type, ratio, bytes, candidates);
}

// Whether the production suite's CUB calls copy their count or sum to the host (the synchronous forms).
bool cub_to_host() { return !async_forms(); }

// Where --async leaves the counts and the sums: device memory on the GPU, host memory on the CPU.
struct results_left {
  buf<std::uint64_t> count;
  buf<std::uint32_t> sum_u32;
  buf<float> sum_f32;
  explicit results_left(device d) : count({0}, d), sum_u32({0}, d), sum_f32({0}, d) {}
};

// Where the CPU production suite times the standard library and oneTBB beside sluice: 2^26, and
// the --n given.
bool cpu_peers_at(std::uint64_t n) { return n == (std::uint64_t{1} << 26) || (args && args->n == n); }

#if SLUICE_BENCH_HAS_TBB
// CPU reduce and inclusive scan peers of n u32 beyond the serial std ones: std::execution::par and
// tbb::parallel_scan, on the yardsticks' threads (global_control in run_bench).
void cpu_parallel_reduce_scan(runner& r, buf<std::uint32_t>& in, buf<std::uint32_t>& out) {
  using u32 = std::uint32_t;
  const double b = static_cast<double>(r.n()) * sizeof(u32);
  const u32* src = in.host.data();
  u32* dst = out.host.data();
  r.measure("reduce", "std::reduce(par)", "u32", -1, b,
            [&] { sink_int = std::reduce(std::execution::par, in.host.begin(), in.host.end(), u32{0}); });
  r.measure("inclusive_scan", "std::inclusive_scan(par)", "u32", -1, 2 * b,
            [&] { std::inclusive_scan(std::execution::par, in.host.begin(), in.host.end(), out.host.begin()); });
  r.measure("inclusive_scan", "tbb::parallel_scan", "u32", -1, 2 * b, [&] { tbb_inclusive_scan(src, dst, r.n()); });
}
#endif

// CPU radix sort of the same n u32 keys beside std::sort, serial and par; the keys are restored before every
// repetition (not timed). 5 repetitions: each sort takes up to seconds.
void cpu_sort_rows(runner& r, buf<std::uint32_t>& in) {
  using u32 = std::uint32_t;
  const std::uint64_t n = r.n();
  const double b = 2.0 * static_cast<double>(n) * sizeof(u32);
  buf<u32> keys(in.host, device::cpu);
  auto reset = [&] { device_copy(device::cpu, keys.host.data(), in.host.data(), n * sizeof(u32)); };
  const int reps = r.reps();
  r.set_reps(5);
  const auto sorts = names(primitive::radix_sort, device::cpu);
  for (const auto& a : production_peers(device::cpu)) {
    if (a != "best" && std::find(sorts.begin(), sorts.end(), std::string(detail::base_name(a))) == sorts.end()) continue;
    options o{device::cpu, a, nullptr};
    r.measure("radix_sort", label_of(primitive::radix_sort, device::cpu, a), "u32", -1, b,
              [&] { sluice::radix_sort(keys.span(), order::ascending, {}, o); }, reset);
  }
  r.measure("radix_sort", "std::sort", "u32", -1, b, [&] { std::sort(keys.host.begin(), keys.host.end()); }, reset);
#if SLUICE_BENCH_HAS_TBB
  r.measure("radix_sort", "std::sort(par)", "u32", -1, b, [&] { std::sort(std::execution::par, keys.host.begin(), keys.host.end()); }, reset);
#endif
  r.set_reps(reps);
}

template <class T>
void production_moves(runner& r, device d, buf<T>& in, buf<T>& out, const std::string& type, const std::vector<double>& ratios,
                      bool with_predicate) {
  const std::uint64_t n = r.n();
  const double b = static_cast<double>(n) * sizeof(T);
  const std::vector<std::string> peers = production_peers(d);
  auto label = [&](primitive p, const std::string& a) { return label_of(p, d, a); };
  // The standard library beside the CPU backend, u32 only: kept elements to out, rejected ones to `rejected`.
  const bool std_peers = d == device::cpu && std::is_same_v<T, std::uint32_t> && cpu_peers_at(n);
  std::vector<T> rejected(std_peers ? n : 0);
  results_left left(d);
  for (double ratio : ratios) {
    const auto flags = verify::make_flags(n, {verify::pattern::random, ratio}, 3);
    buf<std::uint8_t> fl(flags, d);
    const double kept = static_cast<double>(std::count_if(flags.begin(), flags.end(), [](auto f) { return f != 0; }));
    std::uint64_t* count = left.count.span().data();
    measure_peers(
        r, peers, primitive::compact, "compact", type, ratio, b + n + kept * sizeof(T),
        [&](const options& o) {
          if (async_forms()) sluice::compact_async(in.span(), fl.span(), out.span(), count, o);
          else sink_int = sluice::compact(in.span(), fl.span(), out.span(), o);
        },
        cub_makers{{"cub", [&] { return cub_direct::select_flagged<T>(in.span().data(), fl.span().data(), out.span().data(), n, count, cub_to_host()); }}});
    if (std_peers)
      r.measure("compact", "std::copy_if", type, ratio, b + n + kept * sizeof(T), [&] { sink_int = std_copy_if_flags(in.host, flags, out.host); });
    for (const auto& a : {std::string("best"), std::string("decoupled-lookback")}) {
      if (d != device::cuda && a != "best") continue;
      options o{d, a, nullptr};
      r.measure("compact_unordered", label(primitive::compact_unordered, a) + form_of(primitive::compact_unordered), type, ratio,
                b + n + kept * sizeof(T), [&] {
                  if (async_forms()) sluice::compact_unordered_async(in.span(), fl.span(), out.span(), left.count.span().data(), o);
                  else sink_int = sluice::compact_unordered(in.span(), fl.span(), out.span(), o);
                });
    }
    measure_peers(
        r, peers, primitive::partition, "partition", type, ratio, 2 * b + n,
        [&](const options& o) {
          if (async_forms()) sluice::partition_flagged_async(in.span(), fl.span(), out.span(), count, o);
          else sink_int = sluice::partition_flagged(in.span(), fl.span(), out.span(), o);
        },
        cub_makers{{"cub", [&] { return cub_direct::partition_flagged<T>(in.span().data(), fl.span().data(), out.span().data(), n, count, cub_to_host(), true); }},
                   {"cub-unstable", [&] { return cub_direct::partition_flagged<T>(in.span().data(), fl.span().data(), out.span().data(), n, count, cub_to_host(), false); }}});
    if (std_peers)
      r.measure("partition", "std::partition_copy", type, ratio, 2 * b + n,
                [&] { sink_int = std_partition_copy_flags(in.host, flags, out.host, rejected); });
    if constexpr (std::is_arithmetic_v<T>) {
      if (!with_predicate || !primitive_wanted({"compact_if", "partition_if", "partition_unordered_if"})) continue;
      // The predicate forms: keep x < the ratio-quantile of the (uniform) input; no flags to read.
      const std::size_t q = static_cast<std::size_t>(ratio * static_cast<double>(n));
      const T bound = verify::nth_smallest(in.host, q < n ? q : n - 1);
      const double kept_if = static_cast<double>(std::count_if(in.host.begin(), in.host.end(), [&](T x) { return x < bound; }));
      measure_peers(
          r, peers, primitive::compact, "compact_if", type, ratio, b + kept_if * sizeof(T),
          [&](const options& o) {
            if (async_forms()) sluice::compact_if_async(in.span(), out.span(), less_than(bound), count, o);
            else sink_int = sluice::compact_if(in.span(), out.span(), less_than(bound), o);
          },
          cub_makers{{"cub", [&] { return cub_direct::select_below<T>(in.span().data(), out.span().data(), n, bound, count, cub_to_host()); }}});
      measure_peers(
          r, peers, primitive::partition, "partition_if", type, ratio, 2 * b,
          [&](const options& o) {
            if (async_forms()) sluice::partition_async(in.span(), out.span(), less_than(bound), count, o);
            else sink_int = sluice::partition(in.span(), out.span(), less_than(bound), o);
          },
          cub_makers{{"cub", [&] { return cub_direct::partition_below<T>(in.span().data(), out.span().data(), n, bound, count, cub_to_host(), true); }},
                     {"cub-unstable", [&] { return cub_direct::partition_below<T>(in.span().data(), out.span().data(), n, bound, count, cub_to_host(), false); }}});
      // The order-free split beside CUB's own (unstable) partition, its peer.
      measure_peers(
          r, peers, primitive::partition_unordered, "partition_unordered_if", type, ratio, 2 * b,
          [&](const options& o) {
            if (async_forms()) sluice::partition_unordered_async(in.span(), out.span(), less_than(bound), count, o);
            else sink_int = sluice::partition_unordered(in.span(), out.span(), less_than(bound), o);
          },
          cub_makers{{"cub", [&] { return cub_direct::partition_below<T>(in.span().data(), out.span().data(), n, bound, count, cub_to_host(), false); }}});
      if (std_peers) {
        auto below = [bound](T x) { return x < bound; };
        r.measure("compact_if", "std::copy_if", type, ratio, b + kept_if * sizeof(T),
                  [&] { sink_int = static_cast<std::size_t>(std::copy_if(in.host.begin(), in.host.end(), out.host.begin(), below) - out.host.begin()); });
#if SLUICE_BENCH_HAS_TBB
        r.measure("compact_if", "std::copy_if(par)", type, ratio, b + kept_if * sizeof(T), [&] {
          sink_int = static_cast<std::size_t>(std::copy_if(std::execution::par, in.host.begin(), in.host.end(), out.host.begin(), below) -
                                              out.host.begin());
        });
#endif
        auto std_partition = [&] {
          sink_int = static_cast<std::size_t>(
              std::partition_copy(in.host.begin(), in.host.end(), out.host.begin(), rejected.begin(), below).first - out.host.begin());
        };
        const row* std_row = r.measure("partition_if", "std::partition_copy", type, ratio, 2 * b, std_partition);
        // The order-free split's standard peer is the same std::partition_copy (the standard library has no
        // order-free copying partition; std::partition works in place): its row again where it was just timed,
        // else (--primitive partition_unordered_if) timed here.
        if (std_row) r.record("partition_unordered_if", "std::partition_copy", type, ratio, 2 * b, std_row->ms, std_row->reps);
        else r.measure("partition_unordered_if", "std::partition_copy", type, ratio, 2 * b, std_partition);
      }
    }
  }
}

// CPU: at 2^26 (or --n), u32, also the predicate forms, radix sort, and the peers std::reduce,
// std::inclusive_scan, std::copy_if, std::partition_copy, std::sort (serial and, with oneTBB,
// std::execution::par) and tbb::parallel_scan.
void production_suite(std::vector<row>& all, device d) {
  using u32 = std::uint32_t;
#if !SLUICE_BENCH_HAS_TBB
  if (d == device::cpu)
    std::printf("cpu: the tbb::parallel_scan and std::execution::par peers are skipped: libtbb-dev was missing when sluice was configured"
                " (scripts/setup.sh installs it)\n");
#endif
  const int top = d == device::cuda ? 30 : 26;
  std::vector<std::uint64_t> sizes;
  for (int k = 10; k <= top; ++k) sizes.push_back(std::uint64_t{1} << k);
  if (args && args->n) sizes = {args->n};
  if (args) std::erase_if(sizes, [](std::uint64_t n) { return n > args->max_size; });
  const std::vector<std::string> peers = production_peers(d);
  for (std::uint64_t n : sizes) {
    std::printf("[production] n = %llu\n", static_cast<unsigned long long>(n));
    const bool big = n == (std::uint64_t{1} << 28);
    const bool cpu_peers = d == device::cpu && cpu_peers_at(n);  // and the predicate forms, to have the peers' cases
    runner r(d, n, n >= (std::uint64_t{1} << 29) ? 10 : 20);
    const double b = static_cast<double>(n) * sizeof(u32);
    buf<u32> in(verify::make_values<u32>(n, 1), d), out(std::vector<u32>(n), d);
    yardstick(r, d, in, out, "u32");
    read_yardstick(r, d, in);
    {
      // The f32 inputs and outputs only where a measurement takes them (--primitive).
      const bool f32_wanted = primitive_wanted({"reduce", "inclusive_scan"}) || (big && moves_wanted());
      buf<float> fin(f32_wanted ? verify::make_values<float>(n, 2, verify::value_kind::sum) : std::vector<float>{}, d),
          fout(std::vector<float>(f32_wanted ? n : 0), d);
      results_left left(d);
      measure_peers(
          r, peers, primitive::reduce, "reduce", "u32", -1, b,
          [&](const options& o) {
            if (async_forms()) sluice::reduce_async(in.span(), left.sum_u32.span().data(), u32{0}, sum{}, o);
            else sink_int = sluice::reduce(in.span(), u32{0}, sum{}, o);
          },
          cub_makers{{"cub", [&] { return cub_direct::reduce_sum<u32>(in.span().data(), n, left.sum_u32.span().data(), cub_to_host()); }}});
      measure_peers(
          r, peers, primitive::reduce, "reduce", "f32", -1, b,
          [&](const options& o) {
            if (async_forms()) sluice::reduce_async(fin.span(), left.sum_f32.span().data(), 0.0f, sum{}, o);
            else sink_float = sluice::reduce(fin.span(), 0.0f, sum{}, o);
          },
          cub_makers{{"cub", [&] { return cub_direct::reduce_sum<float>(fin.span().data(), n, left.sum_f32.span().data(), cub_to_host()); }}});
      measure_peers(
          r, peers, primitive::scan, "inclusive_scan", "u32", -1, 2 * b, [&](const options& o) { sluice::inclusive_scan(in.span(), out.span(), sum{}, o); },
          cub_makers{{"cub", [&] { return cub_direct::inclusive_sum<u32>(in.span().data(), out.span().data(), n); }}});
      measure_peers(
          r, peers, primitive::scan, "inclusive_scan", "f32", -1, 2 * b,
          [&](const options& o) { sluice::inclusive_scan(fin.span(), fout.span(), sum{}, o); },
          cub_makers{{"cub", [&] { return cub_direct::inclusive_sum<float>(fin.span().data(), fout.span().data(), n); }}});
      measure_peers(
          r, peers, primitive::scan, "exclusive_scan", "u32", -1, 2 * b,
          [&](const options& o) { sluice::exclusive_scan(in.span(), out.span(), u32{0}, sum{}, o); },
          cub_makers{{"cub", [&] { return cub_direct::exclusive_sum<u32>(in.span().data(), out.span().data(), n); }}});
      if (d == device::cpu) {
        r.measure("reduce", "std::reduce", "u32", -1, b, [&] { sink_int = std::reduce(in.host.begin(), in.host.end(), u32{0}); });
        r.measure("inclusive_scan", "std::inclusive_scan", "u32", -1, 2 * b,
                  [&] { std::inclusive_scan(in.host.begin(), in.host.end(), out.host.begin()); });
#if SLUICE_BENCH_HAS_TBB
        if (cpu_peers) cpu_parallel_reduce_scan(r, in, out);
#endif
      }
      // The predicate forms at every size on the GPU (the production goals are judged at every power of two), at
      // 2^26 on the CPU.
      if (moves_wanted())
        production_moves<u32>(r, d, in, out, "u32", big ? std::vector<double>{0.1, 0.5, 0.9} : std::vector<double>{0.5},
                              big || cpu_peers || d == device::cuda);
      if (big && moves_wanted()) production_moves<float>(r, d, fin, fout, "f32", {0.1, 0.5, 0.9}, true);
    }
    if (cpu_peers && primitive_wanted({"radix_sort"})) cpu_sort_rows(r, in);
    all.insert(all.end(), r.rows().begin(), r.rows().end());
  }
  // The goals' table is 2^28 and, for the wide elements, 2^27: --n 2^28 times both.
  if (d != device::cuda || (args && args->n && args->n != (std::uint64_t{1} << 28)) || !moves_wanted()) return;
  if (args && args->max_size < (std::uint64_t{1} << 28)) return;
  const std::uint64_t n = std::uint64_t{1} << 27;
  std::printf("[production] 64- and 128-bit elements, n = %llu\n", static_cast<unsigned long long>(n));
  {
    runner r(d, n, 20);
    buf<std::uint64_t> in(random_elements<std::uint64_t>(n), d), out(std::vector<std::uint64_t>(n), d);
    yardstick(r, d, in, out, "u64");
    production_moves<std::uint64_t>(r, d, in, out, "u64", {0.1, 0.5, 0.9}, true);
    all.insert(all.end(), r.rows().begin(), r.rows().end());
  }
  {
    using b128 = detail::storage<16, 16>;
    runner r(d, n, 20);
    buf<b128> in(random_elements<b128>(n), d), out(std::vector<b128>(n), d);
    yardstick(r, d, in, out, "b128");
    production_moves<b128>(r, d, in, out, "b128", {0.1, 0.5, 0.9}, false);
    all.insert(all.end(), r.rows().begin(), r.rows().end());
  }
}

// Sort rows of `algos` for keys (and values, unless null) of the runner's size: each sort starts from the
// same input, restored before every repetition (not timed).
template <class K, class V>
void sort_rows(runner& r, device d, const std::vector<std::string>& algos, const std::string& type, const std::vector<K>& key_init,
               const std::vector<V>* value_init) {
  const std::uint64_t n = r.n();
  buf<K> src(key_init, d), keys(key_init, d);
  const double b = static_cast<double>(n) * (sizeof(K) + (value_init ? sizeof(V) : 0));
  const std::vector<V> none;
  buf<V> vsrc(value_init ? *value_init : none, d), vals(value_init ? *value_init : none, d);
  for (const auto& a : algos) {
    options o{d, a, nullptr};
    const std::string label = label_of(primitive::radix_sort, d, a);
    auto reset = [&] {
      device_copy(d, keys.span().data(), src.span().data(), n * sizeof(K));
      if (value_init) device_copy(d, vals.span().data(), vsrc.span().data(), n * sizeof(V));
    };
    if (value_init)
      r.measure("radix_sort_pairs", label, type, -1, 2 * b, [&] { sluice::radix_sort(keys.span(), vals.span(), order::ascending, {}, o); }, reset);
    else
      r.measure("radix_sort", label, type, -1, 2 * b, [&] { sluice::radix_sort(keys.span(), order::ascending, {}, o); }, reset);
  }
}

// The sort suite: radix sort. u32 keys alone and u32 keys with u32 values at 2^20, 2^22, 2^24 and 2^28, f32 keys at
// 2^28, u64 keys at 2^27: the default, CUB and (at Billeter's 4M, Table 5) split-radix, with key + 16-byte
// value pairs there too. Bytes counted: the keys (and values) read once and written once, as a copy of them
// moves.
void sort_suite(std::vector<row>& all, device d) {
  using u32 = std::uint32_t;
  std::vector<std::uint64_t> sizes = {std::uint64_t{1} << 20, std::uint64_t{1} << 22, std::uint64_t{1} << 24, std::uint64_t{1} << 28};
  if (args && args->n) sizes = {args->n};
  const std::vector<std::string> algos = production_peers(d);
  for (std::uint64_t n : sizes) {
    std::printf("[sort] n = %llu\n", static_cast<unsigned long long>(n));
    std::vector<std::string> here = algos;
    const bool table5 = n == (std::uint64_t{1} << 22);
    if (table5 && d == device::cuda && !(args && !args->only_algos.empty())) here.push_back("split-radix");
    runner r(d, n, n >= (std::uint64_t{1} << 28) ? 10 : 20);
    {
      buf<u32> in(verify::make_values<u32>(n, 1), d), out(std::vector<u32>(n), d);
      yardstick(r, d, in, out, "u32");
      const auto values = verify::make_values<u32>(n, 7);
      sort_rows<u32, u32>(r, d, here, "u32", in.host, nullptr);
      sort_rows<u32, u32>(r, d, here, "u32+u32", in.host, &values);
      if (table5) {
        const auto wide = random_elements<detail::storage<16, 4>>(n);
        sort_rows<u32, detail::storage<16, 4>>(r, d, here, "u32+b128", in.host, &wide);
      }
      if (n == (std::uint64_t{1} << 28))
        sort_rows<float, u32>(r, d, here, "f32", verify::make_keys<float>(n, verify::key_pattern::random, 11), nullptr);
    }
    all.insert(all.end(), r.rows().begin(), r.rows().end());
  }
  if (d != device::cuda || (args && args->n)) return;
  const std::uint64_t n = std::uint64_t{1} << 27;
  std::printf("[sort] 64-bit keys, n = %llu\n", static_cast<unsigned long long>(n));
  runner r(d, n, 10);
  buf<std::uint64_t> in(random_elements<std::uint64_t>(n), d), out(std::vector<std::uint64_t>(n), d);
  yardstick(r, d, in, out, "u64");
  sort_rows<std::uint64_t, u32>(r, d, algos, "u64", in.host, nullptr);
  all.insert(all.end(), r.rows().begin(), r.rows().end());
}

// Rows that time someone else's algorithm: CUB, the standard library, oneTBB.
bool is_peer(const std::string& algo) {
  const std::string a = without_form(algo);
  return a == "cub" || a == "cub-unstable" || algo.rfind("std::", 0) == 0 || algo.rfind("tbb::", 0) == 0;
}

bool same_case(const row& p, const row& a) { return p.prim == a.prim && p.type == a.type && p.n == a.n && p.ratio == a.ratio; }

// The peer's row (CUB on the GPU, in the same form as `a`; the serial standard library on the CPU) of the same
// case as `a`, or null.
const row* peer_of(const std::vector<row>& rows, const row& a) {
  const row* peer = nullptr;
  for (const auto& p : rows) {
    const bool serial_std = p.algo.rfind("std::", 0) == 0 && p.algo.find("(par)") == std::string::npos;
    const bool cub_same_form = without_form(p.algo) == "cub" && is_async_label(p.algo) == is_async_label(a.algo);  // --async
    if ((cub_same_form || serial_std) && same_case(p, a)) peer = &p;
  }
  return peer;
}

// Sort rows in keys per second, beside the peer's.
void print_sort_rates(const std::vector<row>& rows) {
  std::printf("\n%-17s %-9s %-11s %-14s %9s %12s %10s %8s\n", "primitive", "type", "n", "algorithm", "ms", "G keys/s", "time/peer", "frac");
  for (const auto& a : rows) {
    if (a.prim == "copy" || a.prim == "read") continue;
    const row* peer = peer_of(rows, a);
    std::printf("%-17s %-9s %-11llu %-14s %9.4f %12.2f %10s %8.3f\n", a.prim.c_str(), a.type.c_str(), static_cast<unsigned long long>(a.n),
                a.algo.c_str(), a.ms, static_cast<double>(a.n) / (a.ms * 1e-3) / 1e9,
                peer ? std::to_string(a.ms / peer->ms).substr(0, 5).c_str() : "-", a.frac);
  }
}

// The production table: each sluice row beside its peer's row of the same case, time ratio and fractions.
void print_against_peer(const std::vector<row>& rows) {
  std::printf("\n%-18s %-5s %-11s %-5s %-20s %10s %10s %8s %8s %8s\n", "primitive", "type", "n", "ratio", "sluice", "ms", "peer ms",
              "time/peer", "frac", "peer frac");
  for (const auto& a : rows) {
    if (is_peer(a.algo) || a.prim == "copy" || a.prim == "read") continue;
    const row* peer = peer_of(rows, a);
    std::printf("%-18s %-5s %-11llu %-5s %-20s %10.4f %10s %8s %8.3f %8s\n", a.prim.c_str(), a.type.c_str(), static_cast<unsigned long long>(a.n),
                a.ratio < 0 ? "-" : std::to_string(a.ratio).substr(0, 4).c_str(), a.algo.c_str(), a.ms,
                peer ? std::to_string(peer->ms).substr(0, 8).c_str() : "-", peer ? std::to_string(a.ms / peer->ms).substr(0, 5).c_str() : "-",
                a.frac, peer ? std::to_string(peer->frac).substr(0, 5).c_str() : "-");
  }
}

// CPU: at the peers' size, u32, each sluice row's fraction of memcpy-mt (reduce: of the read) and its
// speed-up over every peer of the same case (peer ms / sluice ms).
void print_cpu_summary(const std::vector<row>& rows) {
  const std::uint64_t n = args && args->n ? args->n : std::uint64_t{1} << 26;
  const row *copy = nullptr, *read = nullptr;
  for (const auto& a : rows)
    if (a.n == n && a.type == "u32") {
      if (a.prim == "copy") copy = &a;
      if (a.prim == "read") read = &a;
    }
  if (!copy) return;
  std::printf("\ncpu, u32, n = %llu, %d threads: memcpy-mt %.4f ms (%.1f GB/s)", static_cast<unsigned long long>(n), cpu_threads(),
              copy->ms, copy->gbps);
  if (read) std::printf(", read %.4f ms (%.1f GB/s)", read->ms, read->gbps);
  std::printf("\n%-18s %-5s %-14s %10s %7s %-9s %-24s %10s %8s\n", "primitive", "ratio", "sluice", "ms", "frac", "of", "peer", "peer ms",
              "speed-up");
  for (const auto& a : rows) {
    if (a.n != n || a.type != "u32" || a.prim == "copy" || a.prim == "read" || is_peer(a.algo)) continue;
    std::printf("%-18s %-5s %-14s %10.4f %7.3f %-9s", a.prim.c_str(), a.ratio < 0 ? "-" : std::to_string(a.ratio).substr(0, 4).c_str(),
                a.algo.c_str(), a.ms, a.frac, a.prim == "reduce" && read ? "read" : "memcpy-mt");
    bool first = true;
    for (const auto& p : rows) {
      if (!is_peer(p.algo) || !same_case(p, a)) continue;
      if (!first) std::printf("%-18s %-5s %-14s %10s %7s %-9s", "", "", "", "", "", "");
      std::printf(" %-24s %10.4f %8.2f\n", p.algo.c_str(), p.ms, p.ms / a.ms);
      first = false;
    }
    if (first) std::printf(" %-24s %10s %8s\n", "-", "-", "-");
  }
}

// A CSV field (RFC 4180): quoted when it holds a comma or a quote (algorithm specs do: "roger:s=64,scan=blelloch").
std::string csv_field(const std::string& v) {
  if (v.find_first_of(",\"\n") == std::string::npos) return v;
  std::string q = "\"";
  for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// The CSV (docs/bench.md): written whole or not at all (write_whole_file).
bool write_csv(const std::vector<row>& rows, const std::filesystem::path& file) {
  return write_whole_file(file, [&](const std::filesystem::path& partial) {
    std::ofstream f(partial);
    if (!f) return false;
    // fraction_of_memcpy: of the same run's copy row; for CPU reduce rows, of its read row (reduce writes nothing).
    // Step rows (gbps < 0) have a time but no rate. machine_busy: 1 where the row was timed while the machine
    // looked busy (bench.hpp, busy_spread), else 0.
    f << "primitive,algorithm,device,element_type,n,valid_ratio,block_size,ms,gbps,fraction_of_memcpy,repetitions,machine_busy\n";
    for (const auto& r : rows) {
      char nums[256];
      const std::string gbps = r.gbps < 0 ? "" : std::to_string(r.gbps), frac = r.gbps < 0 ? "" : std::to_string(r.frac);
      std::snprintf(nums, sizeof nums, "%llu,%s,%d,%.6f,%s,%s,%d,%d\n", static_cast<unsigned long long>(r.n),
                    r.ratio < 0 ? "" : std::to_string(r.ratio).c_str(), r.block_size, r.ms, gbps.c_str(), frac.c_str(), r.reps,
                    r.busy ? 1 : 0);
      f << csv_field(r.prim) << ',' << csv_field(r.algo) << ',' << csv_field(r.dev) << ',' << csv_field(r.type) << ',' << nums;
    }
    f.flush();
    return static_cast<bool>(f);
  });
}

bool is_yardstick(const row& r) { return r.prim == "copy" || r.prim == "read"; }

// Whether a row times the default of its primitive on d (the variant options.algorithm "best" runs).
bool is_default(const row& r, device d) {
  for (const auto& bp : bench_primitives)
    if (r.prim == bp.name)
      for (const auto& a : algorithms())
        if (a.prim == bp.prim && runs_on(a, d) && is_best(a, d) && a.name == without_form(r.algo)) return true;
  return false;
}

// quick: one bar per measurement, its fraction of the same run's copy; sluice's defaults, its other variants
// and the peers (std::, TBB, CUB) in three colours, the defaults also named so; the copy (1.0) dashed; a log
// axis where the fractions span more than figure::log_span.
figure quick_figure(const std::vector<row>& rows, device d) {
  std::string sizes;
  for (const auto& r : rows)
    if (r.prim == "copy") sizes += (sizes.empty() ? "n = " : ", ") + std::to_string(r.n);
  figure f{"fraction", "sluice bench quick: every algorithm as a fraction of the same run's copy (" + sizes + ")",
           std::string("effective GB/s / ") + (d == device::cuda ? "cudaMemcpy" : "memcpy-mt (reduce: / read-mt)"), ""};
  f.bars = true;
  f.auto_log = true;
  const std::string dflt = "sluice, the default on " + std::string(to_string(d)), other = "sluice, other variants",
                    peer = "peers (std::, TBB, CUB)";
  f.groups = {{dflt, "#d62728"}, {other, "#3b75af"}, {peer, "#8c8c8c"}};
  f.reference = 1.0;
  f.reference_label = std::string("the copy (") + (d == device::cuda ? "cudaMemcpy" : "memcpy-mt") + ") = 1";
  const bool one_size = sizes.find(',') == std::string::npos;
  // Each primitive's bars together, its peers after sluice's, in the order the primitives were timed.
  std::vector<const row*> order;
  for (const auto& r : rows)
    if (!is_yardstick(r)) order.push_back(&r);
  auto first_of = [&](const row* r) {
    return std::find_if(order.begin(), order.end(), [&](const row* o) { return o->prim == r->prim; }) - order.begin();
  };
  std::stable_sort(order.begin(), order.end(), [&](const row* x, const row* y) { return first_of(x) < first_of(y); });
  for (const row* rp : order) {
    const row& r = *rp;
    const bool is_dflt = !is_peer(r.algo) && is_default(r, d);
    f.add(r.prim + "  " + r.algo + (is_dflt ? " (default)" : "") + "  " + r.type + (one_size ? "" : "  n=" + std::to_string(r.n)) +
              (r.busy ? "  busy" : ""),
          0, r.frac, is_peer(r.algo) ? peer : is_dflt ? dflt : other);
  }
  return f;
}

// production and sort: effective GB/s of each algorithm against n, with the copy's, per primitive and type.
std::vector<figure> size_figures(const std::vector<row>& rows, const std::string& suite, device d) {
  std::vector<figure> figs;
  auto fig_of = [&](const row& r) -> figure& {
    const std::string id = r.prim + "-" + r.type;
    for (auto& f : figs)
      if (f.id == id) return f;
    figs.push_back({id, suite + ": " + r.prim + " of " + r.type + (r.ratio >= 0 ? " (valid ratio " + std::to_string(r.ratio).substr(0, 4) + ")" : "") +
                            " against n, beside the peer and the copy",
                    "n (elements)", "effective GB/s (bytes read once + written once)", true, false});
    figs.back().auto_log = true;
    return figs.back();
  };
  for (const auto& r : rows) {
    if (is_yardstick(r) || r.gbps < 0) continue;
    if (r.ratio >= 0 && r.ratio != 0.5) continue;  // one valid ratio per figure: 0.5, which every size has
    figure& f = fig_of(r);
    f.add(r.algo, static_cast<double>(r.n), r.gbps);
  }
  // A figure needs two sizes at least: the types and ratios timed at one size only are in the CSV and the tables.
  std::erase_if(figs, [](const figure& f) {
    for (const auto& p : f.points)
      if (p.x != f.points.front().x) return false;
    return true;
  });
  for (auto& f : figs) {  // the copy of the same n elements of the figure's type
    const std::string type = f.id.substr(f.id.rfind('-') + 1);
    for (const auto& c : rows)
      if (c.prim == "copy" && c.type == type) f.add(std::string(d == device::cuda ? "cudaMemcpy" : "memcpy-mt") + " (yardstick)", static_cast<double>(c.n), c.gbps);
    if (d == device::cpu && f.id.rfind("reduce-", 0) == 0)
      for (const auto& c : rows)
        if (c.prim == "read" && c.type == type) f.add("read-mt (yardstick)", static_cast<double>(c.n), c.gbps);
  }
  return figs;
}

struct suite_output {
  std::vector<row> rows;
  std::vector<figure> figs;
  std::string tables;  // Markdown
};

// The median of a fixed copy on d (CPU: 32 MiB, GPU: 256 MiB), timed at a suite's start and end: where it
// moved by more than busy_spread, something else took the machine meanwhile. 0 on gl (its copies are timed
// by the gl suite itself).
double probe_copy_ms(device d) {
  if (d != device::cpu && d != device::cuda) return 0;
  const std::uint64_t n = d == device::cuda ? std::uint64_t{1} << 26 : std::uint64_t{1} << 23;
  buf<std::uint32_t> in(std::vector<std::uint32_t>(n, 1), d), out(std::vector<std::uint32_t>(n), d);
  return time_median(d, 10, [&] { device_copy(d, out.span().data(), in.span().data(), n * sizeof(std::uint32_t)); }).median_ms;
}

// Runs one suite (not "all") and writes its CSV, figures and tables; returns the exit status. `timed`: how
// many rows other than the yardsticks it timed.
int run_suite(const bench_args& a, const std::string& suite, device d, std::size_t& timed) {
  suite_output o;
  int status = 0;
  if (suite == "quick" && a.only_algos.empty() && a.only_primitive.empty()) {  // verify first: a fast wrong answer is worth nothing
    std::printf("verifying every %s algorithm (quick matrix)...\n", std::string(to_string(d)).c_str());
    verify::tally t;
    verify::settings s{d, true, [](const std::string& m) { std::printf("  FAILED %s\n", m.c_str()); }};
    for (const auto& alg : algorithms())
      if (runs_on(alg, d)) t += verify::run(alg, s);
    std::printf("verify: %llu passed, %llu failed\n", static_cast<unsigned long long>(t.passed), static_cast<unsigned long long>(t.failed));
    if (t.failed) status = 1;
  }
  std::printf("[%s] suite %s on %s (%s)\n", std::string(to_string(d)).c_str(), suite.c_str(), std::string(to_string(d)).c_str(),
              machine_name(d).c_str());
  const double probe_start = probe_copy_ms(d);
  std::vector<std::uint64_t> sizes;
  if (suite == "quick") sizes = {d == device::cuda ? (std::uint64_t{1} << 26) : (std::uint64_t{1} << 24)};
  if (a.n && suite == "quick") sizes = {a.n};
  if (suite == "compaction") compaction_suite(o.rows, d);
  if (suite == "scan-reduce") scan_reduce_suite(o.rows, d);
  if (suite == "ratio") ratio_suite(o.rows, o.figs, d);
  if (suite == "size") size_suite(o.rows, o.figs, d);
  if (suite == "blocksize") blocksize_suite(o.rows, o.figs, d);
  if (suite == "tables") tables_suite(o.rows, o.tables, d);
  if (suite == "gl") gl_suite(o.rows, o.tables, o.figs);
  if (suite == "production") {
    production_suite(o.rows, d), print_against_peer(o.rows);
    if (d == device::cpu) print_cpu_summary(o.rows);
    o.figs = size_figures(o.rows, suite, d);
  }
  if (suite == "sort") sort_suite(o.rows, d), print_sort_rates(o.rows), o.figs = size_figures(o.rows, suite, d);
  for (std::uint64_t n : sizes) {
    std::printf("[%s] timing at n = %llu (median of repetitions, after warm-up)\n", std::string(to_string(d)).c_str(),
                static_cast<unsigned long long>(n));
    runner r(d, n, d == device::cuda ? 20 : 5);
    suite_at(r, d, n);
    o.rows.insert(o.rows.end(), r.rows().begin(), r.rows().end());
  }
  // The busy machine (bench.hpp, busy_spread): the fixed copy again, against the start.
  const double probe_end = probe_copy_ms(d);
  if (drift_looks_busy(probe_start, probe_end)) {
    const double drift = std::abs(probe_end - probe_start) / std::min(probe_start, probe_end);
    std::printf("warning: the machine looks busy: a fixed copy took %.4f ms at the start of suite %s and %.4f ms at its end"
                " (%.0f%% apart, over %.0f%%): every row of this suite is marked machine_busy=1\n",
                probe_start, suite.c_str(), probe_end, 100 * drift, 100 * busy_spread);
    for (auto& r : o.rows) r.busy = true;
  }
  timed = static_cast<std::size_t>(std::count_if(o.rows.begin(), o.rows.end(), [](const row& r) { return !is_yardstick(r); }));
  if (const auto busy = std::count_if(o.rows.begin(), o.rows.end(), [](const row& r) { return r.busy; }); busy > 0)
    std::printf("warning: the machine looked busy for %lld of the %zu rows of suite %s (machine_busy=1 in the CSV):"
                " their fractions of the copy may mislead; time again on a quiet machine\n",
                static_cast<long long>(busy), o.rows.size(), suite.c_str());
  if (suite == "quick") o.figs.push_back(quick_figure(o.rows, d));

  const std::filesystem::path dir(a.out_dir);
  const std::string stem = suite + "-" + std::string(to_string(d)) + (a.async_forms ? "-async" : "");
  const auto file = dir / (stem + ".csv");
  if (!write_csv(o.rows, file)) {
    std::fprintf(stderr, "sluice bench: cannot write '%s'\n", file.string().c_str());
    return 1;
  }
  std::printf("wrote %s (%zu rows)\n", file.string().c_str(), o.rows.size());
  if (!o.tables.empty()) {
    std::printf("\n%s", o.tables.c_str());
    const auto md = dir / (stem + ".md");
    if (!write_text_file(md, o.tables)) {
      std::fprintf(stderr, "sluice bench: cannot write '%s'\n", md.string().c_str());
      return 1;
    }
    std::printf("wrote %s\n", md.string().c_str());
  }
  const std::string subtitle = "sluice bench --suite " + suite + (a.n ? " --n " + std::to_string(a.n) + (suite == "quick" || suite == "production" || suite == "sort" ? "" : " (not the paper's size)") : "") +
                               (a.async_forms ? " --async (the _async forms: counts and sums left in device memory)" : "") + ", " + machine_name(d);
  std::size_t drawn = 0, figures = 0;
  for (const auto& f : o.figs) {
    if (f.points.empty()) continue;
    ++figures;
    const auto png = write_figure(f, dir, stem + "-" + f.id, subtitle);
    if (!png.empty()) ++drawn, std::printf("wrote %s\n", png.string().c_str());
  }
  if (figures && !gnuplot_present())
    std::printf("plots: gnuplot is not installed (scripts/setup.sh installs gnuplot-nox); wrote %zu scripts %s-*.gp in %s:"
                " 'gnuplot NAME.gp' draws each\n", figures, stem.c_str(), dir.string().c_str());
  else if (drawn < figures) status = 1;
  return status;
}

}  // namespace

int run_bench(const bench_args& a) {
  args = &a;
  const device d = a.dev;
  std::error_code ec;
  std::filesystem::create_directories(a.out_dir, ec);
  if (ec) {
    std::fprintf(stderr, "sluice bench: cannot create output folder '%s': %s\n", a.out_dir.c_str(), ec.message().c_str());
    return 1;
  }
  remove_partial_files_on_interrupt();
#if SLUICE_BENCH_HAS_TBB
  // oneTBB (and std::execution::par on it) on as many threads as the yardsticks, in every suite.
  std::optional<tbb::global_control> tbb_threads;
  if (d == device::cpu) tbb_threads.emplace(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(cpu_threads()));
#endif
  int status = 0;
  std::size_t timed = 0;
  if (a.suite != "all") {
    status = run_suite(a, a.suite, d, timed);
  } else {
    for (const char* s : {"ratio", "size", "blocksize", "tables", "production", "sort"}) {
      if (d == device::cpu && std::string(s) == "blocksize") {
        std::printf("[cpu] suite blocksize skipped: its block sizes are those of the papers' GPU variants (roger, jumping-jack,"
                    " the teaching kit's scans); the CPU algorithms have none to vary\n");
        continue;
      }
      std::size_t here = 0;
      status |= run_suite(a, s, d, here);
      timed += here;
    }
  }
  if (timed == 0 && (!a.only_algos.empty() || !a.only_primitive.empty())) {  // only the yardsticks: say so, not exit 0
    std::fprintf(stderr, "sluice: --algo/--primitive leave nothing of suite '%s' on %s to time: only the copy was timed\n",
                 a.suite.c_str(), std::string(to_string(d)).c_str());
    return 2;
  }
  return status;
}

}  // namespace sluice::tool
