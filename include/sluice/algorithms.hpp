// The registry of algorithm variants: one line per variant drives dispatch, `sluice list`,
// `sluice verify`, the tests and the benchmarks.
#pragma once
#include <span>
#include <string>
#include <string_view>

#include "sluice/error.hpp"
#include "sluice/options.hpp"

namespace sluice {

enum class primitive { reduce, scan, compact, compact_unordered, partition, radix_sort };

constexpr std::string_view to_string(primitive p) noexcept {
  switch (p) {
    case primitive::reduce: return "reduce";
    case primitive::scan: return "scan";
    case primitive::compact: return "compact";
    case primitive::compact_unordered: return "compact_unordered";
    case primitive::partition: return "partition";
    case primitive::radix_sort: return "radix_sort";
  }
  return "unknown";
}

struct algorithm_info {
  primitive prim;
  std::string_view name;
  bool on_cpu;
  bool on_cuda;
  bool stable;  // output order (or, for reduce/scan, the order of combination) does not depend on scheduling
  bool best_cpu;   // the default ("best") on the CPU
  bool best_cuda;  // the default ("best") on CUDA
  std::string_view summary;
};

// clang-format off
inline constexpr algorithm_info algorithm_table[] = {
  // prim                        name            cpu    cuda   stable best_c best_g
  {primitive::reduce,            "serial",       true,  false, true,  true,  false, "left fold over the input (src/cpu)"},
  {primitive::reduce,            "two-pass",     false, true,  true,  false, true,  "per-block partial reductions, then one block reduces the partials"},
  {primitive::reduce,            "cub",          false, true,  true,  false, false, "cub::DeviceReduce::Reduce (CCCL), the peer to beat"},
  {primitive::reduce,            "goddeke-multipass", false, true, true, false, false, "Goeddeke tutorial: 2x2 groups of an M x M grid, ping-pong passes to 1x1 (commutative op)"},
  {primitive::reduce,            "tree-interleaved", false, true, true, false, false, "teaching kit 9.2: stride doubling, t % stride (divergent), multi-pass"},
  {primitive::reduce,            "tree-contiguous", false, true, true, false, false, "teaching kit 9.3: stride halving, active threads together (commutative op), multi-pass"},
  {primitive::reduce,            "partition-summarize", false, true, true, false, false, "teaching kit 9.1: a contiguous chunk per thread, then a block tree (commutative op)"},
  {primitive::scan,              "serial",       true,  false, true,  true,  false, "running fold over the input"},
  {primitive::scan,              "reduce-then-scan", false, true, true, false, true, "tile sums, one block scans them, tiles rescanned with their prefix (3 kernels)"},
  {primitive::scan,              "cub",          false, true,  true,  false, false, "cub::DeviceScan (CCCL, decoupled look-back), the peer to beat"},
  {primitive::scan,              "kogge-stone",  false, true,  true,  false, false, "teaching kit 10.2 (Hillis-Steele), double-buffered, in the 10.4 multi-block scan"},
  {primitive::scan,              "brent-kung",   false, true,  true,  false, false, "teaching kit 10.3 up-sweep/down-sweep (Blelloch), in the 10.4 multi-block scan"},
  {primitive::scan,              "three-phase-coarsened", false, true, true, false, false, "teaching kit 10.4 thread granularity adjustment, in the 10.4 multi-block scan"},
  {primitive::scan,              "streaming",    false, true,  true,  false, false, "teaching kit 10.4: one kernel, dynamic block ids, each block waits for its predecessor's flag"},
  {primitive::compact,           "serial",       true,  false, true,  true,  false, "one pass, writing each kept element at a running index"},
  {primitive::compact,           "scan-scatter", false, true,  true,  false, true,  "exclusive scan of the flags into positions, then scatter (teaching kit, CUDPP)"},
  {primitive::compact,           "cub",          false, true,  true,  false, false, "cub::DeviceSelect::Flagged / If (CCCL), the peer to beat"},
  {primitive::compact_unordered, "serial",       true,  false, true,  true,  false, "same as compact serial (order is kept although not promised)"},
  {primitive::compact_unordered, "scan-scatter", false, true,  true,  false, true,  "the stable scan-scatter (H100: 3.5x faster than warp-atomic at 2^28)"},
  {primitive::compact_unordered, "warp-atomic",  false, true,  false, false, false, "ballot + popc per warp, one atomicAdd per warp reserves its output run"},
  {primitive::partition,         "serial",       true,  false, true,  true,  false, "kept elements forward from the front, rejected ones from the split point"},
  {primitive::partition,         "scan-scatter", false, true,  true,  false, true,  "exclusive scan of the flags, then a two-sided scatter"},
  {primitive::partition,         "cub",          false, true,  true,  false, false, "cub::DevicePartition (CCCL) + reversal of its reversed tail, the peer to beat"},
  {primitive::radix_sort,        "lsd-serial",   true,  false, true,  true,  false, "serial LSD radix sort, 8-bit digits, counting sort per digit"},
  {primitive::radix_sort,        "cub",          false, true,  true,  false, true,  "cub::DeviceRadixSort (CCCL Onesweep) on the order-preserving key image"},
  {primitive::radix_sort,        "split-radix",  false, true,  true,  false, false, "Billeter Sec. 5.3: one stable stream split (scan-scatter) per key bit"},
};
// clang-format on

inline std::span<const algorithm_info> algorithms() noexcept { return algorithm_table; }

inline bool runs_on(const algorithm_info& a, device d) noexcept { return d == device::cpu ? a.on_cpu : a.on_cuda; }

// The variant `name` ("best" allowed) of `prim` on `d`, or an invalid_argument error naming the valid choices.
inline const algorithm_info& find_algorithm(primitive prim, device d, std::string_view name, const char* fn) {
  const bool best = name.empty() || name == "best";
  std::string valid;
  for (const auto& a : algorithm_table) {
    if (a.prim != prim || !runs_on(a, d)) continue;
    if (best ? (d == device::cpu ? a.best_cpu : a.best_cuda) : a.name == name) return a;
    valid += valid.empty() ? "" : ", ";
    valid += a.name;
  }
  throw error(errc::invalid_argument, std::string(fn) + ": unknown algorithm '" + std::string(name) + "' for " +
                                          std::string(to_string(prim)) + " on " + std::string(to_string(d)) +
                                          " (valid: best, " + valid + ")");
}

}  // namespace sluice
