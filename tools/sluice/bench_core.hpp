// What the suites of `sluice bench` share (bench_core.cpp): the CSV row, buffers on either device, the runner
// that times a measurement beside the same run's copy, and the filters of the command line; then the suites
// and the outputs that bench.cpp calls.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bench.hpp"
#include "plot.hpp"
#include "timer.hpp"
#include "sluice/sluice.hpp"
#include "verify/generators.hpp"

namespace sluice::tool {

// One CSV row (docs/guide/benchmarking.md has the schema).
struct row {
  std::string prim, algo, dev, type;
  std::uint64_t n;
  double ratio;    // valid ratio; -1 when it does not apply
  int block_size;  // 0 when the algorithm has none to tune here
  double ms, gbps, frac;  // frac: of the copy; CPU reduce rows: of the read. gbps < 0: a step's time, no rate
  int reps;
  bool busy = false;  // timed while the machine looked busy (bench.hpp, busy_spread): its fraction may mislead
};

// Host data on the CPU, device buffers on the GPU.
template <class T>
struct buf {
  std::vector<T> host;
  device_buffer<T> dev;
  bool gpu;
  buf(std::vector<T> h, device d) : host(std::move(h)), gpu(d == device::cuda) {  // a fresh input moves in, uncopied
    if (gpu) dev = device_buffer<T>(std::span<const T>(host));
  }
  std::span<T> span() { return gpu ? std::span<T>(dev.data(), dev.size()) : std::span<T>(host); }
};

extern const bench_args* args;  // the filters of this run

// Whether --algo / --primitive leave this measurement in (the copy and read yardsticks always stay).
bool wanted(const std::string& prim, const std::string& algo);

// --async (production): the rows of the _async forms are labelled "<algorithm> async".
bool async_forms();
bool is_async_label(const std::string& algo);
// What follows a row's algorithm for primitive p: " async" with --async, for the primitives whose plain form
// returns its count or sum to the host (all but the scans, which never wait).
std::string form_of(primitive p);
std::string without_form(const std::string& algo);

// Seconds since the run began, for the progress lines.
double elapsed_s();

class runner {
 public:
  runner(device d, std::uint64_t n, int reps) : d_(d), n_(n), reps_(reps) {}

  // Times f (setup untimed before each repetition) and appends its row; null when the filters leave it out.
  // The pointer is good until the next measurement.
  row* measure(const std::string& prim, const std::string& algo, const std::string& type, double ratio, double bytes,
               const std::function<void()>& f, const std::function<void()>& setup = {});
  // The algorithms of one case (label, call) timed together (time_interleaved), their rows appended in the
  // given order; those the filters leave out are not run.
  void measure_each(const std::string& prim, const std::string& type, double ratio, double bytes,
                    const std::vector<std::pair<std::string, std::function<void()>>>& candidates);
  // Appends a row timed elsewhere (the gl device's queries), with its progress line; null when filtered out.
  row* record(const std::string& prim, const std::string& algo, const std::string& type, double ratio, double bytes,
              double median_ms, int repetitions);
  void set_copy_rate(double gbps) { copy_gbps_ = gbps; }
  void set_busy(bool busy) { busy_ = busy; }  // the rows recorded from now on: this size's yardstick looked busy
  void set_read_rate(double gbps) { read_gbps_ = gbps; }  // CPU only: reduce rows become fractions of it
  void set_reps(int reps) { reps_ = reps; }
  int reps() const { return reps_; }
  std::vector<row>& rows() { return rows_; }
  std::uint64_t n() const { return n_; }
  device dev() const { return d_; }

