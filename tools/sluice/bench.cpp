// `sluice bench`: times sluice's algorithms (and the peers: CUB on the GPU, std and oneTBB on the CPU) beside
// a copy of the same bytes in the same run, and writes one CSV row per measurement. Each row's fraction is of
// that copy (cudaMemcpy; on the CPU memcpy-mt, a memcpy split over the threads), except CPU reduce rows: those
// are a fraction of the same-run read rate (the "read" row, a sum of the same bytes over the threads), since a
// reduction writes nothing.
//
// This file runs the suites and writes their files; the suites are in variant_suites.cpp (quick, compaction,
// scan-reduce), production_suites.cpp (production, sort), paper_suites.cpp (ratio, size, blocksize, tables)
// and gl_suite.cpp; the runner and the yardsticks in bench_core.cpp; the tables, CSV and figures in
// bench_output.cpp.
#include "bench.hpp"
#include "bench_core.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#if SLUICE_BENCH_HAS_TBB
#include <tbb/global_control.h>
#endif

#include "sluice/sluice.hpp"
#include "timer.hpp"
#include "verify/verify.hpp"

namespace sluice::tool {
namespace {

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
  if (suite == "runs") runs_suite(o.rows, d), print_against_peer(o.rows);
  if (suite == "contention") contention_suite(o.rows, o.tables);
  for (std::uint64_t n : sizes) {
    std::printf("[%s] timing at n = %llu (median of repetitions, after warm-up)\n", std::string(to_string(d)).c_str(),
                static_cast<unsigned long long>(n));
    runner r(d, n, d == device::cuda ? 20 : 5);
    quick_suite_at(r, d, n);
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
  if (a.suite == "dist") {
#if SLUICE_BENCH_HAS_DIST
    if (d != device::cpu) std::printf("suite dist: MPI ranks on the cpu (NCCL ranks need a GPU per rank; this suite does not time them)\n");
    return dist_suite(a);
#else
    std::fprintf(stderr, "sluice bench: suite dist needs sluice::dist, which this build left out (no MPI: libopenmpi-dev)\n");
    return 2;
#endif
  }
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
