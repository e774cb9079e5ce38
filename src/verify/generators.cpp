#include "verify/generators.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include <omp.h>

namespace sluice::verify {

std::vector<std::uint64_t> dense_sizes(int max_log2) {
  std::vector<std::uint64_t> s = {0, 1, 2, 3, 31, 32, 33};
  for (int k = 6; k <= max_log2; ++k) {
    const std::uint64_t p = std::uint64_t{1} << k;
    s.insert(s.end(), {p - 1, p, p + 1});
  }
  // Tile (2048) and chunk multiples that are not powers of two.
  s.insert(s.end(), {3 * 2048 - 1, 3 * 2048, 3 * 2048 + 1, 1000003});
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  s.erase(std::remove_if(s.begin(), s.end(), [&](std::uint64_t n) { return n > (std::uint64_t{1} << max_log2) + 1; }), s.end());
  return s;
}

std::vector<std::uint64_t> sparse_sizes(int max_log2) {
  // 1300007 spans several tiles per chunk on a 132-SM GPU (chunks of one 2048-element tile end near 1.08M).
  std::vector<std::uint64_t> s = {0, 1, 2, 31, 33, 255, 1023, 2047, 2048, 2049, 6143, 65537, 300007, 1300007};
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  s.erase(std::remove_if(s.begin(), s.end(), [&](std::uint64_t n) { return n > (std::uint64_t{1} << max_log2) + 1; }), s.end());
  return s;
}

std::string to_string(pattern p) {
  switch (p) {
    case pattern::random: return "random";
    case pattern::none: return "none";
    case pattern::all: return "all";
    case pattern::single_middle: return "single-middle";
    case pattern::alternating: return "alternating";
    case pattern::long_runs: return "long-runs";
    case pattern::middle_of_blocks: return "middle-of-blocks";
  }
  return "?";
}

std::string flag_case::name() const {
  if (pat != pattern::random) return to_string(pat);
  return "random" + std::to_string(static_cast<int>(std::lround(ratio * 100))) + "%";
}

std::vector<flag_case> flag_cases() {
  return {{pattern::random, 0.5}, {pattern::random, 0.1}, {pattern::random, 0.9}, {pattern::none, 0},
          {pattern::all, 1},      {pattern::single_middle, 0}, {pattern::alternating, 0.5}, {pattern::long_runs, 0.5},
          {pattern::middle_of_blocks, 1.0 / 256}};
}

namespace {
// A counter-based generator (splitmix64's output function over a Weyl sequence): word(key, i) is the i-th 64-bit
// word of the stream `key`, so any thread can fill any part of a vector and the result does not depend on how
// many threads there are. Large inputs are filled in parallel (the benchmarks' 2^28-2^30 elements took seconds
// each, serially, on the device machine's host).
constexpr std::uint64_t golden = 0x9e3779b97f4a7c15ull;
constexpr std::uint64_t finish(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
constexpr std::uint64_t stream_key(std::uint64_t seed) { return finish(seed * golden + 0x632be59bd9b4e019ull); }
constexpr std::uint64_t word(std::uint64_t key, std::uint64_t i) { return finish(key + (i + 1) * golden); }
// A uniform double in [0, 1) from a word's top 53 bits.
constexpr double unit(std::uint64_t w) { return static_cast<double>(w >> 11) * 0x1.0p-53; }

// f(i) for i in [0, n), on the OpenMP threads from parallel_from elements on (below, on the caller's thread).
// Callers at once (`sluice verify` runs cases on several host threads of its own) share the threads: each takes
// its share of them, so that they do not each start a full team.
constexpr std::uint64_t parallel_from = std::uint64_t{1} << 16;
std::atomic<int> fillers{0};
template <class F>
void fill_each(std::uint64_t n, F f) {
  struct caller {
    const int at_once = fillers.fetch_add(1) + 1;
    ~caller() { fillers.fetch_sub(1); }
  } me;
  const int threads = std::max(1, omp_get_max_threads() / me.at_once);
  const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for num_threads(threads) schedule(static) if (n >= parallel_from && threads > 1)
  for (std::int64_t i = 0; i < count; ++i) f(static_cast<std::uint64_t>(i));
}
}  // namespace

std::vector<std::uint8_t> make_flags(std::uint64_t n, const flag_case& c, std::uint64_t seed) {
  const std::uint64_t key = stream_key(seed);
  std::vector<std::uint8_t> f(n, 0);
  // Element i's mark, a non-zero byte, from a second word of its own.
  auto mark = [&](std::uint64_t i) { return static_cast<std::uint8_t>(1 + word(key ^ golden, i) % 255); };
  switch (c.pat) {
    case pattern::random: {
      // ratio x 2^64 as the cut; a ratio of 1 keeps everything (2^64 itself does not fit in 64 bits).
      const bool every = c.ratio >= 1.0;
      const auto threshold = every ? 0 : static_cast<std::uint64_t>(std::ldexp(c.ratio > 0 ? c.ratio : 0.0, 64));
      fill_each(n, [&](std::uint64_t i) { f[i] = (every || word(key, i) < threshold) ? mark(i) : 0; });
      break;
    }
    case pattern::none: break;
    case pattern::all: fill_each(n, [&](std::uint64_t i) { f[i] = mark(i); }); break;
    case pattern::single_middle: if (n) f[n / 2] = mark(n / 2); break;
    case pattern::alternating: for (std::uint64_t i = 1; i < n; i += 2) f[i] = mark(i); break;
    case pattern::middle_of_blocks: for (std::uint64_t i = 128; i < n; i += 256) f[i] = mark(i); break;
    case pattern::long_runs: {  // run lengths drawn in order, serially
      std::uint64_t r = 0;
      bool on = word(key, r++) & 1;
      for (std::uint64_t i = 0; i < n;) {
        const std::uint64_t run = 1 + word(key, r++) % 5000;
        for (std::uint64_t j = 0; j < run && i < n; ++j, ++i) f[i] = on ? mark(i) : 0;
        on = !on;
      }
      break;
    }
  }
  return f;
}

template <class T>
std::vector<T> make_values(std::uint64_t n, std::uint64_t seed, value_kind kind) {
  const std::uint64_t key = stream_key(seed);
  std::vector<T> v(n);
  if constexpr (std::is_floating_point_v<T>) {
    const double lo = kind == value_kind::product ? 0.999 : kind == value_kind::sum ? -1.0 : -1e6;
    const double hi = kind == value_kind::product ? 1.001 : kind == value_kind::sum ? 1.0 : 1e6;
    fill_each(n, [&](std::uint64_t i) { v[i] = static_cast<T>(lo + (hi - lo) * unit(word(key, i))); });
  } else {
    static_assert(sizeof(T) <= 16, "values of up to two words");
    fill_each(n, [&](std::uint64_t i) {
      const std::uint64_t r[2] = {word(key, 2 * i), sizeof(T) > 8 ? word(key, 2 * i + 1) : 0};
      std::memcpy(&v[i], r, sizeof(T));
    });
  }
  return v;
}

std::string to_string(key_pattern p) {
  switch (p) {
    case key_pattern::random: return "random";
    case key_pattern::sorted: return "sorted";
    case key_pattern::reverse: return "reverse";
    case key_pattern::all_equal: return "all-equal";
    case key_pattern::few_distinct: return "few-distinct";
    case key_pattern::specials: return "specials";
  }
  return "?";
}

template <class K>
std::vector<K> make_keys(std::uint64_t n, key_pattern p, std::uint64_t seed) {
  const std::uint64_t key = stream_key(seed);
  std::vector<K> k(n);
  auto random_key = [](std::uint64_t w) {
    if constexpr (std::is_floating_point_v<K>) {
      return static_cast<K>(-1e9 + 2e9 * unit(w));
    } else {
      K x;
      std::memcpy(&x, &w, sizeof x);
      return x;
    }
  };
  switch (p) {
    case key_pattern::random:
    case key_pattern::sorted:
    case key_pattern::reverse:
      fill_each(n, [&](std::uint64_t i) { k[i] = random_key(word(key, i)); });
      if (p == key_pattern::sorted) std::sort(k.begin(), k.end());
      if (p == key_pattern::reverse) std::sort(k.begin(), k.end(), [](K a, K b) { return b < a; });
      break;
    case key_pattern::all_equal: std::fill(k.begin(), k.end(), random_key(word(key, 0))); break;
    case key_pattern::few_distinct: {
      const K d[4] = {random_key(word(key, 0)), random_key(word(key, 1)), random_key(word(key, 2)), random_key(word(key, 3))};
      const std::uint64_t picks = key ^ golden;
      fill_each(n, [&](std::uint64_t i) { k[i] = d[word(picks, i) % 4]; });
      break;
    }
    case key_pattern::specials: {
      std::vector<K> s = {K(0), std::numeric_limits<K>::max(), std::numeric_limits<K>::lowest(), K(1)};
      if constexpr (std::is_floating_point_v<K>) {
        s.insert(s.end(), {K(-0.0), std::numeric_limits<K>::infinity(), -std::numeric_limits<K>::infinity(),
                           std::numeric_limits<K>::quiet_NaN(), -std::numeric_limits<K>::quiet_NaN(),
                           std::numeric_limits<K>::denorm_min(), -std::numeric_limits<K>::denorm_min()});
      } else if constexpr (std::is_signed_v<K>) {
        s.push_back(K(-1));
      }
      // A third of the keys random, the rest specials: both choices from words of their own streams.
      const std::uint64_t which = key ^ golden, special = key ^ (golden << 1);
      fill_each(n, [&](std::uint64_t i) {
        k[i] = word(which, i) % 3 == 0 ? random_key(word(key, i)) : s[word(special, i) % s.size()];
      });
      break;
    }
  }
  return k;
}

namespace {
// An unsigned key that orders like T's operator< (floats: -0 before +0; no NaN).
template <class T>
auto order_key(T x) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "the types nth_smallest is instantiated for");
  using U = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
  constexpr U sign = U{1} << (8 * sizeof(T) - 1);
  U u;
  std::memcpy(&u, &x, sizeof u);
  if constexpr (std::is_floating_point_v<T>) return static_cast<U>(u & sign ? ~u : u | sign);
  else if constexpr (std::is_signed_v<T>) return static_cast<U>(u ^ sign);
  else return u;
}
}  // namespace

