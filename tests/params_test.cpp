// The registry's typed parameters (algorithms.hpp, detail/params.hpp), the command line's checks of names and
// parameters (tools/sluice/cli.cpp), the busy-machine rules and the figures' log axis (tools/sluice).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bench.hpp"
#include "cli.hpp"
#include "plot.hpp"
#include "sluice/sluice.hpp"

namespace {

using namespace sluice;

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error thrown";
  return {};
}

template <class F>
std::string arg_error_of(F&& f) {
  try {
    f();
  } catch (const tool::arg_error& e) {
    EXPECT_EQ(e.message.find('\n'), std::string::npos) << e.message;
    return e.message;
  }
  ADD_FAILURE() << "no arg_error thrown";
  return {};
}

tool::command_line parse(std::vector<std::string> words) { return tool::parse_command_line(words, false, 2); }

// The free text `sluice list` shows and the typed tunables say the same: each key, each choice list, each default.
TEST(params, every_tunable_is_described_in_the_registry_text) {
  for (const auto& a : algorithms()) {
    EXPECT_EQ(a.params.empty(), a.tunables.empty()) << to_string(a.prim) << " " << a.name;
    for (const auto& t : a.tunables) {
      const std::string text(a.params), key(t.key);
      EXPECT_TRUE(text.rfind(key, 0) == 0 || text.find(" " + key) != std::string::npos) << a.name << ": " << key;
      if (t.kind == detail::param_info::choice) EXPECT_NE(text.find(key + "=" + std::string(t.choices)), std::string::npos) << a.name << ": " << key;
      if (t.kind == detail::param_info::integer && !t.def.empty())
        EXPECT_NE(text.find(key + "=" + std::string(t.def)), std::string::npos) << a.name << ": " << key;
    }
  }
}

TEST(params, values_are_checked_against_the_tunables) {
  const auto& cpu = find_algorithm(primitive::compact, device::cpu, "billeter", "t");
  check_params(cpu, "billeter", "t");
  check_params(cpu, "billeter:threads=0,simd=scalar", "t");
  check_params(cpu, "billeter:threads=4096", "t");
  EXPECT_NE(error_of([&] { check_params(cpu, "billeter:threads=banana", "t"); }).find("threads=banana is not an integer in [0, 4096]"),
            std::string::npos);
  EXPECT_NE(error_of([&] { check_params(cpu, "billeter:threads=4097", "t"); }).find("[0, 4096]"), std::string::npos);
  EXPECT_NE(error_of([&] { check_params(cpu, "billeter:simd=avx9", "t"); }).find("is not one of auto, avx512, avx2, scalar"), std::string::npos);
  const auto unknown = error_of([&] { check_params(cpu, "billeter:P=4", "t"); });
  EXPECT_NE(unknown.find("unknown parameter 'P' (valid: threads, simd; threads: an integer in [0, 4096]; simd: auto|avx512|avx2|scalar)"),
            std::string::npos)
      << unknown;
  EXPECT_NE(error_of([&] { check_params(cpu, "billeter:threads=1,threads=2", "t"); }).find("given twice"), std::string::npos);
  const auto& roger = find_algorithm(primitive::compact, device::cuda, "roger", "t");
  check_params(roger, "roger:s=2,scan=hillis-steele", "t");
  EXPECT_NE(error_of([&] { check_params(roger, "roger:s=3", "t"); }).find("power of two in [2, 1024]"), std::string::npos);
  EXPECT_NE(error_of([&] { check_params(find_algorithm(primitive::reduce, device::cpu, "serial", "t"), "serial:x=1", "t"); })
                .find("takes no parameters"),
            std::string::npos);
}

// find_algorithm checks the values too, so every call with parameters is refused before any work.
TEST(params, find_algorithm_refuses_bad_values) {
  EXPECT_NE(error_of([] { (void)find_algorithm(primitive::compact, device::cpu, "billeter:threads=banana", "compact"); })
                .find("sluice::compact: algorithm 'billeter:threads=banana': threads=banana"),
            std::string::npos);
  std::vector<std::uint32_t> v = {1, 2, 3}, out(3);
  std::vector<std::uint8_t> f = {1, 0, 1};
  EXPECT_NE(error_of([&] { (void)sluice::compact(v, f, out, {device::cpu, "billeter:threads=5000"}); }).find("threads=5000"), std::string::npos);
  EXPECT_EQ(sluice::compact(v, f, out, {device::cpu, "billeter:threads=1,simd=scalar"}), 2u);
}

// The entries of one name whose tunables differ (decoupled-lookback's per primitive) take the keys they know.
TEST(params, takes_params_reads_the_typed_keys) {
  const auto& scan = find_algorithm(primitive::scan, device::cuda, "decoupled-lookback", "t");
  const auto& partition = find_algorithm(primitive::partition, device::cuda, "decoupled-lookback", "t");
  EXPECT_TRUE(takes_params(scan, "decoupled-lookback:pipelined=on,blocks=3,cluster=off", "t"));
  EXPECT_FALSE(takes_params(scan, "decoupled-lookback:phased=on", "t"));
  EXPECT_TRUE(takes_params(partition, "decoupled-lookback:phased=on,resident=off,reversed=on", "t"));
  EXPECT_FALSE(takes_params(find_algorithm(primitive::compact, device::cpu, "billeter", "t"), "billeter:s=2", "t"));
}