 private:
  device d_;
  std::uint64_t n_;
  int reps_;
  double copy_gbps_ = 0;
  double read_gbps_ = 0;
  bool busy_ = false;
  std::vector<row> rows_;
};

// Results the benchmark must not let the compiler drop.
extern volatile std::uint64_t sink_int;
extern volatile float sink_float;

// The names of the algorithms of primitive p that run on d.
std::vector<std::string> names(primitive p, device d);

// The copy of the same elements that every following row of `r` is a fraction of (bytes read + bytes
// written); on the CPU memcpy-mt, std::memcpy of one contiguous slice per thread (timer.cpp).
void yardstick_bytes(runner& r, device d, void* out, const void* in, std::size_t elem_bytes, const std::string& type);
template <class T>
void yardstick(runner& r, device d, buf<T>& in, buf<T>& out, const std::string& type) {
  yardstick_bytes(r, d, out.span().data(), in.span().data(), sizeof(T), type);
}

// CPU only: the read of the same n u32 (bytes read), a sum over the threads as memcpy-mt slices them; every
// following reduce row of `r` is a fraction of it.
void read_yardstick(runner& r, device d, buf<std::uint32_t>& in);

// The standard library's serial compaction by flag bytes: the serial algorithms hand the predicate the element
// itself, so its address gives its index into the flags.
template <class T>
std::size_t std_copy_if_flags(const std::vector<T>& in, const std::vector<std::uint8_t>& flags, std::vector<T>& out) {
  const T* base = in.data();
  return static_cast<std::size_t>(std::copy_if(in.begin(), in.end(), out.begin(), [&](const T& x) { return flags[&x - base] != 0; }) -
                                  out.begin());
}

#if SLUICE_BENCH_HAS_TBB
// tbb::parallel_scan's inclusive sum of n u32, the CPU peer of the scans (on run_bench's TBB threads).
void tbb_inclusive_scan(const std::uint32_t* src, std::uint32_t* dst, std::size_t n);
#endif

// A row's algorithm: the name "best" resolves to, or the spec as given.
std::string label_of(primitive p, device d, const std::string& spec);

// Random bits for any trivially copyable element type.
template <class T>
std::vector<T> random_elements(std::uint64_t n) {
  if constexpr (std::is_arithmetic_v<T>) {
    return verify::make_values<T>(n, 1);
  } else {
    const auto words = verify::make_values<std::uint64_t>(n * sizeof(T) / 8, 1);
    std::vector<T> v(n);
    std::memcpy(v.data(), words.data(), n * sizeof(T));
    return v;
  }
}

// The variants that exist only as compact_unordered (their rows are of that primitive).
inline bool unordered_only(const std::string& spec) {
  const auto base = std::string(detail::base_name(spec));
  return base == "jumping-jack" || base == "warp-atomic" || base == "tile-atomic";
}

// Flag bytes of one valid ratio, on the device, and how many are set.
struct flag_set {
  buf<std::uint8_t> fl;
  double kept;
  flag_set(std::uint64_t n, double ratio, device d, std::uint64_t seed = 3)
      : fl(verify::make_flags(n, {verify::pattern::random, ratio}, seed), d),
        kept(static_cast<double>(std::count_if(fl.host.begin(), fl.host.end(), [](auto f) { return f != 0; }))) {}
};

// Times a compaction by flags of `spec` (compact, or compact_unordered for the order-free variants); bytes:
// elements and flags read once, kept elements written once. Null when filtered out or when this machine
// cannot run the spec (a CPU SIMD level it lacks: said once).
template <class T>
row* time_compaction(runner& r, buf<T>& in, flag_set& f, buf<T>& out, const std::string& spec, const std::string& type, double ratio) {
  const device d = r.dev();
  const double moved = static_cast<double>(r.n()) * (sizeof(T) + 1) + f.kept * sizeof(T);
  options o{d, spec, nullptr};
  try {
    if (unordered_only(spec))
      return r.measure("compact_unordered", spec, type, ratio, moved, [&] { sink_int = sluice::compact_unordered(in.span(), f.fl.span(), out.span(), o); });
    return r.measure("compact", label_of(primitive::compact, d, spec), type, ratio, moved,
                     [&] { sink_int = sluice::compact(in.span(), f.fl.span(), out.span(), o); });
  } catch (const error& e) {
    if (e.code() != errc::unsupported) throw;
    static std::map<std::string, bool> told;
    if (!told[spec]) std::printf("  skipped %s: %s\n", spec.c_str(), e.what());
    told[spec] = true;
    return nullptr;
  }
}

// x with `digits` decimals, for the Markdown tables.
inline std::string fmt(double x, int digits = 3) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, x);
  return b;
}

// The suites of variant_suites.cpp. quick, at one size (after run_bench's verification): every registered
// algorithm of d, and the --algo values with parameters, beside the copy; on the CPU the standard library too.
void quick_suite_at(runner& r, device d, std::uint64_t n);
void compaction_suite(std::vector<row>& all, device d);
void scan_reduce_suite(std::vector<row>& all, device d);
// production_suites.cpp: each default beside its peer and the copy at every power of two; radix sort.
void production_suite(std::vector<row>& all, device d);
void sort_suite(std::vector<row>& all, device d);
void runs_suite(std::vector<row>& all, device d);
// contention_suite.cpp: the CPU defaults and their peers idle and beside busy threads on 25% and 50% of the
// processors; its table in `tables`.
void contention_suite(std::vector<row>& all, std::string& tables);

// The suites of paper_suites.cpp: their rows go to `all`, their figures to `figs`, and `tables` is the
// suite's Markdown tables (empty when it has none).
void ratio_suite(std::vector<row>& all, std::vector<figure>& figs, device d);
void size_suite(std::vector<row>& all, std::vector<figure>& figs, device d);
void blocksize_suite(std::vector<row>& all, std::vector<figure>& figs, device d);
void tables_suite(std::vector<row>& all, std::string& tables, device d);
// gl_suite.cpp: the gl variants beside their CUDA namesakes and CUB, Roger Table I and Moreira Fig. 11.
void gl_suite(std::vector<row>& all, std::string& tables, std::vector<figure>& figs);

// bench_output.cpp: the tables printed after a suite, the CSV and the figures.
bool is_yardstick(const row& r);  // the copy and read rows
void print_sort_rates(const std::vector<row>& rows);
void print_against_peer(const std::vector<row>& rows);
void print_cpu_summary(const std::vector<row>& rows);
bool write_csv(const std::vector<row>& rows, const std::filesystem::path& file);
figure quick_figure(const std::vector<row>& rows, device d);
std::vector<figure> size_figures(const std::vector<row>& rows, const std::string& suite, device d);

}  // namespace sluice::tool
