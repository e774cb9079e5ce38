// The by-key and segmented family on the CPU: reduce_by_key (and _async), inclusive_scan_by_key,
// exclusive_scan_by_key, segmented_reduce, segmented_inclusive_scan and segmented_exclusive_scan against a
// std:: reference over run and segment patterns, sizes around the three-phase blocks and thread counts; an
// associative operator that does not commute; float results that repeat bit for bit whatever the thread count;
// short outputs, bad offsets, overlaps and the devices without these algorithms, with guard elements that must
// stay untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sluice/cpu/three_phase_segmented.hpp"
#include "test_support.hpp"
#include "verify/generators.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

const char* const specs[] = {"best", "serial", "three-phase:threads=1", "three-phase:threads=2", "three-phase:threads=3", "three-phase:threads=8"};
const char* const parallel_specs[] = {"three-phase:threads=1", "three-phase:threads=2", "three-phase:threads=3", "three-phase:threads=8"};

// x -> a * x + b, composed left then right (modulo 2^64): associative, not commutative, so that a fold in the
// wrong order or a carry taken from the wrong side shows.
struct affine {
  std::uint64_t a = 1, b = 0;
  friend bool operator==(const affine&, const affine&) = default;
};
struct compose {
  affine operator()(const affine& f, const affine& g) const { return {g.a * f.a, g.a * f.b + g.b}; }
};

// The std:: reference: runs found with std::find_if, folded with std::accumulate, scanned with std::inclusive_scan
// and std::exclusive_scan.
template <class K>
std::vector<std::pair<std::uint64_t, std::uint64_t>> std_runs(const std::vector<K>& keys) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> r;
  for (auto it = keys.begin(); it != keys.end();) {
    const auto end = std::find_if(it + 1, keys.end(), [&](const K& x) { return !(x == *it); });
    r.push_back({static_cast<std::uint64_t>(it - keys.begin()), static_cast<std::uint64_t>(end - it)});
    it = end;
  }
  return r;
}
template <class V, class Op>
V std_fold(const std::vector<V>& v, std::uint64_t b, std::uint64_t e, V init, Op op) {
  return std::accumulate(v.begin() + static_cast<std::ptrdiff_t>(b), v.begin() + static_cast<std::ptrdiff_t>(e), init, op);
}
template <class V, class Op>
void std_scan(const std::vector<V>& v, std::uint64_t b, std::uint64_t e, std::vector<V>& out, bool inclusive, V init, Op op) {
  const auto first = v.begin() + static_cast<std::ptrdiff_t>(b), last = v.begin() + static_cast<std::ptrdiff_t>(e);
  if (inclusive) std::inclusive_scan(first, last, out.begin() + static_cast<std::ptrdiff_t>(b), op);
  else std::exclusive_scan(first, last, out.begin() + static_cast<std::ptrdiff_t>(b), init, op);
}

affine random_affine(std::uint64_t i) { return {(i * 0x9e3779b97f4a7c15ull) | 1, i * 2654435761u + 7}; }

