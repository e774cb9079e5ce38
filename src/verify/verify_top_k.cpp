// top_k against the reference (a stable sort of the positions by key image, the first k), bit for bit: the keys
// and their positions, largest and smallest, sorted and in input order, with and without positions; key
// patterns with many ties (all equal, few distinct, float specials), k = 0, 1, a random k, n - 1 and n, sizes
// around the CPU blocks; guards past out and indices that must stay poisoned; k past n and outputs too small
// refused with nothing written.
#include <algorithm>

#include "reference/reference.hpp"
#include "sluice/cpu/billeter.hpp"
#include "sluice/top_k.hpp"
#include "verify/check.hpp"

namespace sluice::verify {
namespace {

template <class T>
std::string untouched(const char* what, const std::vector<T>& got) {
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!is_poison(got[i])) return std::string(what) + " written at " + std::to_string(i) + " by a call that refused its input";
  return "";
}

// One call. refuse: 1 = k one past n, 2 = out one short, 3 = indices one short (each must be refused).
template <class K>
std::string top_k_case(context& c, const std::vector<K>& keys, std::uint64_t k, bool largest, bool sorted, bool with_indices, int refuse) {
  const std::uint64_t ask = refuse == 1 ? keys.size() + 1 : k;
  const std::uint64_t out_cap = refuse == 2 ? k - 1 : refuse == 1 ? ask : k;
  const std::uint64_t idx_cap = refuse == 3 ? k - 1 : refuse == 1 ? ask : k;
  staged<K> src(keys, c.s.dev);
  auto out = staged<K>::poisoned(out_cap, c.s.dev);
  auto idx = staged<std::uint64_t>::poisoned(idx_cap, c.s.dev);
  const auto ord = largest ? order::descending : order::ascending;
  const auto arrange = sorted ? output_order::sorted : output_order::input;
  try {
    if (with_indices) sluice::top_k(src.span(), ask, out.span(), idx.span(), ord, arrange, c.opt());
    else sluice::top_k(src.span(), ask, out.span(), ord, arrange, c.opt());
  } catch (const sluice::error& e) {
    if (refuse == 0) throw;
    if (e.code() != errc::invalid_argument) return std::string("wrong error code: ") + e.what();
    if (auto u = untouched("out", out.fetch()); !u.empty()) return u;
    return untouched("indices", idx.fetch());
  }
  if (refuse != 0) return "a call with " + std::string(refuse == 1 ? "k past n" : refuse == 2 ? "out too small" : "indices too small") + " was accepted";
  const auto want = reference::top_k(keys, k, largest, sorted);
  const auto got = out.fetch();
  const auto got_idx = idx.fetch();
  for (std::uint64_t i = 0; i < k; ++i) {
    if (!same_bits(got[i], keys[want[i]]))
      return "out at " + std::to_string(i) + ": got " + show(got[i]) + ", want " + show(keys[want[i]]) + " (position " + std::to_string(want[i]) + ")";
    if (with_indices && got_idx[i] != want[i])
      return "indices at " + std::to_string(i) + ": got " + std::to_string(got_idx[i]) + ", want " + std::to_string(want[i]);
  }
  for (std::size_t i = k; i < got.size(); ++i)
    if (!is_poison(got[i])) return "out: wrote past k at " + std::to_string(i);
  for (std::size_t i = with_indices ? k : 0; i < got_idx.size(); ++i)
    if (!is_poison(got_idx[i])) return "indices: written at " + std::to_string(i) + (with_indices ? ", past k" : " though none were asked for");
  return "";
}

template <class K>
void key_cases(context& c) {
  std::vector<std::uint64_t> sizes = c.sparse();
  const std::uint64_t block = cpu::block_elements<K>();
  for (std::uint64_t n : {block - 1, block + 1, 3 * block + 1})
    if (n <= (std::uint64_t{1} << c.max_log2()) + 1) sizes.push_back(n);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  sizes = c.capped(sizes);
  const key_pattern patterns[] = {key_pattern::random, key_pattern::sorted, key_pattern::reverse, key_pattern::all_equal,
                                  key_pattern::few_distinct, key_pattern::specials};
  std::uint64_t seed = 13000;
  int turn = 0;
  for (auto p : patterns) {
    for (std::uint64_t n : sizes) {
      const auto keys = make_keys<K>(n, p, ++seed);
      const std::string base = std::string(type_name<K>()) + " n=" + std::to_string(n) + " " + to_string(p);
      std::vector<std::uint64_t> ks = {0, 1, n / 2, n - 1, n, (seed * 2654435761u) % (n + 1)};
      if (n == 0) ks = {0};
      std::sort(ks.begin(), ks.end());
      ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
      for (std::uint64_t k : ks) {
        const bool largest = turn % 2 == 0, sorted = turn % 3 != 2, with_indices = turn % 4 != 3;
        ++turn;
        c.run_case(base + " k=" + std::to_string(k) + (largest ? " largest" : " smallest") + (sorted ? " sorted" : " in input order") +
                       (with_indices ? " with indices" : ""),
                   [&] { return top_k_case(c, keys, k, largest, sorted, with_indices, 0); });
      }
      c.run_case(base + " k past n", [&] { return top_k_case(c, keys, n, true, true, true, 1); });
      if (n > 0) {
        c.run_case(base + " out too small", [&] { return top_k_case(c, keys, n, false, true, true, 2); });
        c.run_case(base + " indices too small", [&] { return top_k_case(c, keys, (n + 1) / 2, true, false, true, 3); });
      }
    }
  }
}

}  // namespace

void verify_top_k(context& c) {
  key_cases<std::uint32_t>(c);
  key_cases<std::int32_t>(c);
  key_cases<float>(c);
  key_cases<std::uint64_t>(c);
  key_cases<std::int64_t>(c);
  key_cases<double>(c);
}

}  // namespace sluice::verify
