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
#include "cli.hpp"
#include "sluice/sluice.hpp"
#include "verify/verify.hpp"

namespace {

using namespace sluice;

using tool::arg_error;

// One line per entry and device (cli.cpp, usage_list): fixed fields first, the free-text parameters last.
int cmd_list() {
  for (const auto& al : algorithms())
    for (const device d : {device::cpu, device::cuda, device::gl}) {
      if (!runs_on(al, d)) continue;
      std::printf("%s %s %s %s %s%s%s\n", std::string(to_string(al.prim)).c_str(), std::string(al.name).c_str(),
                  std::string(to_string(d)).c_str(), al.stable ? "stable" : "unordered", is_best(al, d) ? "default" : "-",
                  al.params.empty() ? "" : " params: ", std::string(al.params).c_str());
    }
  return 0;
}

int cmd_verify(const tool::verify_args& v) {
  const device d = v.dev;
  const bool quick = v.quick;
  const std::uint64_t max_size = v.max_size, sample = v.sample, jobs = v.jobs;
  const auto& chosen = v.targets;  // checked while parsing: names and parameters valid on d
  if (!device_available(d)) {
    const std::string why = d == device::gl ? gl_backend::unavailable_reason()
                            : config::has_cuda ? "no CUDA GPU present" : "sluice was built without CUDA";
    std::fprintf(stderr, "sluice verify: the %s device is not available (%s)\n", std::string(to_string(d)).c_str(), why.c_str());
    return 2;
  }
  verify::tally total;
  constexpr std::uint64_t shown_failures = 50;
  std::atomic<std::uint64_t> failures{0};
  verify::settings s{d, quick, [&](const std::string& m) {
                       if (failures++ < shown_failures) std::printf("FAILED %s\n", m.c_str());
                     }};
  s.max_size = max_size;
  s.sample = sample;
  // Each algorithm's cases on one thread (the host builds inputs and references; the GPU is rarely the
  // bottleneck); results are printed in registry order as soon as every earlier one is in.
  std::vector<std::optional<verify::tally>> results(chosen.size());
  std::vector<std::exception_ptr> errors(chosen.size());
  std::atomic<std::size_t> next{0};
  std::size_t printed = 0;
  std::mutex m;
  auto spec_of = [&](std::size_t i) { return chosen[i].spec; };
  auto worker = [&] {
    for (std::size_t i; (i = next++) < chosen.size();) {
      verify::tally t;
      std::exception_ptr err;
      try {
        t = verify::run(*chosen[i].algo, s, spec_of(i));
      } catch (...) {  // verify::run reports each case's own errors; anything else ends the command, on the main thread
        err = std::current_exception();
      }
      std::lock_guard lock(m);
      results[i] = t, errors[i] = err;
      for (; printed < chosen.size() && results[printed]; ++printed) {
        const auto* al = chosen[printed].algo;
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

int cmd_bench(const tool::bench_args& b, bool device_given) {
  if (!device_available(b.dev)) {
    std::fprintf(stderr, "sluice bench: the %s device is not available%s\n", std::string(to_string(b.dev)).c_str(),
                 b.dev == device::gl ? (" (" + gl_backend::unavailable_reason() + ")").c_str() : "");
    return 2;
  }
  if (!device_given && b.dev == device::cpu)
    std::printf("no CUDA GPU %s: running on the CPU\n", config::has_cuda ? "present" : "(sluice built without CUDA)");
  return tool::run_bench(b);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> words(argv + 1, argv + argc);
    const bool bench = !words.empty() && words[0] == "bench";  // only bench asks for the GPU (its default device)
    const auto c = tool::parse_command_line(words, bench && device_available(device::cuda), std::max(1u, std::thread::hardware_concurrency()));
    switch (c.what) {
      case tool::command_line::none: std::fprintf(stderr, "%s", tool::usage_main); return 2;
      case tool::command_line::help: std::printf("%s", c.help_text); return 0;
      case tool::command_line::list: return cmd_list();
      case tool::command_line::verify: return cmd_verify(c.verify_opts);
      case tool::command_line::bench: return cmd_bench(c.bench_opts, c.bench_device_given);
    }
    return 2;
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