// Every by-key function on keys and affine values under every spec, against the std:: reference.
template <class K>
void check_by_key(const std::vector<K>& keys, const std::string& what) {
  const std::uint64_t n = keys.size();
  std::vector<affine> values(n);
  for (std::uint64_t i = 0; i < n; ++i) values[i] = random_affine(i + 1);
  const affine init{3, 5};
  const auto runs = std_runs(keys);
  std::vector<affine> want_fold, want_inc(n), want_exc(n);
  for (const auto& [first, len] : runs) {
    want_fold.push_back(std_fold(values, first + 1, first + len, values[first], compose{}));
    std_scan(values, first, first + len, want_inc, true, init, compose{});
    std_scan(values, first, first + len, want_exc, false, init, compose{});
  }
  for (const char* spec : specs) {
    SCOPED_TRACE(what + " " + spec);
    const options o{device::cpu, spec};
    std::vector<K> out_k(n);
    std::vector<affine> out_v(n), out(n);
    ASSERT_EQ(sluice::reduce_by_key(keys, values, out_k, out_v, compose{}, o), runs.size());
    for (std::size_t r = 0; r < runs.size(); ++r) {
      ASSERT_TRUE(out_k[r] == keys[runs[r].first]) << "key of run " << r;
      ASSERT_EQ(out_v[r], want_fold[r]) << "value of run " << r;
    }
    std::uint64_t count = 0;
    sluice::reduce_by_key_async(keys, values, out_k, out_v, &count, compose{}, o);
    EXPECT_EQ(count, runs.size());
    sluice::inclusive_scan_by_key(keys, values, out, compose{}, o);
    EXPECT_TRUE(out == want_inc) << "inclusive_scan_by_key";
    sluice::exclusive_scan_by_key(keys, values, out, init, compose{}, o);
    EXPECT_TRUE(out == want_exc) << "exclusive_scan_by_key";
    auto in_place = values;
    sluice::inclusive_scan_by_key(keys, in_place, in_place, compose{}, o);
    EXPECT_TRUE(in_place == want_inc) << "inclusive_scan_by_key in place";
  }
}

template <class K>
void by_key_against_std() {
  const std::uint64_t block = cpu::detail_segmented::block_elements(sizeof(K) + sizeof(affine));
  const std::uint64_t sizes[] = {0, 1, 2, 3, block - 1, block, block + 1, 3 * block + 5};
  std::uint64_t seed = 60;
  for (std::uint64_t n : sizes)
    for (const auto p : verify::run_patterns)
      check_by_key(verify::make_runs<K>(n, p, ++seed), "n=" + std::to_string(n) + " " + verify::to_string(p));
}
TEST(segmented, by_key_against_std_u8) { by_key_against_std<std::uint8_t>(); }
TEST(segmented, by_key_against_std_u32) { by_key_against_std<std::uint32_t>(); }
TEST(segmented, by_key_against_std_f64) { by_key_against_std<double>(); }

// Every segmented function on `offsets` over affine values under every spec, against the std:: reference; out's
// elements outside [offsets[0], offsets.back()) keep their guard value.
void check_segmented(std::uint64_t n, const std::vector<std::uint64_t>& offsets, const std::string& what) {
  std::vector<affine> values(n);
  for (std::uint64_t i = 0; i < n; ++i) values[i] = random_affine(i + 11);
  const affine init{7, 1}, guard_value{0, 0xA5A5};
  const std::uint64_t segments = offsets.size() - 1;
  std::vector<affine> want_fold, want_inc(n, guard_value), want_exc(n, guard_value);
  for (std::uint64_t s = 0; s < segments; ++s) {
    want_fold.push_back(std_fold(values, offsets[s], offsets[s + 1], init, compose{}));
    std_scan(values, offsets[s], offsets[s + 1], want_inc, true, init, compose{});
    std_scan(values, offsets[s], offsets[s + 1], want_exc, false, init, compose{});
  }
  for (const char* spec : specs) {
    SCOPED_TRACE(what + " " + spec);
    const options o{device::cpu, spec};
    std::vector<affine> out(segments + 8, guard_value);
    sluice::segmented_reduce(values, offsets, std::span(out).first(segments), init, compose{}, o);
    EXPECT_TRUE(std::equal(want_fold.begin(), want_fold.end(), out.begin())) << "segmented_reduce";
    EXPECT_TRUE(std::all_of(out.begin() + static_cast<std::ptrdiff_t>(segments), out.end(), [&](const affine& x) { return x == guard_value; }))
        << "segmented_reduce wrote past the end";
    std::vector<affine> scanned(n + 8, guard_value);
    sluice::segmented_inclusive_scan(values, offsets, std::span(scanned).first(n), compose{}, o);
    EXPECT_TRUE(std::equal(want_inc.begin(), want_inc.end(), scanned.begin())) << "segmented_inclusive_scan";
    std::fill(scanned.begin(), scanned.end(), guard_value);
    sluice::segmented_exclusive_scan(values, offsets, std::span(scanned).first(n), init, compose{}, o);
    EXPECT_TRUE(std::equal(want_exc.begin(), want_exc.end(), scanned.begin())) << "segmented_exclusive_scan";
    EXPECT_TRUE(std::all_of(scanned.begin() + static_cast<std::ptrdiff_t>(n), scanned.end(), [&](const affine& x) { return x == guard_value; }))
        << "a segmented scan wrote past the end";
  }
}

