// compact, compact_unordered, partition and partition_unordered against the reference, bit for bit, flags and predicate forms,
// with poisoned outputs whose guard must stay untouched and a too-small output that must be refused.
#include <algorithm>

#include "reference/reference.hpp"
#include "sluice/compact.hpp"
#include "sluice/partition.hpp"
#include "verify/check.hpp"

namespace sluice::verify {
namespace {

// The element's bytes as an integer (two for 16 bytes), so a multiset compare can sort integers.
template <class T>
auto image(const T& x) {
  if constexpr (sizeof(T) == 16) {
    std::pair<std::uint64_t, std::uint64_t> p;
    std::memcpy(&p.first, &x, 8);
    std::memcpy(&p.second, reinterpret_cast<const char*>(&x) + 8, 8);
    return p;
  } else {
    std::conditional_t<sizeof(T) == 1, std::uint8_t, std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>> u;
    std::memcpy(&u, &x, sizeof(T));
    return u;
  }
}

template <class T>
void sort_by_bits(std::vector<T>& v) {
  std::vector<decltype(image(v[0]))> im(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) im[i] = image(v[i]);
  std::sort(im.begin(), im.end());
  for (std::size_t i = 0; i < v.size(); ++i) std::memcpy(static_cast<void*>(&v[i]), &im[i], sizeof(T));
}

// Compare the first `count` of got with want (as a multiset when unordered), and the guard past `limit`.
template <class T>
std::string compare(std::vector<T> got, std::vector<T> want, std::uint64_t count, std::size_t limit, bool unordered) {
  if (count != want.size()) return "count " + std::to_string(count) + ", want " + std::to_string(want.size());
  for (std::size_t i = limit; i < got.size(); ++i)
    if (!is_poison(got[i])) return "wrote past the end of out at " + std::to_string(i);
  got.resize(count);
  if (unordered) {
    sort_by_bits(got);
    sort_by_bits(want);
  }
  for (std::size_t i = 0; i < count; ++i)
    if (!same_bits(got[i], want[i])) return "at " + std::to_string(i) + ": got " + show(got[i]) + ", want " + show(want[i]);
  return "";
}

enum class form { flags, predicate };

// One compaction or partition case. Predicate forms keep x where x > threshold; the threshold is an
// input value chosen to keep about `ratio` of the elements.
template <class T>
std::string one_case(context& c, std::uint64_t n, const flag_case& fc, form f, std::uint64_t seed, bool too_small) {
  const bool part = c.algo.prim == primitive::partition || c.algo.prim == primitive::partition_unordered;
  const bool part_unordered = c.algo.prim == primitive::partition_unordered;  // the rejected run as a multiset
  const bool unordered = c.algo.prim == primitive::compact_unordered;
  const auto values = make_values<T>(n, seed);
  std::vector<std::uint8_t> flags;
  std::vector<bool> keep(n);
  threshold<T> pred{};
  if (f == form::flags) {
    flags = make_flags(n, fc, seed ^ 0x9e3779b97f4a7c15ull);
    for (std::uint64_t i = 0; i < n; ++i) keep[i] = flags[i] != 0;
  } else if constexpr (!std::is_same_v<T, vec4u>) {
    auto sorted = values;
    const auto q = sorted.begin() + static_cast<std::ptrdiff_t>(n ? (1 - fc.ratio) * (n - 1) : 0);
    if (n) std::nth_element(sorted.begin(), q, sorted.end());
    pred = n ? greater_than(*q) : greater_than(T{});
    for (std::uint64_t i = 0; i < n; ++i) keep[i] = pred(values[i]);
  }
  const auto want = part ? reference::partition(values, keep) : reference::compact(values, keep);
  const std::size_t kept = reference::compact(values, keep).size();
  staged<T> in(values, c.s.dev);
  staged<std::uint8_t> fl(flags, c.s.dev);
  const std::size_t cap = too_small ? kept - 1 : n;
  auto out = staged<T>::poisoned(cap, c.s.dev);
  const auto opt = c.opt();
  std::uint64_t count = 0;
  try {
    if (part_unordered) {
      if (f == form::flags) count = sluice::partition_unordered_flagged(in.span(), fl.span(), out.span(), opt);
      else if constexpr (!std::is_same_v<T, vec4u>) count = sluice::partition_unordered(in.span(), out.span(), pred, opt);
    } else if (part) {
      if (f == form::flags) count = sluice::partition_flagged(in.span(), fl.span(), out.span(), opt);
      else if constexpr (!std::is_same_v<T, vec4u>) count = sluice::partition(in.span(), out.span(), pred, opt);
    } else if (unordered) {
      if (f == form::flags) count = sluice::compact_unordered(in.span(), fl.span(), out.span(), opt);
      else if constexpr (!std::is_same_v<T, vec4u>) count = sluice::compact_unordered_if(in.span(), out.span(), pred, opt);
    } else {
      if (f == form::flags) count = sluice::compact(in.span(), fl.span(), out.span(), opt);
      else if constexpr (!std::is_same_v<T, vec4u>) count = sluice::compact_if(in.span(), out.span(), pred, opt);
    }
  } catch (const sluice::error& e) {
    if (!too_small) throw;
    if (e.code() != errc::invalid_argument) return std::string("wrong error code: ") + e.what();
    const auto got = out.fetch();
    for (std::size_t i = cap; i < got.size(); ++i)
      if (!is_poison(got[i])) return "wrote past the end of a too-small out at " + std::to_string(i);
    return "";
  }
  if (too_small) return "a too-small out was accepted";
  if (part) {
    if (count != kept) return "split point " + std::to_string(count) + ", want " + std::to_string(kept);
    if (!part_unordered) return compare(out.fetch(), want, n, n, false);
    // The kept run in input order, bit for bit; the rejected run the same multiset as the reference's.
    auto got = out.fetch();
    const std::string front = compare(std::vector<T>(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(kept)),
                                      std::vector<T>(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(kept)), kept, kept, false);
    if (!front.empty()) return "kept run: " + front;
    const std::string back = compare(std::vector<T>(got.begin() + static_cast<std::ptrdiff_t>(kept), got.end()),
                                     std::vector<T>(want.begin() + static_cast<std::ptrdiff_t>(kept), want.end()), n - kept, n - kept, true);
    return back.empty() ? "" : "rejected run: " + back;
  }
  return compare(out.fetch(), want, count, cap, unordered);
}

template <class T>
void type_cases(context& c) {
  std::uint64_t seed = 1000;
  for (const auto& fc : flag_cases()) {
    const bool dense = fc.pat == pattern::random && fc.ratio == 0.5 && (std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint8_t>);
    for (std::uint64_t n : dense ? c.dense() : c.sparse()) {
      const std::string base = std::string(type_name<T>()) + " n=" + std::to_string(n) + " " + fc.name();
      c.run_case(base + " flags", [&] { return one_case<T>(c, n, fc, form::flags, ++seed, false); });
      if constexpr (!std::is_same_v<T, vec4u>)
        if (fc.pat == pattern::random) c.run_case(base + " predicate", [&] { return one_case<T>(c, n, fc, form::predicate, ++seed, false); });
    }
  }
  // Too-small outputs must be refused without writing past them (compaction only: partition checks size up front).
  if (c.algo.prim != primitive::partition && c.algo.prim != primitive::partition_unordered)
    for (std::uint64_t n : {std::uint64_t{100}, std::uint64_t{5000}, std::uint64_t{1} << 18})
      c.run_case(std::string(type_name<T>()) + " n=" + std::to_string(n) + " out too small",
                 [&] { return one_case<T>(c, n, {pattern::random, 0.5}, form::flags, ++seed, true); });
}

void all(context& c) {
  type_cases<std::uint8_t>(c);
  type_cases<std::int32_t>(c);
  type_cases<std::uint32_t>(c);
  type_cases<std::int64_t>(c);
  type_cases<std::uint64_t>(c);
  type_cases<float>(c);
  type_cases<double>(c);
  type_cases<vec4u>(c);
}

}  // namespace

void verify_compact(context& c) { all(c); }
void verify_partition(context& c) { all(c); }

}  // namespace sluice::verify
