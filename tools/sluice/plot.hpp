// The figures of `sluice bench`: one gnuplot script per figure, its data inline, and the PNG gnuplot draws
// from it; and the files of a run, written so that an interrupted run leaves none posing as complete.
#pragma once
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace sluice::tool {

struct figure {
  std::string id;      // file stem after the suite and device: "roger-fig9"
  std::string title;   // the paper figure it reproduces and what it shows
  std::string xlabel, ylabel;
  bool logx = false, logy = false;
  bool bars = false;  // one bar per series (x unused) instead of lines over x
  bool auto_log = false;  // the value axis logarithmic where the values span more than log_span
  static constexpr double log_span = 20;
  // bars: each series' group names its colour and legend entry ("sluice", "peer"); groups in order of first appearance
  struct group_style {
    std::string name, rgb;  // "#3b75af"
  };
  std::vector<group_style> groups;
  double reference = 0;         // bars: a dashed line at this value (the yardstick), none at 0
  std::string reference_label;
  struct point {
    std::string series;
    double x, y;
    std::string group = {};
  };
  std::vector<point> points;  // several points of one series at one x are drawn as their mean with min-max bars
  void add(const std::string& series, double x, double y, const std::string& group = {}) { points.push_back({series, x, y, group}); }
};

// Whether `gnuplot` runs here (looked up once).
bool gnuplot_present();

// Writes <dir>/<stem>.gp and, when gnuplot is present, draws <dir>/<stem>.png from it. `subtitle` names the
// machine. Returns the PNG written, or an empty path (no gnuplot, or it failed: said on stderr).
std::filesystem::path write_figure(const figure& f, const std::filesystem::path& dir, const std::string& stem, const std::string& subtitle);

// Writes `file` through write(path of a partial file), then renames it into place: Ctrl-C (SIGINT) or
// SIGTERM while it is written removes the partial file, so no half-written file poses as complete. False
// when the file could not be written.
bool write_whole_file(const std::filesystem::path& file, const std::function<bool(const std::filesystem::path&)>& write);

// write_whole_file of a text.
bool write_text_file(const std::filesystem::path& file, const std::string& text);

// Installs the SIGINT/SIGTERM handler write_whole_file relies on: it removes the partial file in progress,
// says "interrupted", and exits with 130.
void remove_partial_files_on_interrupt();

}  // namespace sluice::tool
