// unique and run_length_encode (with unique_by_key and non_trivial_runs, their registry primitives' other
// functions) against the reference's runs, bit for bit, over the run patterns, sizes around the CPU blocks,
// poisoned outputs whose guard must stay untouched, in place, and too-small outputs that must be refused.
#include <algorithm>

#include "reference/reference.hpp"
#include "sluice/cpu/billeter.hpp"
#include "sluice/runs.hpp"
#include "verify/check.hpp"

namespace sluice::verify {
namespace {

using runs_t = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

// The first `count` of got against want, and the guard past `limit` untouched.
template <class T>
std::string compare(const char* what, const std::vector<T>& got, const std::vector<T>& want, std::uint64_t limit) {
  for (std::size_t i = limit; i < got.size(); ++i)
    if (!is_poison(got[i])) return std::string(what) + ": wrote past the end at " + std::to_string(i);
  for (std::size_t i = 0; i < want.size() && i < limit; ++i)
    if (!same_bits(got[i], want[i])) return std::string(what) + " at " + std::to_string(i) + ": got " + show(got[i]) + ", want " + show(want[i]);
  return "";
}

std::string count_problem(std::uint64_t got, std::uint64_t want) {
  return got == want ? "" : "count " + std::to_string(got) + ", want " + std::to_string(want);
}

// The case's outputs hold `cap` elements; too_small: one fewer than the runs, which must be refused.
template <class T>
std::string unique_case(context& c, const std::vector<T>& values, bool by_key, bool in_place, bool too_small) {
  const runs_t runs = reference::runs(values);
  const std::uint64_t cap = too_small ? runs.size() - 1 : runs.size();
  std::vector<T> want_keys;
  std::vector<std::uint32_t> want_values;
  for (const auto& r : runs) want_keys.push_back(values[r.first]), want_values.push_back(static_cast<std::uint32_t>(r.first));
  std::vector<std::uint32_t> index(values.size());
  for (std::size_t i = 0; i < index.size(); ++i) index[i] = static_cast<std::uint32_t>(i);
  auto out = staged<T>::poisoned(cap, c.s.dev);
  auto out_v = staged<std::uint32_t>::poisoned(cap, c.s.dev);
  std::vector<T> in_place_data = values;
  staged<T> in(values, c.s.dev);
  staged<std::uint32_t> in_v(index, c.s.dev);
  std::uint64_t count = 0;
  try {
    if (in_place) {
      count = by_key ? sluice::unique_by_key(in_place_data, index, in_place_data, index, c.opt()) : sluice::unique(in_place_data, in_place_data, c.opt());
    } else if (by_key) {
      count = sluice::unique_by_key(in.span(), in_v.span(), out.span(), out_v.span(), c.opt());
    } else {
      count = sluice::unique(in.span(), out.span(), c.opt());
    }
  } catch (const sluice::error& e) {
    if (!too_small) throw;
    if (e.code() != errc::invalid_argument) return std::string("wrong error code: ") + e.what();
    const std::string k = compare("keys", out.fetch(), want_keys, cap);
    return !k.empty() || !by_key ? k : compare("values", out_v.fetch(), want_values, cap);
  }
  if (too_small) return "a too-small out was accepted";
  if (auto p = count_problem(count, runs.size()); !p.empty()) return p;
  if (in_place) {
    in_place_data.resize(count), index.resize(count);
    for (std::uint64_t i = 0; i < count; ++i)
      if (!same_bits(in_place_data[i], want_keys[i]) || (by_key && index[i] != want_values[i])) return "in place: wrong at " + std::to_string(i);
    return "";
  }
  const std::string k = compare("keys", out.fetch(), want_keys, cap);
  return !k.empty() || !by_key ? k : compare("values", out_v.fetch(), want_values, cap);
}

template <class T>
std::string rle_case(context& c, const std::vector<T>& values, bool non_trivial, bool too_small) {
  runs_t runs = reference::runs(values);
  if (non_trivial) std::erase_if(runs, [](const auto& r) { return r.second < 2; });
  if (too_small && runs.empty()) return "";
  const std::uint64_t cap = too_small ? runs.size() - 1 : runs.size();
  std::vector<T> want_unique;
  std::vector<std::uint64_t> want_first, want_len;
  for (const auto& r : runs) want_unique.push_back(values[r.first]), want_first.push_back(r.first), want_len.push_back(r.second);
  auto out_u = staged<T>::poisoned(cap, c.s.dev);
  auto out_a = staged<std::uint64_t>::poisoned(cap, c.s.dev), out_b = staged<std::uint64_t>::poisoned(cap, c.s.dev);
  staged<T> in(values, c.s.dev);
  std::uint64_t count = 0;
  try {
    count = non_trivial ? sluice::non_trivial_runs(in.span(), out_a.span(), out_b.span(), c.opt())
                        : sluice::run_length_encode(in.span(), out_u.span(), out_b.span(), c.opt());
  } catch (const sluice::error& e) {
    if (!too_small) throw;
    if (e.code() != errc::invalid_argument) return std::string("wrong error code: ") + e.what();
  }
  if (!too_small)
    if (auto p = count_problem(count, runs.size()); !p.empty()) return p;
  const std::string a = non_trivial ? compare("offsets", out_a.fetch(), want_first, cap) : compare("elements", out_u.fetch(), want_unique, cap);
  if (!a.empty()) return a;
  const std::string b = compare(non_trivial ? "lengths" : "counts", out_b.fetch(), want_len, cap);
  if (!b.empty()) return b;
  return too_small && count != 0 ? "a too-small out was accepted" : "";
}

template <class T>
void type_cases(context& c) {
  std::uint64_t seed = 7000;
  const std::uint64_t block = cpu::block_elements<T>();
  std::vector<std::uint64_t> sizes = c.sparse();
  // The edges of the three-phase blocks (cpu) or of the look-back's tiles (cuda: 256 threads, 64 bytes each).
  const std::uint64_t tile = 256 * std::min<std::uint64_t>(16, std::max<std::uint64_t>(4, 64 / sizeof(T)));
  const std::uint64_t edge = c.s.dev == device::cuda ? tile : block;
  for (std::uint64_t n : {edge - 1, edge, edge + 1, 3 * edge + 1})
    if (n <= (std::uint64_t{1} << c.max_log2()) + 1) sizes.push_back(n);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  sizes = c.capped(sizes);
  const bool unique = c.algo.prim == primitive::unique;
  for (const auto p : run_patterns) {
    for (std::uint64_t n : sizes) {
      const std::string base = std::string(type_name<T>()) + " n=" + std::to_string(n) + " " + to_string(p);
      const auto values = make_runs<T>(n, p, ++seed);
      if (unique) {
        c.run_case(base, [&] { return unique_case<T>(c, values, false, false, false); });
        c.run_case(base + " by key", [&] { return unique_case<T>(c, values, true, false, false); });
        if (n > 0) c.run_case(base + " out too small", [&] { return unique_case<T>(c, values, n % 2 == 0, false, true); });
        if (c.s.dev == device::cpu) c.run_case(base + " in place", [&] { return unique_case<T>(c, values, n % 2 == 1, true, false); });
      } else {
        c.run_case(base, [&] { return rle_case<T>(c, values, false, false); });
        c.run_case(base + " non-trivial", [&] { return rle_case<T>(c, values, true, false); });
        if (n > 0) c.run_case(base + " out too small", [&] { return rle_case<T>(c, values, n % 2 == 0, true); });
      }
    }
  }
}

}  // namespace

void verify_runs(context& c) {
  type_cases<std::uint8_t>(c);
  type_cases<std::int32_t>(c);
  type_cases<std::uint32_t>(c);
  type_cases<std::uint64_t>(c);
  type_cases<float>(c);
  type_cases<double>(c);
  if (c.s.dev != device::cuda) type_cases<vec4u>(c);  // the precompiled CUDA kernels take the built-in key types
}

}  // namespace sluice::verify
