// `sluice bench`: times sluice's algorithms (and the peers: CUB on the GPU, std on the CPU) beside a copy
// of the same bytes in the same run, and writes one CSV row per measurement.
#include "bench.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <vector>

#include "sluice/sluice.hpp"
#include "timer.hpp"
#include "verify/generators.hpp"
#include "verify/verify.hpp"

namespace sluice::tool {
namespace {

struct row {
  std::string prim, algo, dev, type;
  std::uint64_t n;
  double ratio;  // valid ratio; -1 when it does not apply
  int block_size;  // 0 when the algorithm has none to tune here
  double ms, gbps, frac;
  int reps;
};

// Host data on the CPU, device buffers on the GPU.
template <class T>
struct buf {
  std::vector<T> host;
  device_buffer<T> dev;
  bool gpu;
  buf(const std::vector<T>& h, device d) : host(h), gpu(d == device::cuda) {
    if (gpu) dev = device_buffer<T>(std::span<const T>(host));
  }
  std::span<T> span() { return gpu ? std::span<T>(dev.data(), dev.size()) : std::span<T>(host); }
};

class runner {
 public:
  runner(device d, std::uint64_t n, int reps) : d_(d), n_(n), reps_(reps) {}

  void measure(const std::string& prim, const std::string& algo, const std::string& type, double ratio, double bytes,
               const std::function<void()>& f, const std::function<void()>& setup = {}) {
    const auto t = time_median(d_, reps_, f, setup);
    const double gbps = bytes / (t.median_ms * 1e-3) / 1e9;
    rows_.push_back({prim, algo, std::string(to_string(d_)), type, n_, ratio, 0, t.median_ms, gbps,
                     copy_gbps_ > 0 ? gbps / copy_gbps_ : 1.0, t.repetitions});
    std::printf("  %-18s %-18s %-5s n=%-11llu ratio=%-5s %10.4f ms %9.1f GB/s %6.3f of copy\n", prim.c_str(), algo.c_str(),
                type.c_str(), static_cast<unsigned long long>(n_), ratio < 0 ? "-" : std::to_string(ratio).substr(0, 4).c_str(),
                t.median_ms, gbps, rows_.back().frac);
    std::fflush(stdout);
  }
  void set_copy_rate(double gbps) { copy_gbps_ = gbps; }
  std::vector<row>& rows() { return rows_; }