template <class T>
T nth_smallest(const std::vector<T>& v, std::uint64_t q) {
  if (q >= v.size()) throw std::out_of_range("nth_smallest: q past the end");
  if (v.size() < parallel_from) {
    std::vector<T> c = v;
    std::nth_element(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(q), c.end());
    return c[q];
  }
  constexpr unsigned bits = 16, shift = 8 * sizeof(T) - bits;
  constexpr std::size_t buckets = std::size_t{1} << bits;
  const auto count = static_cast<std::int64_t>(v.size());
  const int threads = omp_get_max_threads();
  std::vector<std::uint64_t> hist(buckets * static_cast<std::size_t>(threads), 0);
#pragma omp parallel num_threads(threads)
  {
    std::uint64_t* const h = hist.data() + buckets * static_cast<std::size_t>(omp_get_thread_num());
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < count; ++i) ++h[order_key(v[static_cast<std::size_t>(i)]) >> shift];
  }
  std::uint64_t before = 0;
  std::size_t b = 0;
  for (;; ++b) {  // the bucket that holds the q-th: the first whose running count passes q
    std::uint64_t in_b = 0;
    for (int t = 0; t < threads; ++t) in_b += hist[buckets * static_cast<std::size_t>(t) + b];
    if (before + in_b > q) break;
    before += in_b;
  }
  std::vector<T> in_bucket;
  for (const T x : v)
    if ((order_key(x) >> shift) == b) in_bucket.push_back(x);
  std::nth_element(in_bucket.begin(), in_bucket.begin() + static_cast<std::ptrdiff_t>(q - before), in_bucket.end());
  return in_bucket[q - before];
}

