// What `sluice bench` prints and writes of its rows: the tables beside the peers (production, sort, the CPU
// summary), the CSV, and the figures of the quick, production and sort suites.
#include "bench_core.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace sluice::tool {
namespace {

// Rows that time someone else's algorithm: CUB, the standard library, oneTBB.
bool is_peer(const std::string& algo) {
  const std::string a = without_form(algo);
  return a == "cub" || a == "cub-unstable" || algo.rfind("std::", 0) == 0 || algo.rfind("tbb::", 0) == 0;
}

bool same_case(const row& p, const row& a) { return p.prim == a.prim && p.type == a.type && p.n == a.n && p.ratio == a.ratio; }

// The peer's row (CUB on the GPU, in the same form as `a`; the serial standard library on the CPU) of the same
// case as `a`, or null.
const row* peer_of(const std::vector<row>& rows, const row& a) {
  const row* peer = nullptr;
  for (const auto& p : rows) {
    const bool serial_std = p.algo.rfind("std::", 0) == 0 && p.algo.find("(par)") == std::string::npos;
    const bool cub_same_form = without_form(p.algo) == "cub" && is_async_label(p.algo) == is_async_label(a.algo);  // --async
    if ((cub_same_form || serial_std) && same_case(p, a)) peer = &p;
  }
  return peer;
}

}  // namespace

// Sort rows in keys per second, beside the peer's.
void print_sort_rates(const std::vector<row>& rows) {
  std::printf("\n%-17s %-9s %-11s %-14s %9s %12s %10s %8s\n", "primitive", "type", "n", "algorithm", "ms", "G keys/s", "time/peer", "frac");
  for (const auto& a : rows) {
    if (a.prim == "copy" || a.prim == "read") continue;
    const row* peer = peer_of(rows, a);
    std::printf("%-17s %-9s %-11llu %-14s %9.4f %12.2f %10s %8.3f\n", a.prim.c_str(), a.type.c_str(), static_cast<unsigned long long>(a.n),
                a.algo.c_str(), a.ms, static_cast<double>(a.n) / (a.ms * 1e-3) / 1e9,
                peer ? std::to_string(a.ms / peer->ms).substr(0, 5).c_str() : "-", a.frac);
  }
}

// The production table: each sluice row beside its peer's row of the same case, time ratio and fractions.
void print_against_peer(const std::vector<row>& rows) {
  std::printf("\n%-18s %-5s %-11s %-5s %-20s %10s %10s %8s %8s %8s\n", "primitive", "type", "n", "ratio", "sluice", "ms", "peer ms",
              "time/peer", "frac", "peer frac");
  for (const auto& a : rows) {
    if (is_peer(a.algo) || a.prim == "copy" || a.prim == "read") continue;
    const row* peer = peer_of(rows, a);
    std::printf("%-18s %-5s %-11llu %-5s %-20s %10.4f %10s %8s %8.3f %8s\n", a.prim.c_str(), a.type.c_str(), static_cast<unsigned long long>(a.n),
                a.ratio < 0 ? "-" : std::to_string(a.ratio).substr(0, 4).c_str(), a.algo.c_str(), a.ms,
                peer ? std::to_string(peer->ms).substr(0, 8).c_str() : "-", peer ? std::to_string(a.ms / peer->ms).substr(0, 5).c_str() : "-",
                a.frac, peer ? std::to_string(peer->frac).substr(0, 5).c_str() : "-");
  }
}

