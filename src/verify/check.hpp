// One verification case: a name, and the first thing that went wrong (empty when it passed).
#pragma once
#include <string>

#include "verify/generators.hpp"
#include "verify/staging.hpp"
#include "verify/verify.hpp"

namespace sluice::verify {

struct context {
  const algorithm_info& algo;
  const settings& s;
  std::string_view spec;  // the registry name, or the name with parameters
  tally t;
  options opt() const { return options{s.dev, spec, nullptr}; }
  int max_log2() const { return s.quick ? 16 : 22; }
  std::vector<std::uint64_t> dense() const { return capped(dense_sizes(max_log2())); }
  std::vector<std::uint64_t> sparse() const { return capped(sparse_sizes(max_log2())); }
  std::vector<std::uint64_t> capped(std::vector<std::uint64_t> v) const {
    std::erase_if(v, [&](std::uint64_t n) { return n > s.max_size; });
    return v;
  }
  // Record a case. `problem` empty means it passed.
  void record(const std::string& name, const std::string& problem) {
    if (problem.empty()) {
      ++t.passed;
      return;
    }
    ++t.failed;
    if (s.on_failure)
      s.on_failure(std::string(to_string(algo.prim)) + " " + std::string(spec) + " on " + std::string(to_string(s.dev)) +
                   ", " + name + ": " + problem);
  }
  // Whether settings::sample keeps this case: FNV-1a of the name, modulo the sample.
  bool sampled(const std::string& name) const {
    if (s.sample <= 1) return true;
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char ch : name) h = (h ^ ch) * 1099511628211ull;
    return h % s.sample == 0;
  }
  // Run a case, turning an unexpected exception into a failure.
  template <class F>
  void run_case(const std::string& name, F&& f) {
    if (!sampled(name)) return;
    std::string problem;
    try {
      problem = f();
    } catch (const std::exception& e) {
      problem = std::string("threw: ") + e.what();
    }
    record(name, problem);
  }
};

void verify_reduce(context& c);
void verify_scan(context& c);
void verify_compact(context& c);
void verify_partition(context& c);
void verify_sort(context& c);
void verify_runs(context& c);
void verify_segmented(context& c);
void verify_split(context& c);
void verify_top_k(context& c);
void verify_segmented_sort(context& c);

}  // namespace sluice::verify
