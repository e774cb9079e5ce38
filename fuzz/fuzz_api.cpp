// libFuzzer target: the CPU API with fuzzer-chosen primitive, element type, size, valid ratio,
// flag pattern and output capacity, compared with the serial reference. A result that differs, an error
// where none is due, or no error where one is due (an output too small for what is selected) aborts.
// Build and run: scripts/fuzz.sh (clang -fsanitize=fuzzer,address,undefined).
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#include "reference/reference.hpp"
#include "sluice/sluice.hpp"
#include "verify/staging.hpp"
#include "verify/verify.hpp"

namespace {

using namespace sluice;

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz_api: %s\n", what);
  std::abort();
}

using verify::same_bits;
template <class T>
bool same(const std::vector<T>& a, const std::vector<T>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), same_bits<T>);
}
// A sum's bits, but any NaN for a NaN: IEEE 754 leaves open which payload the sum of two NaNs carries, and a
// compiler may swap an addition's operands (the library and the reference, built apart, differ there).
template <class T>
bool same_sum(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    if (std::isnan(a) && std::isnan(b)) return true;
  return same_bits(a, b);
}
template <class T>
bool same_sums(const std::vector<T>& a, const std::vector<T>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), same_sum<T>);
}

// Float sums of the CPU default associate by blocks and SIMD lanes: against the left fold they are checked
// within verify's tolerance, on inputs whose sums stay far from overflow (the serial variant is checked bit
// for bit on every input).
template <class T>
bool sums_close(const std::vector<T>& in, const std::vector<T>& got, bool inclusive, T init) {
  long double exact = inclusive ? 0.0L : static_cast<long double>(init), scale = std::fabs(exact);
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (!inclusive && std::fabs(static_cast<long double>(got[i]) - exact) > verify::f32_tolerance * (scale > 0 ? scale : 1)) return false;
    exact += in[i];
    scale += std::fabs(static_cast<long double>(in[i]));
    if (inclusive && std::fabs(static_cast<long double>(got[i]) - exact) > verify::f32_tolerance * (scale > 0 ? scale : 1)) return false;
  }
  return true;
}
template <class T>
bool tame(const std::vector<T>& in, T init) {  // finite, and no partial sum anywhere near overflow
  long double s = std::fabs(static_cast<long double>(init));
  if (!std::isfinite(init)) return false;
  for (T x : in) {
    if (!std::isfinite(x)) return false;
    s += std::fabs(static_cast<long double>(x));
  }
  return s < 1e30L;
}

template <class T>
T value(FuzzedDataProvider& p) {
  T x{};
  const auto bytes = p.ConsumeBytes<unsigned char>(sizeof(T));
  if (!bytes.empty()) std::memcpy(&x, bytes.data(), bytes.size());
  return x;
}

// Flags: random at a fuzzed ratio, or the fuzzer's own bytes (any byte value: non-zero keeps).
std::vector<std::uint8_t> flags_of(FuzzedDataProvider& p, std::size_t n) {
  std::vector<std::uint8_t> f(n);
  if (p.ConsumeBool()) {
    const unsigned percent = p.ConsumeIntegralInRange<unsigned>(0, 100);
    std::uint32_t s = p.ConsumeIntegral<std::uint32_t>() | 1u;
    for (auto& x : f) {
      s ^= s << 13, s ^= s >> 17, s ^= s << 5;
      x = (s % 100) < percent ? static_cast<std::uint8_t>(1 + s % 255) : 0;
    }
  } else {
    for (auto& x : f) x = p.ConsumeIntegral<std::uint8_t>();
  }
  return f;
}