// CPU: at the peers' size, u32, each sluice row's fraction of memcpy-mt (reduce: of the read) and its
// speed-up over every peer of the same case (peer ms / sluice ms).
void print_cpu_summary(const std::vector<row>& rows) {
  const std::uint64_t n = args && args->n ? args->n : std::uint64_t{1} << 26;
  const row *copy = nullptr, *read = nullptr;
  for (const auto& a : rows)
    if (a.n == n && a.type == "u32") {
      if (a.prim == "copy") copy = &a;
      if (a.prim == "read") read = &a;
    }
  if (!copy) return;
  std::printf("\ncpu, u32, n = %llu, %d threads: memcpy-mt %.4f ms (%.1f GB/s)", static_cast<unsigned long long>(n), cpu_threads(),
              copy->ms, copy->gbps);
  if (read) std::printf(", read %.4f ms (%.1f GB/s)", read->ms, read->gbps);
  std::printf("\n%-18s %-5s %-14s %10s %7s %-9s %-24s %10s %8s\n", "primitive", "ratio", "sluice", "ms", "frac", "of", "peer", "peer ms",
              "speed-up");
  for (const auto& a : rows) {
    if (a.n != n || a.type != "u32" || a.prim == "copy" || a.prim == "read" || is_peer(a.algo)) continue;
    std::printf("%-18s %-5s %-14s %10.4f %7.3f %-9s", a.prim.c_str(), a.ratio < 0 ? "-" : std::to_string(a.ratio).substr(0, 4).c_str(),
                a.algo.c_str(), a.ms, a.frac, a.prim == "reduce" && read ? "read" : "memcpy-mt");
    bool first = true;
    for (const auto& p : rows) {
      if (!is_peer(p.algo) || !same_case(p, a)) continue;
      if (!first) std::printf("%-18s %-5s %-14s %10s %7s %-9s", "", "", "", "", "", "");
      std::printf(" %-24s %10.4f %8.2f\n", p.algo.c_str(), p.ms, p.ms / a.ms);
      first = false;
    }
    if (first) std::printf(" %-24s %10s %8s\n", "-", "-", "-");
  }
}

