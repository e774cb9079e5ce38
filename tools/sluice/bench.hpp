#pragma once
#include <cstdint>
#include <string>
#include <vector>

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
// sort; the papers' figures and tables (issue 8): ratio, size, blocksize (GPU only), tables; all: those six
// but quick; compaction (issue 3) and scan-reduce (issue 4): the papers' GPU variants and parameters. On the CPU
// the copy is memcpy-mt, reduce is measured against a read of the same bytes, and production adds at 2^26 (or
// --n) the std and oneTBB peers of issue 7. docs/bench.md describes each suite, the CSV and the figures.
inline const char* const bench_suites[] = {"quick", "production", "sort", "ratio", "size", "blocksize", "tables", "all", "compaction", "scan-reduce", "gl"};

// Runs a suite, prints a table, writes <out_dir>/<suite>-<device>.csv, the suite's figures (<suite>-<device>-<figure>.gp
// and, with gnuplot, .png) and tables (.md); returns the exit status.
int run_bench(const bench_args& a);

}  // namespace sluice::tool
