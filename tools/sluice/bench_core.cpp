// What every suite of `sluice bench` shares (bench_core.hpp): the filters of the command line (--algo,
// --primitive, --async), the runner that times a measurement and prints its progress line, and the copy and
// read yardsticks, whose three medians say whether the machine looks busy.
#include "bench_core.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <cstdio>
#include <set>
#include <string_view>

#if SLUICE_BENCH_HAS_TBB
#include <tbb/blocked_range.h>
#include <tbb/parallel_scan.h>
#endif

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

}  // namespace sluice::tool
