// The production suite (each default beside its peer: CUB on the GPU, the standard library and oneTBB on the
// CPU, and the copy, at every power of two), the sort suite (radix sort of keys and of pairs) and the runs suite
// (unique, unique_by_key, run_length_encode at three average run lengths).
#include "bench_core.hpp"
#include "cub_direct.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <string_view>
#include <vector>

#if SLUICE_BENCH_HAS_TBB  // CPU peers only: libstdc++ runs std::execution::par on oneTBB
#include <execution>
#endif

#include "sluice/detail/storage.hpp"
#include "verify/generators.hpp"

namespace sluice::tool {
namespace {

// Whether --primitive leaves any of `prims` in: the production suite builds no inputs for the others.
bool primitive_wanted(std::initializer_list<std::string_view> prims) {
  if (args == nullptr || args->only_primitive.empty()) return true;
  return std::find(prims.begin(), prims.end(), std::string_view(args->only_primitive)) != prims.end();
}
bool moves_wanted() {
  return primitive_wanted({"compact", "compact_unordered", "partition", "compact_if", "partition_if", "partition_unordered_if"});
}

// The standard library's serial split by flag bytes (as std_copy_if_flags).
template <class T>
std::size_t std_partition_copy_flags(const std::vector<T>& in, const std::vector<std::uint8_t>& flags, std::vector<T>& kept,
                                     std::vector<T>& rejected) {
  const T* base = in.data();
  return static_cast<std::size_t>(
      std::partition_copy(in.begin(), in.end(), kept.begin(), rejected.begin(), [&](const T& x) { return flags[&x - base] != 0; }).first -
      kept.begin());
}

// The default and its peer; with --algo, exactly the algorithms asked for (parameters allowed).
std::vector<std::string> production_peers(device d) {
  if (args && !args->only_algos.empty()) {  // the peers' own labels (std::sort, cub-unstable) select rows the suite times anyway
    std::vector<std::string> v;
    for (const auto& a : args->only_algos)
      if (a == "best" || a == "cub" || std::any_of(algorithms().begin(), algorithms().end(), [&](const algorithm_info& al) {
            return runs_on(al, d) && al.name == detail::base_name(a);
          }))
        v.push_back(a);
    return v;
  }
  return d == device::cuda ? std::vector<std::string>{"best", "cub"} : std::vector<std::string>{"best"};
}

// One case of the production suite: every peer's call (`call(options)`), timed together (runner::measure_each),
// its rows labelled with what the peer's name resolves to for primitive p, then form_of(p). On the GPU the peer
// "cub" runs CUB called directly (cub_direct.hpp): `cubs` holds the makers of those calls by label, "cub" first;
// the others (partition's "cub-unstable") are timed beside it.
using cub_makers = std::vector<std::pair<std::string, std::function<cub_direct::call()>>>;
template <class Call>
void measure_peers(runner& r, const std::vector<std::string>& peers, primitive p, const std::string& prim, const std::string& type,
                   double ratio, double bytes, const Call& call, const cub_makers& cubs = {}) {
  std::vector<std::pair<std::string, std::function<void()>>> candidates;
  const std::string form = form_of(p);
  for (const auto& a : peers) {
    const options o{r.dev(), a, nullptr};
    if (a == "cub" && r.dev() == device::cuda && !cubs.empty()) {
      for (const auto& [label, make] : cubs)
        if (wanted(prim, label + form)) candidates.emplace_back(label + form, make());
      continue;
    }
    candidates.emplace_back(label_of(p, r.dev(), a) + form, [o, &call] { call(o); });
  }
  r.measure_each(prim, type, ratio, bytes, candidates);
}

// Whether the production suite's CUB calls copy their count or sum to the host (the synchronous forms).
bool cub_to_host() { return !async_forms(); }

// Where --async leaves the counts and the sums: device memory on the GPU, host memory on the CPU.
struct results_left {
  buf<std::uint64_t> count;
  buf<std::uint32_t> sum_u32;
  buf<float> sum_f32;
  explicit results_left(device d) : count({0}, d), sum_u32({0}, d), sum_f32({0}, d) {}
};

// Where the CPU production suite times the standard library and oneTBB beside sluice: 2^26, and
// the --n given.
bool cpu_peers_at(std::uint64_t n) { return n == (std::uint64_t{1} << 26) || (args && args->n == n); }

#if SLUICE_BENCH_HAS_TBB
// CPU reduce and inclusive scan peers of n u32 beyond the serial std ones: std::execution::par and
// tbb::parallel_scan, on the yardsticks' threads (global_control in run_bench).
void cpu_parallel_reduce_scan(runner& r, buf<std::uint32_t>& in, buf<std::uint32_t>& out) {
  using u32 = std::uint32_t;
  const double b = static_cast<double>(r.n()) * sizeof(u32);
  const u32* src = in.host.data();
  u32* dst = out.host.data();
  r.measure("reduce", "std::reduce(par)", "u32", -1, b,
            [&] { sink_int = std::reduce(std::execution::par, in.host.begin(), in.host.end(), u32{0}); });
  r.measure("inclusive_scan", "std::inclusive_scan(par)", "u32", -1, 2 * b,
            [&] { std::inclusive_scan(std::execution::par, in.host.begin(), in.host.end(), out.host.begin()); });
  r.measure("inclusive_scan", "tbb::parallel_scan", "u32", -1, 2 * b, [&] { tbb_inclusive_scan(src, dst, r.n()); });
}
#endif

// CPU radix sort of the same n u32 keys by each of `variants` (names, "best" allowed) beside std::sort, serial
// and par, then with `pairs` the keys with u32 values by each variant; the input is restored before every
// repetition (not timed). 5 repetitions: each sort takes up to seconds.
void cpu_sort_rows(runner& r, buf<std::uint32_t>& in, const std::vector<std::string>& variants, bool pairs) {
  using u32 = std::uint32_t;
  const std::uint64_t n = r.n();
  const double b = 2.0 * static_cast<double>(n) * sizeof(u32);
  buf<u32> keys(in.host, device::cpu);
  buf<u32> values(pairs ? verify::make_values<u32>(n, 7) : std::vector<u32>{}, device::cpu);
  const std::vector<u32> value_init = values.host;
  auto reset = [&] {
    device_copy(device::cpu, keys.host.data(), in.host.data(), n * sizeof(u32));
    if (pairs) device_copy(device::cpu, values.host.data(), value_init.data(), n * sizeof(u32));
  };
  const int reps = r.reps();
  r.set_reps(5);
  const auto sorts = names(primitive::radix_sort, device::cpu);
  std::vector<std::string> mine;
  for (const auto& a : variants)
    if (a == "best" || std::find(sorts.begin(), sorts.end(), std::string(detail::base_name(a))) != sorts.end()) mine.push_back(a);
  for (const auto& a : mine) {
    options o{device::cpu, a, nullptr};
    r.measure("radix_sort", label_of(primitive::radix_sort, device::cpu, a), "u32", -1, b,
              [&] { sluice::radix_sort(keys.span(), order::ascending, {}, o); }, reset);
  }
  r.measure("radix_sort", "std::sort", "u32", -1, b, [&] { std::sort(keys.host.begin(), keys.host.end()); }, reset);
#if SLUICE_BENCH_HAS_TBB
  r.measure("radix_sort", "std::sort(par)", "u32", -1, b, [&] { std::sort(std::execution::par, keys.host.begin(), keys.host.end()); }, reset);
#endif
  for (const auto& a : pairs ? mine : std::vector<std::string>{}) {
    options o{device::cpu, a, nullptr};
    r.measure("radix_sort_pairs", label_of(primitive::radix_sort, device::cpu, a), "u32+u32", -1, 2 * b,
              [&] { sluice::radix_sort(keys.span(), values.span(), order::ascending, {}, o); }, reset);
  }
  r.set_reps(reps);
}

template <class T>
void production_moves(runner& r, device d, buf<T>& in, buf<T>& out, const std::string& type, const std::vector<double>& ratios,
                      bool with_predicate) {
  const std::uint64_t n = r.n();
  const double b = static_cast<double>(n) * sizeof(T);
  const std::vector<std::string> peers = production_peers(d);
  auto label = [&](primitive p, const std::string& a) { return label_of(p, d, a); };
  // The standard library beside the CPU backend, u32 only: kept elements to out, rejected ones to `rejected`.
  const bool std_peers = d == device::cpu && std::is_same_v<T, std::uint32_t> && cpu_peers_at(n);
  std::vector<T> rejected(std_peers ? n : 0);
  results_left left(d);
  for (double ratio : ratios) {
    const auto flags = verify::make_flags(n, {verify::pattern::random, ratio}, 3);
    buf<std::uint8_t> fl(flags, d);
    const double kept = static_cast<double>(std::count_if(flags.begin(), flags.end(), [](auto f) { return f != 0; }));
    std::uint64_t* count = left.count.span().data();
    measure_peers(
        r, peers, primitive::compact, "compact", type, ratio, b + n + kept * sizeof(T),
        [&](const options& o) {
          if (async_forms()) sluice::compact_async(in.span(), fl.span(), out.span(), count, o);
          else sink_int = sluice::compact(in.span(), fl.span(), out.span(), o);
        },
        cub_makers{{"cub", [&] { return cub_direct::select_flagged<T>(in.span().data(), fl.span().data(), out.span().data(), n, count, cub_to_host()); }}});
    if (std_peers)
      r.measure("compact", "std::copy_if", type, ratio, b + n + kept * sizeof(T), [&] { sink_int = std_copy_if_flags(in.host, flags, out.host); });
    for (const auto& a : {std::string("best"), std::string("decoupled-lookback")}) {
      if (d != device::cuda && a != "best") continue;
      options o{d, a, nullptr};
      r.measure("compact_unordered", label(primitive::compact_unordered, a) + form_of(primitive::compact_unordered), type, ratio,
                b + n + kept * sizeof(T), [&] {
                  if (async_forms()) sluice::compact_unordered_async(in.span(), fl.span(), out.span(), left.count.span().data(), o);
                  else sink_int = sluice::compact_unordered(in.span(), fl.span(), out.span(), o);
                });
    }
    measure_peers(
        r, peers, primitive::partition, "partition", type, ratio, 2 * b + n,
        [&](const options& o) {
          if (async_forms()) sluice::partition_flagged_async(in.span(), fl.span(), out.span(), count, o);
          else sink_int = sluice::partition_flagged(in.span(), fl.span(), out.span(), o);
        },
        cub_makers{{"cub", [&] { return cub_direct::partition_flagged<T>(in.span().data(), fl.span().data(), out.span().data(), n, count, cub_to_host(), true); }},
                   {"cub-unstable", [&] { return cub_direct::partition_flagged<T>(in.span().data(), fl.span().data(), out.span().data(), n, count, cub_to_host(), false); }}});
    if (std_peers)
      r.measure("partition", "std::partition_copy", type, ratio, 2 * b + n,
                [&] { sink_int = std_partition_copy_flags(in.host, flags, out.host, rejected); });
    if constexpr (std::is_arithmetic_v<T>) {
      if (!with_predicate || !primitive_wanted({"compact_if", "partition_if", "partition_unordered_if"})) continue;
      // The predicate forms: keep x < the ratio-quantile of the (uniform) input; no flags to read.
      const std::size_t q = static_cast<std::size_t>(ratio * static_cast<double>(n));
      const T bound = verify::nth_smallest(in.host, q < n ? q : n - 1);
      const double kept_if = static_cast<double>(std::count_if(in.host.begin(), in.host.end(), [&](T x) { return x < bound; }));
      measure_peers(
          r, peers, primitive::compact, "compact_if", type, ratio, b + kept_if * sizeof(T),
          [&](const options& o) {
            if (async_forms()) sluice::compact_if_async(in.span(), out.span(), less_than(bound), count, o);
            else sink_int = sluice::compact_if(in.span(), out.span(), less_than(bound), o);
          },
          cub_makers{{"cub", [&] { return cub_direct::select_below<T>(in.span().data(), out.span().data(), n, bound, count, cub_to_host()); }}});
      measure_peers(
          r, peers, primitive::partition, "partition_if", type, ratio, 2 * b,
          [&](const options& o) {
            if (async_forms()) sluice::partition_async(in.span(), out.span(), less_than(bound), count, o);
            else sink_int = sluice::partition(in.span(), out.span(), less_than(bound), o);
          },
          cub_makers{{"cub", [&] { return cub_direct::partition_below<T>(in.span().data(), out.span().data(), n, bound, count, cub_to_host(), true); }},
                     {"cub-unstable", [&] { return cub_direct::partition_below<T>(in.span().data(), out.span().data(), n, bound, count, cub_to_host(), false); }}});
      // The order-free split beside CUB's own (unstable) partition, its peer.
      measure_peers(
          r, peers, primitive::partition_unordered, "partition_unordered_if", type, ratio, 2 * b,
          [&](const options& o) {
            if (async_forms()) sluice::partition_unordered_async(in.span(), out.span(), less_than(bound), count, o);
            else sink_int = sluice::partition_unordered(in.span(), out.span(), less_than(bound), o);
          },
          cub_makers{{"cub", [&] { return cub_direct::partition_below<T>(in.span().data(), out.span().data(), n, bound, count, cub_to_host(), false); }}});
      if (std_peers) {
        auto below = [bound](T x) { return x < bound; };
        r.measure("compact_if", "std::copy_if", type, ratio, b + kept_if * sizeof(T),
                  [&] { sink_int = static_cast<std::size_t>(std::copy_if(in.host.begin(), in.host.end(), out.host.begin(), below) - out.host.begin()); });
#if SLUICE_BENCH_HAS_TBB
        r.measure("compact_if", "std::copy_if(par)", type, ratio, b + kept_if * sizeof(T), [&] {
          sink_int = static_cast<std::size_t>(std::copy_if(std::execution::par, in.host.begin(), in.host.end(), out.host.begin(), below) -
                                              out.host.begin());
        });
#endif
        auto std_partition = [&] {
          sink_int = static_cast<std::size_t>(
              std::partition_copy(in.host.begin(), in.host.end(), out.host.begin(), rejected.begin(), below).first - out.host.begin());
        };
        const row* std_row = r.measure("partition_if", "std::partition_copy", type, ratio, 2 * b, std_partition);
        // The order-free split's standard peer is the same std::partition_copy (the standard library has no
        // order-free copying partition; std::partition works in place): its row again where it was just timed,
        // else (--primitive partition_unordered_if) timed here.
        if (std_row) r.record("partition_unordered_if", "std::partition_copy", type, ratio, 2 * b, std_row->ms, std_row->reps);
        else r.measure("partition_unordered_if", "std::partition_copy", type, ratio, 2 * b, std_partition);
      }
    }
  }
}

}  // namespace

// The production suite: the defaults ("best") beside their peer (CUB on the GPU, the standard library on the CPU) and the
// copy, at every power of two, u32 and f32; at 2^28 the valid ratios 0.1, 0.5, 0.9 and the predicate forms;
// at 2^27 the 64- and 128-bit compactions.
// CPU: at 2^26 (or --n), u32, also the predicate forms, radix sort, and the peers std::reduce,
// std::inclusive_scan, std::copy_if, std::partition_copy, std::sort (serial and, with oneTBB,
// std::execution::par) and tbb::parallel_scan.
void production_suite(std::vector<row>& all, device d) {
  using u32 = std::uint32_t;
#if !SLUICE_BENCH_HAS_TBB
  if (d == device::cpu)
    std::printf("cpu: the tbb::parallel_scan and std::execution::par peers are skipped: libtbb-dev was missing when sluice was configured"
                " (scripts/setup.sh installs it)\n");
#endif
  const int top = d == device::cuda ? 30 : 26;
  std::vector<std::uint64_t> sizes;
  for (int k = 10; k <= top; ++k) sizes.push_back(std::uint64_t{1} << k);
  if (args && args->n) sizes = {args->n};
  if (args) std::erase_if(sizes, [](std::uint64_t n) { return n > args->max_size; });
  const std::vector<std::string> peers = production_peers(d);
  for (std::uint64_t n : sizes) {
    std::printf("[production] n = %llu\n", static_cast<unsigned long long>(n));
    const bool big = n == (std::uint64_t{1} << 28);
    const bool cpu_peers = d == device::cpu && cpu_peers_at(n);  // and the predicate forms, to have the peers' cases
    runner r(d, n, n >= (std::uint64_t{1} << 29) ? 10 : 20);
    const double b = static_cast<double>(n) * sizeof(u32);
    buf<u32> in(verify::make_values<u32>(n, 1), d), out(std::vector<u32>(n), d);
    yardstick(r, d, in, out, "u32");
    read_yardstick(r, d, in);
    {
      // The f32 inputs and outputs only where a measurement takes them (--primitive).
      const bool f32_wanted = primitive_wanted({"reduce", "inclusive_scan"}) || (big && moves_wanted());
      buf<float> fin(f32_wanted ? verify::make_values<float>(n, 2, verify::value_kind::sum) : std::vector<float>{}, d),
          fout(std::vector<float>(f32_wanted ? n : 0), d);
      results_left left(d);
      measure_peers(
          r, peers, primitive::reduce, "reduce", "u32", -1, b,
          [&](const options& o) {
            if (async_forms()) sluice::reduce_async(in.span(), left.sum_u32.span().data(), u32{0}, sum{}, o);
            else sink_int = sluice::reduce(in.span(), u32{0}, sum{}, o);
          },
          cub_makers{{"cub", [&] { return cub_direct::reduce_sum<u32>(in.span().data(), n, left.sum_u32.span().data(), cub_to_host()); }}});
      measure_peers(
          r, peers, primitive::reduce, "reduce", "f32", -1, b,
          [&](const options& o) {
            if (async_forms()) sluice::reduce_async(fin.span(), left.sum_f32.span().data(), 0.0f, sum{}, o);
            else sink_float = sluice::reduce(fin.span(), 0.0f, sum{}, o);
          },
          cub_makers{{"cub", [&] { return cub_direct::reduce_sum<float>(fin.span().data(), n, left.sum_f32.span().data(), cub_to_host()); }}});
      measure_peers(
          r, peers, primitive::scan, "inclusive_scan", "u32", -1, 2 * b, [&](const options& o) { sluice::inclusive_scan(in.span(), out.span(), sum{}, o); },
          cub_makers{{"cub", [&] { return cub_direct::inclusive_sum<u32>(in.span().data(), out.span().data(), n); }}});
      measure_peers(
          r, peers, primitive::scan, "inclusive_scan", "f32", -1, 2 * b,
          [&](const options& o) { sluice::inclusive_scan(fin.span(), fout.span(), sum{}, o); },
          cub_makers{{"cub", [&] { return cub_direct::inclusive_sum<float>(fin.span().data(), fout.span().data(), n); }}});
      measure_peers(
          r, peers, primitive::scan, "exclusive_scan", "u32", -1, 2 * b,
          [&](const options& o) { sluice::exclusive_scan(in.span(), out.span(), u32{0}, sum{}, o); },
          cub_makers{{"cub", [&] { return cub_direct::exclusive_sum<u32>(in.span().data(), out.span().data(), n); }}});
      if (d == device::cpu) {
        r.measure("reduce", "std::reduce", "u32", -1, b, [&] { sink_int = std::reduce(in.host.begin(), in.host.end(), u32{0}); });
        r.measure("inclusive_scan", "std::inclusive_scan", "u32", -1, 2 * b,
                  [&] { std::inclusive_scan(in.host.begin(), in.host.end(), out.host.begin()); });
#if SLUICE_BENCH_HAS_TBB
        if (cpu_peers) cpu_parallel_reduce_scan(r, in, out);
#endif
      }
      // The predicate forms at every size on the GPU (the production goals are judged at every power of two), at
      // 2^26 on the CPU.
      if (moves_wanted())
        production_moves<u32>(r, d, in, out, "u32", big ? std::vector<double>{0.1, 0.5, 0.9} : std::vector<double>{0.5},
                              big || cpu_peers || d == device::cuda);
      if (big && moves_wanted()) production_moves<float>(r, d, fin, fout, "f32", {0.1, 0.5, 0.9}, true);
    }
    if (cpu_peers && primitive_wanted({"radix_sort"})) cpu_sort_rows(r, in, production_peers(d), false);
    all.insert(all.end(), r.rows().begin(), r.rows().end());
  }
  // The goals' table is 2^28 and, for the wide elements, 2^27: --n 2^28 times both.
  if (d != device::cuda || (args && args->n && args->n != (std::uint64_t{1} << 28)) || !moves_wanted()) return;
  if (args && args->max_size < (std::uint64_t{1} << 28)) return;
  const std::uint64_t n = std::uint64_t{1} << 27;
  std::printf("[production] 64- and 128-bit elements, n = %llu\n", static_cast<unsigned long long>(n));
  {
    runner r(d, n, 20);
    buf<std::uint64_t> in(random_elements<std::uint64_t>(n), d), out(std::vector<std::uint64_t>(n), d);
    yardstick(r, d, in, out, "u64");
    production_moves<std::uint64_t>(r, d, in, out, "u64", {0.1, 0.5, 0.9}, true);
    all.insert(all.end(), r.rows().begin(), r.rows().end());
  }
  {
    using b128 = detail::storage<16, 16>;
    runner r(d, n, 20);
    buf<b128> in(random_elements<b128>(n), d), out(std::vector<b128>(n), d);
    yardstick(r, d, in, out, "b128");
    production_moves<b128>(r, d, in, out, "b128", {0.1, 0.5, 0.9}, false);
    all.insert(all.end(), r.rows().begin(), r.rows().end());
  }
}

namespace {

// Sort rows of `algos` for keys (and values, unless null) of the runner's size: each sort starts from the
// same input, restored before every repetition (not timed).
template <class K, class V>
void sort_rows(runner& r, device d, const std::vector<std::string>& algos, const std::string& type, const std::vector<K>& key_init,
               const std::vector<V>* value_init) {
  const std::uint64_t n = r.n();
  buf<K> src(key_init, d), keys(key_init, d);
  const double b = static_cast<double>(n) * (sizeof(K) + (value_init ? sizeof(V) : 0));
  const std::vector<V> none;
  buf<V> vsrc(value_init ? *value_init : none, d), vals(value_init ? *value_init : none, d);
  for (const auto& a : algos) {
    options o{d, a, nullptr};
    const std::string label = label_of(primitive::radix_sort, d, a);
    auto reset = [&] {
      device_copy(d, keys.span().data(), src.span().data(), n * sizeof(K));
      if (value_init) device_copy(d, vals.span().data(), vsrc.span().data(), n * sizeof(V));
    };
    if (value_init)
      r.measure("radix_sort_pairs", label, type, -1, 2 * b, [&] { sluice::radix_sort(keys.span(), vals.span(), order::ascending, {}, o); }, reset);
    else
      r.measure("radix_sort", label, type, -1, 2 * b, [&] { sluice::radix_sort(keys.span(), order::ascending, {}, o); }, reset);
  }
}

// The k-way split of the runner's u32 input by a radix digit, into 32 buckets (bits 27-31) and 256 (bits 24-31): the
// default, and on the GPU CUB's sort of the same keys by those bits alone (out of place: the same stable split).
// Bytes counted: the input read once and written once.
void split_rows(runner& r, device d, buf<std::uint32_t>& in, buf<std::uint32_t>& out) {
  const std::uint64_t n = r.n();
  const double b = 2.0 * static_cast<double>(n) * sizeof(std::uint32_t);
  buf<std::uint64_t> offsets(std::vector<std::uint64_t>(max_split_buckets + 1), d);
  const options o{d, "best", nullptr};
  for (const auto& [digit, k, type] : {std::tuple{radix_digit{27, 5}, 32u, "u32/k32"}, std::tuple{radix_digit{24, 8}, 256u, "u32/k256"}}) {
    r.measure("split", label_of(primitive::split, d, "best"), type, -1, b, [&] { sluice::split(in.span(), digit, k, out.span(), offsets.span(), o); });
    if (d == device::cuda && wanted("split", "cub"))
      r.measure("split", "cub", type, -1, b, cub_direct::sort_keys_bits<std::uint32_t>(in.span().data(), out.span().data(), n, digit.shift, digit.shift + digit.bits));
  }
}

}  // namespace

// The sort suite: radix sort. u32 keys alone and u32 keys with u32 values at 2^20, 2^22, 2^24 and 2^28, f32 keys at
// 2^28, u64 keys at 2^27: the default, CUB and (at Billeter's 4M, Table 5) split-radix, with key + 16-byte
// value pairs there too; on the CPU the default beside lsd-parallel, std::sort and std::sort(par) (cpu_sort_rows);
// at every size the k-way split into 32 and 256 buckets (split_rows). Bytes counted: the keys (and values) read
// once and written once, as a copy of them moves.
void sort_suite(std::vector<row>& all, device d) {
  using u32 = std::uint32_t;
  std::vector<std::uint64_t> sizes = {std::uint64_t{1} << 20, std::uint64_t{1} << 22, std::uint64_t{1} << 24, std::uint64_t{1} << 28};
  if (args && args->n) sizes = {args->n};
  const std::vector<std::string> algos = production_peers(d);
  for (std::uint64_t n : sizes) {
    std::printf("[sort] n = %llu\n", static_cast<unsigned long long>(n));
    std::vector<std::string> here = algos;
    const bool table5 = n == (std::uint64_t{1} << 22);
    if (table5 && d == device::cuda && !(args && !args->only_algos.empty())) here.push_back("split-radix");
    runner r(d, n, n >= (std::uint64_t{1} << 28) ? 10 : 20);
    {
      buf<u32> in(verify::make_values<u32>(n, 1), d), out(std::vector<u32>(n), d);
      yardstick(r, d, in, out, "u32");
      if (d == device::cpu) {  // the default beside lsd-parallel and the standard library
        cpu_sort_rows(r, in, args && !args->only_algos.empty() ? here : std::vector<std::string>{"best", "lsd-parallel"}, true);
      } else {
        const auto values = verify::make_values<u32>(n, 7);
        sort_rows<u32, u32>(r, d, here, "u32", in.host, nullptr);
        sort_rows<u32, u32>(r, d, here, "u32+u32", in.host, &values);
      }
      if (table5) {
        const auto wide = random_elements<detail::storage<16, 4>>(n);
        sort_rows<u32, detail::storage<16, 4>>(r, d, here, "u32+b128", in.host, &wide);
      }
      if (n == (std::uint64_t{1} << 28))
        sort_rows<float, u32>(r, d, here, "f32", verify::make_keys<float>(n, verify::key_pattern::random, 11), nullptr);
      split_rows(r, d, in, out);
    }
    all.insert(all.end(), r.rows().begin(), r.rows().end());
  }
  if (d != device::cuda || (args && args->n)) return;
  const std::uint64_t n = std::uint64_t{1} << 27;
  std::printf("[sort] 64-bit keys, n = %llu\n", static_cast<unsigned long long>(n));
  runner r(d, n, 10);
  buf<std::uint64_t> in(random_elements<std::uint64_t>(n), d), out(std::vector<std::uint64_t>(n), d);
  yardstick(r, d, in, out, "u64");
  sort_rows<std::uint64_t, u32>(r, d, algos, "u64", in.host, nullptr);
  all.insert(all.end(), r.rows().begin(), r.rows().end());
}

// The runs suite: unique, unique_by_key (u32 keys, u32 values), run_length_encode (u32 keys, u64 lengths),
// reduce_by_key and inclusive_scan_by_key (u32 sums) at 2^20 and 2^28 (or --n), average run lengths 1, 8 and 1000
// (lengths uniform in [1, 2L - 1], neighbouring runs distinct); segmented_reduce and segmented_inclusive_scan (u32
// sums) over 10^3, 10^6 and 10^7 segments, equal or power-law lengths. The default beside CUB called directly
// (DeviceSelect::Unique and UniqueByKey, DeviceRunLengthEncode::Encode with u64 lengths, DeviceReduce::ReduceByKey,
// DeviceScan::InclusiveSumByKey, DeviceSegmentedReduce::Sum; CCCL 3.0 has no segmented scan) on the GPU,
// std::unique_copy on the CPU. Bytes counted: what each must read and write once.
void runs_suite(std::vector<row>& all, device d) {
  using u32 = std::uint32_t;
  using u64 = std::uint64_t;
  std::vector<u64> sizes = {u64{1} << 20, u64{1} << 28};
  if (args && args->n) sizes = {args->n};
  const std::vector<std::string> peers = production_peers(d);
  for (u64 n : sizes) {
    std::printf("[runs] n = %llu\n", static_cast<unsigned long long>(n));
    runner r(d, n, n >= (u64{1} << 28) ? 10 : 20);
    buf<u32> out(std::vector<u32>(n), d), out_values(std::vector<u32>(n), d);
    buf<u64> lengths(std::vector<u64>(n), d), count({0}, d);
    buf<u32> values(verify::make_values<u32>(n, 3), d);
    {
      buf<u32> in(verify::make_values<u32>(n, 1), d);
      yardstick(r, d, in, out, "u32");
    }
    for (u64 avg : {u64{1}, u64{8}, u64{1000}}) {
      std::vector<u32> keys(n);
      std::mt19937_64 g(avg);
      u64 runs = 0;
      for (u64 i = 0; i < n; ++runs) {
        const u64 len = avg == 1 ? 1 : 1 + g() % (2 * avg - 1);
        const u32 key = static_cast<u32>((runs + 1) * 2654435761u);
        for (u64 k = 0; k < len && i < n; ++k) keys[i++] = key;
      }
      const std::string type = "u32/run" + std::to_string(avg);
      buf<u32> in(std::move(keys), d);
      const double kb = 4.0 * static_cast<double>(n), rb = static_cast<double>(runs);
      u64* c = count.span().data();
      measure_peers(r, peers, primitive::unique, "unique", type, -1, kb + 4 * rb,
                    [&](const options& o) { sink_int = sluice::unique(in.span(), out.span(), o); },
                    cub_makers{{"cub", [&] { return cub_direct::unique<u32>(in.span().data(), out.span().data(), n, c, cub_to_host()); }}});
      measure_peers(r, peers, primitive::unique, "unique_by_key", type, -1, kb + 12 * rb,
                    [&](const options& o) { sink_int = sluice::unique_by_key(in.span(), values.span(), out.span(), out_values.span(), o); },
                    cub_makers{{"cub", [&] {
                                  return cub_direct::unique_by_key<u32, u32>(in.span().data(), values.span().data(), out.span().data(),
                                                                              out_values.span().data(), n, c, cub_to_host());
                                }}});
      measure_peers(r, peers, primitive::run_length_encode, "run_length_encode", type, -1, kb + 12 * rb,
                    [&](const options& o) { sink_int = sluice::run_length_encode(in.span(), out.span(), lengths.span(), o); },
                    cub_makers{{"cub", [&] {
                                  return cub_direct::run_length_encode<u32>(in.span().data(), out.span().data(), lengths.span().data(), n, c,
                                                                            cub_to_host());
                                }}});
      if (d == device::cpu)
        r.measure("unique", "std::unique_copy", type, -1, kb + 4 * rb, [&] {
          sink_int = static_cast<u64>(std::unique_copy(in.host.begin(), in.host.end(), out.host.begin()) - out.host.begin());
        });
      // By key: u32 sums of u32 values.
      measure_peers(r, peers, primitive::reduce_by_key, "reduce_by_key", type, -1, 2 * kb + 8 * rb,
                    [&](const options& o) { sink_int = sluice::reduce_by_key(in.span(), values.span(), out.span(), out_values.span(), sum{}, o); },
                    cub_makers{{"cub", [&] {
                                  return cub_direct::reduce_by_key_sum<u32, u32>(in.span().data(), values.span().data(), out.span().data(),
                                                                                 out_values.span().data(), n, c, cub_to_host());
                                }}});
      measure_peers(r, peers, primitive::scan_by_key, "inclusive_scan_by_key", type, -1, 3 * kb,
                    [&](const options& o) { sluice::inclusive_scan_by_key(in.span(), values.span(), out_values.span(), sum{}, o); },
                    cub_makers{{"cub", [&] {
                                  return cub_direct::inclusive_sum_by_key<u32, u32>(in.span().data(), values.span().data(),
                                                                                    out_values.span().data(), n);
                                }}});
    }
    std::vector<std::string> without_cub = peers;  // no CUB peer for the segmented scan in CCCL 3.0
    std::erase(without_cub, std::string("cub"));
    buf<u32> sums(std::vector<u32>(10000000), d);
    // Segmented sums of u32 values over 10^3, 10^6 and 10^7 segments, of equal lengths (u) or power-law ones (p,
    // many empty): the values and offsets read, the results written.
    for (u64 segments : {u64{1000}, u64{1000000}, u64{10000000}})
      for (bool power : {false, true}) {
        std::vector<u64> offsets(segments + 1, 0);
        if (!power) {
          for (u64 s = 0; s <= segments; ++s) offsets[s] = static_cast<u64>(static_cast<double>(n) * static_cast<double>(s) / static_cast<double>(segments));
        } else {
          std::mt19937_64 g(segments);
          std::vector<double> w(segments);
          double total = 0;
          for (auto& x : w) x = std::pow(1.0 - std::uniform_real_distribution<double>(0, 1)(g), -1.5), total += x;
          double at = 0;
          for (u64 s = 0; s < segments; ++s) offsets[s] = std::min<u64>(n, static_cast<u64>(at)), at += w[s] / total * static_cast<double>(n);
          offsets[segments] = n;
        }
        const std::string type = "u32/seg" + std::to_string(segments) + (power ? "p" : "u");
        buf<u64> off(std::move(offsets), d);
        const double bytes = 4.0 * static_cast<double>(n) + 12.0 * static_cast<double>(segments) + 8;
        measure_peers(r, peers, primitive::segmented_reduce, "segmented_reduce", type, -1, bytes,
                      [&](const options& o) { sluice::segmented_reduce(values.span(), off.span(), sums.span().first(segments), u32{0}, sum{}, o); },
                      cub_makers{{"cub", [&] {
                                    return cub_direct::segmented_sum<u32>(values.span().data(), sums.span().data(), off.span().data(), segments);
                                  }}});
        measure_peers(r, without_cub, primitive::segmented_scan, "segmented_inclusive_scan", type, -1,
                      8.0 * static_cast<double>(n) + 8.0 * static_cast<double>(segments),
                      [&](const options& o) { sluice::segmented_inclusive_scan(values.span(), off.span(), out_values.span(), sum{}, o); });
      }
    all.insert(all.end(), r.rows().begin(), r.rows().end());
  }
}

}  // namespace sluice::tool
