// `sluice bench --suite gl` (issue 10): the papers' OpenGL systems on the gl device beside their CUDA
// namesakes and CUB on the same chip, at Roger's sizes and setting (256K .. 16M u32, 60% valid), and the
// gl variants against the valid ratio (Moreira Fig. 11). GL rows are GL_TIME_ELAPSED medians of the passes
// alone (streams resident in textures), as fractions of a copy of the same bytes in the
// same run (the faster of glCopyImageSubData and a fragment pass copying texel to texel); CUDA rows are
// CUDA-event medians as fractions of cudaMemcpy.
#include <cstdio>
#include <map>
#include <sstream>

#include "bench_core.hpp"
#include "sluice/gl/bench.hpp"
#include "sluice/detail/params.hpp"

namespace sluice::tool {
namespace {

using u32 = std::uint32_t;
constexpr int gl_runs = 20;  // timed runs of each gl measurement, after 2 warm-up runs

double median_after_warmup(std::vector<double> ms) {
  ms.erase(ms.begin(), ms.begin() + std::min<std::size_t>(2, ms.size() - 1));
  std::sort(ms.begin(), ms.end());
  const std::size_t k = ms.size();
  return k % 2 ? ms[k / 2] : 0.5 * (ms[k / 2 - 1] + ms[k / 2]);
}

struct gl_runner {
  std::uint64_t n;
  double copy_gbps = 0;
  std::vector<row> rows;
  row* add(const std::string& prim, const std::string& algo, double ratio, double bytes, double ms) {
    if (!wanted(prim, algo) && prim != "copy") return nullptr;
    const double gbps = bytes / (ms * 1e-3) / 1e9;
    rows.push_back({prim, algo, "gl", "u32", n, ratio, 0, ms, gbps, copy_gbps > 0 ? gbps / copy_gbps : 1.0, gl_runs});
    std::printf("[%7.1f s] %-18s %-22s gl    n=%-11llu ratio=%-5s %10.4f ms %9.1f GB/s %6.3f of the faster GL copy\n", elapsed_s(),
                prim.c_str(), algo.c_str(), static_cast<unsigned long long>(n),
                ratio < 0 ? "-" : std::to_string(ratio).substr(0, 4).c_str(), ms, gbps, rows.back().frac);
    std::fflush(stdout);
    return &rows.back();
  }
};

// One gl compaction, its count checked against the flags (a wrong answer is not timed).
row* gl_compaction(gl_runner& g, const std::string& spec, const std::vector<u32>& in, const std::vector<std::uint8_t>& fl,
                   double ratio) {
  const bool unordered = detail::base_name(spec) == "jumping-jack";
  const std::string prim = unordered ? "compact_unordered" : "compact";
  if (!wanted(prim, spec)) return nullptr;
  std::uint64_t count = 0;
  const auto ms = gl_backend::time_compact(spec, unordered, in.data(), in.size(), sizeof(u32), fl.data(), gl_runs + 2, &count);
  const auto kept = static_cast<std::uint64_t>(std::count_if(fl.begin(), fl.end(), [](auto f) { return f != 0; }));
  if (count != kept) throw error(errc::gl_error, "sluice bench: gl " + spec + " counted " + std::to_string(count) + ", want " + std::to_string(kept));
  const double bytes = static_cast<double>(in.size()) * (sizeof(u32) + 1) + static_cast<double>(kept) * sizeof(u32);
  return g.add(prim, spec, ratio, bytes, median_after_warmup(ms));
}

std::string fmt(double x, int digits = 3) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, x);
  return b;
}

}  // namespace

