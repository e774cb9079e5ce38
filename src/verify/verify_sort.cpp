// radix_sort against a stable std::sort of the key image: keys bit for bit, and values that record each
// key's input position, so stability is checked exactly.
#include "reference/reference.hpp"
#include "sluice/sort.hpp"
#include "verify/check.hpp"

namespace sluice::verify {
namespace {

template <class K>
void key_cases(context& c) {
  constexpr int width = sizeof(K) * 8;
  std::uint64_t seed = 5000;
  const key_pattern patterns[] = {key_pattern::random, key_pattern::sorted, key_pattern::reverse, key_pattern::all_equal,
                                  key_pattern::few_distinct, key_pattern::specials};
  const bit_range ranges[] = {{0, -1}, {3, width - 5}, {width - 8, width}, {5, 5}, {width, width}};
  for (auto p : patterns) {
    const bool dense = p == key_pattern::random && std::is_same_v<K, std::uint32_t>;
    int turn = static_cast<int>(p);
    for (std::uint64_t n : dense ? c.dense() : c.sparse()) {
      // Variants: ascending keys, descending keys, ascending pairs, descending pairs with a partial bit range.
      // The dense sweep runs all four at every size; elsewhere they take turns across sizes.
      ++turn;
      for (int v = 0; v < 4; ++v) {
        if (!dense && v != turn % 4) continue;
        const bool desc = v & 1, pairs = v >= 2;
        const bit_range bits = v == 3 ? ranges[(n + seed) % 5] : ranges[0];
        const std::string name = std::string(type_name<K>()) + " n=" + std::to_string(n) + " " + to_string(p) +
                                 (desc ? " descending" : " ascending") + (pairs ? " pairs" : " keys") + " bits [" +
                                 std::to_string(bits.begin) + "," + std::to_string(bits.end) + ")";
        c.run_case(name, [&]() -> std::string {
          const auto keys = make_keys<K>(n, p, ++seed);
          const int end = bits.end < 0 ? width : bits.end;
          const auto perm = reference::sort_permutation(keys, desc, bits.begin, end);
          staged<K> k(keys, c.s.dev);
          std::vector<std::uint32_t> index(n);
          for (std::uint64_t i = 0; i < n; ++i) index[i] = static_cast<std::uint32_t>(i);
          staged<std::uint32_t> val(index, c.s.dev);
          const auto ord = desc ? order::descending : order::ascending;
          if (pairs) sluice::radix_sort(k.span(), val.span(), ord, bits, c.opt());
          else sluice::radix_sort(k.span(), ord, bits, c.opt());
          const auto got = k.fetch();
          const auto got_v = val.fetch();
          for (std::uint64_t i = 0; i < n; ++i) {
            if (!same_bits(got[i], keys[perm[i]]))
              return "key at " + std::to_string(i) + ": got " + show(got[i]) + ", want " + show(keys[perm[i]]);
            if (pairs && got_v[i] != perm[i])
              return "value at " + std::to_string(i) + ": got " + std::to_string(got_v[i]) + ", want " + std::to_string(perm[i]) + " (unstable or lost)";
          }
          return "";
        });
      }
    }
  }
}

// Values of every storage size travel with their keys.
template <class V>
void value_cases(context& c) {
  std::uint64_t seed = 9000;
  for (std::uint64_t n : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{1000}, std::uint64_t{70001}}) {
    c.run_case(std::string("u32 keys, ") + type_name<V>() + " values n=" + std::to_string(n), [&]() -> std::string {
      const auto keys = make_keys<std::uint32_t>(n, key_pattern::few_distinct, ++seed);
      const auto values = make_values<V>(n, ++seed);
      const auto perm = reference::sort_permutation(keys, false, 0, 32);
      staged<std::uint32_t> k(keys, c.s.dev);
      staged<V> v(values, c.s.dev);
      sluice::radix_sort(k.span(), v.span(), order::ascending, {}, c.opt());
      const auto got = v.fetch();
      for (std::uint64_t i = 0; i < n; ++i)
        if (!same_bits(got[i], values[perm[i]])) return "value at " + std::to_string(i) + ": got " + show(got[i]) + ", want " + show(values[perm[i]]);
      return "";
    });
  }
}

}  // namespace

void verify_sort(context& c) {
  key_cases<std::uint32_t>(c);
  key_cases<std::int32_t>(c);
  key_cases<float>(c);
  key_cases<std::uint64_t>(c);
  key_cases<std::int64_t>(c);
  key_cases<double>(c);
  value_cases<std::uint8_t>(c);
  value_cases<std::uint64_t>(c);
  value_cases<double>(c);
  value_cases<vec4u>(c);
}

}  // namespace sluice::verify
