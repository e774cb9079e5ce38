// segmented_radix_sort against a stable sort of each segment's key images: keys bit for bit, and values that
// record each key's input position, so stability and the segment edges are checked exactly; elements outside
// every segment must keep their values. Segment patterns from one huge segment to many empty and short ones,
// lengths on and beside the GPU tiers' limits (128 and 2048 keys) and the CPU's in-cache limit, more and fewer
// long segments than the GPU sorts one by one; values of every storage size; bad offsets refused with nothing
// written.
#include <algorithm>

#include "reference/reference.hpp"
#include "sluice/sort.hpp"
#include "verify/check.hpp"

namespace sluice::verify {
namespace {

template <class K>
std::vector<std::uint64_t> expected_positions(const std::vector<K>& keys, const std::vector<std::uint64_t>& offsets, bool desc, int begin, int end) {
  std::vector<std::uint64_t> want(keys.size());
  for (std::uint64_t i = 0; i < keys.size(); ++i) want[i] = i;  // outside every segment: unmoved
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    const std::uint64_t a = offsets[s], m = offsets[s + 1] - a;
    const std::vector<K> part(keys.begin() + static_cast<std::ptrdiff_t>(a), keys.begin() + static_cast<std::ptrdiff_t>(a + m));
    const auto perm = reference::sort_permutation(part, desc, begin, end);
    for (std::uint64_t j = 0; j < m; ++j) want[a + j] = a + perm[j];
  }
  return want;
}

template <class K>
std::string sort_case(context& c, const std::vector<K>& keys, const std::vector<std::uint64_t>& offsets, bool desc, bool pairs, bit_range bits) {
  const std::uint64_t n = keys.size();
  constexpr int width = sizeof(K) * 8;
  const auto want = expected_positions(keys, offsets, desc, bits.begin, bits.end < 0 ? width : bits.end);
  staged<K> k(keys, c.s.dev);
  std::vector<std::uint32_t> index(n);
  for (std::uint64_t i = 0; i < n; ++i) index[i] = static_cast<std::uint32_t>(i);
  staged<std::uint32_t> val(index, c.s.dev);
  staged<std::uint64_t> off(offsets, c.s.dev);
  const auto ord = desc ? order::descending : order::ascending;
  if (pairs) sluice::segmented_radix_sort(k.span(), val.span(), off.span(), ord, bits, c.opt());
  else sluice::segmented_radix_sort(k.span(), off.span(), ord, bits, c.opt());
  const auto got = k.fetch();
  const auto got_v = val.fetch();
  for (std::uint64_t i = 0; i < n; ++i) {
    if (!same_bits(got[i], keys[want[i]]))
      return "key at " + std::to_string(i) + ": got " + show(got[i]) + ", want " + show(keys[want[i]]) + " (position " + std::to_string(want[i]) + ")";
    if (pairs && got_v[i] != want[i])
      return "value at " + std::to_string(i) + ": got " + std::to_string(got_v[i]) + ", want " + std::to_string(want[i]) + " (unstable or lost)";
    if (!pairs && got_v[i] != i) return "values written at " + std::to_string(i) + " by a keys-only sort";
  }
  return "";
}

// Offsets that decrease, or end past the keys: refused before anything is written.
template <class K>
std::string bad_offsets_case(context& c, const std::vector<K>& keys) {
  const std::uint64_t n = keys.size();
  const std::vector<std::uint64_t> bad[] = {{0, n / 2 + 1, n / 2, n}, {0, n / 3, n + 1}};
  for (const auto& host_off : bad) {
    staged<K> k(keys, c.s.dev);
    staged<std::uint64_t> off(host_off, c.s.dev);
    try {
      sluice::segmented_radix_sort(k.span(), off.span(), order::ascending, {}, c.opt());
      return "offsets " + std::to_string(host_off[1]) + ", " + std::to_string(host_off[2]) + " were accepted";
    } catch (const sluice::error& err) {
      if (err.code() != errc::invalid_argument) return std::string("wrong error code: ") + err.what();
    }
    const auto got = k.fetch();
    for (std::uint64_t i = 0; i < n; ++i)
      if (!same_bits(got[i], keys[i])) return "keys written at " + std::to_string(i) + " by a call that refused its offsets";
  }
  return "";
}

// Segments of the given lengths in turn over n keys (the last cut at n).
std::vector<std::uint64_t> cycled(std::uint64_t n, std::initializer_list<std::uint64_t> lengths) {
  std::vector<std::uint64_t> off = {0};
  for (std::uint64_t s = 0, at = 0; at < n; ++s) {
    at = std::min(n, at + *(lengths.begin() + s % lengths.size()));
    off.push_back(at);
  }
  return off;
}

template <class K>
void key_cases(context& c) {
  constexpr int width = sizeof(K) * 8;
  std::uint64_t seed = 17000;
  const bit_range ranges[] = {{0, -1}, {3, width - 5}, {width - 8, width}, {5, 5}};
  std::vector<std::uint64_t> sizes = c.sparse();
  for (std::uint64_t n : {std::uint64_t{20000}, std::uint64_t{40000}, std::uint64_t{3} << 17}) sizes.push_back(n);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  sizes = c.capped(sizes);
  const key_pattern keys_of[] = {key_pattern::random, key_pattern::few_distinct, key_pattern::specials, key_pattern::reverse};
  int turn = 0;
  for (const auto p : segment_patterns) {
    for (std::uint64_t n : sizes) {
      ++turn;
      const auto kp = keys_of[(turn + static_cast<int>(p)) % 4];
      const auto keys = make_keys<K>(n, kp, ++seed);
      const auto offsets = make_offsets(n, p, seed * 3, 2048);
      const std::string base = std::string(type_name<K>()) + " n=" + std::to_string(n) + " " + to_string(kp) + " keys, " + to_string(p) + " segments";
      for (int v = 0; v < 2; ++v) {  // two of the four forms per size, in turn
        const int form = (turn + 2 * v) % 4;
        const bool desc = form & 1, pairs = form >= 2;
        const bit_range bits = form == 3 ? ranges[(n + seed) % 4] : ranges[0];
        c.run_case(base + (desc ? " descending" : " ascending") + (pairs ? " pairs" : " keys") + " bits [" + std::to_string(bits.begin) + "," +
                       std::to_string(bits.end) + ")",
                   [&] { return sort_case(c, keys, offsets, desc, pairs, bits); });
      }
      if (p == segment_pattern::short_segments && n > 0)
        c.run_case(std::string(type_name<K>()) + " n=" + std::to_string(n) + " bad offsets refused", [&] { return bad_offsets_case(c, keys); });
    }
  }
  // Lengths on and beside the tiers' limits: the warp tier (128), the block tier (2048), the CPU's in-cache limit
  // (1 MiB of keys and 4-byte values); few long segments (each sorted alone on the GPU) and many.
  const std::uint64_t cpu_small = (std::uint64_t{1} << 20) / (sizeof(K) + 4);
  const struct {
    const char* name;
    std::uint64_t n;
    std::vector<std::uint64_t> offsets;
  } shaped[] = {
      {"127/128/129", 20000, cycled(20000, {127, 128, 129, 0, 1, 2})},
      {"2047/2048/2049", 40000, cycled(40000, {2047, 2048, 2049, 3})},
      {"few long", 100000, cycled(100000, {4099, 700, 16385, 5, 9001})},
      {"many long", 300000, cycled(300000, {2049, 7, 3000})},
      {"around the CPU's in-cache limit", 3 * cpu_small + 7, cycled(3 * cpu_small + 7, {cpu_small - 1, cpu_small + 1, cpu_small})},
  };
  for (const auto& sh : shaped) {
    if (sh.n > c.s.max_size || sh.n > (std::uint64_t{1} << c.max_log2()) + 1) continue;
    const auto keys = make_keys<K>(sh.n, key_pattern::few_distinct, ++seed);
    for (int form = 0; form < 4; ++form) {
      const bool desc = form & 1, pairs = form >= 2;
      c.run_case(std::string(type_name<K>()) + " n=" + std::to_string(sh.n) + " segments of " + sh.name + (desc ? " descending" : " ascending") +
                     (pairs ? " pairs" : " keys"),
                 [&] { return sort_case(c, keys, sh.offsets, desc, pairs, bit_range{}); });
    }
  }
}

// Values of every storage size travel with their keys, in their segments.
template <class V>
void value_cases(context& c) {
  std::uint64_t seed = 19000;
  for (std::uint64_t n : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{1000}, std::uint64_t{70001}}) {
    c.run_case(std::string("u32 keys, ") + type_name<V>() + " values n=" + std::to_string(n), [&]() -> std::string {
      const auto keys = make_keys<std::uint32_t>(n, key_pattern::few_distinct, ++seed);
      const auto values = make_values<V>(n, ++seed);
      const auto offsets = make_offsets(n, segment_pattern::power_law, seed, 2048);
      const auto want = expected_positions(keys, offsets, false, 0, 32);
      staged<std::uint32_t> k(keys, c.s.dev);
      staged<V> v(values, c.s.dev);
      staged<std::uint64_t> off(offsets, c.s.dev);
      sluice::segmented_radix_sort(k.span(), v.span(), off.span(), order::ascending, {}, c.opt());
      const auto got = v.fetch();
      for (std::uint64_t i = 0; i < n; ++i)
        if (!same_bits(got[i], values[want[i]])) return "value at " + std::to_string(i) + ": got " + show(got[i]) + ", want " + show(values[want[i]]);
      return "";
    });
  }
}

}  // namespace

void verify_segmented_sort(context& c) {
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
