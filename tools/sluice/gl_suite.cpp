// `sluice bench --suite gl`: the papers' OpenGL systems on the gl device beside their CUDA
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

// One gl compaction by the flags of f, its count checked (a wrong answer is not timed); bytes as
// time_compaction counts them.
row* gl_compaction(runner& g, const std::string& spec, const std::vector<u32>& in, const flag_set& f, double ratio) {
  const bool unordered = unordered_only(spec);
  const std::string prim = unordered ? "compact_unordered" : "compact";
  if (!wanted(prim, spec)) return nullptr;
  std::uint64_t count = 0;
  const auto ms = gl_backend::time_compact(spec, unordered, in.data(), in.size(), sizeof(u32), f.fl.host.data(), gl_runs + 2, &count);
  if (count != static_cast<std::uint64_t>(f.kept))
    throw error(errc::gl_error, "sluice bench: gl " + spec + " counted " + std::to_string(count) + ", want " + fmt(f.kept, 0));
  const double bytes = static_cast<double>(in.size()) * (sizeof(u32) + 1) + f.kept * sizeof(u32);
  return g.record(prim, spec, "u32", ratio, bytes, median_after_warmup(ms), gl_runs);
}

// The two GL copies of g's n u32 (glCopyImageSubData, a fragment pass) as rows; the faster is g's yardstick.
void gl_yardstick(runner& g) {
  const double bytes = 2.0 * static_cast<double>(g.n()) * sizeof(u32);
  double fastest = 0;
  g.set_copy_rate(0);
  for (bool fragment_pass : {false, true}) {
    const auto ms = gl_backend::time_copy(g.n() * sizeof(u32), gl_runs + 2, fragment_pass);
    fastest = std::max(fastest, g.record("copy", fragment_pass ? "fragment-copy" : "glCopyImageSubData", "u32", -1, bytes,
                                         median_after_warmup(ms), gl_runs)->gbps);
  }
  g.set_copy_rate(fastest);
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
    flag_set f(n, ratio, cuda ? device::cuda : device::cpu);
    runner g(device::gl, n, gl_runs);
    gl_yardstick(g);
    for (const auto& spec : gl_compactions)
      if (const row* r = gl_compaction(g, spec, in, f, ratio)) t[n]["gl " + spec] = r->ms;
    if (wanted("reduce", "goddeke-multipass")) {
      std::uint64_t bits = 0;
      const auto ms = gl_backend::time_reduce("goddeke-multipass", gl_backend::scalar::u32, gl_backend::reduce_op::sum, in.data(), n, gl_runs + 2, &bits);
      u32 want = 0;
      for (u32 x : in) want += x;
      if (static_cast<u32>(bits) != want) throw error(errc::gl_error, "sluice bench: gl goddeke-multipass summed wrong");
      t[n]["gl goddeke-multipass"] =
          g.record("reduce", "goddeke-multipass", "u32", -1, static_cast<double>(n) * sizeof(u32), median_after_warmup(ms), gl_runs)->ms;
    }
    all.insert(all.end(), g.rows().begin(), g.rows().end());
    if (!cuda) continue;
    runner r(device::cuda, n, 20);
    buf<u32> din(in, device::cuda), dout(std::vector<u32>(n), device::cuda);
    yardstick(r, device::cuda, din, dout, "u32");
    for (const auto& spec : cuda_compactions)
      if (const row* x = time_compaction(r, din, f, dout, spec, "u32", ratio)) t[n]["cuda " + spec] = x->ms;
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
  runner fig_g(device::gl, fig_n, gl_runs);
  gl_yardstick(fig_g);
  for (int pct = 0; pct <= 100; pct += 10) {
    const flag_set fl(fig_n, pct / 100.0, device::cpu, 5);
    for (const auto& spec : gl_compactions)
      if (const row* r = gl_compaction(fig_g, spec, in, fl, pct / 100.0)) f.add("gl " + spec, pct / 100.0, r->ms);
  }
  all.insert(all.end(), fig_g.rows().begin(), fig_g.rows().end());
  figs.push_back(f);

  // Moreira Figs. 12-13 in OpenGL: the in-block pass alone (the MAS jumps, or Fig. 5's search) against the
  // valid ratio, blocks of 32 and 256, from the GPU timestamps between the passes.
  figure inb{"moreira-fig12-13", "Moreira Figs. 12-13 in OpenGL: the in-block pass alone, " + std::to_string(fig_n) + " u32",
             "valid ratio", "ms"};
  gl_backend::profile_capture(true);
  for (int pct = 0; pct <= 100; pct += 10) {
    const flag_set fl(fig_n, pct / 100.0, device::cpu, 5);
    for (const char* spec : {"jumping-jack:s=32", "jumping-jack:s=256", "roger:s=32", "roger:s=256"}) {
      const bool unordered = unordered_only(spec);
      if (!wanted(unordered ? "compact_unordered" : "compact", spec)) continue;
      std::uint64_t count = 0;
      (void)gl_backend::time_compact(spec, unordered, in.data(), fig_n, sizeof(u32), fl.fl.host.data(), 3, &count);
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