template <class T>
void data_case(FuzzedDataProvider& p, int what) {
  const options cpu{device::cpu};
  const std::size_t n = p.ConsumeIntegralInRange<std::size_t>(0, 3000);
  std::vector<T> in(n);
  const bool few = p.ConsumeBool();  // few distinct values: long runs
  for (auto& x : in) x = few ? static_cast<T>(p.ConsumeIntegralInRange<int>(0, 3)) : value<T>(p);
  constexpr bool fp = std::is_floating_point_v<T>;
  const options exact = fp ? options{device::cpu, "serial"} : cpu;  // the left fold, for floats
  switch (what) {
    case 0: {  // reduce
      const T got = sluice::reduce(in, T{}, sum{}, exact);
      if (!same_sum(got, reference::reduce(in, T{}, sum{}))) fail("reduce differs from the reference");
      if constexpr (fp) {
        if (tame(in, T{})) {
          const T got_default = sluice::reduce(in, T{}, sum{}, cpu);
          long double e = 0, sc = 0;
          for (T x : in) e += x, sc += std::fabs(static_cast<long double>(x));
          if (std::fabs(static_cast<long double>(got_default) - e) > verify::f32_tolerance * (sc > 0 ? sc : 1))
            fail("reduce beyond tolerance");
        }
      }
      break;
    }
    case 1: {  // inclusive and exclusive scan
      std::vector<T> out(n);
      sluice::inclusive_scan(in, out, sum{}, exact);
      if (!same_sums(out, reference::inclusive_scan(in, sum{}))) fail("inclusive_scan differs from the reference");
      const T init = value<T>(p);
      sluice::exclusive_scan(in, out, init, sum{}, exact);
      if (!same_sums(out, reference::exclusive_scan(in, init, sum{}))) fail("exclusive_scan differs from the reference");
      if constexpr (fp) {
        if (tame(in, init)) {
          sluice::inclusive_scan(in, out, sum{}, cpu);
          if (!sums_close(in, out, true, T{})) fail("inclusive_scan beyond tolerance");
          sluice::exclusive_scan(in, out, init, sum{}, cpu);
          if (!sums_close(in, out, false, init)) fail("exclusive_scan beyond tolerance");
        }
      }
      break;
    }
    default: {  // compact, compact_unordered, partition_flagged (or partition_unordered_flagged), with an output of fuzzed capacity
      const bool split_unordered = what == 4 && p.ConsumeBool();
      const auto f = flags_of(p, n);
      std::vector<bool> keep(n);
      for (std::size_t i = 0; i < n; ++i) keep[i] = f[i] != 0;
      const auto want = what == 4 ? reference::partition(in, keep) : reference::compact(in, keep);
      const std::size_t need = what == 4 ? n : want.size();
      const std::size_t capacity = p.ConsumeBool() ? need : p.ConsumeIntegralInRange<std::size_t>(0, n + 8);
      std::vector<T> out(capacity);
      std::uint64_t count = 0;
      try {
        if (what == 2) count = sluice::compact(in, f, out, cpu);
        if (what == 3) count = sluice::compact_unordered(in, f, out, cpu);
        if (what == 4) count = split_unordered ? sluice::partition_unordered_flagged(in, f, out, cpu) : sluice::partition_flagged(in, f, out, cpu);
      } catch (const sluice::error& e) {
        if (capacity >= need || e.code() != errc::invalid_argument) fail(e.what());
        return;  // the output was too small, and said so
      }
      if (capacity < need) fail("an output too small for what was selected was accepted");
      const std::size_t kept = static_cast<std::size_t>(std::count(keep.begin(), keep.end(), true));
      if (count != kept) fail("count differs from the reference");
      out.resize(need);
      const auto by_bits = [](const T& x, const T& y) { return std::memcmp(&x, &y, sizeof(T)) < 0; };
      if (what == 3) {  // the same elements, in any order
        auto a = out, b = want;
        std::sort(a.begin(), a.end(), by_bits);
        std::sort(b.begin(), b.end(), by_bits);
        if (!same(a, b)) fail("compact_unordered kept other elements than the reference");
      } else if (split_unordered) {  // the kept run in order, the rejected run in any order
        auto a = out, b = want;
        std::sort(a.begin() + static_cast<std::ptrdiff_t>(kept), a.end(), by_bits);
        std::sort(b.begin() + static_cast<std::ptrdiff_t>(kept), b.end(), by_bits);
        if (!same(a, b)) fail("partition_unordered_flagged differs from the reference (kept run, or the rejected ones as a set)");
      } else if (!same(out, want)) {
        fail(what == 4 ? "partition_flagged differs from the reference" : "compact differs from the reference");
      }
    }
  }
}