std::string to_string(run_pattern p) {
  switch (p) {
    case run_pattern::alternating: return "alternating";
    case run_pattern::all_equal: return "all-equal";
    case run_pattern::distinct: return "distinct";
    case run_pattern::pairs: return "pairs";
    case run_pattern::short_runs: return "short-runs";
    case run_pattern::long_runs: return "long-runs";
  }
  return "?";
}

template <class T>
std::vector<T> make_runs(std::uint64_t n, run_pattern p, std::uint64_t seed) {
  if (p == run_pattern::distinct) return make_values<T>(n, seed);
  const std::uint64_t key = stream_key(seed ^ golden);
  const auto pool = make_values<T>(2, seed);
  T a = pool.size() ? pool[0] : T{}, b = pool.size() > 1 ? pool[1] : T{};
  const auto bump = [](T x) {  // a different value: the lowest byte moved by one (floats stay finite)
    unsigned char byte;
    std::memcpy(&byte, &x, 1);
    ++byte;
    std::memcpy(static_cast<void*>(&x), &byte, 1);
    return x;
  };
  if (a == b) b = bump(a);
  std::vector<T> v(n);
  if (p == run_pattern::all_equal) {
    std::fill(v.begin(), v.end(), a);
    return v;
  }
  if (p == run_pattern::alternating) {
    for (std::uint64_t i = 0; i < n; ++i) v[i] = i % 2 ? b : a;
    return v;
  }
  const std::uint64_t most = p == run_pattern::pairs ? 2 : p == run_pattern::short_runs ? 8 : 5000;
  const auto values = make_values<T>(n, seed + 1);  // run r takes values[r], bumped where it equals the run before
  std::uint64_t r = 0;
  T prev = b;
  for (std::uint64_t i = 0; i < n; ++r) {
    T x = values[r];
    if (r == 0) x = a;
    else if (x == prev) x = bump(x);
    const std::uint64_t len = p == run_pattern::pairs ? 2 : 1 + word(key, r) % most;
    for (std::uint64_t j = 0; j < len && i < n; ++j) v[i++] = x;
    prev = x;
  }
  return v;
}

