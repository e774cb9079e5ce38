// The one input generator of tests, `sluice verify` and benchmarks: sizes, flag patterns, values, keys.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sluice/types.hpp"

namespace sluice::verify {

// Sizes around every boundary: 0, 1, 31, 32, 33, every 2^k - 1, 2^k, 2^k + 1 up to 2^max_log2 (+ tile edges).
std::vector<std::uint64_t> dense_sizes(int max_log2);
// A few sizes that still hit the edges, for the wide parts of the matrix.
std::vector<std::uint64_t> sparse_sizes(int max_log2);

// middle_of_blocks: one valid element in the middle of every block of 256, the worst case of jumping-jack
// (Moreira et al. 2009 Sec. 4) at its default block size.
enum class pattern { random, none, all, single_middle, alternating, long_runs, middle_of_blocks };
std::string to_string(pattern p);

struct flag_case {
  pattern pat;
  double ratio;  // for random
  std::string name() const;
};
std::vector<flag_case> flag_cases();

// Flag bytes: kept elements get an arbitrary non-zero byte (1..255), so "non-zero keeps" is tested, not "== 1".
std::vector<std::uint8_t> make_flags(std::uint64_t n, const flag_case& c, std::uint64_t seed);

// What values the reduce/scan checks need: sums stay well conditioned, products near 1 for floats.
enum class value_kind { bits, sum, product, minmax };

template <class T>
std::vector<T> make_values(std::uint64_t n, std::uint64_t seed, value_kind kind = value_kind::bits);

// The q-th smallest element of v (0-based, q < v.size()): the value std::nth_element leaves at position q of a
// copy of v, found without copying v. Large inputs: a histogram of the top 16 bits of each element's
// order-preserving key on the OpenMP threads, then std::nth_element over the elements of the one bucket that
// holds it. Arithmetic T, no NaN. (The benchmarks' predicate bounds: a ratio's quantile of 2^28 elements.)
template <class T>
T nth_smallest(const std::vector<T>& v, std::uint64_t q);

// Inputs made of runs of equal elements (unique, run_length_encode), each run's value unequal to the one before:
// alternating (two values in turn: every run one element long), all_equal (one run), distinct (random values:
// wide types almost all runs of one, u8 some runs of two and more), pairs (runs of two), short_runs (random
// lengths 1..8), long_runs (random lengths 1..5000).
enum class run_pattern { alternating, all_equal, distinct, pairs, short_runs, long_runs };
std::string to_string(run_pattern p);
inline constexpr run_pattern run_patterns[] = {run_pattern::alternating, run_pattern::all_equal, run_pattern::distinct,
                                               run_pattern::pairs, run_pattern::short_runs, run_pattern::long_runs};
template <class T>
std::vector<T> make_runs(std::uint64_t n, run_pattern p, std::uint64_t seed);

// Offsets of segments over n values (segmented_reduce, segmented scans: n_segments + 1 non-decreasing entries,
// none past n): all_empty (seven empty segments at n / 2), one_huge ([0, n)), power_law (lengths
// floor(u^-1.5) - 1 for u uniform in (0, 1]: many empty and short segments, a few long ones), short_segments
// (random lengths 0..8), block_edged (lengths block - 1, 1, block + 1, 0, block in turn: segment edges on and
// beside the multiples of `block`), inner (short segments over [n / 7, n - n / 5) only: values outside stay out
// of every segment), none (one entry: zero segments).
enum class segment_pattern { all_empty, one_huge, power_law, short_segments, block_edged, inner, none };
std::string to_string(segment_pattern p);
inline constexpr segment_pattern segment_patterns[] = {segment_pattern::all_empty, segment_pattern::one_huge, segment_pattern::power_law,
                                                       segment_pattern::short_segments, segment_pattern::block_edged, segment_pattern::inner,
                                                       segment_pattern::none};
std::vector<std::uint64_t> make_offsets(std::uint64_t n, segment_pattern p, std::uint64_t seed, std::uint64_t block);

enum class key_pattern { random, sorted, reverse, all_equal, few_distinct, specials };
std::string to_string(key_pattern p);
template <class K>
std::vector<K> make_keys(std::uint64_t n, key_pattern p, std::uint64_t seed);

}  // namespace sluice::verify
