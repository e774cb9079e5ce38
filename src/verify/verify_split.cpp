// split and split_async against the reference's stable k-way split, bit for bit: the elements and the
// bucket offsets, over key patterns, bucket counts 1 to 256 (radix digits and functions of the element), sizes
// around the CPU blocks; guards past out and past the k + 1 offsets that must stay poisoned; ids outside
// [0, k) refused by split (before anything is written, on the cpu) and left out by split_async; outputs too
// small refused. On cuda the precompiled kernels take radix_digit only: the functions of the element run on the cpu.
#include <algorithm>

#include "reference/reference.hpp"
#include "sluice/cpu/billeter.hpp"
#include "sluice/split.hpp"
#include "verify/check.hpp"

namespace sluice::verify {
namespace {

// The first `count` of got against want, and the guard past `limit` (the span handed over) untouched.
template <class T>
std::string compare(const char* what, const std::vector<T>& got, const std::vector<T>& want, std::uint64_t count, std::uint64_t limit) {
  for (std::size_t i = limit; i < got.size(); ++i)
    if (!is_poison(got[i])) return std::string(what) + ": wrote past the end at " + std::to_string(i);
  for (std::size_t i = 0; i < count; ++i)
    if (i >= want.size() || !same_bits(got[i], want[i]))
      return std::string(what) + " at " + std::to_string(i) + ": got " + show(got[i]) + ", want " + (i < want.size() ? show(want[i]) : "nothing");
  return "";
}

template <class T>
std::string untouched(const char* what, const std::vector<T>& got) {
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!is_poison(got[i])) return std::string(what) + " written at " + std::to_string(i) + " by a call that refused its input";
  return "";
}

// One call. Ids outside [0, k) are expected where the reference finds some: split must refuse them before
// writing, split_async must leave them out. too_small: out one element short (split must refuse).
template <class T, class Bucket>
std::string split_case(context& c, const std::vector<T>& in, Bucket bucket_of, std::uint32_t k, bool async, bool too_small) {
  std::vector<std::uint64_t> ids(in.size());
  bool outside = false;
  for (std::size_t i = 0; i < in.size(); ++i) {
    ids[i] = static_cast<std::uint64_t>(bucket_of(in[i]));
    outside = outside || ids[i] >= k;
  }
  const auto want = reference::split(in, ids, k);
  const std::uint64_t cap = too_small ? in.size() - 1 : in.size();
  staged<T> src(in, c.s.dev);
  auto out = staged<T>::poisoned(cap, c.s.dev);
  auto offsets = staged<std::uint64_t>::poisoned(k + 1, c.s.dev);
  try {
    if (async) sluice::split_async(src.span(), bucket_of, k, out.span(), offsets.span(), c.opt());
    else sluice::split(src.span(), bucket_of, k, out.span(), offsets.span(), c.opt());
  } catch (const sluice::error& e) {
    if (!too_small && !(outside && !async)) throw;
    if (e.code() != errc::invalid_argument) return std::string("wrong error code: ") + e.what();
    if (c.s.dev == device::cpu) {
      if (auto u = untouched("out", out.fetch()); !u.empty()) return u;
      return untouched("bucket_offsets", offsets.fetch());
    }
    return "";
  }
  if (too_small) return "a too-small out was accepted";
  if (outside && !async) return "ids outside [0, k) were accepted";
  if (auto o = compare("bucket_offsets", offsets.fetch(), want.second, k + 1, k + 1); !o.empty()) return o;
  // Elements whose id is outside [0, k) may follow the others (cuda puts them there): only the guard is checked.
  return compare("elements", out.fetch(), want.first, want.first.size(), cap);
}

// The sizes of the matrix and the CPU blocks' edges.
template <class T>
std::vector<std::uint64_t> sizes_of(context& c) {
  std::vector<std::uint64_t> sizes = c.sparse();
  const std::uint64_t block = cpu::block_elements<T>();
  for (std::uint64_t n : {block - 1, block, block + 1, 3 * block + 1})
    if (n <= (std::uint64_t{1} << c.max_log2()) + 1) sizes.push_back(n);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return c.capped(sizes);
}

// Keys of radix_sort's types: radix digits of 1, 4 and 8 bits at the bottom and at the top (the sign), and
// functions of the element with 1, 3, 255 and 256 buckets; one with ids up to k (outside) for both forms.
template <class K>
void key_cases(context& c) {
  constexpr int width = sizeof(K) * 8;
  std::uint64_t seed = 11000;
  const key_pattern patterns[] = {key_pattern::random, key_pattern::sorted, key_pattern::reverse, key_pattern::all_equal,
                                  key_pattern::few_distinct, key_pattern::specials};
  const radix_digit digits[] = {{0, 8}, {width - 8, 8}, {width - 4, 4}, {3, 1}, {width - 1, 1}};
  const std::uint32_t mods[] = {1, 3, 255, 256};
  int turn = 0;
  for (auto p : patterns) {
    for (std::uint64_t n : sizes_of<K>(c)) {
      const auto keys = make_keys<K>(n, p, ++seed);
      const std::string base = std::string(type_name<K>()) + " n=" + std::to_string(n) + " " + to_string(p);
      const radix_digit d = digits[turn % 5];
      const std::uint32_t m = mods[turn % 4];
      const bool async = turn % 2;
      ++turn;
      c.run_case(base + " radix_digit{" + std::to_string(d.shift) + "," + std::to_string(d.bits) + "}",
                 [&] { return split_case(c, keys, d, 1u << d.bits, async, false); });
      if (c.s.dev == device::cpu) {
        const auto by_mod = [m](const K& x) { return static_cast<std::uint32_t>(radix_digit{0, 8}(x) % m); };
        c.run_case(base + " image % " + std::to_string(m), [&] { return split_case(c, keys, by_mod, m, !async, false); });
      } else {  // the top byte into 2 to 255 buckets, the ids past them outside
        const std::uint32_t few = m == 1 ? 2 : m == 256 ? 255 : m;
        c.run_case(base + " top byte, k = " + std::to_string(few), [&] { return split_case(c, keys, radix_digit{width - 8, 8}, few, !async, false); });
      }
      if (n > 0) {
        // ids 0..16 into 16 buckets: the last id lies outside [0, k) (on cuda radix_digit's 5 bits: ids 0..31).
        const auto outside = [](const K& x) { return static_cast<std::uint32_t>(radix_digit{0, 8}(x) % 17); };
        if (c.s.dev == device::cpu) {
          c.run_case(base + " ids outside, split", [&] { return split_case(c, keys, outside, 16, false, false); });
          c.run_case(base + " ids outside, split_async", [&] { return split_case(c, keys, outside, 16, true, false); });
        } else {
          c.run_case(base + " ids outside, split", [&] { return split_case(c, keys, radix_digit{0, 5}, 16, false, false); });
          c.run_case(base + " ids outside, split_async", [&] { return split_case(c, keys, radix_digit{0, 5}, 16, true, false); });
        }
        c.run_case(base + " out too small", [&] { return split_case(c, keys, d, 1u << d.bits, false, true); });
      }
    }
  }
}

// Elements no radix_digit reads (bytes, records): functions of the element.
template <class T, class Bucket>
void value_cases(context& c, Bucket bucket_of, std::uint32_t k, const char* what) {
  std::uint64_t seed = 12000;
  for (std::uint64_t n : sizes_of<T>(c)) {
    const auto values = make_values<T>(n, ++seed);
    c.run_case(std::string(type_name<T>()) + " n=" + std::to_string(n) + " " + what, [&] { return split_case(c, values, bucket_of, k, n % 2 == 1, false); });
  }
}

}  // namespace

void verify_split(context& c) {
  key_cases<std::uint32_t>(c);
  key_cases<std::int32_t>(c);
  key_cases<float>(c);
  key_cases<std::uint64_t>(c);
  key_cases<std::int64_t>(c);
  key_cases<double>(c);
  if (c.s.dev != device::cpu) return;
  value_cases<std::uint8_t>(c, [](std::uint8_t x) { return x % 7; }, 7, "x % 7");
  value_cases<vec4u>(c, [](const vec4u& x) { return x.w >> 24; }, 256, "w >> 24");
}

}  // namespace sluice::verify
