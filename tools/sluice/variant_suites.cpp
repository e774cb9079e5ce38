// The suites that time sluice's variants by name: quick (every registered algorithm at one size, and the
// --algo values with parameters), compaction and scan-reduce (the papers' GPU variants and their parameters,
// beside CUB and the copy).
#include "bench_core.hpp"
#include "cub_direct.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "sluice/detail/storage.hpp"
#include "verify/generators.hpp"

namespace sluice::tool {
namespace {

// names(p, d), and the --algo values with parameters that a variant of p on d takes (quick: "billeter:threads=2").
std::vector<std::string> specs_of(primitive p, device d) {
  std::vector<std::string> v = names(p, d);
  if (args)
    for (const auto& spec : args->only_algos)
      if (detail::base_name(spec).size() != spec.size())
        for (const auto& a : algorithms())
          if (a.prim == p && runs_on(a, d) && a.name == detail::base_name(spec) && takes_params(a, spec, "bench")) v.push_back(spec);
  return v;
}

}  // namespace

void quick_suite_at(runner& r, device d, std::uint64_t n) {
  using u32 = std::uint32_t;
  const double b = static_cast<double>(n) * sizeof(u32);
  buf<u32> in(verify::make_values<u32>(n, 1), d), out(std::vector<u32>(n), d), keys(std::vector<u32>(n), d);
  buf<float> fin(verify::make_values<float>(n, 2, verify::value_kind::sum), d);
  auto flags = verify::make_flags(n, {verify::pattern::random, 0.5}, 3);
  buf<std::uint8_t> fl(flags, d);
  const double kept = static_cast<double>(std::count_if(flags.begin(), flags.end(), [](auto f) { return f != 0; }));

  yardstick(r, d, in, out, "u32");  // a copy of the same n elements (bytes read + bytes written)
  read_yardstick(r, d, in);

  for (const auto& a : specs_of(primitive::reduce, d)) {
    options o{d, a, nullptr};
    r.measure("reduce", a, "u32", -1, b, [&] { sink_int = sluice::reduce(in.span(), u32{0}, sum{}, o); });
    r.measure("reduce", a, "f32", -1, b, [&] { sink_float = sluice::reduce(fin.span(), 0.0f, sum{}, o); });
  }
  for (const auto& a : specs_of(primitive::scan, d)) {
    options o{d, a, nullptr};
    r.measure("inclusive_scan", a, "u32", -1, 2 * b, [&] { sluice::inclusive_scan(in.span(), out.span(), sum{}, o); });
  }
  for (const auto& a : specs_of(primitive::compact, d)) {
    options o{d, a, nullptr};
    r.measure("compact", a, "u32", 0.5, b + n + kept * 4, [&] { sink_int = sluice::compact(in.span(), fl.span(), out.span(), o); });
  }
  for (const auto& a : specs_of(primitive::compact_unordered, d)) {
    options o{d, a, nullptr};
    r.measure("compact_unordered", a, "u32", 0.5, b + n + kept * 4,
              [&] { sink_int = sluice::compact_unordered(in.span(), fl.span(), out.span(), o); });
  }
  for (const auto& a : specs_of(primitive::partition, d)) {
    options o{d, a, nullptr};
    r.measure("partition", a, "u32", 0.5, 2 * b + n, [&] { sink_int = sluice::partition_flagged(in.span(), fl.span(), out.span(), o); });
  }
  for (const auto& a : specs_of(primitive::radix_sort, d)) {
    options o{d, a, nullptr};
    r.measure("radix_sort", a, "u32", -1, 2 * b, [&] { sluice::radix_sort(keys.span(), order::ascending, {}, o); },
              [&] { device_copy(d, keys.span().data(), in.span().data(), n * sizeof(u32)); });
  }
  // The runs family on an input of short runs (lengths 1..8): the input read, each run's element (and length) written.
  if (!names(primitive::unique, d).empty() || !names(primitive::run_length_encode, d).empty()) {
    buf<u32> rin(verify::make_runs<u32>(n, verify::run_pattern::short_runs, 4), d);
    buf<std::uint64_t> lengths(std::vector<std::uint64_t>(n), d);
    const double runs = static_cast<double>(sluice::unique(rin.host, out.host));
    for (const auto& a : specs_of(primitive::unique, d)) {
      options o{d, a, nullptr};
      r.measure("unique", a, "u32", -1, b + runs * 4, [&] { sink_int = sluice::unique(rin.span(), out.span(), o); });
    }
    for (const auto& a : specs_of(primitive::run_length_encode, d)) {
      options o{d, a, nullptr};
      r.measure("run_length_encode", a, "u32", -1, b + runs * 12,
                [&] { sink_int = sluice::run_length_encode(rin.span(), out.span(), lengths.span(), o); });
    }
    if (d == device::cpu)
      r.measure("unique", "std::unique_copy", "u32", -1, b + runs * 4,
                [&] { sink_int = static_cast<std::uint64_t>(std::unique_copy(rin.host.begin(), rin.host.end(), out.host.begin()) - out.host.begin()); });
  }
  // The by-key and segmented family: u32 keys in runs of 1..8 beside u32 values (keys and values read, each run's
  // key and sum or every scanned value written); u32 values in power-law segments (values and offsets read, each
  // segment's sum or every scanned value written).
  if (!names(primitive::reduce_by_key, d).empty() || !names(primitive::segmented_reduce, d).empty()) {
    buf<u32> kin(verify::make_runs<u32>(n, verify::run_pattern::short_runs, 4), d), out_keys(std::vector<u32>(n), d);
    const auto offsets = verify::make_offsets(n, verify::segment_pattern::power_law, 5, 0);
    buf<std::uint64_t> off(offsets, d);
    const double runs = static_cast<double>(sluice::unique(kin.host, out_keys.host));
    const double segments = static_cast<double>(offsets.size() - 1);
    for (const auto& a : specs_of(primitive::reduce_by_key, d)) {
      options o{d, a, nullptr};
      r.measure("reduce_by_key", a, "u32", -1, 2 * b + runs * 8,
                [&] { sink_int = sluice::reduce_by_key(kin.span(), in.span(), out_keys.span(), out.span(), sum{}, o); });
    }
    for (const auto& a : specs_of(primitive::scan_by_key, d)) {
      options o{d, a, nullptr};
      r.measure("inclusive_scan_by_key", a, "u32", -1, 3 * b, [&] { sluice::inclusive_scan_by_key(kin.span(), in.span(), out.span(), sum{}, o); });
    }
    for (const auto& a : specs_of(primitive::segmented_reduce, d)) {
      options o{d, a, nullptr};
      r.measure("segmented_reduce", a, "u32", -1, b + (segments + 1) * 8 + segments * 4,
                [&] { sluice::segmented_reduce(in.span(), off.span(), out.span(), u32{0}, sum{}, o); });
    }
    for (const auto& a : specs_of(primitive::segmented_scan, d)) {
      options o{d, a, nullptr};
      r.measure("segmented_inclusive_scan", a, "u32", -1, 2 * b + (segments + 1) * 8,
                [&] { sluice::segmented_inclusive_scan(in.span(), off.span(), out.span(), sum{}, o); });
    }
  }
  // The k-way split by a 5-bit radix digit (32 buckets): the input read, each element written once.
  if (!names(primitive::split, d).empty()) {
    buf<std::uint64_t> bucket_offsets(std::vector<std::uint64_t>(33), d);
    for (const auto& a : specs_of(primitive::split, d)) {
      options o{d, a, nullptr};
      r.measure("split", a, "u32/k32", -1, 2 * b, [&] { sluice::split(in.span(), radix_digit{24, 5}, 32, out.span(), bucket_offsets.span(), o); });
    }
  }
  // Top-k: the 1000 largest of the input, sorted, with their positions; the input read (selection rather than a sort).
  if (!names(primitive::top_k, d).empty()) {
    constexpr std::uint64_t k = 1000;
    buf<std::uint64_t> positions(std::vector<std::uint64_t>(k), d);
    for (const auto& a : specs_of(primitive::top_k, d)) {
      options o{d, a, nullptr};
      r.measure("top_k", a, "u32/k1000", -1, b, [&] { sluice::top_k(in.span(), k, out.span().first(k), positions.span(), order::descending, output_order::sorted, o); });
    }
    if (d == device::cuda && wanted("top_k", "cub-sort"))  // CUB 3.0 has no top-k: a sort of the pairs, then the first k
      r.measure("top_k", "cub-sort", "u32/k1000", -1, b, cub_direct::top_k_by_sort(in.dev.data(), out.dev.data(), positions.dev.data(), n, k));
    if (d == device::cpu)  // the standard library's selection, then the k sorted: what a C++ user writes
      r.measure("top_k", "std::nth_element", "u32/k1000", -1, b,
                [&] {
                  std::nth_element(keys.host.begin(), keys.host.begin() + k - 1, keys.host.end(), std::greater<>{});
                  std::sort(keys.host.begin(), keys.host.begin() + k, std::greater<>{});
                },
                [&] { keys.host = in.host; });
  }
  // The segmented sort: u32 keys in short segments (lengths 0..256: the GPU's warp and block tiers) and in 8 long
  // ones; the keys read and written once (each form sorts in place, its input restored before each call).
  if (!names(primitive::segmented_radix_sort, d).empty()) {
    for (const bool short_segments : {true, false}) {
      std::vector<std::uint64_t> offsets = {0};
      std::uint64_t g = 7;
      while (offsets.back() < n) {
        g = g * 6364136223846793005ull + 1442695040888963407ull;
        offsets.push_back(std::min<std::uint64_t>(n, offsets.back() + (short_segments ? (g >> 33) % 257 : (n + 7) / 8)));
      }
      buf<std::uint64_t> off(offsets, d);
      const std::string type = short_segments ? "u32/seg<=256" : "u32/8-seg";
      for (const auto& a : specs_of(primitive::segmented_radix_sort, d)) {
        options o{d, a, nullptr};
        r.measure("segmented_radix_sort", a, type, -1, 2 * b, [&] { sluice::segmented_radix_sort(keys.span(), off.span(), order::ascending, {}, o); },
                  [&] { device_copy(d, keys.span().data(), in.span().data(), n * sizeof(u32)); });
      }
      if (d == device::cuda && wanted("segmented_radix_sort", "cub-segmented"))  // out of place, as CUB sorts
        r.measure("segmented_radix_sort", "cub-segmented", type, -1, 2 * b,
                  cub_direct::segmented_sort_keys(in.dev.data(), keys.dev.data(), n, off.dev.data(), offsets.size() - 1));
      if (d == device::cpu && wanted("segmented_radix_sort", "std::sort-segments"))  // what a C++ user writes
        r.measure("segmented_radix_sort", "std::sort-segments", type, -1, 2 * b,
                  [&] {
                    for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
                      std::stable_sort(keys.host.begin() + static_cast<std::ptrdiff_t>(offsets[s]), keys.host.begin() + static_cast<std::ptrdiff_t>(offsets[s + 1]));
                  },
                  [&] { keys.host = in.host; });
    }
  }
  if (d == device::cpu) {  // the standard library beside the CPU backend
    r.measure("reduce", "std::reduce", "u32", -1, b, [&] { sink_int = std::reduce(in.host.begin(), in.host.end(), u32{0}); });
    r.measure("inclusive_scan", "std::inclusive_scan", "u32", -1, 2 * b,
              [&] { std::inclusive_scan(in.host.begin(), in.host.end(), out.host.begin()); });
    r.measure("compact", "std::copy_if", "u32", 0.5, b + n + kept * 4, [&] { sink_int = std_copy_if_flags(in.host, flags, out.host); });
    r.measure("radix_sort", "std::sort", "u32", -1, 2 * b, [&] { std::sort(keys.host.begin(), keys.host.end()); },
              [&] { keys.host = in.host; });
  }
}

namespace {

// The papers' compactions beside CUB (Flagged and If) and the copy. Flags are bytes; the bytes that
// must move are the elements read once, the flags read once and the kept elements written once.
template <class T>
void compaction_ratios(runner& r, device d, std::uint64_t n, const std::string& type, const std::vector<double>& ratios,
                       const std::vector<std::string>& specs) {
  const double b = static_cast<double>(n) * sizeof(T);
  buf<T> in(random_elements<T>(n), d), out(std::vector<T>(n), d);
  yardstick(r, d, in, out, type);
  for (double ratio : ratios) {
    const auto flags = verify::make_flags(n, {verify::pattern::random, ratio}, 3);
    buf<std::uint8_t> fl(flags, d);
    const double kept = static_cast<double>(std::count_if(flags.begin(), flags.end(), [](auto f) { return f != 0; }));
    const double moved = b + static_cast<double>(n) + kept * sizeof(T);
    for (const auto& spec : specs) {
      options o{d, spec, nullptr};
      r.measure("compact", spec, type, ratio, moved, [&] { sink_int = sluice::compact(in.span(), fl.span(), out.span(), o); });
    }
    if constexpr (std::is_same_v<T, std::uint32_t>) {
      // The If form: keep x < ratio * 2^32 (random values: about `ratio` of them); no flags to read.
      const auto cut = static_cast<std::uint64_t>(std::ldexp(ratio, 32));
      const T bound = cut > 0xffffffffull ? T{0xffffffffu} : static_cast<T>(cut);
      const double kept_if = static_cast<double>(std::count_if(in.host.begin(), in.host.end(), [&](T x) { return ratio >= 1 || x < bound; }));
      for (const char* spec : {"cub", "billeter", "scan-scatter"}) {
        options o{d, spec, nullptr};
        if (ratio >= 1)
          r.measure("compact_if", spec, type, ratio, b + kept_if * sizeof(T), [&] { sink_int = sluice::compact_if(in.span(), out.span(), at_most(T{0xffffffffu}), o); });
        else
          r.measure("compact_if", spec, type, ratio, b + kept_if * sizeof(T), [&] { sink_int = sluice::compact_if(in.span(), out.span(), less_than(bound), o); });
      }
    }
    if (std::is_same_v<T, std::uint32_t>)
      for (const char* spec : {"jumping-jack", "warp-atomic"}) {
        options o{d, spec, nullptr};
        r.measure("compact_unordered", spec, type, ratio, moved, [&] { sink_int = sluice::compact_unordered(in.span(), fl.span(), out.span(), o); });
      }
  }
}

}  // namespace

void compaction_suite(std::vector<row>& all, device d) {
  using u32 = std::uint32_t;
  const std::vector<std::string> specs = {"cub", "scan-scatter", "horn", "roger", "billeter", "billeter-staged", "billeter-scattered",
                                          "billeter-buffered", "billeter:simd=prefix", "billeter-staged:simd=prefix",
                                          "billeter-scattered:simd=prefix", "billeter-buffered:simd=prefix", "sort-compact"};
  std::vector<double> ratios;
  for (int k = 0; k <= 10; ++k) ratios.push_back(k / 10.0);
  auto add = [&](runner& r) { all.insert(all.end(), r.rows().begin(), r.rows().end()); };
  for (std::uint64_t n : {std::uint64_t{1} << 22, std::uint64_t{1} << 26}) {
    std::printf("[compaction] u32, n = %llu, valid ratio 0 .. 1\n", static_cast<unsigned long long>(n));
    runner r(d, n, 20);
    compaction_ratios<u32>(r, d, n, "u32", ratios, specs);
    add(r);
  }
  const std::uint64_t n = std::uint64_t{1} << 26;
  {
    std::printf("[compaction] 64- and 128-bit elements at 50%%\n");
    runner r(d, n, 20);
    compaction_ratios<std::uint64_t>(r, d, n, "u64", {0.5}, specs);
    add(r);
    runner r2(d, n, 20);
    compaction_ratios<detail::storage<16, 16>>(r2, d, n, "b128", {0.5}, specs);
    add(r2);
  }
  // Roger Table I (60% valid) and the block-size studies of Roger Fig. 11 and Moreira Fig. 10.
  for (std::uint64_t m : {std::uint64_t{1} << 18, std::uint64_t{1} << 20, std::uint64_t{1} << 22, std::uint64_t{1} << 24}) {
    std::printf("[compaction] Roger Table I sizes, n = %llu, 60%% valid\n", static_cast<unsigned long long>(m));
    runner r(d, m, 20);
    std::vector<std::string> table1 = {"horn", "roger", "roger:scan=hillis-steele", "scan-scatter", "billeter", "cub"};
    if (m == (std::uint64_t{1} << 22))
      for (int s = 8; s <= 1024; s *= 2) table1.push_back("roger:s=" + std::to_string(s));
    compaction_ratios<u32>(r, d, m, "u32", {0.6}, table1);
    add(r);
  }
  {
    std::printf("[compaction] jumping-jack block sizes, n = 2^22\n");
    runner r(d, std::uint64_t{1} << 22, 20);
    buf<u32> in(verify::make_values<u32>(r.n(), 1), d), out(std::vector<u32>(r.n()), d);
    yardstick(r, d, in, out, "u32");
    for (double ratio : {0.5, 0.1, 0.02}) {
      const auto flags = verify::make_flags(r.n(), {verify::pattern::random, ratio}, 3);
      buf<std::uint8_t> fl(flags, d);
      const double kept = static_cast<double>(std::count_if(flags.begin(), flags.end(), [](auto f) { return f != 0; }));
      for (int s = 16; s <= 1024; s *= 2)
        for (const char* scan : {"blelloch", "hillis-steele"}) {
          const std::string spec = "jumping-jack:s=" + std::to_string(s) + "+scan=" + scan;
          const std::string real = "jumping-jack:s=" + std::to_string(s) + ",scan=" + scan;
          options o{d, real, nullptr};
          r.measure("compact_unordered", spec, "u32", ratio, 4.0 * r.n() + r.n() + kept * 4,
                    [&] { sink_int = sluice::compact_unordered(in.span(), fl.span(), out.span(), o); });
        }
    }
    add(r);
  }
}

// The papers' reductions and scans at 2^22, 2^25 and 2^28 beside CUB and the copy; the billeter
// processor count and the coarsened scan as the block-size study.
void scan_reduce_suite(std::vector<row>& all, device d) {
  using u32 = std::uint32_t;
  for (std::uint64_t n : {std::uint64_t{1} << 22, std::uint64_t{1} << 25, std::uint64_t{1} << 28}) {
    std::printf("[scan-reduce] n = %llu\n", static_cast<unsigned long long>(n));
    runner r(d, n, 20);
    const double b = static_cast<double>(n) * sizeof(u32);
    buf<u32> in(verify::make_values<u32>(n, 1), d), out(std::vector<u32>(n), d);
    yardstick(r, d, in, out, "u32");
    for (const auto& a : names(primitive::reduce, d)) {
      options o{d, a, nullptr};
      r.measure("reduce", a, "u32", -1, b, [&] { sink_int = sluice::reduce(in.span(), u32{0}, sum{}, o); });
    }
    std::vector<std::string> scans = names(primitive::scan, d);
    for (int p : {132, 528, 2112, 4224, 8448, 16896}) scans.push_back("billeter-scan:P=" + std::to_string(p));
    for (const auto& a : scans) {
      options o{d, a, nullptr};
      r.measure("inclusive_scan", a, "u32", -1, 2 * b, [&] { sluice::inclusive_scan(in.span(), out.span(), sum{}, o); });
    }
    all.insert(all.end(), r.rows().begin(), r.rows().end());
  }
  if (d != device::cuda) return;
  // The teaching kit's work-efficiency question by block size, at Billeter Table 4's 32M: Kogge-Stone
  // (n log n operations) against Brent-Kung (2n) and the coarsened scan, each block size from a warp to 1024.
  const std::uint64_t n = std::uint64_t{1} << 25;
  std::printf("[scan-reduce] block sizes at n = %llu\n", static_cast<unsigned long long>(n));
  runner r(d, n, 10);
  const double b = static_cast<double>(n) * sizeof(u32);
  buf<u32> in(verify::make_values<u32>(n, 1), d), out(std::vector<u32>(n), d);
  yardstick(r, d, in, out, "u32");
  for (const char* a : {"kogge-stone", "brent-kung", "three-phase-coarsened", "streaming"})
    for (int threads = 32; threads <= 1024; threads *= 2) {
      const std::string spec = std::string(a) + ":threads=" + std::to_string(threads);
      options o{d, spec, nullptr};
      r.measure("inclusive_scan", spec, "u32", -1, 2 * b, [&] { sluice::inclusive_scan(in.span(), out.span(), sum{}, o); });
      if (r.rows().back().algo == spec) r.rows().back().block_size = threads;
    }
  all.insert(all.end(), r.rows().begin(), r.rows().end());
}

}  // namespace sluice::tool
