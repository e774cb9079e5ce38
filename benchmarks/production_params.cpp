// production_params: how much does each public parameter of a production path move its speed on this machine?
// For every primitive it covers (reduce, inclusive_scan, compact with flags, compact_if, partition_if; u32,
// `--ratio` kept), it takes the device's default algorithm from the registry and times "best" beside that
// algorithm with each of its parameters set one way at a time, as the registry lists them: on CUDA
// decoupled-lookback's pipelined=on|off, phased=on|off, resident=on|off, reversed=on|off, cluster=off and
// pipelined=on,blocks=N (N = a half, one and two blocks an SM), vectorized's dynamic=on|off; on the CPU
// threads=1, 2, 4 ... all and simd=avx512|avx2|scalar. Every candidate's output is first checked against a
// serial result on the host; the candidates of one primitive are then timed in turn (`sluice bench`'s
// time_interleaved, CUDA events or a steady clock; medians), each as a fraction of the same run's device
// copy of its elements (reduce on the CPU: of a read of them). Calls go through the public API only.
// Run: build/benchmarks/production_params [--device cuda|cpu] [--n N|2^K] [--ratio R] [--reps N]
// [--primitive P]; the device defaults to cuda where a GPU is present (else it says so and sweeps the CPU),
// n to 2^28 on cuda and 2^24 on the CPU. Configure with -DSLUICE_BUILD_BENCHMARKS=ON (scripts/test.sh does).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <numeric>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common.hpp"
#include "sluice/config.hpp"
#include "sluice/sluice.hpp"
#include "timer.hpp"
#if SLUICE_HAS_CUDA
#include <cuda_runtime.h>
#endif

namespace {

using namespace sluice;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
namespace bm = sluice::benchmarks;

// Host data on the CPU, a device_buffer on the GPU; read() brings the first k elements to the host.
template <class T>
struct buf {
  std::vector<T> host;
  device_buffer<T> dev;
  bool gpu;
  buf(const std::vector<T>& h, device d) : host(d == device::cuda ? std::vector<T>{} : h), gpu(d == device::cuda) {
    if (gpu) dev = device_buffer<T>(std::span<const T>(h));
  }
  std::span<T> span() { return gpu ? std::span<T>(dev.data(), dev.size()) : std::span<T>(host); }
  std::vector<T> read(u64 k) {
    if (!gpu) return {host.begin(), host.begin() + static_cast<std::ptrdiff_t>(k)};
    auto all = dev.download();
    all.resize(k);
    return all;
  }
};

// The values each parameter key of the registry is swept over (keys not here, such as the papers' P or s,
// belong to no production path).
std::vector<std::string> values_of(std::string_view key, device d) {
  if (key == "threads") {
    std::vector<std::string> v;
    const int all = tool::cpu_threads();
    for (int t = 1; t < all; t *= 2) v.push_back(std::to_string(t));
    v.push_back(std::to_string(all));
    return v;
  }
  if (key == "simd") return {"avx512", "avx2", "scalar"};
  if (key == "pipelined" || key == "phased" || key == "resident" || key == "reversed" || key == "dynamic") return {"on", "off"};
  if (key == "cluster") return {"off"};
  if (key == "blocks" && d == device::cuda) {
    int sms = 0;
#if SLUICE_HAS_CUDA
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
#endif
    if (sms < 2) return {};
    return {std::to_string(sms / 2), std::to_string(sms), std::to_string(2 * sms)};
  }
  return {};
}

// "best", then the default algorithm with each of its registry parameters set one way at a time. blocks=N
// sizes the pipeline's grid, so it comes with pipelined=on where the variant has both.
std::vector<std::string> candidates(primitive p, device d) {
  std::vector<std::string> specs{"best"};
  const algorithm_info& a = find_algorithm(p, d, "best", "production_params");
  const std::string name(a.name);
  const bool pipelines = a.params.find("pipelined=") != std::string_view::npos;
  for (const std::string_view key : {"threads", "simd", "pipelined", "phased", "resident", "reversed", "dynamic", "cluster", "blocks"}) {
    if (a.params.find(std::string(key) + "=") == std::string_view::npos) continue;
    for (const auto& v : values_of(key, d))
      specs.push_back(name + ":" + (key == "blocks" && pipelines ? "pipelined=on," : "") + std::string(key) + "=" + v);
  }
  return specs;
}

struct job {
  std::string prim;
  primitive registry;  // whose default the specs are of
  double bytes;        // moved by one call: read plus written
  bool reads_only;     // reduce: a fraction of the read on the CPU
  // Runs the spec once; with `check`, also compares its result with the host's and returns false if it differs.
  std::function<bool(const options&, bool check)> run;
};

}  // namespace