template <class K>
void sort_case(FuzzedDataProvider& p) {
  constexpr int width = sizeof(K) * 8;
  const std::size_t n = p.ConsumeIntegralInRange<std::size_t>(0, 3000);
  std::vector<K> keys(n);
  const bool few = p.ConsumeBool();
  for (auto& k : keys) k = few ? static_cast<K>(p.ConsumeIntegralInRange<int>(-2, 2)) : value<K>(p);
  const bool desc = p.ConsumeBool(), pairs = p.ConsumeBool();
  int begin = p.ConsumeIntegralInRange<int>(0, width), end = p.ConsumeIntegralInRange<int>(begin, width);
  bit_range bits{begin, end};
  // One case in eight (drawn last, so that older seeds read as before) takes its bit range from around the key's
  // width, -1 (the width itself) and other negative ends among them: refused with invalid_argument, and nothing
  // written, exactly where the range is outside the key.
  if (p.ConsumeIntegralInRange<int>(0, 7) == 7) {
    bits = {p.ConsumeIntegralInRange<int>(-3, width + 3), p.ConsumeIntegralInRange<int>(-3, width + 3)};
    begin = bits.begin, end = bits.end == -1 ? width : bits.end;
  }
  const bool inside = begin >= 0 && end >= 0 && end <= width && begin <= end;
  std::vector<std::uint32_t> index(n);
  for (std::size_t i = 0; i < n; ++i) index[i] = static_cast<std::uint32_t>(i);
  auto got = keys;
  const options cpu{device::cpu};
  const auto ord = desc ? order::descending : order::ascending;
  if (!inside) {
    try {
      if (pairs) sluice::radix_sort(got, index, ord, bits, cpu);
      else sluice::radix_sort(got, ord, bits, cpu);
      fail("radix_sort took a bit range outside the key");
    } catch (const sluice::error& e) {
      if (e.code() != errc::invalid_argument) fail("radix_sort refused a bit range outside the key, but not as invalid_argument");
    }
    for (std::size_t i = 0; i < n; ++i)
      if (!same_bits(got[i], keys[i]) || index[i] != i) fail("radix_sort wrote before refusing its bit range");
    return;
  }
  const auto perm = reference::sort_permutation(keys, desc, begin, end);
  if (pairs) sluice::radix_sort(got, index, ord, bits, cpu);
  else sluice::radix_sort(got, ord, bits, cpu);
  for (std::size_t i = 0; i < n; ++i) {
    if (!same_bits(got[i], keys[perm[i]])) fail("radix_sort put a key where the stable reference does not");
    if (pairs && index[i] != perm[i]) fail("radix_sort moved a value away from its key (unstable)");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider p(data, size);
  const int prim = p.ConsumeIntegralInRange<int>(0, 5);
  const int type = p.ConsumeIntegralInRange<int>(0, 3);
  if (prim == 5) {
    switch (p.ConsumeIntegralInRange<int>(0, 5)) {
      case 0: sort_case<std::uint32_t>(p); break;
      case 1: sort_case<std::int32_t>(p); break;
      case 2: sort_case<float>(p); break;
      case 3: sort_case<std::uint64_t>(p); break;
      case 4: sort_case<std::int64_t>(p); break;
      default: sort_case<double>(p); break;
    }
    return 0;
  }
  switch (type) {  // integer sums wrap the same way in both; float sums fold in the same order in both
    case 0: data_case<std::uint8_t>(p, prim); break;
    case 1: data_case<std::uint32_t>(p, prim); break;
    case 2: data_case<std::int64_t>(p, prim); break;
    default: data_case<float>(p, prim); break;
  }
  return 0;
}