TEST(segmented, segments_against_std) {
  const std::uint64_t block = cpu::detail_segmented::block_elements(sizeof(affine));
  std::uint64_t seed = 80;
  for (std::uint64_t n : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{2}, block - 1, block, block + 1, 3 * block + 5})
    for (const auto p : verify::segment_patterns)
      check_segmented(n, verify::make_offsets(n, p, ++seed, block), "n=" + std::to_string(n) + " " + verify::to_string(p));
  // Segment edges exactly on the block edges, and empty segments there.
  const std::uint64_t n = 4 * block;
  check_segmented(n, {0, block, block, 2 * block, 2 * block + 1, 3 * block - 1, 3 * block, n, n}, "edges on blocks");
  check_segmented(n, {block - 1, block - 1, block + 1, 2 * block}, "inside, from one before a block edge");
}

// Float sums repeat bit for bit whatever the thread count (the blocks are cut the same way for every P).
TEST(segmented, float_results_do_not_depend_on_threads) {
  const std::uint64_t n = (std::uint64_t{1} << 20) + 7;
  const auto values = verify::make_values<float>(n, 3, verify::value_kind::sum);
  const auto keys = verify::make_runs<std::uint32_t>(n, verify::run_pattern::long_runs, 4);
  const auto offsets = verify::make_offsets(n, verify::segment_pattern::power_law, 5, 0);
  const std::vector<std::uint64_t> one{0, n};
  std::vector<std::vector<float>> got;
  for (const char* spec : parallel_specs) {
    const options o{device::cpu, spec};
    std::vector<float> a(n), b(n), c(n), d(offsets.size()), e(1);
    std::vector<std::uint32_t> k(n);
    (void)sluice::reduce_by_key(keys, values, k, a, sum{}, o);
    sluice::inclusive_scan_by_key(keys, values, b, sum{}, o);
    sluice::segmented_exclusive_scan(values, offsets, c, 0.5f, sum{}, o);
    sluice::segmented_reduce(values, offsets, d, 0.0f, sum{}, o);
    sluice::segmented_reduce(values, one, e, 0.0f, sum{}, o);
    std::vector<float> all;
    for (const auto* v : {&a, &b, &c, &d, &e}) all.insert(all.end(), v->begin(), v->end());
    got.push_back(std::move(all));
  }
  for (std::size_t t = 1; t < got.size(); ++t)
    EXPECT_EQ(std::memcmp(got[t].data(), got[0].data(), got[0].size() * sizeof(float)), 0) << parallel_specs[t] << " differs from threads=1";
}

// Keys compare by operator==: each NaN key is a run of its own, -0.0 and +0.0 one run (its first key kept).
TEST(segmented, keys_compare_by_value) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> keys = {nan, nan, -0.0, 0.0, 0.0, 1.5, 1.5, nan};
  const std::vector<int> values = {1, 2, 3, 4, 5, 6, 7, 8};
  for (const char* spec : specs) {
    SCOPED_TRACE(spec);
    const options o{device::cpu, spec};
    std::vector<double> out_k(8);
    std::vector<int> out_v(8), scan(8);
    ASSERT_EQ(sluice::reduce_by_key(keys, values, out_k, out_v, sum{}, o), 5u);
    EXPECT_TRUE(std::isnan(out_k[0]) && std::isnan(out_k[1]) && std::isnan(out_k[4]));
    EXPECT_TRUE(out_k[2] == 0.0 && std::signbit(out_k[2])) << "the run's first key, -0.0";
    EXPECT_EQ((std::vector<int>(out_v.begin(), out_v.begin() + 5)), (std::vector<int>{1, 2, 12, 13, 8}));
    sluice::exclusive_scan_by_key(keys, values, scan, 100, sum{}, o);
    EXPECT_EQ(scan, (std::vector<int>{100, 100, 100, 103, 107, 100, 106, 100}));
  }
}

