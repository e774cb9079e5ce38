// The registry of algorithm variants: one line per variant drives dispatch, `sluice list`,
// `sluice verify`, the tests and the benchmarks.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "sluice/detail/params.hpp"
#include "sluice/error.hpp"
#include "sluice/options.hpp"

namespace sluice {

enum class primitive {
  reduce, scan, compact, compact_unordered, partition, partition_unordered, radix_sort, unique, run_length_encode,
  reduce_by_key, scan_by_key, segmented_reduce, segmented_scan, split, top_k, segmented_radix_sort
};

constexpr std::string_view to_string(primitive p) noexcept {
  switch (p) {
    case primitive::reduce: return "reduce";
    case primitive::scan: return "scan";
    case primitive::compact: return "compact";
    case primitive::compact_unordered: return "compact_unordered";
    case primitive::partition: return "partition";
    case primitive::partition_unordered: return "partition_unordered";
    case primitive::radix_sort: return "radix_sort";
    case primitive::unique: return "unique";
    case primitive::run_length_encode: return "run_length_encode";
    case primitive::reduce_by_key: return "reduce_by_key";
    case primitive::scan_by_key: return "scan_by_key";
    case primitive::segmented_reduce: return "segmented_reduce";
    case primitive::segmented_scan: return "segmented_scan";
    case primitive::split: return "split";
    case primitive::top_k: return "top_k";
    case primitive::segmented_radix_sort: return "segmented_radix_sort";
  }
  return "unknown";
}

struct algorithm_info {
  primitive prim;
  std::string_view name;
  bool on_cpu;
  bool on_cuda;
  bool stable;  // the output keeps input order, run to run (reduce/scan: the order of combination does not depend on scheduling)
  bool best_cpu;   // the default ("best") on the CPU
  bool best_cuda;  // the default ("best") on CUDA
  std::string_view summary;
  std::string_view params = {};  // tunables, written after the name: "roger:s=128,scan=hillis-steele"
  std::span<const detail::param_info> tunables = {};  // the same, typed: every key, its values, in the order the variant reads them
  bool on_gl = false;    // the papers' OpenGL systems (src/gl)
  bool best_gl = false;  // the default ("best") on gl
};

// The tunables of the variants, typed (detail::param_info): the registry checks a spec against them before any
// work (check_params). Each list follows its variant's parser, key for key, range for range.
namespace tunables {
using detail::choice_param;
using detail::integer_param;
using detail::param_info;
inline constexpr std::uint64_t max_cpu_threads = 4096;     // src/cpu/runtime.cpp
inline constexpr std::uint64_t max_pipeline_blocks = 1u << 20;  // cuda/scan/decoupled_lookback.cuh
inline constexpr param_info cpu[] = {integer_param("threads", "0", 0, max_cpu_threads), choice_param("simd", "auto|avx512|avx2|scalar")};
inline constexpr param_info reduce_vectorized[] = {choice_param("dynamic", "auto|on|off")};
inline constexpr param_info scan_lookback[] = {choice_param("pipelined", "auto|on|off"), integer_param("blocks", "", 1, max_pipeline_blocks),
                                               choice_param("cluster", "auto|off")};
inline constexpr param_info kit_scan[] = {integer_param("threads", "1024", 32, 1024, true)};
inline constexpr param_info kit_coarsened[] = {integer_param("threads", "256", 32, 1024, true), integer_param("items", "8", 1, 64)};
inline constexpr param_info billeter_scan[] = {integer_param("P", "", 1, std::uint64_t{1} << 26)};
inline constexpr param_info compact_lookback[] = {choice_param("phased", "auto|on|off"), choice_param("pipelined", "auto|on|off"),
                                                  integer_param("blocks", "", 1, max_pipeline_blocks), choice_param("cluster", "auto|off")};
inline constexpr param_info roger[] = {integer_param("s", "64", 2, 1024, true), choice_param("scan", "blelloch|hillis-steele")};
inline constexpr param_info jumping_jack[] = {integer_param("s", "256", 2, 1024, true), choice_param("scan", "blelloch|hillis-steele")};
inline constexpr param_info billeter[] = {integer_param("P", "", 1, std::uint64_t{1} << 26), choice_param("simd", "popc|prefix"),
                                          integer_param("t", "30", 0, 100)};
inline constexpr param_info billeter_phases[] = {integer_param("P", "", 1, std::uint64_t{1} << 26), choice_param("simd", "popc|prefix")};
inline constexpr param_info partition_lookback[] = {choice_param("phased", "auto|on|off"), choice_param("resident", "auto|on|off"),
                                                    choice_param("pipelined", "auto|on|off"), choice_param("reversed", "auto|on|off"),
                                                    integer_param("blocks", "", 1, max_pipeline_blocks), choice_param("cluster", "auto|off")};
inline constexpr param_info partition_unordered_lookback[] = {choice_param("pipelined", "auto|on|off"),
                                                              integer_param("blocks", "", 1, max_pipeline_blocks), choice_param("cluster", "auto|off")};
inline constexpr param_info onesweep[] = {integer_param("portion", "", 1, std::uint64_t{1} << 28)};
inline constexpr param_info gl_roger[] = {integer_param("s", "64", 2, 1024, true)};
inline constexpr param_info gl_jumping_jack[] = {integer_param("s", "256", 2, 1024, true)};
}  // namespace tunables

// clang-format off
inline constexpr algorithm_info algorithm_table[] = {
  // prim                        name            cpu    cuda   stable best_c best_g
  {primitive::reduce,            "serial",       true,  false, true,  false, false, "left fold over the input, one thread"},
  {primitive::reduce,            "vectorized",   true,  false, true,  true,  false, "P threads reduce 1 MiB blocks with S-lane vectors, 4 accumulators; blocks combined left to right (float results do not depend on P)", "threads=0 (0 = all, or SLUICE_CPU_THREADS), simd=auto|avx512|avx2|scalar (or SLUICE_CPU_SIMD)", tunables::cpu},
  {primitive::reduce,            "vectorized",   false, true,  true,  false, true,  "each warp reduces a contiguous run with 16-byte loads, 4 in flight; from 256 MiB the blocks draw 64 KiB chunks from a counter; one block combines them, in order (float results repeat run to run)", "dynamic=auto|on|off (chunks drawn from a counter; auto from 256 MiB of input, on from one warp tile)", tunables::reduce_vectorized},
  {primitive::reduce,            "two-pass",     false, true,  true,  false, false, "per-block partial reductions, then one block reduces the partials"},
  {primitive::reduce,            "cub",          false, true,  true,  false, false, "cub::DeviceReduce::Reduce (CCCL), the peer to beat"},
  {primitive::reduce,            "goddeke-multipass", false, true, true, false, false, "Goeddeke tutorial: 2x2 groups of an M x M grid, ping-pong passes to 1x1 (commutative op)"},
  {primitive::reduce,            "tree-interleaved", false, true, true, false, false, "teaching kit 9.2: stride doubling, t % stride (divergent), multi-pass"},
  {primitive::reduce,            "tree-contiguous", false, true, true, false, false, "teaching kit 9.3: stride halving, active threads together (commutative op), multi-pass"},
  {primitive::reduce,            "partition-summarize", false, true, true, false, false, "teaching kit 9.1: a contiguous chunk per thread, then a block tree (commutative op)"},
  {primitive::scan,              "serial",       true,  false, true,  false, false, "running fold over the input, one thread"},
  {primitive::scan,              "billeter-scan", true, false, true,  true,  false, "Billeter Sec. 5.2 on P threads x S lanes, in rounds of cache-sized blocks: block sums, prefix over P, rescan with an in-register prefix (float results do not depend on P)", "threads=0 (0 = all, or SLUICE_CPU_THREADS), simd=auto|avx512|avx2|scalar (or SLUICE_CPU_SIMD)", tunables::cpu},
  {primitive::scan,              "reduce-then-scan", false, true, true, false, false, "tile sums, one block scans them, tiles rescanned with their prefix (3 kernels)"},
  {primitive::scan,              "decoupled-lookback", false, true, true,  false, true, "single pass (Merrill-Garland look-back), 16-byte vector loads/stores; elements other than integers look back anchored (every 128th tile publishes a prefix, the others their aggregates, combined in an order the tile numbers fix: float results repeat run to run); 2 to 16 tiles on Hopper as one thread block cluster, the aggregates exchanged in shared memory; large 4-byte inputs on Hopper: bulk copies through shared memory, a persistent cooperative grid, each tile's look-back two rounds after its aggregate, reading the aggregates since the block's own earlier tile at once and combining them in tile order", "pipelined=auto|on|off (4-byte elements, aligned, sm_90+: bulk-copy pipeline; auto from 2^24 elements), blocks=N (the pipeline's grid: at most N blocks; default as many as the GPU holds at once), cluster=auto|off (2 to 16 tiles as one thread block cluster, sm_90+; off: the look-back)", tunables::scan_lookback},
  {primitive::scan,              "cub",          false, true,  false, false, false, "cub::DeviceScan (CCCL, decoupled look-back), the peer to beat; float sums vary run to run (measured)"},
  {primitive::scan,              "kogge-stone",  false, true,  true,  false, false, "teaching kit 10.2 (Hillis-Steele), double-buffered, in the 10.4 multi-block scan", "threads=1024 (32..1024, power of 2; section = threads)", tunables::kit_scan},
  {primitive::scan,              "brent-kung",   false, true,  true,  false, false, "teaching kit 10.3 up-sweep/down-sweep (Blelloch), in the 10.4 multi-block scan", "threads=1024 (32..1024, power of 2; section = 2 x threads)", tunables::kit_scan},
  {primitive::scan,              "three-phase-coarsened", false, true, true, false, false, "teaching kit 10.4 thread granularity adjustment, in the 10.4 multi-block scan", "threads=256 (32..1024, power of 2), items=8 (1..64 per thread)", tunables::kit_coarsened},
  {primitive::scan,              "billeter-scan", false, true, true,  false, false, "Billeter Sec. 5.2: the three-phase compaction with values: range sums per warp, scan of P, rescan", "P", tunables::billeter_scan},
  {primitive::scan,              "streaming",    false, true,  true,  false, false, "teaching kit 10.4: one kernel, dynamic block ids, each block waits for its predecessor's flag", "threads=1024 (32..1024, power of 2; Brent-Kung section = 2 x threads)", tunables::kit_scan},
  {primitive::compact,           "serial",       true,  false, true,  false, false, "one pass, writing each kept element at a running index, one thread"},
  {primitive::compact,           "billeter",     true,  false, true,  true,  false, "Billeter Sec. 3-4 on P threads x S lanes, in rounds of cache-sized blocks: count, prefix over P, move by vector compress (AVX-512) or permutation table (AVX2), whole-line output", "threads=0 (0 = all, or SLUICE_CPU_THREADS), simd=auto|avx512|avx2|scalar (or SLUICE_CPU_SIMD)", tunables::cpu},
  {primitive::compact,           "decoupled-lookback", false, true, true, false, true, "single pass: tile counts, look-back for the prefix, runs staged in shared memory, 16-byte loads/stores; on Hopper from 64 MiB of elements (predicates; flags with 4-byte elements): a persistent grid pipelines tiles through shared memory by bulk copies, each look-back two rounds after its count, reading the counts since the block's own earlier tile at once, off the tile's path", "phased=auto|on|off (flags: count the tiles, leaving keep bits, scan, move by the bits without look-back; auto from 2048 tiles, below the pipeline's reach), pipelined=auto|on|off (predicates of 4- and 8-byte elements, flags with 4-byte ones; 16-byte aligned spans, sm_90+; auto from 64 MiB of elements), blocks=N (the pipeline's grid: at most N blocks), cluster=auto|off (2 to 16 tiles as one thread block cluster on sm_90+, the tiles' counts exchanged in shared memory; off: the look-back)", tunables::compact_lookback},
  {primitive::compact,           "scan-scatter", false, true,  true,  false, false, "exclusive scan of the flags into positions, then scatter (teaching kit, CUDPP)"},
  {primitive::compact,           "cub",          false, true,  true,  false, false, "cub::DeviceSelect::Flagged / If (CCCL), the peer to beat"},
  {primitive::compact,           "horn",         false, true,  true,  false, false, "Horn 2005: prefix sum of the discards, then a binary search per output position (gather)"},
  {primitive::compact,           "roger",        false, true,  true,  false, false, "Roger 2007 Sec. III: blocks of s, prefix sum + Fig. 5 dichotomic search, blocks concatenated", "s=64 (2..1024, power of 2), scan=blelloch|hillis-steele", tunables::roger},
  {primitive::compact,           "billeter",     false, true,  true,  false, false, "Billeter 2009 Sec. 3-4: count per warp, prefix over P, compactSIMD move; selective output", "P, simd=popc|prefix, t=30 (percent valid for staged)", tunables::billeter},
  {primitive::compact,           "billeter-staged", false, true, true, false, false, "Billeter 2009: three phases, output staged through shared memory", "P, simd=popc|prefix", tunables::billeter_phases},
  {primitive::compact,           "billeter-scattered", false, true, true, false, false, "Billeter 2009: three phases, each lane writes its valid elements directly", "P, simd=popc|prefix", tunables::billeter_phases},
  {primitive::compact,           "billeter-buffered", false, true, true, false, false, "Billeter 2009 Listing 7: three phases, output flushed in whole aligned rows", "P, simd=popc|prefix", tunables::billeter_phases},
  {primitive::compact,           "sort-compact", false, true,  true,  false, false, "stable one-bit radix sort on the discard flag (cub::DeviceRadixSort), the papers' sorting baseline"},
  {primitive::compact_unordered, "serial",       true,  false, true,  false, false, "same as compact serial (order is kept although not promised)"},
  {primitive::compact_unordered, "billeter",     true,  false, true,  true,  false, "the stable CPU compact (order kept although not promised: it costs nothing on the CPU)", "threads=0 (0 = all, or SLUICE_CPU_THREADS), simd=auto|avx512|avx2|scalar (or SLUICE_CPU_SIMD)", tunables::cpu},
  {primitive::compact_unordered, "tile-atomic",  false, true,  false, false, true,  "the single-pass kernel with one atomicAdd per tile instead of the look-back: tiles never wait"},
  {primitive::compact_unordered, "decoupled-lookback", false, true, true, false, false, "the stable single-pass compact (order kept although not promised)"},
  {primitive::compact_unordered, "scan-scatter", false, true,  true,  false, false, "the stable scan-scatter (H100: 3.5x faster than warp-atomic at 2^28)"},
  {primitive::compact_unordered, "warp-atomic",  false, true,  false, false, false, "ballot + popc per warp, one atomicAdd per warp reserves its output run"},
  {primitive::compact_unordered, "jumping-jack", false, true,  false, false, false, "Moreira 2009 Algorithm 2: max-allowable-size jumps in blocks of s, blocks concatenated", "s=256 (2..1024, power of 2), scan=blelloch|hillis-steele", tunables::jumping_jack},
  {primitive::partition,         "serial",       true,  false, true,  false, false, "kept elements forward from the front, rejected ones from the split point, one thread"},
  {primitive::partition,         "split",        true,  false, true,  true,  false, "Billeter Sec. 5.3 on P threads x S lanes: one count of every block for the split point and each block's place, then each block writing both sides", "threads=0 (0 = all, or SLUICE_CPU_THREADS), simd=auto|avx512|avx2|scalar (or SLUICE_CPU_SIMD)", tunables::cpu},
  {primitive::partition,         "decoupled-lookback", false, true, true, false, true, "the single-pass compact writing both runs (kept, then rejected); up to as many tiles as the device holds at once one cooperative launch whose tiles wait for the last tile's prefix (the total), past that a count pass first; predicates on Hopper from 256 MiB: a 1024-element sample picks on the device between the phased path and a pipelined pass that writes the rejected run reversed from the end, then reverses it (from 65% kept); reversed=on asks for the pass", "phased=auto|on|off (tile counts, with flags keep bits, scanned first, then the move without look-back; auto: wherever the grid is not resident, flags from 512 tiles), resident=auto|on|off (one cooperative launch where every tile fits on the device; auto and on: ahead of phased=auto), reversed=auto|on|off (on: the reversed pass; off: never), pipelined=auto|on|off (on with reversed=auto: the sample from one tile; auto: from 256 MiB), blocks=N (the pipeline's grid, at most N blocks), cluster=auto|off (by predicate, 2 to 16 tiles as one thread block cluster on sm_90+, the total known to every tile before it stages; off: the resident grid)", tunables::partition_lookback},
  {primitive::partition,         "scan-scatter", false, true,  true,  false, false, "exclusive scan of the flags, then a two-sided scatter"},
  {primitive::partition,         "split",        false, true,  true,  false, false, "Billeter Sec. 5.3 stream split: billeter phases 1-2, rows split in shared memory", "P, simd=popc|prefix", tunables::billeter_phases},
  {primitive::partition,         "cub",          false, true,  true,  false, false, "cub::DevicePartition (CCCL) + reversal of its reversed tail, the peer to beat"},
  {primitive::partition_unordered, "serial",     true,  false, true,  false, false, "the serial partition (rejected ones in input order although not promised)"},
  {primitive::partition_unordered, "split",      true,  false, false, true,  false, "Billeter Sec. 3-4 as compact on P threads x S lanes: each cache-sized block counted, its prefix chained, then moved while still in cache, its rejected run placed from the end of out backwards, the same layout run to run (one read of the input; the stable split counts every block first)", "threads=0 (0 = all, or SLUICE_CPU_THREADS), simd=auto|avx512|avx2|scalar (or SLUICE_CPU_SIMD)", tunables::cpu},
  {primitive::partition_unordered, "decoupled-lookback", false, true, false, false, true, "by predicate one pass, as compact: kept run forward from the front, each tile's rejected run (in input order) backwards from the end, no wait for the kept total, the same layout run to run; on Hopper from 64 MiB of input partition's pipelined pass without its flip (rejected run last to first, as CUB's); flags: the stable partition", "pipelined=auto|on|off (predicates of 4- and 8-byte elements, 16-byte aligned spans, sm_90+; auto from 64 MiB of input), blocks=N (the pass's grid, at most N blocks), cluster=auto|off (by predicate, 2 to 16 tiles as one thread block cluster on sm_90+; off: the look-back)", tunables::partition_unordered_lookback},
  {primitive::partition_unordered, "cub",        false, true,  false, false, false, "cub::DevicePartition (CCCL) alone: rejected run last to first, the peer to beat"},
  {primitive::radix_sort,        "lsd-serial",   true,  false, true,  false, false, "serial LSD radix sort, 8-bit digits, counting sort per digit"},
  {primitive::radix_sort,        "lsd-parallel", true,  false, true,  false, false, "LSD radix sort, 8-bit digits, Billeter's three phases per digit on P threads (per-thread histograms, prefix over digit x thread, stable scatter); passes where all keys share the digit skipped", "threads=0 (0 = all, or SLUICE_CPU_THREADS), simd=auto|avx512|avx2|scalar (accepted; the sort has no SIMD kernels)", tunables::cpu},
  {primitive::radix_sort,        "msd-lsd",      true,  false, true,  true,  false, "one MSD pass of 8 to 12 bits through memory (per-thread histograms, prefix over digit x thread, stable scatter through write-combined lines) into buckets of about 256 KiB, each sorted from the cache by 11-bit LSD passes (or further MSD splits and insertion sorts where those leave fewer passes), buckets dealt to the threads largest first; digits all keys share skipped", "threads=0 (0 = all, or SLUICE_CPU_THREADS), simd=auto|avx512|avx2|scalar (accepted; the sort has no SIMD kernels)", tunables::cpu},
  {primitive::radix_sort,        "onesweep",     false, true,  true,  false, true,  "Adinets-Merrill Onesweep: one histogram read, then one pass per 8-bit digit (ballot ranking, per-digit look-back)", "portion=N (keys per launch of a digit pass, whole tiles; default and most about 2^28: smaller only to test the hand-over between launches)", tunables::onesweep},
  {primitive::radix_sort,        "cub",          false, true,  true,  false, false, "cub::DeviceRadixSort (CCCL Onesweep): integer keys and values as they are, float keys as their order-preserving image"},
  {primitive::radix_sort,        "split-radix",  false, true,  true,  false, false, "Billeter Sec. 5.3: one stable stream split (scan-scatter) per key bit"},
  // The runs family (unique, unique_by_key: unique; run_length_encode, non_trivial_runs: run_length_encode).
  {primitive::unique,            "serial",       true,  false, true,  false, false, "the first element of each run of equal elements (operator==), one thread, in place allowed"},
  {primitive::unique,            "three-phase",  true,  false, true,  true,  false, "Billeter Sec. 3 on P threads, a run head (in[i] != in[i-1]) as the valid element: heads counted per cache-sized block, prefix chained over the blocks, heads moved while the block is in cache", "threads=0 (0 = all, or SLUICE_CPU_THREADS), simd=auto|avx512|avx2|scalar (accepted; the runs have no SIMD kernels)", tunables::cpu},
  {primitive::run_length_encode, "serial",       true,  false, true,  false, false, "each run's element and length (or offset and length of the runs longer than one), one thread"},
  {primitive::run_length_encode, "three-phase",  true,  false, true,  true,  false, "Billeter Sec. 3 on P threads as unique, the prefix also carrying the last run head before each block, so that the block holding a run's successor writes its length", "threads=0 (0 = all, or SLUICE_CPU_THREADS), simd=auto|avx512|avx2|scalar (accepted; the runs have no SIMD kernels)", tunables::cpu},
  {primitive::unique,            "decoupled-lookback", false, true, true, false, true, "one pass: run heads (in[i] != in[i-1]) flagged per tile, counted by a block scan, placed by the Merrill-Garland look-back, staged in shared memory and written coalesced; values read at the heads only"},
  {primitive::run_length_encode, "decoupled-lookback", false, true, true, false, true, "one pass as unique's, the look-back carrying (runs, last head position) so that the tile holding a run's tail writes its length"},
  // By key and segmented (reduce_by_key; inclusive_scan_by_key, exclusive_scan_by_key: scan_by_key; segmented_reduce;
  // segmented_inclusive_scan, segmented_exclusive_scan: segmented_scan).
  {primitive::reduce_by_key,     "serial",       true,  false, true,  false, false, "each run of equal keys (operator==): its first key and the left fold of its values, one thread, in place allowed"},
  {primitive::reduce_by_key,     "three-phase",  true,  false, true,  true,  false, "Billeter Sec. 3 on P threads with Blelloch's segmented carry: per cache-sized block its run heads and the fold since its last head, (count, flag, value) prefixes chained over the blocks, each run's value written by the block holding its successor (float results do not depend on P)", "threads=0 (0 = all, or SLUICE_CPU_THREADS), simd=auto|avx512|avx2|scalar (accepted; no SIMD kernels)", tunables::cpu},
  {primitive::scan_by_key,       "serial",       true,  false, true,  false, false, "running fold restarted at each run of equal keys, one thread, in place allowed"},
  {primitive::scan_by_key,       "three-phase",  true,  false, true,  true,  false, "Billeter Sec. 5.2 on P threads with Blelloch's segmented carry: per cache-sized block the fold since its last run head, (flag, value) prefixes chained over the blocks, each block rescanned from its prefix while in cache (float results do not depend on P)", "threads=0 (0 = all, or SLUICE_CPU_THREADS), simd=auto|avx512|avx2|scalar (accepted; no SIMD kernels)", tunables::cpu},
  {primitive::segmented_reduce,  "serial",       true,  false, true,  false, false, "init and the left fold of each segment of an offsets array, one thread"},
  {primitive::segmented_reduce,  "three-phase",  true,  false, true,  true,  false, "Billeter Sec. 3 on P threads over the segments' elements: per cache-sized block the fold of its last segment's part, (flag, value) prefixes chained over the blocks, each segment folded by the block where it ends (one huge segment and many small ones alike; float results do not depend on P)", "threads=0 (0 = all, or SLUICE_CPU_THREADS), simd=auto|avx512|avx2|scalar (accepted; no SIMD kernels)", tunables::cpu},
  {primitive::segmented_scan,    "serial",       true,  false, true,  false, false, "running fold restarted at each segment of an offsets array, one thread, in place allowed"},
  {primitive::segmented_scan,    "three-phase",  true,  false, true,  true,  false, "the by-key three-phase scan with segment starts as heads, found by a binary search of the offsets per block (float results do not depend on P)", "threads=0 (0 = all, or SLUICE_CPU_THREADS), simd=auto|avx512|avx2|scalar (accepted; no SIMD kernels)", tunables::cpu},
  {primitive::reduce_by_key,     "decoupled-lookback", false, true, true, false, true, "one pass of a segmented scan whose segments are the runs of keys: heads and tails flagged per tile, (heads, value since the last head) pairs scanned in the block and carried by the Merrill-Garland look-back (anchored for floats: results repeat run to run), keys written at their heads' ranks, values at their tails'"},
  {primitive::scan_by_key,       "decoupled-lookback", false, true, true, false, true, "one pass: the by-key segmented scan of reduce_by_key, every element's value written through shared memory; in place allowed"},
  {primitive::segmented_reduce,  "decoupled-lookback", false, true, true, false, true, "the offsets checked and each tile's first offset found by binary search (one kernel, the call waits for its check), then one pass over the values cut by elements: segment starts marked in a shared bitmap, the by-key segmented scan, each segment's result written by the tile holding its end"},
  {primitive::segmented_scan,    "decoupled-lookback", false, true, true, false, true, "as segmented_reduce's pass, every element inside the segments written through shared memory; in place allowed"},
  // The k-way split (split, split_async).
  {primitive::split,             "serial",       true,  false, true,  false, false, "count the elements of each bucket, then place each at its bucket's cursor, one thread"},
  {primitive::split,             "multisplit",   true,  false, true,  true,  false, "Billeter Sec. 5.3's stream split from 2 to k buckets on P threads: a histogram of every cache-sized block, a bucket-major prefix over (bucket, block), each block moved from its cursors (input read twice, written once)", "threads=0 (0 = all, or SLUICE_CPU_THREADS), simd=auto|avx512|avx2|scalar (accepted; no SIMD kernels)", tunables::cpu},
  {primitive::split,             "multisplit",   false, true,  true,  false, true,  "one digit pass of onesweep with the buckets as its digits: a histogram read, the bucket bases, then each tile ranks its elements by bucket in input order (ballots), looks back per bucket and writes each bucket's run through shared memory (input read twice, written once); ids outside [0, k) in a bucket of their own after the others", "portion=N (elements per launch of the pass, whole tiles; default and most about 2^28: smaller only to test the hand-over between launches)", tunables::onesweep},
  // Top-k (top_k).
  {primitive::top_k,             "serial",       true,  false, true,  false, false, "Hoare's selection (std::nth_element) over (key image, position) pairs on one thread, then the k sorted by pair or by position"},
  {primitive::top_k,             "radix-select", true,  false, true,  true,  false, "the k-th key found one 8-bit digit at a time from the top by histograms on P threads (the chosen bucket's keys gathered once it holds 1/16 of the input), then one stable compaction pass (Billeter's count, prefix and move with the threshold as predicate, ties by position) and, for sorted output, the msd-lsd sort of the k", "threads=0 (0 = all, or SLUICE_CPU_THREADS), simd=auto|avx512|avx2|scalar (accepted; no SIMD kernels)", tunables::cpu},
  {primitive::top_k,             "radix-select", false, true,  true,  false, true,  "the k-th key found one 11-bit digit at a time from the top (3 digits for 32-bit keys, 6 for 64-bit), each a histogram of the keys that match the digits chosen so far with the choice made on the device (no host round trip), then Billeter's count, prefix and move with the threshold as predicate (ties by position), and for sorted output the onesweep sort of the k"},
  // Segmented sort (segmented_radix_sort).
  {primitive::segmented_radix_sort, "lsd-serial", true, false, true,  false, false, "each segment in turn by the serial LSD radix sort, one thread"},
  {primitive::segmented_radix_sort, "msd-lsd",    true, false, true,  true,  false, "segments that fit the cache (1 MiB of keys and values) dealt to P threads by 64 Ki-element chunks of the input from an atomic counter, each sorted from the cache as msd-lsd sorts a bucket (11-bit LSD passes over the digits its keys do not share, or MSD splits down to insertion sorts); each larger segment by the whole msd-lsd sort on every thread", "threads=0 (0 = all, or SLUICE_CPU_THREADS), simd=auto|avx512|avx2|scalar (accepted; the sort has no SIMD kernels)", tunables::cpu},
  {primitive::segmented_radix_sort, "tiered",     false, true, true,  false, true,  "the offsets checked and the segments classed on the device (the call waits for that); segments of up to 2048 keys sorted in shared memory, one thread block each (cub::BlockRadixSort over the key image); longer ones, when few, each by onesweep; when many, all segments at once by two stable onesweep sorts (by key image, then by segment number) and one gather"},
  {primitive::segmented_radix_sort, "cub",        false, true, true,  false, false, "cub::DeviceSegmentedSort::StableSortKeys / StablePairs (CCCL) over the key image, the peer to beat"},
  // The gl device: the papers' systems in fragment, geometry and vertex shaders (docs/guide/gl.md).
  {primitive::reduce,            "goddeke-multipass", false, false, true, false, false, "Goeddeke tutorial in fragment shaders: 2x2 groups of an M x M texture, coordinates from the fragment position, ping-pong render-to-texture passes to 1x1 (commutative op)", {}, {}, true, true},
  {primitive::compact,           "roger",        false, false, true,  false, false, "Roger 2007 Sec. III in fragment shaders: blocks of s, Hillis-Steele prefix sums + Fig. 5 search, blocks concatenated by line segments split in a geometry shader (Fig. 7)", "s=64 (2..1024, power of 2)", tunables::gl_roger, true, true},
  {primitive::compact,           "horn",         false, false, true,  false, false, "Horn 2005 in fragment shaders: Hillis-Steele prefix sum of the discards in log2(n) ping-pong passes, then a binary-search gather per output texel", {}, {}, true, false},
  {primitive::compact,           "geometry-shader", false, false, true, false, false, "the papers' baseline: one point per element, a geometry shader drops the unwanted ones, transform feedback captures the rest in order", {}, {}, true, false},
  {primitive::compact_unordered, "jumping-jack", false, false, false, false, false, "Moreira 2009 Sec. 4-5 in fragment shaders: MAS jumps in blocks of s, endpoints computed in a fragment pass and drawn as lines from a buffer (render to vertex array, Fig. 8)", "s=256 (2..1024, power of 2)", tunables::gl_jumping_jack, true, true},
};
// clang-format on

inline std::span<const algorithm_info> algorithms() noexcept { return algorithm_table; }

inline bool runs_on(const algorithm_info& a, device d) noexcept {
  return d == device::cpu ? a.on_cpu : d == device::cuda ? a.on_cuda : a.on_gl;
}
inline bool is_best(const algorithm_info& a, device d) noexcept {
  return d == device::cpu ? a.best_cpu : d == device::cuda ? a.best_cuda : a.best_gl;
}

// Whether `a` knows every parameter key written in `spec` ("name:key=value,..."; true without parameters).
// A spec with parameters runs only on the entries of its name that know them: decoupled-lookback's
// `phased` on compact and partition, its `pipelined` and `blocks` on scan and compact, its `resident` on
// partition. A malformed spec is the params parser's invalid_argument.
inline bool takes_params(const algorithm_info& a, std::string_view spec, const char* fn) {
  for (const std::string_view key : detail::params(spec, fn).keys()) {
    bool known = false;
    for (const auto& t : a.tunables) known = known || t.key == key;
    if (!known) return false;
  }
  return true;
}

// Checks the parameters of `spec` against `a`'s tunables before any work: an invalid_argument for a key `a`
// does not know (naming the valid keys and their values), a value out of range or not among the choices, a
// malformed pair, or any parameter on a variant that has none.
inline void check_params(const algorithm_info& a, std::string_view spec, const char* fn) {
  if (detail::base_name(spec).size() == spec.size()) return;
  if (a.tunables.empty())
    throw error(errc::invalid_argument, "sluice::" + std::string(fn) + ": algorithm '" + std::string(spec) + "' takes no parameters");
  detail::params(spec, fn).check(a.tunables);
}

// The variant `spec` ("best" allowed; "name:key=value,..." for a variant's parameters) of `prim` on `d`, or
// an invalid_argument error naming the valid choices; parameters are checked against the variant's tunables.
inline const algorithm_info& find_algorithm(primitive prim, device d, std::string_view spec, const char* fn) {
  const std::string_view name = detail::base_name(spec);
  const bool best = name.empty() || name == "best";
  if (name.size() != spec.size()) {
    if (best) throw error(errc::invalid_argument, "sluice::" + std::string(fn) + ": algorithm '" + std::string(spec) + "' takes no parameters");
    const auto& a = find_algorithm(prim, d, name, fn);
    check_params(a, spec, fn);
    return a;
  }
  for (const auto& a : algorithm_table)  // every call's path: no allocation
    if (a.prim == prim && runs_on(a, d) && (best ? is_best(a, d) : a.name == name)) return a;
  std::string valid;
  for (const auto& a : algorithm_table) {
    if (a.prim != prim || !runs_on(a, d)) continue;
    valid += valid.empty() ? "" : ", ";
    valid += a.name;
  }
  if (valid.empty())
    throw error(errc::unsupported, "sluice::" + std::string(fn) + ": the " + std::string(to_string(d)) + " device has no " +
                                       std::string(to_string(prim)) + " algorithm");
  throw error(errc::invalid_argument, "sluice::" + std::string(fn) + ": unknown algorithm '" + std::string(name) + "' for " +
                                          std::string(to_string(prim)) + " on " + std::string(to_string(d)) +
                                          " (valid: best, " + valid + ")");
}

}  // namespace sluice