void gl_suite(std::vector<row>& all, std::string& tables, std::vector<figure>& figs) {
  const bool cuda = device_available(device::cuda);
  std::vector<std::uint64_t> sizes = {std::uint64_t{1} << 18, std::uint64_t{1} << 20, std::uint64_t{1} << 22, std::uint64_t{1} << 24};
  if (args && args->n) sizes = {args->n};
  const double ratio = 0.6;  // Roger Sec. V: "60% of valid elements"
  const std::vector<std::string> gl_compactions = {"roger", "horn", "geometry-shader", "jumping-jack"};
  const std::vector<std::string> cuda_compactions = {"roger", "horn", "jumping-jack", "cub", "decoupled-lookback"};
  std::map<std::uint64_t, std::map<std::string, double>> t;  // n -> "gl roger" -> ms
  for (std::uint64_t n : sizes) {
    std::printf("[gl] the papers' OpenGL systems beside CUDA, n = %llu, %.0f%% valid\n", static_cast<unsigned long long>(n), ratio * 100);
    const auto in = random_elements<u32>(n);
    const auto fl = verify::make_flags(n, {verify::pattern::random, ratio}, 3);
    gl_runner g{n};
    g.add("copy", "glCopyImageSubData", -1, 2.0 * n * sizeof(u32), median_after_warmup(gl_backend::time_copy(n * sizeof(u32), gl_runs + 2, false)));
    g.add("copy", "fragment-copy", -1, 2.0 * n * sizeof(u32), median_after_warmup(gl_backend::time_copy(n * sizeof(u32), gl_runs + 2, true)));
    g.copy_gbps = std::max(g.rows[0].gbps, g.rows[1].gbps);  // the faster copy is the yardstick
    for (const auto& spec : gl_compactions)
      if (const row* r = gl_compaction(g, spec, in, fl, ratio)) t[n]["gl " + spec] = r->ms;
    if (wanted("reduce", "goddeke-multipass")) {
      std::uint64_t bits = 0;
      const auto ms = gl_backend::time_reduce("goddeke-multipass", gl_backend::scalar::u32, gl_backend::reduce_op::sum, in.data(), n, gl_runs + 2, &bits);
      u32 want = 0;
      for (u32 x : in) want += x;
      if (static_cast<u32>(bits) != want) throw error(errc::gl_error, "sluice bench: gl goddeke-multipass summed wrong");
      t[n]["gl goddeke-multipass"] = g.add("reduce", "goddeke-multipass", -1, static_cast<double>(n) * sizeof(u32), median_after_warmup(ms))->ms;
    }
    all.insert(all.end(), g.rows.begin(), g.rows.end());
    if (!cuda) continue;
    runner r(device::cuda, n, 20);
    buf<u32> din(in, device::cuda), dout(std::vector<u32>(n), device::cuda);
    buf<std::uint8_t> dfl(fl, device::cuda);
    const double kept = static_cast<double>(std::count_if(fl.begin(), fl.end(), [](auto f) { return f != 0; }));
    yardstick(r, device::cuda, din, dout, "u32");
    for (const auto& spec : cuda_compactions) {
      const bool unordered = spec == "jumping-jack";
      const options o{device::cuda, spec, nullptr};
      const double bytes = static_cast<double>(n) * (sizeof(u32) + 1) + kept * sizeof(u32);
      const row* x = unordered ? r.measure("compact_unordered", spec, "u32", ratio, bytes, [&] { sink_int = sluice::compact_unordered(din.span(), dfl.span(), dout.span(), o); })
                               : r.measure("compact", spec, "u32", ratio, bytes, [&] { sink_int = sluice::compact(din.span(), dfl.span(), dout.span(), o); });
      if (x) t[n]["cuda " + spec] = x->ms;
    }
    for (const char* spec : {"goddeke-multipass", "cub"}) {
      const options o{device::cuda, spec, nullptr};
      if (const row* x = r.measure("reduce", spec, "u32", -1, static_cast<double>(n) * sizeof(u32), [&] { sink_int = sluice::reduce(din.span(), u32{0}, sum{}, o); }))
        t[n]["cuda " + std::string(spec)] = x->ms;
    }
    all.insert(all.end(), r.rows().begin(), r.rows().end());
  }

  // Moreira Fig. 11 in the original medium: the gl compactions against the valid ratio.
  const std::uint64_t fig_n = args && args->n ? args->n : (std::uint64_t{1} << 22);
  figure f{"moreira-fig11", "Moreira Fig. 11 in OpenGL: time against the valid ratio, " + std::to_string(fig_n) + " u32", "valid ratio", "ms"};
  const auto in = random_elements<u32>(fig_n);
  const double fig_copy = 2.0 * fig_n * sizeof(u32) /
                          (std::min(median_after_warmup(gl_backend::time_copy(fig_n * sizeof(u32), gl_runs + 2, false)),
                                    median_after_warmup(gl_backend::time_copy(fig_n * sizeof(u32), gl_runs + 2, true))) * 1e-3) / 1e9;
  for (int pct = 0; pct <= 100; pct += 10) {
    const auto fl = verify::make_flags(fig_n, {verify::pattern::random, pct / 100.0}, 5);
    gl_runner g{fig_n, fig_copy};
    for (const auto& spec : gl_compactions)
      if (const row* r = gl_compaction(g, spec, in, fl, pct / 100.0)) f.add("gl " + spec, pct / 100.0, r->ms);
    all.insert(all.end(), g.rows.begin(), g.rows.end());
  }
  figs.push_back(f);

  // Moreira Figs. 12-13 in OpenGL: the in-block pass alone (the MAS jumps, or Fig. 5's search) against the
  // valid ratio, blocks of 32 and 256, from the GPU timestamps between the passes.
  figure inb{"moreira-fig12-13", "Moreira Figs. 12-13 in OpenGL: the in-block pass alone, " + std::to_string(fig_n) + " u32",
             "valid ratio", "ms"};
  gl_backend::profile_capture(true);
  for (int pct = 0; pct <= 100; pct += 10) {
    const auto fl = verify::make_flags(fig_n, {verify::pattern::random, pct / 100.0}, 5);
    for (const char* spec : {"jumping-jack:s=32", "jumping-jack:s=256", "roger:s=32", "roger:s=256"}) {
      const bool unordered = detail::base_name(spec) == "jumping-jack";
      if (!wanted(unordered ? "compact_unordered" : "compact", spec)) continue;
      std::uint64_t count = 0;
      (void)gl_backend::time_compact(spec, unordered, in.data(), fig_n, sizeof(u32), fl.data(), 3, &count);
      for (const auto& [pass, ms] : gl_backend::profile_last())
        if (pass == "in-block-search") {
          inb.add(std::string("gl ") + spec, pct / 100.0, ms);
          all.push_back({unordered ? "compact_unordered" : "compact", std::string(spec) + " [in-block pass]", "gl", "u32", fig_n,
                         pct / 100.0, 0, ms, -1, -1, 1});
        }
    }
  }
  gl_backend::profile_capture(false);
  figs.push_back(inb);

  // Roger Table I and Moreira's block compaction, in both media on one chip.
  std::ostringstream o;
  auto cell = [&](std::uint64_t n, const std::string& k) { return t[n].count(k) ? fmt(t[n][k], 4) : std::string("-"); };
  auto ratio_cell = [&](std::uint64_t n, const std::string& a, const std::string& b) {
    return t[n].count(a) && t[n].count(b) ? fmt(t[n][a] / t[n][b], 2) : std::string("-");
  };
  o << "## Roger et al. 2007, Table I in OpenGL and in CUDA: time of each method / time of roger, 60% valid u32\n\n";
  o << "| elements | gl roger ms | gl horn | gl geometry-shader | cuda roger ms | cuda horn | cub | cuda roger / gl roger | paper (GeForce 8800): Horn / G. shaders |\n";
  o << "|---|---|---|---|---|---|---|---|---|\n";
  const std::map<std::uint64_t, std::string> paper = {{std::uint64_t{1} << 18, "5.5 / -"}, {std::uint64_t{1} << 20, "7.4 / -"},
                                                      {std::uint64_t{1} << 22, "8.2 / -"}, {std::uint64_t{1} << 24, "9.1 / -"}};
  for (std::uint64_t n : sizes)
    o << "| " << n << " | " << cell(n, "gl roger") << " | " << ratio_cell(n, "gl horn", "gl roger") << " | "
      << ratio_cell(n, "gl geometry-shader", "gl roger") << " | " << cell(n, "cuda roger") << " | " << ratio_cell(n, "cuda horn", "cuda roger")
      << " | " << ratio_cell(n, "cuda cub", "cuda roger") << " | " << ratio_cell(n, "cuda roger", "gl roger") << " | "
      << (paper.count(n) ? paper.at(n) : "-") << " |\n";
  o << "\n## Moreira et al. 2009: jumping-jack in OpenGL and in CUDA (ms), 60% valid u32\n\n";
  o << "| elements | gl jumping-jack | gl roger | gl jumping-jack / gl roger | cuda jumping-jack | cuda / gl |\n|---|---|---|---|---|---|\n";
  for (std::uint64_t n : sizes)
    o << "| " << n << " | " << cell(n, "gl jumping-jack") << " | " << cell(n, "gl roger") << " | " << ratio_cell(n, "gl jumping-jack", "gl roger")
      << " | " << cell(n, "cuda jumping-jack") << " | " << ratio_cell(n, "cuda jumping-jack", "gl jumping-jack") << " |\n";
  o << "\n## Goeddeke's multipass reduction (sum of u32), ms\n\n| elements | gl goddeke-multipass | cuda goddeke-multipass | cub | cuda / gl |\n|---|---|---|---|---|\n";
  for (std::uint64_t n : sizes)
    o << "| " << n << " | " << cell(n, "gl goddeke-multipass") << " | " << cell(n, "cuda goddeke-multipass") << " | " << cell(n, "cuda cub")
      << " | " << ratio_cell(n, "cuda goddeke-multipass", "gl goddeke-multipass") << " |\n";
  if (!cuda) o << "\n(no CUDA device in this run: the CUDA columns are empty)\n";
  tables = "# sluice bench --suite gl: the papers' OpenGL systems on " + machine_name(device::gl) + "\n\n" + o.str();
}

}  // namespace sluice::tool