// A short output: reduce_by_key refuses it (invalid_argument) holding the first runs, the _async form leaves
// the full count; neither writes into the guard past the outputs.
TEST(segmented, short_outputs_are_refused_and_never_overrun) {
  const std::uint64_t n = (std::uint64_t{1} << 20) + 3;
  const auto keys = verify::make_runs<std::uint32_t>(n, verify::run_pattern::short_runs, 5);
  const std::vector<std::uint64_t> values(n, 1);
  const auto runs = std_runs(keys);
  constexpr std::size_t guard = 64;
  constexpr std::uint32_t poison = 0xA5A5A5A5u;
  for (const char* spec : specs) {
    SCOPED_TRACE(spec);
    const options o{device::cpu, spec};
    for (const std::uint64_t cap : {std::uint64_t{0}, std::uint64_t{1}, runs.size() / 3, runs.size() - 1}) {
      std::vector<std::uint32_t> out_k(cap + guard, poison);
      std::vector<std::uint64_t> out_v(cap + guard, poison);
      expect_error(errc::invalid_argument, {"sluice::reduce_by_key:", "'out_keys'", "runs"},
                   [&] { (void)sluice::reduce_by_key(keys, values, std::span(out_k).first(cap), std::span(out_v).first(cap), sum{}, o); });
      for (std::uint64_t r = 0; r < cap; ++r) ASSERT_TRUE(out_k[r] == keys[runs[r].first] && out_v[r] == runs[r].second) << "the first runs, at " << r;
      std::uint64_t count = 0;
      sluice::reduce_by_key_async(keys, values, std::span(out_k).first(cap), std::span(out_v).first(cap), &count, sum{}, o);
      EXPECT_EQ(count, runs.size());
      for (std::size_t i = cap; i < cap + guard; ++i) ASSERT_TRUE(out_k[i] == poison && out_v[i] == poison) << "written past the output at " << i;
    }
  }
}

// In place on the CPU: reduce_by_key's keys and values, and every scan's values.
TEST(segmented, in_place_on_cpu) {
  const std::uint64_t n = (std::uint64_t{1} << 20) + 3;
  const auto keys = verify::make_runs<std::uint64_t>(n, verify::run_pattern::short_runs, 9);
  const auto values = verify::make_values<std::int64_t>(n, 10);
  const auto offsets = verify::make_offsets(n, verify::segment_pattern::inner, 11, 0);
  std::vector<std::uint64_t> want_k(n);
  std::vector<std::int64_t> want_v(n), want_scan(n), want_seg(values);
  const auto runs = sluice::reduce_by_key(keys, values, want_k, want_v, sum{}, {device::cpu, "serial"});
  sluice::exclusive_scan_by_key(keys, values, want_scan, std::int64_t{4}, sum{}, {device::cpu, "serial"});
  sluice::segmented_inclusive_scan(values, offsets, want_seg, maximum{}, {device::cpu, "serial"});
  for (const char* spec : specs) {
    SCOPED_TRACE(spec);
    const options o{device::cpu, spec};
    auto k = keys;
    auto v = values;
    ASSERT_EQ(sluice::reduce_by_key(k, v, k, v, sum{}, o), runs);
    EXPECT_TRUE(std::equal(want_k.begin(), want_k.begin() + static_cast<std::ptrdiff_t>(runs), k.begin()));
    EXPECT_TRUE(std::equal(want_v.begin(), want_v.begin() + static_cast<std::ptrdiff_t>(runs), v.begin()));
    v = values;
    sluice::exclusive_scan_by_key(keys, v, v, std::int64_t{4}, sum{}, o);
    EXPECT_EQ(v, want_scan);
    v = values;
    sluice::segmented_inclusive_scan(v, offsets, v, maximum{}, o);
    EXPECT_EQ(v, want_seg) << "in place, elements outside the segments unchanged";
  }
}

