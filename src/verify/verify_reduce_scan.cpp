// reduce and scan against the reference: integers and min/max exactly; float sums and products within the
// stated tolerance against a long double reference.
#include <algorithm>
#include <cmath>

#include "reference/reference.hpp"
#include "sluice/reduce.hpp"
#include "sluice/scan.hpp"
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

template <class T, class Op>
constexpr bool exact() {
  return !std::is_floating_point_v<T> || std::is_same_v<Op, minimum> || std::is_same_v<Op, maximum>;
}

// Compare got with the exact value; `scale` is what the error is relative to. A product of k factors
// carries every one of its k - 1 roundings into the result whatever the association, so its bound
// grows with k: (k - 1) unit roundoffs, the first-order worst case (see docs/guide/api.md).
template <class T, class Op>
bool close(T got, long double want, long double scale, std::uint64_t k) {
  if (std::isnan(static_cast<double>(got))) return false;
  double tol = std::is_same_v<T, float> ? f32_tolerance : f64_tolerance;
  if constexpr (std::is_same_v<Op, product>) tol = std::max(tol, static_cast<double>(k) * unit_roundoff<T>);
  return std::fabs(static_cast<long double>(got) - want) <= tol * (scale > 0 ? scale : 1);
}

// Running reference in long double: value and the scale its error is measured against.
template <class Op>
struct wide {
  long double value, scale;
  void add(long double x) {
    if constexpr (std::is_same_v<Op, sum>) {
      value += x;
      scale += std::fabs(x);
    } else {
      value *= x;
      scale = std::fabs(value);
    }
  }
};

template <class T, class Op>
void reduce_cases(context& c) {
  const bool dense = std::is_same_v<Op, sum> && (std::is_same_v<T, std::uint32_t> || std::is_same_v<T, float>);
  const auto sizes = dense ? c.dense() : c.sparse();
  std::uint64_t seed = 1;
  for (std::uint64_t n : sizes) {
    const std::string name = std::string(type_name<T>()) + " " + op_name<Op>() + " n=" + std::to_string(n);
    c.run_case(name, [&]() -> std::string {
      const auto values = make_values<T>(n, ++seed, kind_of<Op>());
      const T init = make_values<T>(1, seed * 7919, kind_of<Op>())[0];
      staged<T> in(values, c.s.dev);
      const T got = sluice::reduce(in.span(), init, Op{}, c.opt());
      if constexpr (exact<T, Op>()) {
        const T want = reference::reduce(values, init, Op{});
        if (!same_bits(got, want)) return "got " + show(got) + ", want " + show(want);
      } else {
        wide<Op> w{static_cast<long double>(init), std::fabs(static_cast<long double>(init))};
        for (const T& x : values) w.add(x);
        if (!close<T, Op>(got, w.value, w.scale, n + 1)) return "got " + show(got) + ", want " + show(static_cast<double>(w.value)) + " (beyond tolerance)";
      }
      return "";
    });
  }
}