 private:
  device d_;
  std::uint64_t n_;
  int reps_;
  double copy_gbps_ = 0;
  std::vector<row> rows_;
};

// Results the benchmark must not let the compiler drop.
volatile std::uint64_t sink_int;
volatile float sink_float;

std::vector<std::string> names(primitive p, device d) {
  std::vector<std::string> v;
  for (const auto& a : algorithms())
    if (a.prim == p && runs_on(a, d)) v.emplace_back(a.name);
  return v;
}

void suite_at(runner& r, device d, std::uint64_t n) {
  using u32 = std::uint32_t;
  const double b = static_cast<double>(n) * sizeof(u32);
  buf<u32> in(verify::make_values<u32>(n, 1), d), out(std::vector<u32>(n), d), keys(std::vector<u32>(n), d);
  buf<float> fin(verify::make_values<float>(n, 2, verify::value_kind::sum), d);
  auto flags = verify::make_flags(n, {verify::pattern::random, 0.5}, 3);
  buf<std::uint8_t> fl(flags, d);
  const double kept = static_cast<double>(std::count_if(flags.begin(), flags.end(), [](auto f) { return f != 0; }));

  // The yardstick: a copy of the same n elements (bytes read + bytes written).
  r.set_copy_rate(0);
  r.measure("copy", d == device::cuda ? "cudaMemcpy" : "memcpy", "u32", -1, 2 * b,
            [&] { device_copy(d, out.span().data(), in.span().data(), n * sizeof(u32)); });
  r.set_copy_rate(r.rows().back().gbps);

  for (const auto& a : names(primitive::reduce, d)) {
    options o{d, a, nullptr};
    r.measure("reduce", a, "u32", -1, b, [&] { sink_int = sluice::reduce(in.span(), u32{0}, sum{}, o); });
    r.measure("reduce", a, "f32", -1, b, [&] { sink_float = sluice::reduce(fin.span(), 0.0f, sum{}, o); });
  }
  for (const auto& a : names(primitive::scan, d)) {
    options o{d, a, nullptr};
    r.measure("inclusive_scan", a, "u32", -1, 2 * b, [&] { sluice::inclusive_scan(in.span(), out.span(), sum{}, o); });
  }
  for (const auto& a : names(primitive::compact, d)) {
    options o{d, a, nullptr};
    r.measure("compact", a, "u32", 0.5, b + n + kept * 4, [&] { sink_int = sluice::compact(in.span(), fl.span(), out.span(), o); });
  }
  for (const auto& a : names(primitive::compact_unordered, d)) {
    options o{d, a, nullptr};
    r.measure("compact_unordered", a, "u32", 0.5, b + n + kept * 4,
              [&] { sink_int = sluice::compact_unordered(in.span(), fl.span(), out.span(), o); });
  }
  for (const auto& a : names(primitive::partition, d)) {
    options o{d, a, nullptr};
    r.measure("partition", a, "u32", 0.5, 2 * b + n, [&] { sink_int = sluice::partition_flagged(in.span(), fl.span(), out.span(), o); });
  }
  for (const auto& a : names(primitive::radix_sort, d)) {
    options o{d, a, nullptr};
    r.measure("radix_sort", a, "u32", -1, 2 * b, [&] { sluice::radix_sort(keys.span(), order::ascending, {}, o); },
              [&] { device_copy(d, keys.span().data(), in.span().data(), n * sizeof(u32)); });
  }
  if (d == device::cpu) {  // the standard library beside the CPU backend
    r.measure("reduce", "std::reduce", "u32", -1, b, [&] { sink_int = std::reduce(in.host.begin(), in.host.end(), u32{0}); });
    r.measure("inclusive_scan", "std::inclusive_scan", "u32", -1, 2 * b,
              [&] { std::inclusive_scan(in.host.begin(), in.host.end(), out.host.begin()); });
    r.measure("compact", "std::copy_if", "u32", 0.5, b + n + kept * 4, [&] {
      std::size_t k = 0;
      for (std::size_t i = 0; i < n; ++i)
        if (flags[i]) out.host[k++] = in.host[i];
    });
    r.measure("radix_sort", "std::sort", "u32", -1, 2 * b, [&] { std::sort(keys.host.begin(), keys.host.end()); },
              [&] { keys.host = in.host; });
  }
}

bool write_csv(const std::vector<row>& rows, const std::filesystem::path& file) {
  // Written beside the target and renamed at the end, so an interrupted run leaves no file posing as complete.
  const auto partial = std::filesystem::path(file.string() + ".partial");
  {
    std::ofstream f(partial);
    if (!f) return false;
    f << "primitive,algorithm,device,element_type,n,valid_ratio,block_size,ms,gbps,fraction_of_memcpy,repetitions\n";
    for (const auto& r : rows) {
      char line[512];
      std::snprintf(line, sizeof line, "%s,%s,%s,%s,%llu,%s,%d,%.6f,%.3f,%.4f,%d\n", r.prim.c_str(), r.algo.c_str(), r.dev.c_str(),
                    r.type.c_str(), static_cast<unsigned long long>(r.n), r.ratio < 0 ? "" : std::to_string(r.ratio).c_str(),
                    r.block_size, r.ms, r.gbps, r.frac, r.reps);
      f << line;
    }
    f.flush();
    if (!f) return false;
  }
  std::error_code ec;
  std::filesystem::rename(partial, file, ec);
  return !ec;
}

}  // namespace

int run_bench(const bench_args& a) {
  const device d = a.dev;
  std::error_code ec;
  std::filesystem::create_directories(a.out_dir, ec);
  if (ec) {
    std::fprintf(stderr, "sluice bench: cannot create output folder '%s': %s\n", a.out_dir.c_str(), ec.message().c_str());
    return 1;
  }
  int status = 0;
  if (a.suite == "quick") {  // verify first: a fast wrong answer is worth nothing
    std::printf("verifying every %s algorithm (quick matrix)...\n", std::string(to_string(d)).c_str());
    verify::tally t;
    verify::settings s{d, true, [](const std::string& m) { std::printf("  FAILED %s\n", m.c_str()); }};
    for (const auto& alg : algorithms())
      if (runs_on(alg, d)) t += verify::run(alg, s);
    std::printf("verify: %llu passed, %llu failed\n", static_cast<unsigned long long>(t.passed), static_cast<unsigned long long>(t.failed));
    if (t.failed) status = 1;
  }
  std::vector<std::uint64_t> sizes;
  if (a.suite == "quick") sizes = {d == device::cuda ? (std::uint64_t{1} << 26) : (std::uint64_t{1} << 24)};
  else sizes = d == device::cuda ? std::vector<std::uint64_t>{1u << 16, 1u << 22, 1u << 26, 1u << 28}
                                 : std::vector<std::uint64_t>{1u << 16, 1u << 22, 1u << 26};
  std::vector<row> all;
  for (std::uint64_t n : sizes) {
    std::printf("[%s] timing at n = %llu (median of repetitions, after warm-up)\n", std::string(to_string(d)).c_str(),
                static_cast<unsigned long long>(n));
    runner r(d, n, d == device::cuda ? 20 : 5);
    suite_at(r, d, n);
    all.insert(all.end(), r.rows().begin(), r.rows().end());
  }
  const auto file = std::filesystem::path(a.out_dir) / (a.suite + "-" + std::string(to_string(d)) + ".csv");
  if (!write_csv(all, file)) {
    std::fprintf(stderr, "sluice bench: cannot write '%s'\n", file.string().c_str());
    return 1;
  }
  std::printf("wrote %s (%zu rows)\n", file.string().c_str(), all.size());
  return status;
}

}  // namespace sluice::tool
