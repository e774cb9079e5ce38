// reduce_by_key, the scans by key, segmented_reduce and the segmented scans against the reference: integers,
// min and max, and every result of the serial variant bit for bit; float sums and products of the parallel
// variants within the stated tolerance of a long double reference (they fold in fixed blocks). Run patterns of
// keys and segment patterns of offsets, sizes around the CPU blocks, poisoned outputs whose guard must stay
// untouched, in place, too-small outputs and bad offsets that must be refused.
#include <algorithm>
#include <cmath>

#include "reference/reference.hpp"
#include "sluice/segmented.hpp"
#include "verify/check.hpp"

namespace sluice::verify {
namespace {

template <class Op> constexpr const char* op_name();
template <> constexpr const char* op_name<sum>() { return "sum"; }
template <> constexpr const char* op_name<product>() { return "product"; }
template <> constexpr const char* op_name<minimum>() { return "min"; }
template <> constexpr const char* op_name<maximum>() { return "max"; }

template <class Op> constexpr value_kind kind_of() {
  if constexpr (std::is_same_v<Op, sum>) return value_kind::sum;
  else if constexpr (std::is_same_v<Op, product>) return value_kind::product;
  else return value_kind::minmax;
}

// The reference's outputs for one call, and how got[i] is judged against them: bit for bit, or (float sums and
// products of a parallel variant) within the tolerance of verify.hpp relative to `scale`, a product of k factors
// also within k unit roundoffs.
template <class T, class Op>
struct expected {
  bool bitwise = true;
  std::vector<T> bits;
  std::vector<long double> wide, scale;
  std::vector<std::uint64_t> factors;
  std::string at(std::size_t i, const T& got) const {
    if (bitwise) return same_bits(got, bits[i]) ? "" : "got " + show(got) + ", want " + show(bits[i]);
    if constexpr (std::is_floating_point_v<T>) {
      double tol = std::is_same_v<T, float> ? f32_tolerance : f64_tolerance;
      if constexpr (std::is_same_v<Op, product>) tol = std::max(tol, static_cast<double>(factors[i]) * unit_roundoff<T>);
      const long double s = scale[i] > 0 ? scale[i] : 1;
      if (!std::isnan(static_cast<double>(got)) && std::fabs(static_cast<long double>(got) - wide[i]) <= tol * s) return "";
    }
    return "got " + show(got) + ", want " + show(static_cast<double>(wide[i])) + " (beyond tolerance)";
  }
  // got[first, last) against the reference at the same positions.
  std::string range(const char* what, const std::vector<T>& got, std::uint64_t first, std::uint64_t last) const {
    for (std::uint64_t i = first; i < last; ++i)
      if (auto p = at(i, got[i]); !p.empty()) return std::string(what) + " at " + std::to_string(i) + ": " + p;
    return "";
  }
};

// ref(values, init, op) in T; for the float sums and products of a parallel variant also in long double, with the
// scale (the same call on magnitudes, or the result for products) and the factor counts (the call on ones).
template <class T, class Op, class Ref>
expected<T, Op> expect(const context& c, const std::vector<T>& values, T init, Ref ref) {
  expected<T, Op> e;
  e.bits = ref(values, init, Op{});
  e.bitwise = !std::is_floating_point_v<T> || std::is_same_v<Op, minimum> || std::is_same_v<Op, maximum> || c.algo.name == "serial";
  if constexpr (std::is_floating_point_v<T>) {
    if (e.bitwise) return e;
    const std::vector<long double> w(values.begin(), values.end());
    e.wide = ref(w, static_cast<long double>(init), Op{});
    if constexpr (std::is_same_v<Op, sum>) {
      std::vector<long double> mag(w.size());
      for (std::size_t i = 0; i < w.size(); ++i) mag[i] = std::fabs(w[i]);
      e.scale = ref(mag, std::fabs(static_cast<long double>(init)), sum{});
    } else {
      for (long double x : e.wide) e.scale.push_back(std::fabs(x));
    }
    e.factors = ref(std::vector<std::uint64_t>(values.size(), 1), std::uint64_t{1}, sum{});
  }
  return e;
}

std::string count_problem(std::uint64_t got, std::uint64_t want) {
  return got == want ? "" : "count " + std::to_string(got) + ", want " + std::to_string(want);
}

// Elements of got from `from` on still poisoned (nothing written past the end).
template <class T>
std::string untouched(const char* what, const std::vector<T>& got, std::uint64_t from, std::uint64_t to) {
  for (std::uint64_t i = from; i < to && i < got.size(); ++i)
    if (!is_poison(got[i])) return std::string(what) + ": written outside its range at " + std::to_string(i);
  return "";
}

// mode 0: exact outputs; 1: one fewer than the runs (refused, the first runs right); 2: _async with half the
// runs' room (the full count, the first half right); 3: in place (cpu).
template <class K, class V, class Op>
std::string reduce_by_key_case(context& c, const std::vector<K>& keys, const std::vector<V>& values, int mode) {
  const auto want_keys = reference::reduce_by_key(keys, values, Op{}).first;
  const auto e = expect<V, Op>(c, values, V{}, [&](const auto& v, auto, auto op) { return reference::reduce_by_key(keys, v, op).second; });
  const std::uint64_t runs = want_keys.size();
  const std::uint64_t cap = mode == 1 ? runs - 1 : mode == 2 ? runs / 2 : runs;
  auto out_k = staged<K>::poisoned(cap, c.s.dev);
  auto out_v = staged<V>::poisoned(cap, c.s.dev);
  std::uint64_t count = 0;
  if (mode == 3) {
    std::vector<K> k = keys;
    std::vector<V> v = values;
    count = sluice::reduce_by_key(k, v, k, v, Op{}, c.opt());
    if (auto p = count_problem(count, runs); !p.empty()) return p;
    for (std::uint64_t i = 0; i < runs; ++i)
      if (!same_bits(k[i], want_keys[i])) return "in place: key at " + std::to_string(i);
    return e.range("in place: value", v, 0, runs);
  }
  staged<K> in_k(keys, c.s.dev);
  staged<V> in_v(values, c.s.dev);
  staged<std::uint64_t> async_count(std::vector<std::uint64_t>{0}, c.s.dev);  // device memory on cuda
  try {
    if (mode == 2) {
      sluice::reduce_by_key_async(in_k.span(), in_v.span(), out_k.span(), out_v.span(), async_count.span().data(), Op{}, c.opt());
      count = async_count.fetch()[0];
    } else {
      count = sluice::reduce_by_key(in_k.span(), in_v.span(), out_k.span(), out_v.span(), Op{}, c.opt());
    }
  } catch (const sluice::error& err) {
    if (mode != 1) throw;
    if (err.code() != errc::invalid_argument) return std::string("wrong error code: ") + err.what();
    count = runs;
  }
  if (mode == 1 && count != runs) return "a too-small out was accepted";
  if (auto p = count_problem(count, runs); !p.empty()) return p;
  const auto got_k = out_k.fetch();
  const auto got_v = out_v.fetch();
  for (std::uint64_t i = 0; i < cap; ++i)
    if (!same_bits(got_k[i], want_keys[i])) return "key at " + std::to_string(i) + ": got " + show(got_k[i]) + ", want " + show(want_keys[i]);
  if (auto p = e.range("value", got_v, 0, cap); !p.empty()) return p;
  if (auto p = untouched("out_keys", got_k, cap, cap + guard); !p.empty()) return p;
  return untouched("out_values", got_v, cap, cap + guard);
}

// mode 0: inclusive; 1: exclusive; 2: exclusive in place.
template <class K, class V, class Op>
std::string scan_by_key_case(context& c, const std::vector<K>& keys, const std::vector<V>& values, V init, int mode) {
  const bool inclusive = mode == 0;
  const auto e = expect<V, Op>(c, values, init, [&](const auto& v, auto i, auto op) { return reference::scan_by_key(keys, v, inclusive, i, op); });
  const std::uint64_t n = values.size();
  staged<V> in(values, c.s.dev);
  auto out = staged<V>::poisoned(n, c.s.dev);
  staged<K> in_k(keys, c.s.dev);
  if (mode == 0) sluice::inclusive_scan_by_key(in_k.span(), in.span(), out.span(), Op{}, c.opt());
  else if (mode == 1) sluice::exclusive_scan_by_key(in_k.span(), in.span(), out.span(), init, Op{}, c.opt());
  else sluice::exclusive_scan_by_key(in_k.span(), in.span(), in.span(), init, Op{}, c.opt());
  const auto got = mode == 2 ? in.fetch() : out.fetch();
  if (mode != 2)
    if (auto p = untouched("out", got, n, n + guard); !p.empty()) return p;
  return e.range("out", got, 0, n);
}

// Offsets that decrease, or end past the values: refused before anything is written.
template <class T>
std::string bad_offsets_case(context& c, const std::vector<T>& values, bool reduce) {
  const std::uint64_t n = values.size();
  const std::vector<std::uint64_t> bad[] = {{0, n / 2 + 1, n / 2, n}, {0, n / 3, n + 1}};
  staged<T> in(values, c.s.dev);
  for (const auto& host_off : bad) {
    auto out = staged<T>::poisoned(std::max<std::uint64_t>(n, host_off.size()), c.s.dev);  // room for every segment's result
    staged<std::uint64_t> off(host_off, c.s.dev);
    try {
      if (reduce) sluice::segmented_reduce(in.span(), off.span(), out.span().first(host_off.size() - 1), T{}, sum{}, c.opt());
      else sluice::segmented_inclusive_scan(in.span(), off.span(), out.span(), sum{}, c.opt());
      return "offsets " + std::to_string(host_off[1]) + ", " + std::to_string(host_off[2]) + " were accepted";
    } catch (const sluice::error& err) {
      if (err.code() != errc::invalid_argument) return std::string("wrong error code: ") + err.what();
    }
    if (auto p = untouched("out", out.fetch(), 0, ~std::uint64_t{0}); !p.empty()) return p;
  }
  return "";
}

// mode 0: segmented_reduce; 1: inclusive scan; 2: exclusive scan; 3: exclusive scan in place.
template <class T, class Op>
std::string segmented_case(context& c, const std::vector<T>& values, const std::vector<std::uint64_t>& offsets, T init, int mode) {
  const std::uint64_t n = values.size(), segments = offsets.size() - 1;
  if (mode == 0) {
    const auto e = expect<T, Op>(c, values, init, [&](const auto& v, auto i, auto op) { return reference::segmented_reduce(v, offsets, i, op); });
    auto out = staged<T>::poisoned(segments, c.s.dev);
    staged<T> in(values, c.s.dev);
    staged<std::uint64_t> off(offsets, c.s.dev);
    sluice::segmented_reduce(in.span(), off.span(), out.span(), init, Op{}, c.opt());
    const auto got = out.fetch();
    if (auto p = untouched("out", got, segments, segments + guard); !p.empty()) return p;
    return e.range("out", got, 0, segments);
  }
  const bool inclusive = mode == 1;
  const auto e = expect<T, Op>(c, values, init, [&](const auto& v, auto i, auto op) {
    using U = std::remove_cvref_t<decltype(v[0])>;
    return reference::segmented_scan(v, offsets, std::vector<U>(v.size()), inclusive, i, op);
  });
  staged<T> in(values, c.s.dev);
  staged<std::uint64_t> off(offsets, c.s.dev);
  auto out = staged<T>::poisoned(n, c.s.dev);
  if (mode == 1) sluice::segmented_inclusive_scan(in.span(), off.span(), out.span(), Op{}, c.opt());
  else if (mode == 2) sluice::segmented_exclusive_scan(in.span(), off.span(), out.span(), init, Op{}, c.opt());
  else sluice::segmented_exclusive_scan(in.span(), off.span(), in.span(), init, Op{}, c.opt());
  const auto got = mode == 3 ? in.fetch() : out.fetch();
  const std::uint64_t lo = offsets.front(), hi = offsets.back();
  if (mode == 3) {
    for (std::uint64_t i = 0; i < n; ++i)
      if ((i < lo || i >= hi) && !same_bits(got[i], values[i])) return "in place: changed outside the segments at " + std::to_string(i);
  } else {
    if (auto p = untouched("out", got, 0, lo); !p.empty()) return p;
    if (auto p = untouched("out", got, hi, n + guard); !p.empty()) return p;
  }
  return e.range("out", got, lo, hi);
}

// The sizes of the matrix and the blocks' edges (`block` elements a block); without `large`, none past 2^16 + 1
// or the blocks' edges (the large sizes run for the sums of the main types only, which keeps the full matrix
// of a variant near a minute on two cores).
std::vector<std::uint64_t> sizes_for(context& c, std::uint64_t block, bool large) {
  std::vector<std::uint64_t> sizes = c.sparse();
  if (!large) std::erase_if(sizes, [&](std::uint64_t n) { return n > (std::uint64_t{1} << 16) + 1 && n > 3 * block + 1; });
  for (std::uint64_t n : {block - 1, block, block + 1, 3 * block + 1})
    if (n <= (std::uint64_t{1} << c.max_log2()) + 1) sizes.push_back(n);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return c.capped(sizes);
}

// by-key cases of one key type, value type and operator; all_patterns: every run pattern, else three.
template <class K, class V, class Op>
void by_key_cases(context& c, bool all_patterns, bool large) {
  std::uint64_t seed = 9000;
  const bool reduce = c.algo.prim == primitive::reduce_by_key;
  for (const auto p : run_patterns) {
    if (!all_patterns && p != run_pattern::alternating && p != run_pattern::short_runs && p != run_pattern::long_runs) continue;
    for (std::uint64_t n : sizes_for(c, cpu::detail_segmented::block_elements(sizeof(K) + sizeof(V)), large)) {
      const std::string base = std::string("keys ") + type_name<K>() + " values " + type_name<V>() + " " + op_name<Op>() + " n=" +
                               std::to_string(n) + " " + to_string(p);
      const auto keys = make_runs<K>(n, p, ++seed);
      const auto values = make_values<V>(n, seed * 13, kind_of<Op>());
      const V init = make_values<V>(1, seed * 7, kind_of<Op>())[0];
      if (reduce) {
        c.run_case(base, [&] { return reduce_by_key_case<K, V, Op>(c, keys, values, 0); });
        if (n > 0) c.run_case(base + " out too small", [&] { return reduce_by_key_case<K, V, Op>(c, keys, values, 1); });
        c.run_case(base + " async, half the room", [&] { return reduce_by_key_case<K, V, Op>(c, keys, values, 2); });
        if (c.s.dev == device::cpu) c.run_case(base + " in place", [&] { return reduce_by_key_case<K, V, Op>(c, keys, values, 3); });
      } else {
        c.run_case(base + " inclusive", [&] { return scan_by_key_case<K, V, Op>(c, keys, values, init, 0); });
        c.run_case(base + " exclusive", [&] { return scan_by_key_case<K, V, Op>(c, keys, values, init, 1); });
        if (c.s.dev == device::cpu) c.run_case(base + " exclusive in place", [&] { return scan_by_key_case<K, V, Op>(c, keys, values, init, 2); });
      }
    }
  }
}

template <class T, class Op>
void segmented_cases(context& c, bool all_patterns, bool large) {
  std::uint64_t seed = 9500;
  const bool reduce = c.algo.prim == primitive::segmented_reduce;
  const std::uint64_t block = cpu::detail_segmented::block_elements(sizeof(T));
  for (const auto p : segment_patterns) {
    if (!all_patterns && p != segment_pattern::power_law && p != segment_pattern::one_huge && p != segment_pattern::block_edged) continue;
    for (std::uint64_t n : sizes_for(c, block, large)) {
      const std::string base = std::string(type_name<T>()) + " " + op_name<Op>() + " n=" + std::to_string(n) + " " + to_string(p);
      const auto values = make_values<T>(n, ++seed, kind_of<Op>());
      const auto offsets = make_offsets(n, p, seed * 3, block);
      const T init = make_values<T>(1, seed * 7, kind_of<Op>())[0];
      if (reduce) {
        c.run_case(base, [&] { return segmented_case<T, Op>(c, values, offsets, init, 0); });
      } else {
        c.run_case(base + " inclusive", [&] { return segmented_case<T, Op>(c, values, offsets, init, 1); });
        c.run_case(base + " exclusive", [&] { return segmented_case<T, Op>(c, values, offsets, init, 2); });
        if (c.s.dev == device::cpu) c.run_case(base + " exclusive in place", [&] { return segmented_case<T, Op>(c, values, offsets, init, 3); });
      }
      if (all_patterns && n > 0 && p == segment_pattern::short_segments)
        c.run_case(std::string(type_name<T>()) + " n=" + std::to_string(n) + " bad offsets refused", [&] { return bad_offsets_case<T>(c, values, reduce); });
    }
  }
}

// Float sums must repeat bit for bit from run to run: the same input twice, long runs and power-law segments.
template <class T>
void repeatable_cases(context& c) {
  if (!c.algo.stable) return;
  const std::uint64_t n = c.sparse().back();
  c.run_case(std::string(type_name<T>()) + " sum n=" + std::to_string(n) + " bitwise identical run to run", [&]() -> std::string {
    const auto values = make_values<T>(n, 4343, value_kind::sum);
    const auto keys = make_runs<std::uint32_t>(n, run_pattern::long_runs, 4344);
    const auto offsets = make_offsets(n, segment_pattern::power_law, 4345, 0);
    staged<T> v(values, c.s.dev);
    staged<std::uint32_t> k(keys, c.s.dev);
    staged<std::uint64_t> off(offsets, c.s.dev);
    std::vector<T> a, b;
    for (std::vector<T>* got : {&a, &b}) {
      staged<T> out(std::vector<T>(n), c.s.dev);
      staged<std::uint32_t> out_k(std::vector<std::uint32_t>(n), c.s.dev);
      switch (c.algo.prim) {
        case primitive::reduce_by_key: (void)sluice::reduce_by_key(k.span(), v.span(), out_k.span(), out.span(), sum{}, c.opt()); break;
        case primitive::scan_by_key: sluice::inclusive_scan_by_key(k.span(), v.span(), out.span(), sum{}, c.opt()); break;
        case primitive::segmented_reduce:
          sluice::segmented_reduce(v.span(), off.span(), out.span().first(offsets.size() - 1), T{}, sum{}, c.opt());
          break;
        default: sluice::segmented_inclusive_scan(v.span(), off.span(), out.span(), sum{}, c.opt()); break;
      }
      *got = out.fetch();
    }
    for (std::uint64_t i = 0; i < n; ++i)
      if (!same_bits(a[i], b[i])) return "at " + std::to_string(i) + ": first run " + show(a[i]) + ", second " + show(b[i]);
    return "";
  });
}

template <class K, class V>
void by_key_all_ops(context& c) {
  by_key_cases<K, V, sum>(c, true, true);
  by_key_cases<K, V, product>(c, false, false);
  by_key_cases<K, V, minimum>(c, false, false);
  by_key_cases<K, V, maximum>(c, false, false);
}
template <class T>
void segmented_all_ops(context& c) {
  segmented_cases<T, sum>(c, true, true);
  segmented_cases<T, product>(c, false, false);
  segmented_cases<T, minimum>(c, false, false);
  segmented_cases<T, maximum>(c, false, false);
}

}  // namespace

void verify_segmented(context& c) {
  if (c.algo.prim == primitive::reduce_by_key || c.algo.prim == primitive::scan_by_key) {
    by_key_all_ops<std::uint32_t, std::int32_t>(c);
    by_key_all_ops<std::uint32_t, float>(c);
    by_key_all_ops<std::uint64_t, double>(c);
    if (c.s.dev != device::cuda) {  // key types the precompiled CUDA kernels do not take
      by_key_cases<std::uint8_t, std::uint64_t, sum>(c, true, false);
      by_key_cases<float, std::int64_t, sum>(c, true, false);
      by_key_cases<vec4u, float, sum>(c, false, false);
    } else {
      by_key_cases<std::int64_t, std::uint64_t, sum>(c, true, false);
    }
  } else {
    segmented_all_ops<std::int32_t>(c);
    segmented_all_ops<float>(c);
    segmented_all_ops<double>(c);
    segmented_cases<std::uint64_t, sum>(c, true, false);
    if (c.s.dev != device::cuda) segmented_cases<std::uint8_t, sum>(c, false, false);
  }
  repeatable_cases<float>(c);
  repeatable_cases<double>(c);
}

}  // namespace sluice::verify