TEST(segmented, offsets_are_checked_before_anything_is_written) {
  std::vector<std::int32_t> values(100, 1);
  constexpr std::int32_t poison = -12345;
  std::vector<std::int32_t> out(100, poison);
  const auto untouched = [&] { return std::all_of(out.begin(), out.end(), [](std::int32_t x) { return x == poison; }); };
  const std::vector<std::uint64_t> unsorted = {0, 10, 40, 30, 50}, past = {0, 50, 101}, empty = {};
  for (const char* spec : {"serial", "three-phase"}) {
    SCOPED_TRACE(spec);
    const options o{device::cpu, spec};
    expect_error(errc::invalid_argument, {"sluice::segmented_reduce:", "'offsets'", "decreases at 3: 40 then 30"},
                 [&] { sluice::segmented_reduce(values, unsorted, out, 0, sum{}, o); });
    expect_error(errc::invalid_argument, {"sluice::segmented_inclusive_scan:", "'offsets'", "ends at 101, past the 100 values"},
                 [&] { sluice::segmented_inclusive_scan(values, past, out, sum{}, o); });
    expect_error(errc::invalid_argument, {"sluice::segmented_exclusive_scan:", "'offsets'", "decreases"},
                 [&] { sluice::segmented_exclusive_scan(values, unsorted, out, 0, sum{}, o); });
    expect_error(errc::invalid_argument, {"'offsets'", "is empty"}, [&] { sluice::segmented_reduce(values, empty, out, 0, sum{}, o); });
    expect_error(errc::invalid_argument, {"'offsets'", "is empty"}, [&] { sluice::segmented_inclusive_scan(values, empty, out, sum{}, o); });
    EXPECT_TRUE(untouched());
    // One entry: zero segments, nothing written; offsets at the very end: the same.
    sluice::segmented_reduce(values, std::vector<std::uint64_t>{40}, std::span(out).first(0), 0, sum{}, o);
    sluice::segmented_inclusive_scan(values, std::vector<std::uint64_t>{100, 100}, out, sum{}, o);
    EXPECT_TRUE(untouched());
  }
}

