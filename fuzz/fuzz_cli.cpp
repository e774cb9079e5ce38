// libFuzzer target: the command line of `sluice`. The input is split at NUL bytes into arguments
// and parsed (tools/sluice/cli.cpp, which runs nothing). A bad argument must be an arg_error with a
// non-empty one-line message; anything else escaping, or a sanitizer report, is a finding.
// Build and run: scripts/fuzz.sh.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> words(1);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) words.emplace_back();
    else words.back().push_back(static_cast<char>(data[i]));
  }
  if (size == 0) words.clear();
  for (bool cuda : {false, true}) {
    try {
      const auto c = sluice::tool::parse_command_line(words, cuda, 4);
      if (c.what == sluice::tool::command_line::help && c.help_text == nullptr) std::abort();
      if (c.what == sluice::tool::command_line::verify && (c.verify_opts.jobs == 0 || c.verify_opts.sample == 0 || c.verify_opts.algos.empty())) std::abort();
    } catch (const sluice::tool::arg_error& e) {
      if (e.message.empty()) std::abort();
      bool newline_given = false;  // messages quote the bad argument, so only a newline of their own counts
      for (const auto& w : words) newline_given = newline_given || w.find('\n') != std::string::npos;
      if (!newline_given && e.message.find('\n') != std::string::npos) std::abort();  // one line
    }
  }
  return 0;
}
