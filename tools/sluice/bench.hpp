#pragma once
#include <string>

#include "sluice/options.hpp"

namespace sluice::tool {

struct bench_args {
  device dev;
  std::string suite;  // quick | production
  std::string out_dir;
};

inline const char* const bench_suites[] = {"quick", "production"};

// Runs a suite, prints a table, writes <out_dir>/<suite>-<device>.csv; returns the exit status.
int run_bench(const bench_args& a);

}  // namespace sluice::tool