std::string to_string(segment_pattern p) {
  switch (p) {
    case segment_pattern::all_empty: return "all-empty";
    case segment_pattern::one_huge: return "one-huge";
    case segment_pattern::power_law: return "power-law";
    case segment_pattern::short_segments: return "short-segments";
    case segment_pattern::block_edged: return "block-edged";
    case segment_pattern::inner: return "inner";
    case segment_pattern::none: return "none";
  }
  return "?";
}

std::vector<std::uint64_t> make_offsets(std::uint64_t n, segment_pattern p, std::uint64_t seed, std::uint64_t block) {
  const std::uint64_t key = stream_key(seed ^ golden);
  switch (p) {
    case segment_pattern::none: return {n / 3};
    case segment_pattern::all_empty: return std::vector<std::uint64_t>(8, n / 2);
    case segment_pattern::one_huge: return {0, n};
    default: break;
  }
  const std::uint64_t lo = p == segment_pattern::inner ? n / 7 : 0, hi = p == segment_pattern::inner ? n - n / 5 : n;
  const std::uint64_t b = block < 2 ? 2 : block, cycle[] = {b - 1, 1, b + 1, 0, b};
  std::vector<std::uint64_t> off = {lo};
  for (std::uint64_t s = 0, at = lo; at < hi; ++s) {
    std::uint64_t len;
    if (p == segment_pattern::block_edged) {
      len = cycle[s % 5];
    } else if (p == segment_pattern::power_law) {
      const double u = 1.0 - unit(word(key, s));  // (0, 1]
      const double l = std::floor(std::pow(u, -1.5)) - 1;
      len = l >= static_cast<double>(n) ? n : static_cast<std::uint64_t>(l);
    } else {
      len = word(key, s) % 9;
    }
    at = hi - at < len ? hi : at + len;
    off.push_back(at);
  }
  return off;
}

#define SLUICE_GEN(T) \
  template std::vector<T> make_values<T>(std::uint64_t, std::uint64_t, value_kind);
SLUICE_GEN(std::uint8_t) SLUICE_GEN(std::int32_t) SLUICE_GEN(std::uint32_t) SLUICE_GEN(std::int64_t)
SLUICE_GEN(std::uint64_t) SLUICE_GEN(float) SLUICE_GEN(double) SLUICE_GEN(sluice::vec4u)
#define SLUICE_RUNS(T) template std::vector<T> make_runs<T>(std::uint64_t, run_pattern, std::uint64_t);
SLUICE_RUNS(std::uint8_t) SLUICE_RUNS(std::int32_t) SLUICE_RUNS(std::uint32_t) SLUICE_RUNS(std::int64_t)
SLUICE_RUNS(std::uint64_t) SLUICE_RUNS(float) SLUICE_RUNS(double) SLUICE_RUNS(sluice::vec4u)
#define SLUICE_KEYS(K) template std::vector<K> make_keys<K>(std::uint64_t, key_pattern, std::uint64_t);
SLUICE_KEYS(std::uint32_t) SLUICE_KEYS(std::int32_t) SLUICE_KEYS(float) SLUICE_KEYS(std::uint64_t) SLUICE_KEYS(std::int64_t)
SLUICE_KEYS(double)
#define SLUICE_NTH(T) template T nth_smallest<T>(const std::vector<T>&, std::uint64_t);
SLUICE_NTH(std::int32_t) SLUICE_NTH(std::uint32_t) SLUICE_NTH(std::int64_t) SLUICE_NTH(std::uint64_t) SLUICE_NTH(float) SLUICE_NTH(double)

}  // namespace sluice::verify