TEST(segmented, argument_errors) {
  std::vector<std::uint32_t> keys(100, 3), out_k(100), short_k(99);
  std::vector<std::int64_t> values(100, 1), out(100), short_v(99);
  const std::vector<std::uint64_t> offsets = {0, 50, 100};
  expect_error(errc::invalid_argument, {"sluice::reduce_by_key_async:", "'count'", "null"},
               [&] { sluice::reduce_by_key_async(keys, values, out_k, out, nullptr); });
  expect_error(errc::invalid_argument, {"'values'", "99"}, [&] { (void)sluice::reduce_by_key(keys, short_v, out_k, out); });
  expect_error(errc::invalid_argument, {"'out_values'"}, [&] { (void)sluice::reduce_by_key(keys, values, out_k, short_v); });
  expect_error(errc::invalid_argument, {"'values'", "99"}, [&] { sluice::inclusive_scan_by_key(keys, short_v, out); });
  expect_error(errc::invalid_argument, {"sluice::exclusive_scan_by_key:", "'out'", "holds 99 elements but 100 are needed"},
               [&] { sluice::exclusive_scan_by_key(keys, values, short_v); });
  expect_error(errc::invalid_argument, {"sluice::segmented_reduce:", "'out'", "holds 1 elements but 2 are needed"},
               [&] { sluice::segmented_reduce(values, offsets, std::span(out).first(1)); });
  expect_error(errc::invalid_argument, {"sluice::segmented_inclusive_scan:", "'out'", "holds 99"},
               [&] { sluice::segmented_inclusive_scan(values, offsets, short_v); });
  // Overlaps: partial ones always; keys and offsets never share memory with an output.
  expect_error(errc::invalid_argument, {"'out'", "partially overlaps 'values'"},
               [&] { sluice::inclusive_scan_by_key(std::span(keys).first(50), std::span(values).first(50), std::span(values).subspan(10, 50)); });
  expect_error(errc::invalid_argument, {"'out'", "partially overlaps 'values'"},
               [&] { sluice::segmented_exclusive_scan(std::span(values).first(60), std::vector<std::uint64_t>{0, 60}, std::span(values).subspan(1, 60)); });
  std::vector<std::uint64_t> w(100, 1), wv(100, 1), wk(100);
  std::vector<std::uint32_t> v32(100, 1);
  expect_error(errc::invalid_argument, {"'out'", "overlaps 'keys'"}, [&] { sluice::inclusive_scan_by_key(w, w, w); });
  expect_error(errc::invalid_argument, {"'out_values'", "overlaps 'keys'"}, [&] { (void)sluice::reduce_by_key(w, wv, wk, w); });
  expect_error(errc::invalid_argument, {"'out_values'", "overlaps 'out_keys'"}, [&] { (void)sluice::reduce_by_key(keys, v32, out_k, out_k); });
  std::vector<std::uint64_t> off_and_out = {0, 1, 2, 3, 4, 5};
  expect_error(errc::invalid_argument, {"'out'", "overlaps 'offsets'"},
               [&] { sluice::segmented_reduce(w, std::span(off_and_out).first(3), std::span(off_and_out).subspan(2, 2)); });
  expect_error(errc::invalid_argument, {"'out'", "overlaps 'values'"}, [&] { sluice::segmented_reduce(values, offsets, values); });
  expect_error(errc::invalid_argument, {"null"},
               [&] { sluice::segmented_reduce(std::span<const std::int64_t>(static_cast<const std::int64_t*>(nullptr), 5), offsets, out); });
  expect_error(errc::invalid_argument, {"unknown algorithm 'nope'", "three-phase"}, [&] { sluice::segmented_reduce(values, offsets, out, std::int64_t{0}, sum{}, {device::cpu, "nope"}); });
  expect_error(errc::invalid_argument, {"three-phase:s=2"}, [&] { sluice::inclusive_scan_by_key(keys, values, out, sum{}, {device::cpu, "three-phase:s=2"}); });
  expect_error(errc::invalid_argument, {"takes no parameters"}, [&] { (void)sluice::reduce_by_key(keys, values, out_k, out, sum{}, {device::cpu, "serial:threads=2"}); });
}

// Without CUDA in the build (or without a GPU) the cuda device is missing (cuda_segmented_test.cpp tests the
// GPU); gl has no by-key or segmented algorithm.
TEST(segmented, devices_without_a_backend) {
  const options o{device::cuda};
  if (!device_available(device::cuda)) {
    std::vector<std::uint32_t> k(10), ok(10);
    std::vector<std::int32_t> v(10), out(10);
    const std::vector<std::uint64_t> off = {0, 10};
    expect_error(errc::no_device, {"sluice::reduce_by_key:"}, [&] { (void)sluice::reduce_by_key(k, v, ok, out, sum{}, o); });
    expect_error(errc::no_device, {"sluice::inclusive_scan_by_key:"}, [&] { sluice::inclusive_scan_by_key(k, v, out, sum{}, o); });
    expect_error(errc::no_device, {"sluice::segmented_reduce:"}, [&] { sluice::segmented_reduce(v, off, out, 0, sum{}, o); });
    expect_error(errc::no_device, {"sluice::segmented_exclusive_scan:"}, [&] { sluice::segmented_exclusive_scan(v, off, out, 0, sum{}, o); });
  }
  for (auto p : {primitive::reduce_by_key, primitive::scan_by_key, primitive::segmented_reduce, primitive::segmented_scan})
    expect_error(errc::unsupported, {"the gl device has no " + std::string(to_string(p)) + " algorithm"},
                 [&] { (void)find_algorithm(p, device::gl, "best", "test"); });
}

}  // namespace
