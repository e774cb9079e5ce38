#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sluice/algorithms.hpp"
#include "sluice/options.hpp"

namespace sluice::tool {

struct bench_args {
  device dev;
  std::string suite;  // one of bench_suites
  std::string out_dir;
  std::vector<std::string> only_algos;  // --algo (repeatable): time only these algorithms (name or name:params) and the copy
  std::string only_primitive;  // --primitive: time only this primitive ("reduce", "inclusive_scan", "compact", ...)
  std::uint64_t n = 0;         // --n: quick and production at this one size instead of their own
  std::uint64_t max_size = ~std::uint64_t{0};  // --max-size: production skips its sizes of more elements
  bool async_forms = false;    // --async: production times the _async forms (count / sum left in device memory)
};

// quick: verify, then every registered algorithm at one size; production: the defaults beside CUB or std/TBB;
// sort; runs: unique, unique_by_key and run_length_encode at three run lengths beside CUB or std::unique_copy;
// the papers' figures and tables: ratio, size, blocksize (GPU only), tables; all: those six but quick;
// compaction and scan-reduce: the papers' GPU variants and parameters; dist: sluice::dist on MPI ranks, under
// mpirun (dist_suite.cpp). On the CPU the copy is memcpy-mt, reduce
// is measured against a read of the same bytes, and production adds at 2^26 (or --n) the std and oneTBB peers.
// docs/guide/benchmarking.md describes each suite, the CSV and the figures.
inline const char* const bench_suites[] = {"quick", "production", "sort", "runs", "contention", "ratio", "size", "blocksize", "tables", "all", "compaction", "scan-reduce", "gl", "dist"};

// The primitives of the rows (--primitive), each with the registry primitive whose variants it times.
struct bench_primitive {
  const char* name;
  primitive prim;
};
inline constexpr bench_primitive bench_primitives[] = {
    {"reduce", primitive::reduce},       {"inclusive_scan", primitive::scan},       {"exclusive_scan", primitive::scan},
    {"compact", primitive::compact},     {"compact_if", primitive::compact},        {"compact_unordered", primitive::compact_unordered},
    {"partition", primitive::partition}, {"partition_if", primitive::partition},    {"partition_unordered_if", primitive::partition_unordered},
    {"radix_sort", primitive::radix_sort}, {"radix_sort_pairs", primitive::radix_sort}, {"unique", primitive::unique},
    {"unique_by_key", primitive::unique},  {"run_length_encode", primitive::run_length_encode}, {"reduce_by_key", primitive::reduce_by_key},
    {"inclusive_scan_by_key", primitive::scan_by_key}, {"segmented_reduce", primitive::segmented_reduce},
    {"segmented_inclusive_scan", primitive::segmented_scan}, {"split", primitive::split}, {"top_k", primitive::top_k},
    {"segmented_radix_sort", primitive::segmented_radix_sort}};

// The peers' rows, which --algo selects by these labels too: CUB's own partition on the GPU; the standard
// library and oneTBB on the CPU.
inline const char* const cuda_peer_labels[] = {"cub-unstable", "cub-sort", "cub-segmented"};
inline const char* const cpu_peer_labels[] = {"std::reduce", "std::reduce(par)", "std::inclusive_scan", "std::inclusive_scan(par)",
                                              "tbb::parallel_scan", "std::copy_if", "std::copy_if(par)", "std::partition_copy",
                                              "std::sort", "std::sort(par)", "std::unique_copy", "std::nth_element",
                                              "std::sort-segments"};

// When the machine looks busy (said in the progress, the summary and the CSV's machine_busy column): the three
// medians of a size's copy yardstick differ by more than busy_spread of the fastest (and by more than
// busy_floor_ms, the timers' jitter at small sizes), or a fixed copy timed at the start and at the end of a
// suite moved by more than busy_spread.
inline constexpr double busy_spread = 0.20;
inline constexpr double busy_floor_ms = 0.005;
// The first rule: the fastest and the slowest of a yardstick's medians.
inline bool spread_looks_busy(double fastest_ms, double slowest_ms) {
  const double spread = slowest_ms - fastest_ms;
  return spread > busy_spread * fastest_ms && spread > busy_floor_ms;
}
// The second: the fixed copy at a suite's start and end (0: not timed).
inline bool drift_looks_busy(double start_ms, double end_ms) {
  const double lo = start_ms < end_ms ? start_ms : end_ms, hi = start_ms < end_ms ? end_ms : start_ms;
  return lo > 0 && hi - lo > busy_spread * lo;
}

// Runs a suite, prints a table, writes <out_dir>/<suite>-<device>.csv, the suite's figures (<suite>-<device>-<figure>.gp
// and, with gnuplot, .png) and tables (.md); returns the exit status.
int run_bench(const bench_args& a);

// The dist suite (dist_suite.cpp, in a build with MPI): weak and strong scaling of sluice::dist over the job's
// ranks; rank 0 prints and writes the files.
int dist_suite(const bench_args& a);

}  // namespace sluice::tool
