// Figures drawn by gnuplot (plot.hpp). Each script carries its data, so `gnuplot NAME.gp` redraws NAME.png
// anywhere, e.g. from the scripts a run on a machine without gnuplot left behind.
#include "plot.hpp"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace sluice::tool {

namespace {

// The partial file being written, for the signal handler (async-signal-safe: a fixed buffer and unlink).
char partial_path[4096];
volatile std::sig_atomic_t partial_set = 0;

extern "C" void on_interrupt(int) {
  if (partial_set) unlink(partial_path);
  static const char msg[] = "\nsluice bench: interrupted; no partial file was left\n";
  (void)!write(2, msg, sizeof msg - 1);
  _exit(130);
}

// A string for gnuplot between double quotes.
std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '\n') {
      q += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

std::string script(const figure& f, const std::string& stem, const std::string& subtitle) {
  // Series in order of first appearance; per series, x ascending, several y at one x summarized.
  std::vector<std::string> series;
  std::map<std::string, std::map<double, std::vector<double>>> data;
  for (const auto& p : f.points) {
    if (!data.count(p.series)) series.push_back(p.series);
    data[p.series][p.x].push_back(p.y);
  }
  bool spread = false;
  for (const auto& [s, xs] : data)
    for (const auto& [x, ys] : xs) spread = spread || ys.size() > 1;

  std::ostringstream g;
  g.precision(9);
  g << "# sluice bench: " << f.title << "\n# Draw it with: gnuplot " << stem << ".gp   (writes " << stem << ".png)\n";
  g << "if (!exists(\"out\")) out = " << quoted(stem + ".png") << "\n";
  // Bars run across, one line of text each, so the labels stay whole however many there are.
  const std::size_t height = f.bars ? std::max<std::size_t>(400, 160 + 22 * series.size()) : 800;
  g << "set terminal pngcairo size 1280," << height << " enhanced font \"DejaVu Sans,12\"\nset output out\n";
  g << "set title " << quoted(f.title + (subtitle.empty() ? "" : "\n" + subtitle)) << " noenhanced\n";
  g << "set xlabel " << quoted(f.xlabel) << " noenhanced\nset ylabel " << quoted(f.ylabel) << " noenhanced\n";
  g << "set grid\nset key below\nset datafile missing \"?\"\n";
  if (f.logx) g << "set logscale x 2\nset format x \"2^{%L}\"\n";
  // auto_log: the value axis logarithmic where the positive values span more than log_span (bars 1000x apart
  // on one linear axis leave the small ones invisible).
  double lo = 0, hi = 0;
  for (const auto& p : f.points)
    if (p.y > 0) lo = lo > 0 ? std::min(lo, p.y) : p.y, hi = std::max(hi, p.y);
  const bool log_values = f.logy || (f.auto_log && lo > 0 && hi / lo > figure::log_span);
  if (log_values && !f.bars) g << "set logscale y 10\n";
  if (f.bars) {
    // Bars start at the axis' left end: 0 on a linear axis, a power of ten below the smallest on a log one.
    const double base = log_values ? std::pow(10.0, std::floor(std::log10(lo))) : 0.0;
    g << "set style fill solid 0.8 border -1\nset ytics scale 0 noenhanced\nunset grid\nset grid xtics\n";
    if (log_values) g << "set logscale x 10\nset xrange [" << base << ":*]\n";
    else g << "set xrange [0:*]\n";
    g << "set yrange [" << series.size() << ":-1]\n";  // the first bar on top
    if (f.groups.empty()) g << "unset key\n";
    else g << "set key outside below horizontal noenhanced\n";
    if (f.reference > 0) g << "set arrow from " << f.reference << ", graph 0 to " << f.reference << ", graph 1 nohead dt 2 lw 2 lc rgb \"#444444\"\n";
    auto colour_of = [&](const std::string& series_name) {
      std::string group;
      for (const auto& p : f.points)
        if (p.series == series_name) group = p.group;
      for (const auto& gs : f.groups)
        if (gs.name == group) return gs.rgb;
      return std::string("#3b75af");
    };
    g << "$bars << EOD\n";
    for (const auto& s : series) {
      const auto& ys = data[s].begin()->second;
      double m = 0;
      for (double y : ys) m += y;
      const std::string rgb = colour_of(s);
      g << quoted(s) << " " << m / static_cast<double>(ys.size()) << " " << std::stoul(rgb.substr(1), nullptr, 16) << "\n";
    }
    g << "EOD\nplot $bars using (" << base << "):0:(" << base << "):2:($0-0.35):($0+0.35):3:ytic(1) with boxxyerror lc rgb variable notitle";
    for (const auto& gs : f.groups) g << ", \\\n  NaN with boxes lc rgb " << quoted(gs.rgb) << " title " << quoted(gs.name);
    if (f.reference > 0) g << ", \\\n  NaN with lines dt 2 lw 2 lc rgb \"#444444\" title " << quoted(f.reference_label);
    g << "\n";
    return g.str();
  }
  for (std::size_t k = 0; k < series.size(); ++k) {
    g << "$s" << k << " << EOD\n";
    for (const auto& [x, ys] : data[series[k]]) {
      double m = 0, lo = ys[0], hi = ys[0];
      for (double y : ys) m += y, lo = std::min(lo, y), hi = std::max(hi, y);
      g << x << " " << m / static_cast<double>(ys.size()) << " " << lo << " " << hi << "\n";
    }
    g << "EOD\n";
  }
  g << "plot \\\n";
  for (std::size_t k = 0; k < series.size(); ++k) {
    g << "  $s" << k << (spread ? " using 1:2:3:4 with yerrorlines" : " using 1:2 with linespoints") << " lw 2 pt " << (k % 13) + 1
      << " title " << quoted(series[k]) << " noenhanced" << (k + 1 < series.size() ? ", \\\n" : "\n");
  }
  if (series.empty()) g << "  NaN notitle\n";
  return g.str();
}

void set_partial(const std::filesystem::path& p) {
  const std::string s = p.string();
  partial_set = 0;
  if (s.size() >= sizeof partial_path) return;  // too long to remember: an interrupt leaves it (named .partial)
  std::memcpy(partial_path, s.c_str(), s.size() + 1);
  partial_set = 1;
}

// Runs gnuplot on `gp`, its output to `png`; true when it exited 0.
bool run_gnuplot(const std::filesystem::path& gp, const std::filesystem::path& png) {
  std::string out = png.string(), esc;
  for (char c : out) esc += c == '\'' ? std::string("''") : std::string(1, c);
  std::string e = "out='" + esc + "'", g = gp.string();
  char prog[] = "gnuplot", dash_e[] = "-e";
  char* argv[] = {prog, dash_e, e.data(), g.data(), nullptr};
  pid_t pid;
  if (posix_spawnp(&pid, "gnuplot", nullptr, nullptr, argv, environ) != 0) return false;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

void remove_partial_files_on_interrupt() {
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
}

bool write_whole_file(const std::filesystem::path& file, const std::function<bool(const std::filesystem::path&)>& write) {
  const auto partial = std::filesystem::path(file.string() + ".partial");
  set_partial(partial);
  bool ok = write(partial);
  std::error_code ec;
  if (ok) std::filesystem::rename(partial, file, ec);
  if (!ok || ec) std::filesystem::remove(partial, ec), ok = false;
  partial_set = 0;
  return ok;
}

bool write_text_file(const std::filesystem::path& file, const std::string& text) {
  return write_whole_file(file, [&](const std::filesystem::path& p) {
    std::ofstream o(p);
    o << text;
    o.flush();
    return static_cast<bool>(o);
  });
}

bool gnuplot_present() {
  static const bool present = [] {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    for (std::string d; std::getline(dirs, d, ':');)
      if (!d.empty() && access((std::filesystem::path(d) / "gnuplot").c_str(), X_OK) == 0) return true;
    return false;
  }();
  return present;
}

std::filesystem::path write_figure(const figure& f, const std::filesystem::path& dir, const std::string& stem, const std::string& subtitle) {
  const auto gp = dir / (stem + ".gp"), png = dir / (stem + ".png");
  const std::string text = script(f, stem, subtitle);
  if (!write_text_file(gp, text)) {
    std::fprintf(stderr, "sluice bench: cannot write '%s'\n", gp.string().c_str());
    return {};
  }
  if (!gnuplot_present()) return {};
  if (!write_whole_file(png, [&](const std::filesystem::path& p) { return run_gnuplot(gp, p); })) {
    std::fprintf(stderr, "sluice bench: gnuplot could not draw '%s' from '%s'\n", png.string().c_str(), gp.string().c_str());
    return {};
  }
  return png;
}

}  // namespace sluice::tool