// Every name valid on a device is in the list an unknown name gets: billeter-scan came first and, a
// substring search deduplicating the list, hid billeter.
TEST(cli, unknown_names_list_every_valid_name) {
  for (const device d : {device::cpu, device::cuda, device::gl}) {
    const std::string listed = tool::names_on(d);
    std::set<std::string> seen;
    for (const auto& a : algorithms())
      if (runs_on(a, d) && seen.insert(std::string(a.name)).second)
        EXPECT_NE((", " + listed + ",").find(", " + std::string(a.name) + ","), std::string::npos) << to_string(d) << ": " << a.name;
  }
  const auto m = arg_error_of([] { parse({"verify", "--algo", "quantum"}); });
  EXPECT_NE(m.find("(valid: all, serial, vectorized, billeter-scan, billeter, split, lsd-serial, lsd-parallel, msd-lsd, three-phase, multisplit, radix-select)"), std::string::npos) << m;
}

TEST(cli, verify_checks_names_and_parameters_while_parsing) {
  EXPECT_NE(arg_error_of([] { parse({"verify", "--algo", "billeter:threads=banana"}); }).find("threads=banana is not an integer"), std::string::npos);
  EXPECT_NE(arg_error_of([] { parse({"verify", "--algo", "serial:x=1"}); }).find("'serial:x=1' takes no parameters"), std::string::npos);
  EXPECT_NE(arg_error_of([] { parse({"verify", "--device", "cuda", "--algo", "decoupled-lookback:phased=on,dynamic=on"}); })
                .find("takes these parameters together"),
            std::string::npos);
  const auto c = parse({"verify", "--device", "cuda", "--algo", "decoupled-lookback:phased=off"});
  ASSERT_EQ(c.verify_opts.targets.size(), 2u);  // compact and partition know `phased`; the scan does not
  EXPECT_EQ(c.verify_opts.targets[0].algo->prim, primitive::compact);
  EXPECT_EQ(c.verify_opts.targets[1].algo->prim, primitive::partition);
  EXPECT_EQ(c.verify_opts.targets[1].spec, "decoupled-lookback:phased=off");
}

TEST(cli, bench_checks_names_parameters_and_primitives_while_parsing) {
  EXPECT_NE(arg_error_of([] { parse({"bench", "--algo", "nope"}); }).find("unknown algorithm 'nope' on cpu (valid: best, serial"), std::string::npos);
  EXPECT_NE(arg_error_of([] { parse({"bench", "--algo", "billeter:threads=x"}); }).find("threads=x"), std::string::npos);
  EXPECT_NE(arg_error_of([] { parse({"bench", "--primitive", "nope"}); }).find("unknown primitive 'nope' (valid: reduce,"), std::string::npos);
  EXPECT_NE(arg_error_of([] { parse({"bench", "--primitive", "reduce", "--algo", "billeter"}); }).find("has no reduce variant on cpu"),
            std::string::npos);
  EXPECT_NE(arg_error_of([] { parse({"bench", "--algo", "best:s=1"}); }).find("takes no parameters"), std::string::npos);
  EXPECT_NO_THROW(parse({"bench", "--algo", "best", "--algo", "std::sort", "--algo", "billeter:threads=2", "--primitive", "compact"}));
  EXPECT_NO_THROW(parse({"bench", "--device", "cuda", "--suite", "production", "--algo", "cub-unstable", "--algo", "decoupled-lookback:blocks=8"}));
}

TEST(bench, busy_rules) {
  EXPECT_FALSE(tool::spread_looks_busy(1.0, 1.1));
  EXPECT_TRUE(tool::spread_looks_busy(1.0, 1.3));
  EXPECT_FALSE(tool::spread_looks_busy(0.001, 0.004));  // 3 us apart: the timers' jitter at small sizes
  EXPECT_FALSE(tool::drift_looks_busy(2.0, 2.2));
  EXPECT_TRUE(tool::drift_looks_busy(2.0, 2.6));
  EXPECT_TRUE(tool::drift_looks_busy(2.6, 2.0));
  EXPECT_FALSE(tool::drift_looks_busy(0, 2.0));  // not timed (gl)
}

std::string script_of(const tool::figure& f, const std::string& stem) {
  const auto dir = std::filesystem::temp_directory_path();
  (void)tool::write_figure(f, dir, stem, "test");
  std::ifstream in(dir / (stem + ".gp"));
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Bars 1000x apart get a log axis, in colours by group with a legend; bars 2x apart keep a linear one.
TEST(plot, bars_far_apart_get_a_log_axis_and_groups_their_colours) {
  tool::figure f{"t", "t", "x", "y"};
  f.bars = f.auto_log = true;
  f.groups = {{"sluice, the default on cpu", "#d62728"}, {"peers", "#8c8c8c"}};
  f.reference = 1, f.reference_label = "copy";
  f.add("compact billeter (default)", 0, 0.9, "sluice, the default on cpu");
  f.add("compact std::copy_if", 0, 0.0009, "peers");
  const auto wide = script_of(f, "sluice-params-test-wide");
  EXPECT_NE(wide.find("set logscale x 10"), std::string::npos) << wide;
  EXPECT_NE(wide.find("lc rgb variable"), std::string::npos);
  EXPECT_NE(wide.find("title \"peers\""), std::string::npos);
  EXPECT_NE(wide.find(std::to_string(0xd62728)), std::string::npos);  // the default's bar in its colour
  f.points.back().y = 0.45;
  EXPECT_EQ(script_of(f, "sluice-params-test-narrow").find("logscale"), std::string::npos);
}

}  // namespace
