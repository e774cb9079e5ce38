// sluice: list, verify and benchmark the algorithms of the sluice library.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench.hpp"
#include "sluice/sluice.hpp"
#include "verify/verify.hpp"

namespace {

using namespace sluice;

const char* const usage_main =
    "usage: sluice <command> [options]\n"
    "\n"
    "commands:\n"
    "  list     one line per algorithm: <primitive> <name> <devices> <stable|unordered>\n"
    "  verify   run algorithms against the serial reference; ends with 'N passed, M failed'\n"
    "  bench    time algorithms beside a copy of the same bytes and write CSV\n"
    "\n"
    "'sluice <command> --help' describes each command.\n";

const char* const usage_verify =
    "usage: sluice verify [--device cpu|cuda] [--algo NAME|all] [--quick] [--max-size N] [--jobs N]\n"
    "  --device   where to run (default: cpu)\n"
    "  --algo     an algorithm name from 'sluice list' (parameters allowed: roger:s=128), or all (default: all);\n"
    "             repeat it for several\n"
    "  --quick    sizes up to 2^16 instead of 2^22\n"
    "  --max-size skip cases with more than N elements (e.g. under compute-sanitizer)\n"
    "  --jobs     algorithms verified at once, each on its own host thread (default: the host's cores)\n"
    "Results print in 'sluice list' order. Exit status 0 only when no case failed.\n";

const char* const usage_bench =
    "usage: sluice bench [--device cpu|cuda] [--suite quick|production|sort|compaction|scan-reduce] [--out DIR]\n"
    "                    [--algo NAME] [--primitive NAME] [--n N]\n"
    "  --device   default: cuda when a GPU is present, else cpu\n"
    "  --suite    quick (default: verify, then time at one size), production (the defaults beside CUB or std and the copy, 2^10 .. 2^30),\n"
    "             sort (radix sort of u32, f32 and u64 keys and of pairs beside CUB, 2^20 .. 2^28, Billeter Table 5 at 4M),\n"
    "             compaction or scan-reduce (the papers' GPU variants and parameters, issues 3 and 4)\n"
    "  --out      folder for the CSV (default: ./sluice-results)\n"
    "  --algo     time only this algorithm (a name from 'sluice list', parameters allowed) beside the copy;\n"
    "             repeat it for several (production: exactly these, in place of the default and CUB)\n"
    "  --primitive time only this primitive: reduce, inclusive_scan, exclusive_scan, compact, compact_if,\n"
    "             compact_unordered, partition, partition_if, radix_sort, radix_sort_pairs\n"
    "  --n        quick, production and sort: time at this one size (e.g. 268435456 or 2^28)\n";

const char* const usage_list = "usage: sluice list\nOne line per algorithm: <primitive> <name> <devices> <stable|unordered>\n";

struct arg_error {
  std::string message;
};

// Flags of the form --name value; returns false when args are exhausted.
struct args {
  std::vector<std::string> v;
  std::size_t i = 0;
  bool more() const { return i < v.size(); }
  std::string next() { return v[i++]; }
  std::string value(const std::string& flag) {
    if (!more()) throw arg_error{flag + " needs a value"};
    return next();
  }
};

device parse_device(const std::string& s) {
  if (s == "cpu") return device::cpu;
  if (s == "cuda") return device::cuda;
  throw arg_error{"unknown device '" + s + "' (valid: cpu, cuda)"};
}

std::uint64_t parse_size(const std::string& flag, const std::string& v) {
  if (v.size() > 2 && v.compare(0, 2, "2^") == 0) {  // a power of two: 2^28
    const std::uint64_t e = parse_size(flag, v.substr(2));
    if (e > 62) throw arg_error{flag + ": 2^" + v.substr(2) + " is too large"};
    return std::uint64_t{1} << e;
  }
  std::size_t used = 0;
  unsigned long long x = 0;
  try {
    x = std::stoull(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != v.size() || v[0] == '-') throw arg_error{flag + " needs a non-negative integer, not '" + v + "'"};
  return x;
}

int cmd_list(args& a) {
  while (a.more()) {
    const auto f = a.next();
    if (f == "--help" || f == "-h") return std::printf("%s", usage_list), 0;
    throw arg_error{"unknown option '" + f + "' for list (valid: --help)"};
  }
  for (const auto& al : algorithms()) {
    std::string devs = al.on_cpu ? "cpu" : "";
    if (al.on_cuda) devs += devs.empty() ? "cuda" : ",cuda";
    std::printf("%s %s %s %s%s%s\n", std::string(to_string(al.prim)).c_str(), std::string(al.name).c_str(), devs.c_str(),
                al.stable ? "stable" : "unordered", al.params.empty() ? "" : " params: ", std::string(al.params).c_str());
  }
  return 0;
}

int cmd_verify(args& a) {
  device d = device::cpu;
  std::vector<std::string> algos;  // --algo, repeatable; none: all
  bool quick = false;
  std::uint64_t max_size = ~std::uint64_t{0};
  std::uint64_t jobs = std::max(1u, std::thread::hardware_concurrency());
  while (a.more()) {
    const auto f = a.next();
    if (f == "--help" || f == "-h") return std::printf("%s", usage_verify), 0;
    if (f == "--device") d = parse_device(a.value(f));
    else if (f == "--algo") algos.push_back(a.value(f));
    else if (f == "--quick") quick = true;
    else if (f == "--max-size") max_size = parse_size(f, a.value(f));
    else if (f == "--jobs") {
      jobs = parse_size(f, a.value(f));
      if (jobs == 0) throw arg_error{"--jobs must be at least 1"};
    } else throw arg_error{"unknown option '" + f + "' for verify (valid: --device, --algo, --quick, --max-size, --jobs, --help)"};
  }
  if (algos.empty()) algos.push_back("all");
  // Each chosen variant with the spec it runs under (its name, or the --algo value with parameters).
  std::vector<std::pair<const algorithm_info*, std::string>> chosen;
  std::string valid;
  for (const auto& al : algorithms())
    if (runs_on(al, d) && valid.find(std::string(al.name)) == std::string::npos) valid += ", " + std::string(al.name);
  for (const auto& algo : algos) {
    bool matched = false;
    const algorithm_info* named = nullptr;  // with parameters, only the entries of that name that take them
    for (const auto& al : algorithms()) {
      if (!runs_on(al, d) || (algo != "all" && detail::base_name(algo) != al.name)) continue;
      named = &al;
      if (algo.find(':') != std::string::npos && al.params.empty()) continue;
      chosen.emplace_back(&al, algo == "all" ? std::string(al.name) : algo);
      matched = true;
    }
    if (!matched && named) (void)find_algorithm(named->prim, d, algo, "verify");  // names the parameter error
    if (!matched) throw arg_error{"unknown algorithm '" + algo + "' on " + std::string(to_string(d)) + " (valid: all" + valid + ")"};
  }
  if (!device_available(d)) {
    std::fprintf(stderr, "sluice verify: the %s device is not available (%s)\n", std::string(to_string(d)).c_str(),
                 config::has_cuda ? "no CUDA GPU present" : "sluice was built without CUDA");
    return 2;
  }
  verify::tally total;
  for (const auto& [al, spec] : chosen)  // a parameter on a variant without any: one clear error, not one per case
    if (spec != al->name) (void)find_algorithm(al->prim, d, spec, "verify");
  constexpr std::uint64_t shown_failures = 50;
  std::atomic<std::uint64_t> failures{0};
  verify::settings s{d, quick, [&](const std::string& m) {
                       if (failures++ < shown_failures) std::printf("FAILED %s\n", m.c_str());
                     }};
  s.max_size = max_size;
  // Each algorithm's cases on one thread (the host builds inputs and references; the GPU is rarely the
  // bottleneck); results are printed in registry order as soon as every earlier one is in.
  std::vector<std::optional<verify::tally>> results(chosen.size());
  std::vector<std::exception_ptr> errors(chosen.size());
  std::atomic<std::size_t> next{0};
  std::size_t printed = 0;
  std::mutex m;
  auto spec_of = [&](std::size_t i) { return chosen[i].second; };
  auto worker = [&] {
    for (std::size_t i; (i = next++) < chosen.size();) {
      verify::tally t;
      std::exception_ptr err;
      try {
        t = verify::run(*chosen[i].first, s, spec_of(i));
      } catch (...) {  // verify::run reports each case's own errors; anything else ends the command, on the main thread
        err = std::current_exception();
      }
      std::lock_guard lock(m);
      results[i] = t, errors[i] = err;
      for (; printed < chosen.size() && results[printed]; ++printed) {
        const auto* al = chosen[printed].first;
        const auto& r = *results[printed];
        std::printf("%-18s %-18s %-5s %llu passed, %llu failed\n", std::string(to_string(al->prim)).c_str(),
                    spec_of(printed).c_str(), std::string(to_string(d)).c_str(), static_cast<unsigned long long>(r.passed),
                    static_cast<unsigned long long>(r.failed));
        std::fflush(stdout);
        total += r;
      }
    }
  };
  std::vector<std::thread> pool;
  for (std::uint64_t j = 0; j < std::min<std::uint64_t>(jobs, chosen.size()); ++j) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  if (failures > shown_failures)
    std::printf("(%llu more failed cases not shown)\n", static_cast<unsigned long long>(failures - shown_failures));
  std::printf("%llu passed, %llu failed\n", static_cast<unsigned long long>(total.passed), static_cast<unsigned long long>(total.failed));
  return total.failed == 0 ? 0 : 1;
}

int cmd_bench(args& a) {
  tool::bench_args b{device_available(device::cuda) ? device::cuda : device::cpu, "quick", "sluice-results"};
  bool device_given = false;
  while (a.more()) {
    const auto f = a.next();
    if (f == "--help" || f == "-h") return std::printf("%s", usage_bench), 0;
    if (f == "--device") b.dev = parse_device(a.value(f)), device_given = true;
    else if (f == "--suite") b.suite = a.value(f);
    else if (f == "--out") b.out_dir = a.value(f);
    else if (f == "--algo") b.only_algos.push_back(a.value(f));
    else if (f == "--primitive") b.only_primitive = a.value(f);
    else if (f == "--n") {
      b.n = parse_size(f, a.value(f));
      if (b.n == 0) throw arg_error{"--n must be at least 1"};
    } else throw arg_error{"unknown option '" + f + "' for bench (valid: --device, --suite, --out, --algo, --primitive, --n, --help)"};
  }
  bool known = false;
  for (const char* s : tool::bench_suites) known = known || b.suite == s;
  if (!known) throw arg_error{"unknown suite '" + b.suite + "' (valid: quick, production, sort, compaction, scan-reduce)"};
  if (b.dev == device::cpu && (b.suite == "compaction" || b.suite == "scan-reduce"))
    throw arg_error{"suite '" + b.suite + "' times the papers' GPU variants: use --device cuda"};
  if (!device_available(b.dev)) {
    std::fprintf(stderr, "sluice bench: the %s device is not available\n", std::string(to_string(b.dev)).c_str());
    return 2;
  }
  if (!device_given && b.dev == device::cpu)
    std::printf("no CUDA GPU %s: running on the CPU\n", config::has_cuda ? "present" : "(sluice built without CUDA)");
  return tool::run_bench(b);
}

}  // namespace

int main(int argc, char** argv) {
  args a{std::vector<std::string>(argv + 1, argv + argc)};
  try {
    if (!a.more()) {
      std::fprintf(stderr, "%s", usage_main);
      return 2;
    }
    const auto cmd = a.next();
    if (cmd == "--help" || cmd == "-h" || cmd == "help") return std::printf("%s", usage_main), 0;
    if (cmd == "list") return cmd_list(a);
    if (cmd == "verify") return cmd_verify(a);
    if (cmd == "bench") return cmd_bench(a);
    throw arg_error{"unknown command '" + cmd + "' (valid: list, verify, bench)"};
  } catch (const arg_error& e) {
    std::fprintf(stderr, "sluice: %s\n", e.message.c_str());
    return 2;
  } catch (const sluice::error& e) {
    std::fprintf(stderr, "sluice: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sluice: %s\n", e.what());
    return 1;
  }
}
