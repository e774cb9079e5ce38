// The contention suite (CPU): each CPU default and its standard-library and oneTBB peers timed idle, then
// beside busy threads that take 25% and 50% of the processors, in one run. A CPU library is judged on its
// users' machines (CI runners, shared servers, a desktop, a GPU program's host threads), not on an idle one.
//
// The load: `busy` threads of this process, each spinning on arithmetic for the whole of its level's
// measurements; the scheduler shares the processors between them and the threads being timed as it would with
// other programs'. Every level has its own copy yardstick (memcpy-mt under the same load) and its rows are
// labelled "<algorithm> @25%" or "@50%"; the table sets each median against the same algorithm's idle one.
#include "bench_core.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#if SLUICE_BENCH_HAS_TBB
#include <execution>
#endif

#include "sluice/cpu/backend.hpp"
#include "verify/busy_threads.hpp"
#include "verify/generators.hpp"

namespace sluice::tool {
namespace {

using verify::busy_threads;
using cpu_backend::processors;

// Every measurement of one load level, on n u32.
void one_level(runner& r, const std::string& at) {
  using u32 = std::uint32_t;
  const std::uint64_t n = r.n();
  const device d = device::cpu;
  const options o{d, "best", nullptr};
  const double b = 4.0 * static_cast<double>(n);
  buf<u32> in(verify::make_values<u32>(n, 1), d), out(std::vector<u32>(n), d), rejected(std::vector<u32>(n), d);
  yardstick(r, d, in, out, "u32");
  read_yardstick(r, d, in);
  auto label = [&](primitive p, const std::string& peer) { return (peer.empty() ? label_of(p, d, "best") : peer) + at; };

  r.measure("reduce", label(primitive::reduce, ""), "u32", -1, b, [&] { sink_int = sluice::reduce(in.span(), u32{0}, sum{}, o); });
  r.measure("inclusive_scan", label(primitive::scan, ""), "u32", -1, 2 * b, [&] { sluice::inclusive_scan(in.span(), out.span(), sum{}, o); });
  // compact_if keeps 10%, partition_if splits at 50%: x below the ratio-quantile of the uniform input.
  const u32 tenth = verify::nth_smallest(in.host, n / 10), half = verify::nth_smallest(in.host, n / 2);
  r.measure("compact_if", label(primitive::compact, ""), "u32", 0.1, 1.1 * b,
            [&] { sink_int = sluice::compact_if(in.span(), out.span(), less_than(tenth), o); });
  r.measure("partition_if", label(primitive::partition, ""), "u32", 0.5, 2 * b,
            [&] { sink_int = sluice::partition(in.span(), out.span(), less_than(half), o); });
  // unique: runs of 8 on average.
  std::vector<u32> keys(n);
  std::mt19937_64 g(8);
  std::uint64_t runs = 0;
  for (std::uint64_t i = 0; i < n; ++runs) {
    const std::uint64_t len = 1 + g() % 15;
    for (std::uint64_t k = 0; k < len && i < n; ++k) keys[i++] = static_cast<u32>((runs + 1) * 2654435761u);
  }
  buf<u32> rin(std::move(keys), d);
  const double ub = b + 4.0 * static_cast<double>(runs);
  r.measure("unique", label(primitive::unique, ""), "u32/run8", -1, ub, [&] { sink_int = sluice::unique(rin.span(), out.span(), o); });
#if SLUICE_BENCH_HAS_TBB
  r.measure("reduce", label(primitive::reduce, "std::reduce(par)"), "u32", -1, b,
            [&] { sink_int = std::reduce(std::execution::par, in.host.begin(), in.host.end(), u32{0}); });
  r.measure("inclusive_scan", label(primitive::scan, "std::inclusive_scan(par)"), "u32", -1, 2 * b,
            [&] { std::inclusive_scan(std::execution::par, in.host.begin(), in.host.end(), out.host.begin()); });
  r.measure("inclusive_scan", label(primitive::scan, "tbb::parallel_scan"), "u32", -1, 2 * b,
            [&] { tbb_inclusive_scan(in.host.data(), out.host.data(), n); });
  r.measure("compact_if", label(primitive::compact, "std::copy_if(par)"), "u32", 0.1, 1.1 * b, [&] {
    sink_int = static_cast<std::size_t>(
        std::copy_if(std::execution::par, in.host.begin(), in.host.end(), out.host.begin(), [&](u32 x) { return x < tenth; }) - out.host.begin());
  });
  r.measure("partition_if", label(primitive::partition, "std::partition_copy(par)"), "u32", 0.5, 2 * b, [&] {
    sink_int = static_cast<std::size_t>(std::partition_copy(std::execution::par, in.host.begin(), in.host.end(), out.host.begin(),
                                                            rejected.host.begin(), [&](u32 x) { return x < half; })
                                            .first -
                                        out.host.begin());
  });
  r.measure("unique", label(primitive::unique, "std::unique_copy(par)"), "u32/run8", -1, ub, [&] {
    sink_int = static_cast<std::size_t>(std::unique_copy(std::execution::par, rin.host.begin(), rin.host.end(), out.host.begin()) - out.host.begin());
  });
#endif
  // The sorts take up to seconds: fewer repetitions, the keys restored before each (untimed).
  const int reps = r.reps();
  r.set_reps(reps < 5 ? reps : 5);
  auto reset = [&] { std::copy(in.host.begin(), in.host.end(), out.host.begin()); };
  r.measure("radix_sort", label(primitive::radix_sort, ""), "u32", -1, 2 * b, [&] { sluice::radix_sort(out.span(), order::ascending, {}, o); },
            reset);
#if SLUICE_BENCH_HAS_TBB
  r.measure("radix_sort", label(primitive::radix_sort, "std::sort(par)"), "u32", -1, 2 * b,
            [&] { std::sort(std::execution::par, out.host.begin(), out.host.end()); }, reset);
#endif
  r.set_reps(reps);
}

}  // namespace

void contention_suite(std::vector<row>& all, std::string& tables) {
  const std::uint64_t n = args && args->n ? args->n : std::uint64_t{1} << 26;
  const int p = processors();
  struct level {
    const char* name;
    int busy;
  };
  // 25% and 50% of the processors, at least one busy thread each.
  const level levels[] = {{"idle", 0}, {"25%", std::max(1, (p + 2) / 4)}, {"50%", std::max(1, (p + 1) / 2)}};
  std::ostringstream t;
  t << "# sluice bench --suite contention: " << machine_name(device::cpu) << ", n = " << n << " u32\n\n"
    << "Each median beside busy threads that keep part of the " << p << " processors busy, and its ratio to the same algorithm's idle median.\n\n"
    << "| primitive | algorithm | idle ms |";
  for (const auto& l : levels)
    if (l.busy) t << " " << l.name << " load (" << l.busy << " busy) ms | x idle |";
  t << "\n|---|---|---|";
  for (const auto& l : levels)
    if (l.busy) t << "---|---|";
  t << "\n";
  std::vector<std::vector<row>> by_level;
  for (const auto& l : levels) {
    std::printf("[contention] %s: %d busy thread%s beside the timed ones\n", l.name, l.busy, l.busy == 1 ? "" : "s");
    runner r(device::cpu, n, 15);
    {
      busy_threads load(l.busy);
      one_level(r, l.busy ? std::string(" @") + l.name : std::string());
    }
    by_level.push_back(r.rows());
    all.insert(all.end(), r.rows().begin(), r.rows().end());
  }
  const auto base = [](const std::string& algo) { return algo.substr(0, algo.find(" @")); };
  for (const row& idle : by_level[0]) {
    if (idle.prim == "copy" || idle.prim == "read") continue;
    t << "| " << idle.prim << " | " << idle.algo << " | " << fmt(idle.ms, 2) << " |";
    for (std::size_t k = 1; k < by_level.size(); ++k) {
      const auto it = std::find_if(by_level[k].begin(), by_level[k].end(),
                                   [&](const row& w) { return w.prim == idle.prim && w.type == idle.type && base(w.algo) == idle.algo; });
      if (it == by_level[k].end()) t << " - | - |";
      else t << " " << fmt(it->ms, 2) << " | " << fmt(it->ms / idle.ms, 2) << " |";
    }
    t << "\n";
  }
  t << "\nThe goals: within 1.5x of idle at 25% load and 2.5x at 50%, and never slower than the std::execution::par or oneTBB peer "
       "under the same load.\n";
  tables = t.str();
}

}  // namespace sluice::tool