int main(int argc, char** argv) try {
  device d = device_available(device::cuda) ? device::cuda : device::cpu;
  u64 n = 0;
  double ratio = 0.5;
  int reps = 15;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--device" && has_value) {
      const std::string_view v = argv[++i];
      if (v != "cuda" && v != "cpu") throw std::invalid_argument("--device: expected cuda or cpu, got '" + std::string(v) + "'");
      d = v == "cuda" ? device::cuda : device::cpu;
      if (!bm::present_or_say("production_params", d)) return bm::no_device_status;
    } else if (a == "--n" && has_value) {
      n = bm::parse_count("--n", argv[++i]);
    } else if (a == "--ratio" && has_value) {
      ratio = bm::parse_real("--ratio", argv[++i], 0.0, 1.0);
    } else if (a == "--reps" && has_value) {
      reps = static_cast<int>(bm::parse_count("--reps", argv[++i]));
    } else if (a == "--primitive" && has_value) {
      only = argv[++i];
    } else {
      std::fprintf(stderr, "usage: production_params [--device cuda|cpu] [--n N|2^K] [--ratio R] [--reps N] [--primitive P]\n");
      return 1;
    }
  }
  if (d == device::cpu && !device_available(device::cuda))
    std::printf("no CUDA GPU here (%s): sweeping the CPU's parameters\n", config::has_cuda ? "none present" : "a build without CUDA");
  if (n == 0) n = u64{1} << (d == device::cuda ? 28 : 24);
  if (reps < 1) throw std::invalid_argument("--reps: at least 1");

  // The input: pseudo-random u32, flags and a threshold that keep about `ratio` of them.
  std::vector<u32> h(n);
  std::vector<std::uint8_t> hf(n);
  const double scale = 4294967296.0;
  const u32 limit = ratio >= 1.0 ? ~u32{0} : static_cast<u32>(ratio * scale);
  for (u64 i = 0; i < n; ++i) {
    const u64 z = bm::mix(i);
    h[i] = static_cast<u32>(z);
    hf[i] = static_cast<double>(z >> 32) < ratio * scale ? 1 : 0;
  }
  const auto pred = ratio >= 1.0 ? at_most(limit) : less_than(limit);
  buf<u32> in(h, d), out(std::vector<u32>(n), d);
  buf<std::uint8_t> flags(hf, d);

  std::printf("production_params on %s, n = %llu u32, %.2f kept, %d repetitions\n", tool::machine_name(d).c_str(),
              static_cast<unsigned long long>(n), ratio, reps);
  // The yardsticks, as `sluice bench` takes them: the fastest of three medians of the device copy of the n
  // elements (read + written bytes); on the CPU also a read of them, which reduce is a fraction of.
  const auto fastest = [&](const std::function<void()>& f) {
    double best = 0;
    for (int k = 0; k < 3; ++k) {
      const double ms = tool::time_median(d, reps, f).median_ms;
      best = k == 0 ? ms : std::min(best, ms);
    }
    return best;
  };
  const double copy_ms = fastest([&] { tool::device_copy(d, out.span().data(), in.span().data(), n * sizeof(u32)); });
  const double copy_gbps = 2.0 * static_cast<double>(n) * sizeof(u32) / copy_ms / 1e6;
  std::printf("%-14s %-52s %10.4f ms %8.1f GB/s\n", "copy", d == device::cuda ? "cudaMemcpyAsync" : "memcpy-mt", copy_ms, copy_gbps);
  double read_gbps = copy_gbps;
  if (d == device::cpu) {
    volatile u32 sink = 0;
    const double read_ms = fastest([&] { sink = tool::cpu_read(in.host.data(), n); });
    read_gbps = static_cast<double>(n) * sizeof(u32) / read_ms / 1e6;
    std::printf("%-14s %-52s %10.4f ms %8.1f GB/s\n", "read", "read-mt", read_ms, read_gbps);
  }

  // The host's answers, computed once.
  std::vector<u32> scanned(n);
  std::inclusive_scan(h.begin(), h.end(), scanned.begin());
  const u32 total = n ? scanned.back() : 0;
  std::vector<u32> by_flags, by_pred, rejected;
  for (u64 i = 0; i < n; ++i) {
    if (hf[i]) by_flags.push_back(h[i]);
    (pred(h[i]) ? by_pred : rejected).push_back(h[i]);
  }
  std::vector<u32> partitioned = by_pred;
  partitioned.insert(partitioned.end(), rejected.begin(), rejected.end());

  const double e = sizeof(u32), nn = static_cast<double>(n);
  std::vector<job> jobs;
  jobs.push_back({"reduce", primitive::reduce, nn * e, true, [&](const options& o, bool check) {
                    const u32 s = sluice::reduce(in.span(), u32{0}, sum{}, o);
                    return !check || s == total;
                  }});
  jobs.push_back({"inclusive_scan", primitive::scan, 2 * nn * e, false, [&](const options& o, bool check) {
                    sluice::inclusive_scan(in.span(), out.span(), sum{}, o);
                    return !check || out.read(n) == scanned;
                  }});
  jobs.push_back({"compact", primitive::compact, nn * (e + 1) + static_cast<double>(by_flags.size()) * e, false,
                  [&](const options& o, bool check) {
                    const u64 k = sluice::compact(in.span(), flags.span(), out.span(), o);
                    return !check || (k == by_flags.size() && out.read(k) == by_flags);
                  }});
  jobs.push_back({"compact_if", primitive::compact, nn * e + static_cast<double>(by_pred.size()) * e, false,
                  [&](const options& o, bool check) {
                    const u64 k = sluice::compact_if(in.span(), out.span(), pred, o);
                    return !check || (k == by_pred.size() && out.read(k) == by_pred);
                  }});
  jobs.push_back({"partition_if", primitive::partition, 2 * nn * e, false, [&](const options& o, bool check) {
                    const u64 k = sluice::partition(in.span(), out.span(), pred, o);
                    return !check || (k == by_pred.size() && out.read(n) == partitioned);
                  }});

  int failures = 0;
  for (const job& j : jobs) {
    if (!only.empty() && only != j.prim) continue;
    // Checked first, one call each; a spec this machine cannot run (a SIMD level it lacks, a GPU too old for
    // a path) is said and left out.
    std::vector<std::string> specs;
    for (const std::string& spec : candidates(j.registry, d)) {
      try {
        if (!j.run(options{d, spec, nullptr}, true)) {
          std::printf("%-14s %-52s WRONG RESULT\n", j.prim.c_str(), spec.c_str());
          ++failures;
          continue;
        }
        specs.push_back(spec);
      } catch (const error& x) {
        if (x.code() != errc::unsupported) throw;
        std::printf("%-14s %-52s skipped: %s\n", j.prim.c_str(), spec.c_str(), x.what());
      }
    }
    std::vector<std::function<void()>> fs;
    for (const std::string& spec : specs) fs.push_back([&j, d, spec] { j.run(options{d, spec, nullptr}, false); });
    const auto t = tool::time_interleaved(d, reps, fs);
    const double base = j.reads_only && d == device::cpu ? read_gbps : copy_gbps;
    for (std::size_t k = 0; k < specs.size(); ++k) {
      const double gbps = j.bytes / t[k].median_ms / 1e6;
      const std::string label = specs[k] == "best" ? "best (" + std::string(find_algorithm(j.registry, d, "best", "production_params").name) + ")"
                                                   : specs[k];
      std::printf("%-14s %-52s %10.4f ms %8.1f GB/s %6.3f of %s\n", j.prim.c_str(), label.c_str(), t[k].median_ms, gbps, gbps / base,
                  base == copy_gbps ? "copy" : "read");
    }
    std::fflush(stdout);
  }
  if (failures) std::printf("production_params: %d wrong results\n", failures);
  return failures ? 1 : 0;
} catch (const std::exception& x) {
  std::fprintf(stderr, "production_params: %s\n", x.what());
  return 1;
}
