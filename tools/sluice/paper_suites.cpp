// The suites of `sluice bench` that reproduce the papers' figures and tables: ratio, size,
// blocksize and tables. Each figure is titled after the paper figure it redraws;
// docs/guide/benchmarking.md lists them and docs/results/h100/figures.md sets each beside the paper's claim.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <sstream>

#include "bench_core.hpp"
#include "timer.hpp"
#include "verify/generators.hpp"


namespace sluice::tool {
namespace {

using u32 = std::uint32_t;
using b128 = detail::storage<16, 16>;
// The papers' 4M elements, or --n (a smaller n keeps the tests quick).
std::uint64_t paper_n() { return args && args->n ? args->n : std::uint64_t{1} << 22; }

// The valid ratios of the ratio suite: tenths, and the sparse and dense ends where Moreira's Jumping Jack
// changes behaviour (above 95% invalid).
const std::vector<double> sweep_ratios = {0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 1};

// std::copy_if by the same flags (CPU): the serial standard library beside the compactions; the same bytes.
const row* time_std_copy_if(runner& r, buf<u32>& in, flag_set& f, buf<u32>& out, double ratio) {
  return r.measure("compact", "std::copy_if", "u32", ratio, static_cast<double>(r.n()) * (sizeof(u32) + 1) + f.kept * sizeof(u32),
                   [&] { sink_int = std_copy_if_flags(in.host, f.fl.host, out.host); });
}

// The step times of one run of a multi-step compaction (the step recorder, GPU only), as rows named
// "<spec> [<step>]" with the step's median milliseconds and no rate; added to figure f as "<prefix><step>".
template <class T>
std::vector<std::pair<std::string, double>> time_steps(runner& r, buf<T>& in, flag_set& f, buf<T>& out, const std::string& spec,
                                                        double ratio, int block_size) {
  const std::string prim = unordered_only(spec) ? "compact_unordered" : "compact";
  if (!wanted(prim, spec)) return {};
  options o{r.dev(), spec, nullptr};
  const auto steps = time_steps_median(r.reps(), [&] {
    if (prim == "compact") sink_int = sluice::compact(in.span(), f.fl.span(), out.span(), o);
    else sink_int = sluice::compact_unordered(in.span(), f.fl.span(), out.span(), o);
  });
  for (const auto& [step, ms] : steps) {
    r.rows().push_back({prim, spec + " [" + step + "]", "cuda", "u32", r.n(), ratio, block_size, ms, -1, 0, r.reps()});
    std::printf("[%7.1f s] %-18s %-34s n=%-11llu ratio=%-5s %10.4f ms (step)\n", elapsed_s(), prim.c_str(), (spec + " [" + step + "]").c_str(),
                static_cast<unsigned long long>(r.n()), std::to_string(ratio).substr(0, 4).c_str(), ms);
  }
  return steps;
}

void add_rows(std::vector<row>& all, runner& r) { all.insert(all.end(), r.rows().begin(), r.rows().end()); }

// ---------------------------------------------------------------------------------------------------------
// ratio: time against the ratio of valid elements at 4M u32.

void ratio_cuda(std::vector<row>& all, std::vector<figure>& figs) {
  const device d = device::cuda;
  figure roger{"roger-fig9", "Roger et al. 2007, Fig. 9: compaction of 4M u32 against the ratio of valid elements", "valid elements (%)",
               "time (ms)"};
  figure billeter{"billeter-fig3",
                  "Billeter et al. 2009, Fig. 3: compaction of 4M (2^22) u32 against the ratio of valid elements, by compactSIMD and output mode",
                  "valid elements (%)", "time (ms)"};
  figure moreira{"moreira-fig11", "Moreira et al. 2009, Fig. 11: compaction of a 4M stream against the density of invalid elements, block size 256",
                 "invalid elements (%)", "time (ms)"};
  figure moreira_steps{"moreira-fig12-13",
                       "Moreira et al. 2009, Figs. 12 and 13: intra-block compaction (the in-block pass alone) of a 4M stream against the density of invalid elements",
                       "invalid elements (%)", "time (ms)"};
  const std::vector<std::pair<std::string, std::string>> roger_series = {
      {"roger", "roger s=64, Blelloch in-block sum (Roger)"},
      {"roger:scan=hillis-steele", "roger s=64, Hillis-Steele in-block sum"},
      {"decoupled-lookback", "decoupled-lookback (sluice default)"},
      {"cub", "cub::DeviceSelect::Flagged"}};
  const std::vector<std::pair<std::string, std::string>> billeter_series = {
      {"billeter", "selective, POPC (Billeter's choice)"},
      {"billeter:simd=prefix", "selective, prefix sum"},
      {"billeter-staged", "staged, POPC"},
      {"billeter-staged:simd=prefix", "staged, prefix sum"},
      {"billeter-scattered", "scattered, POPC"},
      {"billeter-scattered:simd=prefix", "scattered, prefix sum"},
      {"billeter-buffered", "buffered, POPC"},
      {"billeter-buffered:simd=prefix", "buffered, prefix sum"},
      {"decoupled-lookback", "decoupled-lookback (sluice default)"},
      {"cub", "cub::DeviceSelect::Flagged"}};
  const std::vector<std::pair<std::string, std::string>> moreira_series = {
      {"jumping-jack:s=256", "Jumping Jack (bs=256)"},
      {"roger:s=256", "Horn's binary search in blocks (bs=256; roger:s=256)"},
      {"horn", "Horn 2005 over the whole stream (horn)"}};
  std::printf("[ratio] 4M u32, valid ratio 0 .. 1: Roger Fig. 9, Billeter Fig. 3, Moreira Figs. 11-13\n");
  runner r(d, paper_n(), 20);
  buf<u32> in(random_elements<u32>(paper_n()), d), out(std::vector<u32>(paper_n()), d);
  yardstick(r, d, in, out, "u32");
  std::map<std::string, double> done;  // one measurement per spec and ratio serves every figure that shows it
  for (double ratio : sweep_ratios) {
    flag_set f(paper_n(), ratio, d);
    std::map<std::string, double> ms;
    auto time = [&](const std::string& spec) -> const double* {
      if (!ms.count(spec)) {
        const row* w = time_compaction(r, in, f, out, spec, "u32", ratio);
        if (!w) return nullptr;
        ms[spec] = w->ms;
      }
      return &ms[spec];
    };
    for (const auto& [spec, label] : roger_series)
      if (const double* t = time(spec)) roger.add(label, ratio * 100, *t);
    for (const auto& [spec, label] : billeter_series)
      if (const double* t = time(spec)) billeter.add(label, ratio * 100, *t);
    for (const auto& [spec, label] : moreira_series)
      if (const double* t = time(spec)) moreira.add(label, (1 - ratio) * 100, *t);
    for (int s : {32, 256})
      for (const char* v : {"jumping-jack", "roger"}) {
        const std::string spec = std::string(v) + ":s=" + std::to_string(s);
        for (const auto& [step, t] : time_steps(r, in, f, out, spec, ratio, s))
          if (step == "in-block pass")
            moreira_steps.add(std::string(v == std::string("roger") ? "Horn's search" : "Jumping Jack") + " (bs=" + std::to_string(s) + ")",
                              (1 - ratio) * 100, t);
      }
  }
  add_rows(all, r);
  for (auto* f : {&roger, &billeter, &moreira, &moreira_steps}) figs.push_back(*f);
}

// The CPU has Billeter's P x S model at its SIMD levels, its serial loop and std::copy_if.
void ratio_cpu(std::vector<row>& all, std::vector<figure>& figs) {
  const device d = device::cpu;
  figure billeter{"billeter-fig3", "Billeter et al. 2009, Fig. 3 on the CPU: compaction of 4M (2^22) u32 against the ratio of valid elements",
                  "valid elements (%)", "time (ms)"};
  std::printf("[ratio] 4M u32 on the CPU, valid ratio 0 .. 1: Billeter Fig. 3\n");
  runner r(d, paper_n(), 10);
  buf<u32> in(random_elements<u32>(paper_n()), d), out(std::vector<u32>(paper_n()), d);
  yardstick(r, d, in, out, "u32");
  const std::vector<std::pair<std::string, std::string>> series = {{"billeter", "billeter, P threads x S lanes (sluice default)"},
                                                                   {"billeter:simd=avx2", "billeter, AVX2"},
                                                                   {"billeter:simd=scalar", "billeter, portable C++"},
                                                                   {"billeter:threads=1", "billeter, one thread"},
                                                                   {"serial", "serial"}};
  for (double ratio : sweep_ratios) {
    flag_set f(paper_n(), ratio, d);
    for (const auto& [spec, label] : series)
      if (const row* w = time_compaction(r, in, f, out, spec, "u32", ratio)) billeter.add(label, ratio * 100, w->ms);
    if (const row* w = time_std_copy_if(r, in, f, out, ratio)) billeter.add("std::copy_if", ratio * 100, w->ms);
  }
  add_rows(all, r);
  figs.push_back(billeter);
}

// ---------------------------------------------------------------------------------------------------------
// size: time against n.

// The size suite's largest power of two: `top`, or the largest at most --n.
int top_power(int top) {
  if (!args || !args->n) return top;
  int k = 0;
  while (k < 62 && (std::uint64_t{2} << k) <= args->n) ++k;
  return std::max(k, 10);
}

std::vector<std::uint64_t> powers(int lo, int hi) {
  std::vector<std::uint64_t> v;
  for (int k = lo; k <= hi; ++k) v.push_back(std::uint64_t{1} << k);
  return v;
}

// Billeter Fig. 4's measurement: the mean over valid ratios 0, 1/4, 1/2, 3/4 and 1, drawn with its min-max.
const std::vector<double> fig4_ratios = {0, 0.25, 0.5, 0.75, 1};

template <class T>
void fig4_series(runner& r, figure& fig, const std::string& type, const std::vector<std::pair<std::string, std::string>>& series, bool with_std) {
  const device d = r.dev();
  buf<T> in(random_elements<T>(r.n()), d), out(std::vector<T>(r.n()), d);
  yardstick(r, d, in, out, type);
  for (double ratio : fig4_ratios) {
    flag_set f(r.n(), ratio, d);
    for (const auto& [spec, label] : series)
      if (const row* w = time_compaction(r, in, f, out, spec, type, ratio)) fig.add(label + " - " + type, static_cast<double>(r.n()), w->ms);
    if constexpr (std::is_same_v<T, u32>)
      if (with_std)
        if (const row* w = time_std_copy_if(r, in, f, out, ratio)) fig.add("std::copy_if - u32", static_cast<double>(r.n()), w->ms);
  }
}

void size_cuda(std::vector<row>& all, std::vector<figure>& figs) {
  const device d = device::cuda;
  figure fig8{"roger-fig8", "Roger et al. 2007, Fig. 8: compaction time against n (60% valid u32), by block size s", "n (elements)", "time (ms)", true,
              true};
  figure fig13{"roger-fig13", "Roger et al. 2007, Fig. 13: Roger's compaction against other methods, by n (60% valid u32)", "n (elements)",
               "time (ms)", true, true};
  figure fig4{"billeter-fig4",
              "Billeter et al. 2009, Fig. 4: compaction time against n, mean over 0, 25, 50, 75 and 100% valid (bars: min-max)",
              "n (elements)", "time (ms)", true, true};
  const std::vector<std::pair<std::string, std::string>> s_series = {
      {"roger:s=16", "s=16"}, {"roger", "s=64 (Roger's best)"}, {"roger:s=256", "s=256"}, {"roger:s=1024", "s=1024"}};
  const std::vector<std::pair<std::string, std::string>> methods = {{"roger", "Roger (roger, s=64)"},
                                                                   {"horn", "Horn 2005 (horn)"},
                                                                   {"scan-scatter", "CUDA scan + scatter (scan-scatter)"},
                                                                   {"cub", "cub::DeviceSelect::Flagged"},
                                                                   {"decoupled-lookback", "decoupled-lookback (sluice default)"}};
  for (std::uint64_t n : powers(10, top_power(28))) {
    std::printf("[size] n = %llu\n", static_cast<unsigned long long>(n));
    const int reps = n >= (std::uint64_t{1} << 26) ? 10 : 20;
    {
      runner r(d, n, reps);
      buf<u32> in(random_elements<u32>(n), d), out(std::vector<u32>(n), d);
      yardstick(r, d, in, out, "u32");
      flag_set f(n, 0.6, d);
      std::map<std::string, double> ms;
      for (const auto& [spec, label] : s_series)
        if (const row* w = time_compaction(r, in, f, out, spec, "u32", 0.6)) fig8.add(label, static_cast<double>(n), ms[spec] = w->ms);
      for (const auto& [spec, label] : methods) {
        if (!ms.count(spec))
          if (const row* w = time_compaction(r, in, f, out, spec, "u32", 0.6)) ms[spec] = w->ms;
        if (ms.count(spec)) fig13.add(label, static_cast<double>(n), ms[spec]);
      }
      add_rows(all, r);
    }
    const std::vector<std::pair<std::string, std::string>> ours = {{"billeter", "billeter"}};
    {
      runner r(d, n, reps);
      fig4_series<u32>(r, fig4, "u32", {{"billeter", "billeter"}, {"cub", "cub (for CUDPP)"}, {"decoupled-lookback", "decoupled-lookback"}}, false);
      add_rows(all, r);
    }
    {
      runner r(d, n, reps);
      fig4_series<std::uint64_t>(r, fig4, "u64", ours, false);
      add_rows(all, r);
    }
    if (n <= (std::uint64_t{1} << 27)) {  // 2^28 x 16 bytes, in and out: 8 GiB
      runner r(d, n, reps);
      fig4_series<b128>(r, fig4, "b128", ours, false);
      add_rows(all, r);
    }
  }
  figs.push_back(fig8), figs.push_back(fig13), figs.push_back(fig4);
}

void size_cpu(std::vector<row>& all, std::vector<figure>& figs) {
  figure fig4{"billeter-fig4", "Billeter et al. 2009, Fig. 4 on the CPU: compaction time against n, mean over 0, 25, 50, 75 and 100% valid (bars: min-max)",
              "n (elements)", "time (ms)", true, true};
  const std::vector<std::pair<std::string, std::string>> ours = {{"billeter", "billeter"}};
  for (std::uint64_t n : powers(10, top_power(26))) {
    std::printf("[size] n = %llu on the CPU\n", static_cast<unsigned long long>(n));
    const int reps = n >= (std::uint64_t{1} << 24) ? 5 : 10;
    {
      runner r(device::cpu, n, reps);
      fig4_series<u32>(r, fig4, "u32", {{"billeter", "billeter"}, {"serial", "serial"}}, true);
      add_rows(all, r);
    }
    {
      runner r(device::cpu, n, reps);
      fig4_series<std::uint64_t>(r, fig4, "u64", ours, false);
      add_rows(all, r);
    }
    {
      runner r(device::cpu, n, reps);
      fig4_series<b128>(r, fig4, "b128", ours, false);
      add_rows(all, r);
    }
  }
  figs.push_back(fig4);
}

// ---------------------------------------------------------------------------------------------------------
// blocksize: time against block size at 4M u32 (the papers' block compactions; GPU only).

void blocksize_cuda(std::vector<row>& all, std::vector<figure>& figs) {
  const device d = device::cuda;
  figure fig11{"roger-fig11", "Roger et al. 2007, Fig. 11: compaction of 4M u32 (60% valid) against block size s", "block size s", "time (ms)", true};
  figure fig10{"roger-fig10", "Roger et al. 2007, Fig. 10: time of each step for 4M u32 (60% valid) and block size s (roger, Blelloch in-block sum)",
               "block size s", "time (ms)", true};
  figure fig9{"moreira-fig9", "Moreira et al. 2009, Fig. 9: the in-block pass (prefix sum and jumps) of a 4M stream (50% valid) against block size",
              "block size", "time (ms)", true};
  figure mfig10{"moreira-fig10", "Moreira et al. 2009, Fig. 10: block concatenation of a 4M stream (50% valid) against block size (jumping-jack)",
                "block size", "time (ms)", true};
  std::printf("[blocksize] 4M u32: Roger Figs. 10 and 11, Moreira Figs. 9 and 10\n");
  runner r(d, paper_n(), 20);
  buf<u32> in(random_elements<u32>(paper_n()), d), out(std::vector<u32>(paper_n()), d);
  yardstick(r, d, in, out, "u32");
  {
    flag_set f(paper_n(), 0.6, d);
    for (int s = 2; s <= 1024; s *= 2)
      for (const char* scan : {"blelloch", "hillis-steele"}) {
        const std::string spec = "roger:s=" + std::to_string(s) + ",scan=" + scan;
        if (row* w = time_compaction(r, in, f, out, spec, "u32", 0.6)) {
          w->block_size = s;
          fig11.add(std::string(scan == std::string("blelloch") ? "Blelloch" : "Hillis-Steele") + " in-block sum", s, w->ms);
        }
        if (scan == std::string("blelloch")) {
          double total = 0;
          for (const auto& [step, t] : time_steps(r, in, f, out, spec, 0.6, s)) fig10.add(step, s, t), total += t;
          if (total > 0) fig10.add("all steps", s, total);
        }
      }
  }
  {
    flag_set f(paper_n(), 0.5, d);
    for (int s = 16; s <= 1024; s *= 2)
      for (const char* scan : {"hillis-steele", "blelloch"}) {
        const std::string spec = "jumping-jack:s=" + std::to_string(s) + ",scan=" + scan;
        const std::string sum = scan == std::string("blelloch") ? "balanced tree (Blelloch)" : "recursive doubling (Hillis-Steele)";
        if (row* w = time_compaction(r, in, f, out, spec, "u32", 0.5)) w->block_size = s;
        double concat = 0;
        for (const auto& [step, t] : time_steps(r, in, f, out, spec, 0.5, s)) {
          if (step == "in-block pass") fig9.add(sum, s, t);
          if (scan == std::string("blelloch") && step != "in-block pass") mfig10.add(step == "block prefix sum" ? "inter-block prefix sum" : "block move", s, t), concat += t;
        }
        if (concat > 0) mfig10.add("concatenation (both)", s, concat);
      }
  }
  add_rows(all, r);
  for (auto* f : {&fig11, &fig10, &fig9, &mfig10}) figs.push_back(*f);
}

// ---------------------------------------------------------------------------------------------------------
// tables: Roger Table I, Billeter Tables 3, 4 and 5, each beside the paper's numbers.

struct stat3 {
  double mean = 0, lo = 0, hi = 0;
  bool any = false;
};

stat3 stats(const std::vector<double>& v) {
  stat3 s;
  if (v.empty()) return s;
  s.any = true;
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  s.lo = *std::min_element(v.begin(), v.end());
  s.hi = *std::max_element(v.begin(), v.end());
  return s;
}

std::string roger_table1(std::vector<row>& all) {
  const device d = device::cuda;
  const std::vector<std::pair<std::string, std::string>> others = {
      {"horn", "Horn (horn)"}, {"scan-scatter", "CUDA scan + scatter"}, {"cub", "cub"}, {"decoupled-lookback", "decoupled-lookback"}};
  const std::map<std::uint64_t, std::string> paper = {{std::uint64_t{1} << 18, "5.5 / 3.9 / 1.5 / 0.32"},
                                                      {std::uint64_t{1} << 20, "7.8 / 3.7 / 1.9 / 0.37"},
                                                      {std::uint64_t{1} << 22, "9.1 / 3.6 / 2 / 0.36"},
                                                      {std::uint64_t{1} << 24, "N.A. / 4.8 / N.A. / 0.35"}};
  std::ostringstream t;
  t << "## Roger et al. 2007, Table I: speed-up of Roger's compaction over other methods (time of the method / time of roger), 60% valid u32\n\n";
  t << "| elements | roger ms | Horn (horn) | CUDA scan + scatter | cub | decoupled-lookback | paper: Horn / Blelloch / G. shaders / CUDA (sum only) |\n";
  t << "|---|---|---|---|---|---|---|\n";
  std::vector<std::uint64_t> sizes = {std::uint64_t{1} << 18, std::uint64_t{1} << 20, std::uint64_t{1} << 22, std::uint64_t{1} << 24};
  if (args && args->n) sizes = {args->n};
  for (std::uint64_t n : sizes) {
    std::printf("[tables] Roger Table I, n = %llu\n", static_cast<unsigned long long>(n));
    runner r(d, n, 20);
    buf<u32> in(random_elements<u32>(n), d), out(std::vector<u32>(n), d);
    yardstick(r, d, in, out, "u32");
    flag_set f(n, 0.6, d);
    const row* mine = time_compaction(r, in, f, out, "roger", "u32", 0.6);
    const double roger_ms = mine ? mine->ms : 0;
    t << "| " << (n >> 10) << "k | " << (mine ? fmt(roger_ms, 4) : "-");
    for (const auto& [spec, label] : others) {
      const row* w = time_compaction(r, in, f, out, spec, "u32", 0.6);
      t << " | " << (w && roger_ms > 0 ? fmt(w->ms / roger_ms, 2) : "-");
    }
    t << " | " << (paper.count(n) ? paper.at(n) : "-") << " |\n";
    add_rows(all, r);
  }
  t << "\nAbove 1: roger is faster. The paper's Horn and Blelloch columns are Horn's method with two scans; sluice has one `horn`."
       " The paper's CUDA column timed the scan alone (\"sum only\"); here the CUDA column is the whole compaction, scan and scatter."
       " Geometry shaders belong to the OpenGL systems (`sluice bench --suite gl`).\n\n";
  return t.str();
}

// Billeter Table 3 (4M u32, mean and min/max over 0..100% valid), on either device.
std::string billeter_table3(std::vector<row>& all, device d) {
  std::vector<std::pair<std::string, std::string>> algos;
  if (d == device::cuda)
    algos = {{"billeter", "billeter (Billeter, selective)"}, {"cub", "cub (for CUDPP)"}, {"roger", "roger"},
             {"horn", "horn"}, {"scan-scatter", "scan-scatter"}, {"decoupled-lookback", "decoupled-lookback (sluice default)"}};
  else
    algos = {{"billeter", "billeter (sluice default)"}, {"serial", "serial"}};
  std::printf("[tables] Billeter Table 3: 4M u32, valid ratio 0 .. 1\n");
  runner r(d, paper_n(), d == device::cuda ? 20 : 10);
  buf<u32> in(random_elements<u32>(paper_n()), d), out(std::vector<u32>(paper_n()), d);
  yardstick(r, d, in, out, "u32");
  std::map<std::string, std::vector<double>> ms;
  for (int k = 0; k <= 10; ++k) {
    const double ratio = k / 10.0;
    flag_set f(paper_n(), ratio, d);
    for (const auto& [spec, label] : algos)
      if (const row* w = time_compaction(r, in, f, out, spec, "u32", ratio)) ms[spec].push_back(w->ms);
    if (d == device::cpu)
      if (const row* w = time_std_copy_if(r, in, f, out, ratio)) ms["std::copy_if"].push_back(w->ms);
  }
  if (d == device::cpu) algos.push_back({"std::copy_if", "std::copy_if"});
  add_rows(all, r);
  const stat3 base = stats(ms["billeter"]);
  std::ostringstream t;
  t << "## Billeter et al. 2009, Table 3: compaction of " << paper_n() << " u32 (the paper: 4M), averaged over 0, 10, ..., 100% valid\n\n";
  t << "| algorithm | time (ms) | min / max (ms) | relative to billeter |\n|---|---|---|---|\n";
  for (const auto& [spec, label] : algos) {
    const stat3 s = stats(ms[spec]);
    if (!s.any) continue;
    t << "| " << label << " | " << fmt(s.mean, 4) << " | " << fmt(s.lo, 4) << " / " << fmt(s.hi, 4) << " | "
      << (base.any ? fmt(s.mean / base.mean, 2) + "x" : "-") << " |\n";
  }
  t << "\nThe paper (GTX280): theirs 0.561 ms (0.435 / 0.648), 1.0x; CUDPP 1.81 ms, 3.22x; Ziegler et al. 2.54 ms, 4.53x;"
       " geometry shaders 7.05 ms, 12.6x; Roger et al. (8800 GTS) 10.6 ms, 18.9x.\n\n";
  return t.str();
}

// Billeter Table 4: a prefix sum of 32M u32; and the in-place sum of 220M elements the text reports.
std::string billeter_table4(std::vector<row>& all, device d) {
  std::vector<std::pair<std::string, std::string>> algos;
  if (d == device::cuda)
    algos = {{"billeter-scan", "billeter-scan (Billeter)"}, {"cub", "cub"}, {"decoupled-lookback", "decoupled-lookback (sluice default)"},
             {"reduce-then-scan", "reduce-then-scan"}, {"brent-kung", "brent-kung (work-efficient, as CUDPP)"}, {"kogge-stone", "kogge-stone"},
             {"three-phase-coarsened", "three-phase-coarsened"}, {"streaming", "streaming"}};
  else
    algos = {{"billeter-scan", "billeter-scan (sluice default)"}, {"serial", "serial"}};
  std::vector<std::uint64_t> sizes = {std::uint64_t{1} << 25, std::uint64_t{220} << 20};
  if (args && args->n) sizes = {args->n};
  std::ostringstream t;
  t << "## Billeter et al. 2009, Table 4: inclusive prefix sum of " << sizes[0] << " u32 (the paper: 32M, 2^25)\n\n| algorithm | time (ms) | GB/s | fraction of the copy |\n|---|---|---|---|\n";
  for (std::uint64_t n : sizes) {
    const bool in_place = n == (std::uint64_t{220} << 20);
    if (in_place && d == device::cpu) continue;
    std::printf("[tables] Billeter Table 4: scan of %llu u32%s\n", static_cast<unsigned long long>(n), in_place ? ", in place" : "");
    runner r(d, n, d == device::cuda ? 20 : 5);
    buf<u32> in(verify::make_values<u32>(n, 1), d), out(std::vector<u32>(n), d);
    yardstick(r, d, in, out, "u32");
    if (in_place) {
      t << "\nIn place, 220M (220 x 2^20) u32, the paper's 880 MB (theirs: 25.3 ms on the GTX280):\n\n| algorithm | time (ms) | GB/s | fraction of the copy |\n|---|---|---|---|\n";
      algos = {{"billeter-scan", "billeter-scan (Billeter)"}, {"cub", "cub"}, {"decoupled-lookback", "decoupled-lookback (sluice default)"}};
    }
    for (const auto& [spec, label] : algos) {
      options o{d, spec, nullptr};
      const row* w = in_place ? r.measure("inclusive_scan", spec + " (in place)", "u32", -1, 8.0 * static_cast<double>(n),
                                          [&] { sluice::inclusive_scan(out.span(), out.span(), sum{}, o); })
                              : r.measure("inclusive_scan", spec, "u32", -1, 8.0 * static_cast<double>(n),
                                          [&] { sluice::inclusive_scan(in.span(), out.span(), sum{}, o); });
      if (w) t << "| " << label << " | " << fmt(w->ms, 4) << " | " << fmt(w->gbps, 1) << " | " << fmt(w->frac, 3) << " |\n";
    }
#if SLUICE_BENCH_HAS_TBB
    if (d == device::cpu)
      if (const row* w = r.measure("inclusive_scan", "tbb::parallel_scan", "u32", -1, 8.0 * static_cast<double>(n),
                                   [&] { tbb_inclusive_scan(in.host.data(), out.host.data(), n); }))
        t << "| tbb::parallel_scan | " << fmt(w->ms, 4) << " | " << fmt(w->gbps, 1) << " | " << fmt(w->frac, 3) << " |\n";
#endif
    if (d == device::cpu)
      if (const row* w = r.measure("inclusive_scan", "std::inclusive_scan", "u32", -1, 8.0 * static_cast<double>(n),
                                   [&] { std::inclusive_scan(in.host.begin(), in.host.end(), out.host.begin()); }))
        t << "| std::inclusive_scan | " << fmt(w->ms, 4) << " | " << fmt(w->gbps, 1) << " | " << fmt(w->frac, 3) << " |\n";
    add_rows(all, r);
  }
  t << "\nThe paper (32M): theirs 3.7 ms and CUDPP 5.3 ms on the GTX280; CUDPP 11.50 ms and Dotsenko et al. 8.5 ms on the 8800 GTX.\n\n";
  return t.str();
}

// Billeter Table 5: radix sort of 4M keys, keys with 32-bit values, keys with wide values.
template <class V>
const row* time_sort(runner& r, const std::string& spec, const std::string& type, buf<u32>& src, buf<u32>& keys, buf<V>* vsrc, buf<V>* vals) {
  const device d = r.dev();
  const std::uint64_t n = r.n();
  options o{d, spec, nullptr};
  auto reset = [&] {
    device_copy(d, keys.span().data(), src.span().data(), n * sizeof(u32));
    if (vals) device_copy(d, vals->span().data(), vsrc->span().data(), n * sizeof(V));
  };
  const double b = 2.0 * static_cast<double>(n) * (sizeof(u32) + (vals ? sizeof(V) : 0));
  if (vals)
    return r.measure("radix_sort_pairs", label_of(primitive::radix_sort, d, spec), type, -1, b,
                     [&] { sluice::radix_sort(keys.span(), vals->span(), order::ascending, {}, o); }, reset);
  return r.measure("radix_sort", label_of(primitive::radix_sort, d, spec), type, -1, b, [&] { sluice::radix_sort(keys.span(), order::ascending, {}, o); },
                   reset);
}

std::string billeter_table5(std::vector<row>& all, device d) {
  const std::vector<std::pair<std::string, std::string>> algos =
      d == device::cuda ? std::vector<std::pair<std::string, std::string>>{{"split-radix", "split-radix (Billeter)"}, {"best", "onesweep (sluice default)"}, {"cub", "cub"}}
                        : std::vector<std::pair<std::string, std::string>>{{"best", "msd-lsd (sluice default)"}, {"lsd-parallel", "lsd-parallel"}, {"lsd-serial", "lsd-serial"}};
  std::printf("[tables] Billeter Table 5: radix sort of 4M keys\n");
  runner r(d, paper_n(), d == device::cuda ? 20 : 5);
  buf<u32> src(verify::make_values<u32>(paper_n(), 1), d), keys(src.host, d);
  buf<u32> out(std::vector<u32>(paper_n()), d);
  yardstick(r, d, src, out, "u32");
  buf<u32> v32(verify::make_values<u32>(paper_n(), 7), d), v32w(v32.host, d);
  buf<b128> vw(random_elements<b128>(paper_n()), d), vww(vw.host, d);
  std::ostringstream t;
  t << "## Billeter et al. 2009, Table 5: radix sort of " << paper_n() << " elements (the paper: 4M), ms\n\n| input | ";
  for (const auto& a : algos) t << a.second << " | ";
  t << "paper: Satish et al. / Billeter / CUDPP |\n|---|";
  for (std::size_t i = 0; i <= algos.size(); ++i) t << "---|";
  t << "\n";
  const char* paper[] = {"27.6 / 28.2 / 50.1", "38.5 / 36.5 / - (separate arrays)", "- / 61.7 / - (96-bit values, interleaved)"};
  const char* inputs[] = {"32-bit keys only", "32-bit keys, 32-bit values", "32-bit keys, 128-bit values"};
  for (int c = 0; c < 3; ++c) {
    t << "| " << inputs[c] << " |";
    for (const auto& [spec, label] : algos) {
      const row* w = c == 0   ? time_sort<u32>(r, spec, "u32", src, keys, nullptr, nullptr)
                     : c == 1 ? time_sort<u32>(r, spec, "u32+u32", src, keys, &v32, &v32w)
                              : time_sort<b128>(r, spec, "u32+b128", src, keys, &vw, &vww);
      t << " " << (w ? fmt(w->ms, 3) : "-") << " |";
    }
    t << " " << paper[c] << " |\n";
  }
  if (d == device::cpu) {
    if (const row* w = r.measure("radix_sort", "std::sort", "u32", -1, 8.0 * paper_n(), [&] { std::sort(keys.host.begin(), keys.host.end()); },
                                 [&] { keys.host = src.host; }))
      t << "\nstd::sort of the 32-bit keys: " << fmt(w->ms, 3) << " ms.\n";
  }
  add_rows(all, r);
  t << "\nsluice sorts keys and values in separate arrays; 96-bit values are not an element size it takes, so the third row uses 128-bit values"
       " (more bytes than the paper's).\n\n";
  return t.str();
}

}  // namespace

void ratio_suite(std::vector<row>& all, std::vector<figure>& figs, device d) {
  if (d == device::cuda) ratio_cuda(all, figs);
  else ratio_cpu(all, figs);
}

void size_suite(std::vector<row>& all, std::vector<figure>& figs, device d) {
  if (d == device::cuda) size_cuda(all, figs);
  else size_cpu(all, figs);
}

void blocksize_suite(std::vector<row>& all, std::vector<figure>& figs, device d) {
  if (d == device::cuda) blocksize_cuda(all, figs);
}

void tables_suite(std::vector<row>& all, std::string& tables, device d) {
  tables = "# sluice bench --suite tables: the papers' tables on " + machine_name(d) + "\n\n";
  if (d == device::cuda) tables += roger_table1(all);
  else tables += "Roger et al. 2007, Table I compares GPU methods (horn, roger, scan-scatter): run it with --device cuda.\n\n";
  tables += billeter_table3(all, d);
  tables += billeter_table4(all, d);
  tables += billeter_table5(all, d);
}

}  // namespace sluice::tool