template <class T, class Op>
void scan_cases(context& c) {
  const bool dense = std::is_same_v<Op, sum> && (std::is_same_v<T, std::uint32_t> || std::is_same_v<T, float>);
  const auto sizes = dense ? c.dense() : c.sparse();
  std::uint64_t seed = 100;
  for (std::uint64_t n : sizes) {
    for (int mode = 0; mode < 3; ++mode) {  // inclusive, exclusive, exclusive in place
      const bool inclusive = mode == 0, in_place = mode == 2;
      const std::string name = std::string(type_name<T>()) + " " + op_name<Op>() + (inclusive ? " inclusive" : " exclusive") +
                               (in_place ? " in-place" : "") + " n=" + std::to_string(n);
      c.run_case(name, [&]() -> std::string {
        const auto values = make_values<T>(n, ++seed, kind_of<Op>());
        const T init = make_values<T>(1, seed * 31, kind_of<Op>())[0];
        staged<T> in(values, c.s.dev);
        auto out = staged<T>::poisoned(n, c.s.dev);
        if (inclusive) sluice::inclusive_scan(in.span(), out.span(), Op{}, c.opt());
        else if (in_place) sluice::exclusive_scan(in.span(), in.span(), init, Op{}, c.opt());
        else sluice::exclusive_scan(in.span(), out.span(), init, Op{}, c.opt());
        const auto got = in_place ? in.fetch() : out.fetch();
        if (!in_place)
          for (std::size_t i = n; i < n + guard; ++i)
            if (!is_poison(got[i])) return "wrote past the end of out at " + std::to_string(i);
        if constexpr (exact<T, Op>()) {
          const auto want = inclusive ? reference::inclusive_scan(values, Op{}) : reference::exclusive_scan(values, init, Op{});
          for (std::size_t i = 0; i < n; ++i)
            if (!same_bits(got[i], want[i])) return "at " + std::to_string(i) + ": got " + show(got[i]) + ", want " + show(want[i]);
        } else {
          wide<Op> w{inclusive ? (std::is_same_v<Op, sum> ? 0.0L : 1.0L) : static_cast<long double>(init),
                     inclusive ? 0.0L : std::fabs(static_cast<long double>(init))};
          for (std::size_t i = 0; i < n; ++i) {
            if (inclusive) w.add(values[i]);
            if (!close<T, Op>(got[i], w.value, w.scale, i + 2))
              return "at " + std::to_string(i) + ": got " + show(got[i]) + ", want " + show(static_cast<double>(w.value)) + " (beyond tolerance)";
            if (!inclusive) w.add(values[i]);
          }
        }
        return "";
      });
    }
  }
}

// Floating-point results must repeat bit for bit from run to run (docs/guide/api.md): the same input twice.
template <class T>
void repeatable_cases(context& c, bool scan) {
  if (!c.algo.stable) return;  // the registry says the order of combination depends on scheduling
  const std::uint64_t n = c.sparse().back();
  c.run_case(std::string(type_name<T>()) + " sum n=" + std::to_string(n) + " bitwise identical run to run", [&]() -> std::string {
    const auto values = make_values<T>(n, 4242, value_kind::sum);
    staged<T> in(values, c.s.dev);
    if (!scan) {
      const T a = sluice::reduce(in.span(), T{}, sum{}, c.opt()), b = sluice::reduce(in.span(), T{}, sum{}, c.opt());
      return same_bits(a, b) ? "" : "first run " + show(a) + ", second " + show(b);
    }
    auto out1 = staged<T>::poisoned(n, c.s.dev), out2 = staged<T>::poisoned(n, c.s.dev);
    sluice::inclusive_scan(in.span(), out1.span(), sum{}, c.opt());
    sluice::inclusive_scan(in.span(), out2.span(), sum{}, c.opt());
    const auto a = out1.fetch(), b = out2.fetch();
    for (std::uint64_t i = 0; i < n; ++i)
      if (!same_bits(a[i], b[i])) return "at " + std::to_string(i) + ": first run " + show(a[i]) + ", second " + show(b[i]);
    return "";
  });
}

template <template <class, class> class Cases, class T>
void all_ops(context& c) {
  Cases<T, sum>::run(c);
  Cases<T, product>::run(c);
  Cases<T, minimum>::run(c);
  Cases<T, maximum>::run(c);
}
template <class T, class Op> struct reduce_t { static void run(context& c) { reduce_cases<T, Op>(c); } };
template <class T, class Op> struct scan_t { static void run(context& c) { scan_cases<T, Op>(c); } };

template <template <class, class> class Cases>
void all_types(context& c) {
  all_ops<Cases, std::int32_t>(c);
  all_ops<Cases, std::uint32_t>(c);
  all_ops<Cases, std::int64_t>(c);
  all_ops<Cases, std::uint64_t>(c);
  all_ops<Cases, float>(c);
  all_ops<Cases, double>(c);
}

}  // namespace

void verify_reduce(context& c) {
  all_types<reduce_t>(c);
  repeatable_cases<float>(c, false);
  repeatable_cases<double>(c, false);
}
void verify_scan(context& c) {
  all_types<scan_t>(c);
  repeatable_cases<float>(c, true);
  repeatable_cases<double>(c, true);
}

}  // namespace sluice::verify