namespace {

// A CSV field (RFC 4180): quoted when it holds a comma or a quote (algorithm specs do: "roger:s=64,scan=blelloch").
std::string csv_field(const std::string& v) {
  if (v.find_first_of(",\"\n") == std::string::npos) return v;
  std::string q = "\"";
  for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

// The CSV (docs/guide/benchmarking.md): written whole or not at all (write_whole_file).
bool write_csv(const std::vector<row>& rows, const std::filesystem::path& file) {
  return write_whole_file(file, [&](const std::filesystem::path& partial) {
    std::ofstream f(partial);
    if (!f) return false;
    // fraction_of_memcpy: of the same run's copy row; for CPU reduce rows, of its read row (reduce writes nothing).
    // Step rows (gbps < 0) have a time but no rate. machine_busy: 1 where the row was timed while the machine
    // looked busy (bench.hpp, busy_spread), else 0.
    f << "primitive,algorithm,device,element_type,n,valid_ratio,block_size,ms,gbps,fraction_of_memcpy,repetitions,machine_busy\n";
    for (const auto& r : rows) {
      char nums[256];
      const std::string gbps = r.gbps < 0 ? "" : std::to_string(r.gbps), frac = r.gbps < 0 ? "" : std::to_string(r.frac);
      std::snprintf(nums, sizeof nums, "%llu,%s,%d,%.6f,%s,%s,%d,%d\n", static_cast<unsigned long long>(r.n),
                    r.ratio < 0 ? "" : std::to_string(r.ratio).c_str(), r.block_size, r.ms, gbps.c_str(), frac.c_str(), r.reps,
                    r.busy ? 1 : 0);
      f << csv_field(r.prim) << ',' << csv_field(r.algo) << ',' << csv_field(r.dev) << ',' << csv_field(r.type) << ',' << nums;
    }
    f.flush();
    return static_cast<bool>(f);
  });
}

bool is_yardstick(const row& r) { return r.prim == "copy" || r.prim == "read"; }

namespace {

// Whether a row times the default of its primitive on d (the variant options.algorithm "best" runs).
bool is_default(const row& r, device d) {
  for (const auto& bp : bench_primitives)
    if (r.prim == bp.name)
      for (const auto& a : algorithms())
        if (a.prim == bp.prim && runs_on(a, d) && is_best(a, d) && a.name == without_form(r.algo)) return true;
  return false;
}

}  // namespace

// quick: one bar per measurement, its fraction of the same run's copy; sluice's defaults, its other variants
// and the peers (std::, TBB, CUB) in three colours, the defaults also named so; the copy (1.0) dashed; a log
// axis where the fractions span more than figure::log_span.
figure quick_figure(const std::vector<row>& rows, device d) {
  std::string sizes;
  for (const auto& r : rows)
    if (r.prim == "copy") sizes += (sizes.empty() ? "n = " : ", ") + std::to_string(r.n);
  figure f{"fraction", "sluice bench quick: every algorithm as a fraction of the same run's copy (" + sizes + ")",
           std::string("effective GB/s / ") + (d == device::cuda ? "cudaMemcpy" : "memcpy-mt (reduce: / read-mt)"), ""};
  f.bars = true;
  f.auto_log = true;
  const std::string dflt = "sluice, the default on " + std::string(to_string(d)), other = "sluice, other variants",
                    peer = "peers (std::, TBB, CUB)";
  f.groups = {{dflt, "#d62728"}, {other, "#3b75af"}, {peer, "#8c8c8c"}};
  f.reference = 1.0;
  f.reference_label = std::string("the copy (") + (d == device::cuda ? "cudaMemcpy" : "memcpy-mt") + ") = 1";
  const bool one_size = sizes.find(',') == std::string::npos;
  // Each primitive's bars together, its peers after sluice's, in the order the primitives were timed.
  std::vector<const row*> order;
  for (const auto& r : rows)
    if (!is_yardstick(r)) order.push_back(&r);
  auto first_of = [&](const row* r) {
    return std::find_if(order.begin(), order.end(), [&](const row* o) { return o->prim == r->prim; }) - order.begin();
  };
  std::stable_sort(order.begin(), order.end(), [&](const row* x, const row* y) { return first_of(x) < first_of(y); });
  for (const row* rp : order) {
    const row& r = *rp;
    const bool is_dflt = !is_peer(r.algo) && is_default(r, d);
    f.add(r.prim + "  " + r.algo + (is_dflt ? " (default)" : "") + "  " + r.type + (one_size ? "" : "  n=" + std::to_string(r.n)) +
              (r.busy ? "  busy" : ""),
          0, r.frac, is_peer(r.algo) ? peer : is_dflt ? dflt : other);
  }
  return f;
}

// production and sort: effective GB/s of each algorithm against n, with the copy's, per primitive and type.
std::vector<figure> size_figures(const std::vector<row>& rows, const std::string& suite, device d) {
  std::vector<figure> figs;
  std::vector<std::string> elements;  // each figure's element type, whose copy is its yardstick ("u32" of "u32/k32")
  auto fig_of = [&](const row& r) -> figure& {
    std::string id = r.prim + "-" + r.type;
    std::replace(id.begin(), id.end(), '/', '_');  // the id names the figure's files
    for (auto& f : figs)
      if (f.id == id) return f;
    elements.push_back(r.type.substr(0, r.type.find('/')));
    figs.push_back({id, suite + ": " + r.prim + " of " + r.type + (r.ratio >= 0 ? " (valid ratio " + std::to_string(r.ratio).substr(0, 4) + ")" : "") +
                            " against n, beside the peer and the copy",
                    "n (elements)", "effective GB/s (bytes read once + written once)", true, false});
    figs.back().auto_log = true;
    return figs.back();
  };
  for (const auto& r : rows) {
    if (is_yardstick(r) || r.gbps < 0) continue;
    if (r.ratio >= 0 && r.ratio != 0.5) continue;  // one valid ratio per figure: 0.5, which every size has
    figure& f = fig_of(r);
    f.add(r.algo, static_cast<double>(r.n), r.gbps);
  }
  // A figure needs two sizes at least: the types and ratios timed at one size only are in the CSV and the tables.
  for (std::size_t i = figs.size(); i-- > 0;) {
    const auto& f = figs[i];
    if (std::all_of(f.points.begin(), f.points.end(), [&](const auto& p) { return p.x == f.points.front().x; })) {
      figs.erase(figs.begin() + static_cast<std::ptrdiff_t>(i));
      elements.erase(elements.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  for (std::size_t i = 0; i < figs.size(); ++i) {  // the copy of the same n elements of the figure's type
    auto& f = figs[i];
    const std::string& type = elements[i];
    for (const auto& c : rows)
      if (c.prim == "copy" && c.type == type) f.add(std::string(d == device::cuda ? "cudaMemcpy" : "memcpy-mt") + " (yardstick)", static_cast<double>(c.n), c.gbps);
    if (d == device::cpu && f.id.rfind("reduce-", 0) == 0)
      for (const auto& c : rows)
        if (c.prim == "read" && c.type == type) f.add("read-mt (yardstick)", static_cast<double>(c.n), c.gbps);
  }
  return figs;
}

}  // namespace sluice::tool
