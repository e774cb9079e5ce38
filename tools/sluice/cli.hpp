// The command line of `sluice`: parsing only, apart from running the commands (main.cpp), so that a fuzzer
// can drive it (fuzz/fuzz_cli.cpp). Every bad argument is an arg_error with a one-line message.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "bench.hpp"
#include "sluice/algorithms.hpp"
#include "sluice/options.hpp"

namespace sluice::tool {

struct arg_error {
  std::string message;
};

// A registry entry `sluice verify` runs, with the spec it runs under (its name, or the --algo value with parameters).
struct verify_target {
  const algorithm_info* algo;
  std::string spec;
};

struct verify_args {
  device dev = device::cpu;
  std::vector<std::string> algos;  // --algo, repeatable; none: all
  std::vector<verify_target> targets;  // what the --algo values select on dev, in the order asked, parameters checked
  bool quick = false;
  std::uint64_t max_size = ~std::uint64_t{0};
  std::uint64_t sample = 1;
  std::uint64_t jobs = 1;
};

struct command_line {
  enum kind { none, help, list, verify, bench } what = none;
  const char* help_text = nullptr;  // help: what to print
  verify_args verify_opts;
  bench_args bench_opts;
  bool bench_device_given = false;
};

extern const char* const usage_main;

// The parsed command line (arguments after the program name). `cuda_present` picks bench's default device;
// `cores` verify's default --jobs. Algorithm names, their parameters and bench's --primitive are checked
// here, against the registry, before any work.
// Every distinct registry name on d, in registry order, comma-separated.
std::string names_on(device d);

command_line parse_command_line(const std::vector<std::string>& argv, bool cuda_present, std::uint64_t cores);

}  // namespace sluice::tool
