// The command line of `sluice`, parsed (cli.hpp).
#include "cli.hpp"

#include <algorithm>
#include <set>
#include <string>

namespace sluice::tool {

const char* const usage_main =
    "usage: sluice <command> [options]\n"
    "\n"
    "commands:\n"
    "  list     one line per algorithm and device: <primitive> <name> <device> <stable|unordered> <default|->\n"
    "  verify   run algorithms against the serial reference; ends with 'N passed, M failed'\n"
    "  bench    time algorithms beside a copy of the same bytes and write CSV\n"
    "\n"
    "'sluice <command> --help' describes each command.\n";

const char* const usage_verify =
    "usage: sluice verify [--device cpu|cuda|gl] [--algo NAME|all] [--quick] [--max-size N] [--sample K] [--jobs N]\n"
    "  --device   where to run (default: cpu); gl: the papers' OpenGL systems on a headless EGL context\n"
    "  --algo     an algorithm name from 'sluice list' (parameters allowed: roger:s=128), or all (default: all);\n"
    "             repeat it for several; with parameters, every entry of that name that takes them\n"
    "  --quick    sizes up to 2^16 instead of 2^22\n"
    "  --max-size skip cases with more than N elements (e.g. under compute-sanitizer)\n"
    "  --sample   run about one case in K, the same ones each run, spread over types, sizes and patterns\n"
    "             (e.g. under racecheck)\n"
    "  --jobs     algorithms verified at once, each on its own host thread (default: the host's cores;\n"
    "             under compute-sanitizer racecheck give 1: with several at once it can lose track of a launch and hang)\n"
    "Results print in the order asked ('all': 'sluice list' order). Exit status 0 only when no case failed; 1 when\n"
    "one did; 2 for a bad argument: an unknown name, or a parameter the variant does not take or a value out of\n"
    "its range (one line naming the valid ones, before any case runs), or a device that is not available.\n";

const char* const usage_bench =
    "usage: sluice bench [--device cpu|cuda|gl] [--suite NAME] [--out DIR] [--algo NAME] [--primitive NAME] [--n N]\n"
    "                    [--max-size N] [--async]\n"
    "  --device   default: cuda when a GPU is present, else cpu\n"
    "  --suite    quick (default): verify, then every algorithm at one size;\n"
    "             ratio: time against the valid ratio at 4M (Roger Fig. 9, Billeter Fig. 3, Moreira Figs. 11-13);\n"
    "             size: time against n, 2^10 .. 2^28 (Roger Figs. 8 and 13, Billeter Fig. 4);\n"
    "             blocksize: time against block size at 4M (Roger Figs. 10 and 11, Moreira Figs. 9 and 10; GPU only);\n"
    "             tables: Roger Table I, Billeter Tables 3, 4 and 5;\n"
    "             production: the defaults beside CUB or std/TBB and the copy, 2^10 .. 2^30 (CPU: 2^26);\n"
    "             sort: radix sort of keys and pairs beside CUB or std::sort; runs: unique, unique_by_key,\n"
    "             run_length_encode, reduce_by_key, inclusive_scan_by_key at average run lengths 1, 8 and 1000, and the\n"
    "             segmented reduce and scan over 10^3 .. 10^7 segments, 2^20 and 2^28, beside CUB or std::unique_copy;\n"
    "             contention (CPU): the CPU defaults and the std/TBB peers idle and beside busy threads on 25% and\n"
    "             50% of the processors, 2^26 u32 (or --n);\n"
    "             all: ratio, size, blocksize, tables,\n"
    "             production and sort; compaction, scan-reduce: the papers' GPU compactions, and their reductions\n"
    "             and scans, with their parameters;\n"
    "             gl: the papers' OpenGL systems (gl device) beside their CUDA namesakes and CUB, 256K .. 16M,\n"
    "             60% valid (Roger Table I), and against the valid ratio (Moreira Fig. 11);\n"
    "             dist (with MPI): sluice::dist on MPI ranks, weak and strong scaling over 1, 2, 4 .. P ranks, n u32\n"
    "             per rank (--n, default 2^24); run it under mpirun: 'mpirun -np 4 sluice bench --suite dist'\n"
    "  --out      folder for the CSV, the figures (PNG, drawn by gnuplot, and their .gp scripts) and the tables\n"
    "             (default: ./sluice-results)\n"
    "  --algo     time only this algorithm (a name from 'sluice list', parameters allowed, best, or a peer's\n"
    "             label: cub-unstable, std::sort, ...) beside the copy; repeat it for several (production: exactly\n"
    "             these, in place of the default and CUB)\n"
    "  --primitive time only this primitive: reduce, inclusive_scan, exclusive_scan, compact, compact_if,\n"
    "             compact_unordered, partition, partition_if, partition_unordered_if, radix_sort, radix_sort_pairs,\n"
    "             unique, unique_by_key, run_length_encode, reduce_by_key, inclusive_scan_by_key, segmented_reduce,\n"
    "             segmented_inclusive_scan (these seven: the quick and runs suites), split (quick and sort), top_k (quick)\n"
    "  --n        quick, production, sort, runs, ratio, blocksize, tables and dist: time at this one size instead of the suite's own\n"
    "             (e.g. 268435456 or 2^28; production on the GPU: 2^28 also times the 64- and 128-bit elements\n"
    "             at 2^27, the goals' table); size: sizes 2^10 .. the largest power of two up to N\n"
    "  --max-size production: skip its sizes of more than N elements (and, below 2^28, the wide elements at 2^27)\n"
    "  --async    production: time the _async forms of reduce, compact and partition (the count or the sum left in\n"
    "             device memory, no host sync; CUB's likewise), labelled '<algorithm> async', in production-<device>-async.csv\n"
    "Unknown names (--algo, --primitive), parameters the variant does not take and values out of range are a\n"
    "one-line error naming the valid ones and exit status 2, before any timing; so is a run in which --algo and\n"
    "--primitive leave nothing of the suite to time (said after its yardsticks).\n"
    "A busy machine: where the three medians of a size's copy yardstick differ by more than 20% of the fastest\n"
    "(and by more than 5 us), or a fixed copy (CPU: 32 MiB, GPU: 256 MiB) timed at a suite's start and end\n"
    "differs by more than 20%, bench prints a 'warning: the machine looks busy' line, marks the progress lines\n"
    "'busy' and sets machine_busy=1 on the affected CSV rows: their fractions of the copy may mislead.\n";

const char* const usage_list =
    "usage: sluice list\n"
    "One line per algorithm and device, fields separated by one space:\n"
    "  <primitive> <name> <device> <stable|unordered> <default|-> [params: <the tunables, described>]\n"
    "'default': the variant a call runs on that device when it names none (options.algorithm \"best\").\n";

std::string names_on(device d) {
  std::string valid;
  std::set<std::string_view> seen;
  for (const auto& al : algorithms())
    if (runs_on(al, d) && seen.insert(al.name).second) valid += (valid.empty() ? "" : ", ") + std::string(al.name);
  return valid;
}

namespace {

// The registry's invalid_argument as the tool's one-line error: without "sluice::<fn>: " and the code.
template <class F>
auto as_arg_error(F&& f) {
  try {
    return f();
  } catch (const error& e) {
    if (e.code() != errc::invalid_argument) throw;
    std::string m = e.what();
    if (m.rfind("sluice::", 0) == 0 && m.find(": ") != std::string::npos) m = m.substr(m.find(": ") + 2);
    if (const auto code = m.rfind(" ["); code != std::string::npos) m.resize(code);
    throw arg_error{m};
  }
}

// The entries named by `spec` ("name" or "name:key=value,...") on d, restricted to `prim` when given, that
// take its parameters; an arg_error when there are none: the name unknown on d (naming every valid one), or
// parameters that no entry of that name takes or whose values are out of range (naming the valid keys and
// values). The list of valid names is `before` + the names on d + `after`.
std::vector<const algorithm_info*> entries_for(device d, const std::string& spec, const algorithm_info* only_prim_of,
                                               const std::string& before, const std::string& after = {}) {
  const std::string_view name = detail::base_name(spec);
  std::vector<const algorithm_info*> named, taking;
  for (const auto& al : algorithms())
    if (runs_on(al, d) && al.name == name && (!only_prim_of || al.prim == only_prim_of->prim)) named.push_back(&al);
  if (named.empty())
    throw arg_error{"unknown algorithm '" + std::string(name) + "' on " + std::string(to_string(d)) + " (valid: " + before + names_on(d) + after + ")"};
  as_arg_error([&] {
    for (const auto* al : named)
      if (takes_params(*al, spec, "list")) check_params(*al, spec, "list"), taking.push_back(al);
    if (!taking.empty()) return 0;
    // One list of tunables among the entries of that name (or none at all): its check names the key and the
    // valid ones ("takes no parameters" where there are none).
    const algorithm_info* with = nullptr;
    bool one_list = true;
    for (const auto* al : named)
      if (!al->tunables.empty()) one_list = one_list && (!with || with->tunables.data() == al->tunables.data()), with = with ? with : al;
    if (one_list) check_params(with ? *with : *named.front(), spec, "list");
    return 0;
  });
  if (taking.empty()) {  // entries of that name with different tunables (one per primitive), none taking every key given
    std::string valid;
    for (const auto* al : named) {
      valid += (valid.empty() ? "" : "; ") + std::string(to_string(al->prim)) + ": ";
      std::string keys;
      for (const auto& t : al->tunables) keys += (keys.empty() ? "" : ", ") + std::string(t.key);
      valid += keys.empty() ? "none" : keys;
    }
    throw arg_error{"algorithm '" + spec + "': no " + std::string(name) + " on " + std::string(to_string(d)) +
                    " takes these parameters together (valid: " + valid + ")"};
  }
  return taking;
}

bool has_name(device d, std::string_view name) {
  for (const auto& al : algorithms())
    if (runs_on(al, d) && al.name == name) return true;
  return false;
}

// verify's --algo values as the registry entries they select on d, in the order asked.
std::vector<verify_target> verify_targets(device d, const std::vector<std::string>& algos) {
  std::vector<verify_target> out;
  for (const auto& algo : algos) {
    if (algo == "all") {
      for (const auto& al : algorithms())
        if (runs_on(al, d)) out.push_back({&al, std::string(al.name)});
      continue;
    }
    for (const auto* al : entries_for(d, algo, nullptr, "all, ")) out.push_back({al, algo});
  }
  return out;
}

// bench's --algo and --primitive, checked on the device the suite runs on: a name is "best", a peer's label,
// or a registry name on that device (the gl suite: also on cuda, its CUDA namesakes and CUB) whose parameters
// it takes; with --primitive, one that has a variant of that primitive.
void check_bench_filters(const bench_args& b) {
  const bench_primitive* bp = nullptr;
  if (!b.only_primitive.empty()) {
    std::string valid;
    for (const auto& p : bench_primitives) {
      if (b.only_primitive == p.name) bp = &p;
      valid += (valid.empty() ? "" : ", ") + std::string(p.name);
    }
    if (!bp) throw arg_error{"unknown primitive '" + b.only_primitive + "' (valid: " + valid + ")"};
  }
  std::vector<std::string> peers;
  if (b.dev == device::cpu) peers.assign(std::begin(cpu_peer_labels), std::end(cpu_peer_labels));
  if (b.dev == device::cuda) peers.assign(std::begin(cuda_peer_labels), std::end(cuda_peer_labels));
  std::string peer_list;
  for (const auto& p : peers) peer_list += ", " + p;
  for (const auto& algo : b.only_algos) {
    if (algo == "best" || std::find(peers.begin(), peers.end(), algo) != peers.end()) continue;
    if (detail::base_name(algo) == "best") throw arg_error{"algorithm '" + algo + "' takes no parameters"};
    const device d = b.dev == device::gl && !has_name(device::gl, detail::base_name(algo)) ? device::cuda : b.dev;
    const algorithm_info* of_prim = nullptr;
    if (bp) {  // the name must have a variant of that primitive (any, if it has none of it: the error says so)
      for (const auto& al : algorithms())
        if (runs_on(al, d) && al.name == detail::base_name(algo) && al.prim == bp->prim) of_prim = &al;
      if (has_name(d, detail::base_name(algo)) && !of_prim)
        throw arg_error{"algorithm '" + std::string(detail::base_name(algo)) + "' has no " + std::string(to_string(bp->prim)) + " variant on " +
                        std::string(to_string(d)) + " (--primitive " + b.only_primitive + ")"};
    }
    (void)entries_for(d, algo, of_prim, "best, ", peer_list.empty() ? "" : "; peers:" + peer_list.substr(1));
  }
}

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
  if (s == "gl") return device::gl;
  throw arg_error{"unknown device '" + s + "' (valid: cpu, cuda, gl)"};
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

verify_args parse_verify(args& a, std::uint64_t cores, const char*& help) {
  verify_args v;
  v.jobs = cores ? cores : 1;
  while (a.more()) {
    const auto f = a.next();
    if (f == "--help" || f == "-h") {
      help = usage_verify;
      return v;
    }
    if (f == "--device") v.dev = parse_device(a.value(f));
    else if (f == "--algo") v.algos.push_back(a.value(f));
    else if (f == "--quick") v.quick = true;
    else if (f == "--max-size") v.max_size = parse_size(f, a.value(f));
    else if (f == "--sample") {
      v.sample = parse_size(f, a.value(f));
      if (v.sample == 0) throw arg_error{"--sample must be at least 1"};
    }
    else if (f == "--jobs") {
      v.jobs = parse_size(f, a.value(f));
      if (v.jobs == 0) throw arg_error{"--jobs must be at least 1"};
    } else throw arg_error{"unknown option '" + f + "' for verify (valid: --device, --algo, --quick, --max-size, --sample, --jobs, --help)"};
  }
  if (v.algos.empty()) v.algos.push_back("all");
  v.targets = verify_targets(v.dev, v.algos);
  return v;
}

bench_args parse_bench(args& a, bool cuda_present, bool& device_given, const char*& help) {
  bench_args b{cuda_present ? device::cuda : device::cpu, "quick", "sluice-results"};
  while (a.more()) {
    const auto f = a.next();
    if (f == "--help" || f == "-h") {
      help = usage_bench;
      return b;
    }
    if (f == "--device") b.dev = parse_device(a.value(f)), device_given = true;
    else if (f == "--suite") b.suite = a.value(f);
    else if (f == "--out") b.out_dir = a.value(f);
    else if (f == "--algo") b.only_algos.push_back(a.value(f));
    else if (f == "--primitive") b.only_primitive = a.value(f);
    else if (f == "--n") {
      b.n = parse_size(f, a.value(f));
      if (b.n == 0) throw arg_error{"--n must be at least 1"};
    } else if (f == "--max-size") {
      b.max_size = parse_size(f, a.value(f));
      if (b.max_size == 0) throw arg_error{"--max-size must be at least 1"};
    } else if (f == "--async") b.async_forms = true;
    else throw arg_error{"unknown option '" + f + "' for bench (valid: --device, --suite, --out, --algo, --primitive, --n, --max-size, --async, --help)"};
  }
  bool known = false;
  for (const char* s : bench_suites) known = known || b.suite == s;
  if (!known)
    throw arg_error{"unknown suite '" + b.suite + "' (valid: quick, production, sort, runs, contention, ratio, size, blocksize, tables, all, compaction, scan-reduce, gl, dist)"};
  if (b.async_forms && b.suite != "production") throw arg_error{"--async applies to the production suite only (--suite production)"};
  if (b.max_size != ~std::uint64_t{0} && b.suite != "production")
    throw arg_error{"--max-size applies to the production suite only (--suite production)"};
  // The gl suite runs on the gl device (with the CUDA peers when a GPU is present); the gl device runs only it.
  if (b.suite == "gl") b.dev = device::gl;
  else if (b.dev == device::gl) throw arg_error{"the gl device runs the suite 'gl' only (--suite gl)"};
  if (b.suite == "contention" && !device_given) b.dev = device::cpu;
  if (b.suite == "contention" && b.dev != device::cpu) throw arg_error{"suite 'contention' times the CPU under load: use --device cpu"};
  if (b.dev == device::cpu && (b.suite == "compaction" || b.suite == "scan-reduce" || b.suite == "blocksize"))
    throw arg_error{"suite '" + b.suite + "' times the papers' GPU variants: use --device cuda"};
  check_bench_filters(b);
  return b;
}

}  // namespace

command_line parse_command_line(const std::vector<std::string>& argv, bool cuda_present, std::uint64_t cores) {
  args a{argv};
  command_line c;
  if (!a.more()) return c;
  const auto cmd = a.next();
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    c.what = command_line::help, c.help_text = usage_main;
    return c;
  }
  if (cmd == "list") {
    while (a.more()) {
      const auto f = a.next();
      if (f == "--help" || f == "-h") {
        c.what = command_line::help, c.help_text = usage_list;
        return c;
      }
      throw arg_error{"unknown option '" + f + "' for list (valid: --help)"};
    }
    c.what = command_line::list;
    return c;
  }
  if (cmd == "verify" || cmd == "bench") {
    const char* help = nullptr;
    if (cmd == "verify") c.verify_opts = parse_verify(a, cores, help), c.what = command_line::verify;
    else c.bench_opts = parse_bench(a, cuda_present, c.bench_device_given, help), c.what = command_line::bench;
    if (help) c.what = command_line::help, c.help_text = help;
    return c;
  }
  throw arg_error{"unknown command '" + cmd + "' (valid: list, verify, bench)"};
}

}  // namespace sluice::tool
