// radix_sort "onesweep" (Adinets and Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort for
// GPUs", 2022): a stable LSD sort with 8-bit digits that reads and writes the keys (and values) once per
// digit pass.
//   1. Histogram: one read of the keys counts every digit of every pass.
//   2. Bases: one block turns the counts into the first output position of each digit, per pass.
//   3. One kernel per digit pass: each tile (a dynamic tile id) ranks its keys by digit in input order
//      (one ballot per digit bit + per-warp slot counters), publishes its digit counts first, looks back per digit
//      (lookback::digit_state) for the counts of the tiles before it, and scatters its keys, then its
//      values, through shared memory in digit order, so runs of one digit leave as contiguous stores.
// Keys go to their order-preserving image on load and back on store (detail/radix_key.hpp), so floats,
// signed and descending keys cost no extra pass. Stable. The passes ping-pong between the caller's arrays
// and one scratch copy; an odd number of passes ends with a copy back.
// Moves: keys read (1 + passes) times and written `passes` times; values read and written `passes` times.
#pragma once
#include <cub/block/block_scan.cuh>

#include <type_traits>

#include "sluice/cuda/common.cuh"
#include "sluice/cuda/lookback.cuh"
#include "sluice/cuda/sort/key_image.cuh"
#include "sluice/detail/params.hpp"
#include "sluice/detail/radix_key.hpp"

namespace sluice::cuda_backend::onesweep {

// The tuning, per key width and whether values travel (measured in docs/design/sort.md).
template <unsigned KeyBytes, bool Pairs>
struct policy {
  static constexpr unsigned digit_bits = 8, digits = 1u << digit_bits;
  static constexpr unsigned threads = KeyBytes == 4 && Pairs ? 384 : 512;  // >= digits: one digit per thread in the look-back
  static constexpr unsigned items = KeyBytes == 4 ? (Pairs ? 16 : 20) : 10;
  static constexpr unsigned tile = threads * items;
  static constexpr unsigned min_blocks = 2;  // __launch_bounds__ residency per SM (caps the registers)
  static constexpr unsigned lookback_window = 4;  // predecessors each digit's look-back reads at once
  static constexpr unsigned lookback_sleep_ns = 64;  // back-off between polls of unpublished predecessors
  static constexpr bool match_by_ballots = true;  // peers by one ballot per digit bit (else __match_any_sync)
  static constexpr unsigned histogram_threads = 256, histogram_blocks_per_sm = 8, histogram_items = 16;
  // Keys per launch: look-back counts are 30-bit, and the state (1 KiB per tile) is cleared per launch.
  static constexpr u64 portion = (u64{1} << 28) / tile * tile;
  static_assert(threads >= digits && threads % 32 == 0 && portion < (u64{1} << lookback::digit_state::count_bits));
};

template <class K>
using bits_t = typename sluice::detail::radix_key<K>::bits_t;

// The digit of pass `pass` in the image b: bits [shift, shift + width) with shift = begin + 8 pass.
struct digit_window {
  int shift;
  unsigned mask;
  __host__ __device__ static digit_window of(int begin, int end, int pass, int digit_bits) {
    const int shift = begin + pass * digit_bits, width = end - shift < digit_bits ? end - shift : digit_bits;
    return {shift, (1u << width) - 1};
  }
  template <class B>
  __device__ unsigned operator()(B b) const { return static_cast<unsigned>(b >> shift) & mask; }
};

// The lanes of the warp whose digit equals this lane's: one ballot per digit bit, each kept as is where the
// lane's bit is set and inverted where it is clear (4 instructions a bit; __match_any_sync measured slower).
template <unsigned Bits>
__device__ __forceinline__ unsigned same_digit(unsigned digit) {
  unsigned peers = 0xffffffffu;
#pragma unroll
  for (unsigned bit = 0; bit < Bits; ++bit) {
    unsigned agree;
    asm("{\n\t.reg .pred p;\n\t"
        "and.b32 %0, %1, %2;\n\t"
        "setp.ne.u32 p, %0, 0;\n\t"
        "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
        "@!p not.b32 %0, %0;\n\t}"
        : "=r"(agree)
        : "r"(digit), "r"(1u << bit));
    peers &= agree;
  }
  return peers;
}

// ---- 1. Histogram: counts [pass][portion][digit] of every pass's digit, from one read of the keys.
template <class K, class P>
__global__ void __launch_bounds__(P::histogram_threads)
    histogram_kernel(const K* keys, u64 n, u64 portion, bool descending, int begin, int end, int passes, unsigned* counts) {
  constexpr unsigned D = P::digits, T = P::histogram_threads, I = P::histogram_items;
  constexpr int most_passes = sizeof(K) * 8 / P::digit_bits;
  __shared__ unsigned h[most_passes][D];
  for (unsigned i = threadIdx.x; i < passes * D; i += T) h[i / D][i % D] = 0;
  digit_window window[most_passes];
#pragma unroll
  for (int p = 0; p < most_passes; ++p) window[p] = digit_window::of(begin, end, p < passes ? p : 0, P::digit_bits);
  __syncthreads();
  const u64 q = blockIdx.y, portions = gridDim.y;
  const u64 first = q * portion, last = n - first < portion ? n : first + portion;
  // Each block takes chunks of T x I keys, I independent loads per thread in flight.
  for (u64 chunk = first + static_cast<u64>(blockIdx.x) * T * I; chunk < last; chunk += static_cast<u64>(gridDim.x) * T * I) {
    bits_t<K> b[I];
    const unsigned here = last - chunk < T * I ? static_cast<unsigned>(last - chunk) : T * I;
    if (here == T * I) {
#pragma unroll
      for (unsigned i = 0; i < I; ++i) b[i] = sluice::detail::radix_key<K>::to_bits(keys[chunk + i * T + threadIdx.x], descending);
    } else {
#pragma unroll
      for (unsigned i = 0; i < I; ++i)
        if (i * T + threadIdx.x < here) b[i] = sluice::detail::radix_key<K>::to_bits(keys[chunk + i * T + threadIdx.x], descending);
    }
#pragma unroll
    for (unsigned i = 0; i < I; ++i)
      if (here == T * I || i * T + threadIdx.x < here) {
#pragma unroll
        for (int p = 0; p < most_passes; ++p)
          if (p < passes) atomicAdd(&h[p][window[p](b[i])], 1u);
      }
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < passes * D; i += T)
    if (h[i / D][i % D]) atomicAdd(&counts[((i / D) * portions + q) * D + i % D], h[i / D][i % D]);
}

// ---- 2. Bases: base[pass][0][digit] = keys of smaller digits, the output position of the first key of each
// digit. One block, one thread per digit. (Later portions' bases, base[pass][q][digit], come from the last
// tile of portion q - 1: the keys a portion holds change from pass to pass.)
template <class P>
__global__ void __launch_bounds__(P::digits) bases_kernel(const unsigned* counts, int passes, u64 portions, u64* base) {
  constexpr unsigned D = P::digits;
  using digit_scan = cub::BlockScan<u64, D>;
  __shared__ typename digit_scan::TempStorage scan_storage;
  const unsigned d = threadIdx.x;
  for (int p = 0; p < passes; ++p) {
    u64 total = 0;
    for (u64 q = 0; q < portions; ++q) total += counts[(p * portions + q) * D + d];
    u64 start;
    digit_scan(scan_storage).ExclusiveSum(total, start);
    __syncthreads();
    base[p * portions * D + d] = start;
  }
}

// ---- 3. One digit pass over keys [first, first + count) of the input (one portion). digit_of(image) gives a
// key's digit, below P::digits - 1 or equal to it (digit_window; the k-way split's bucket function,
// cuda/split/multisplit.cuh, whose digits are the buckets).
template <class K, class V, class P, class Digit = digit_window>
__global__ void __launch_bounds__(P::threads, P::min_blocks)
    pass_kernel(const K* keys_in, K* keys_out, const V* values_in, V* values_out, u64 first, u64 count,
                lookback::digit_state state, unsigned* tile_counter, const u64* base, u64* next_base, bool descending,
                Digit digit_of) {
  using R = sluice::detail::radix_key<K>;
  using B = bits_t<K>;
  constexpr unsigned T = P::threads, I = P::items, W = T / 32, D = P::digits, tile_size = P::tile;
  constexpr bool has_values = !std::is_same_v<V, std::nullptr_t>;
  using digit_scan = cub::BlockScan<unsigned, T>;
  __shared__ unsigned warp_counts[W][D];  // per warp and digit: its keys, then (after the scan) its first slot
  __shared__ K* keys_to[D];               // per digit: where the tile's slot 0 would go (the run starts at its first slot)
  __shared__ std::conditional_t<has_values, V*, char> values_to[D];
  __shared__ unsigned char digit_at[tile_size];
  __shared__ typename digit_scan::TempStorage scan_storage;
  __shared__ unsigned tile_slot;
  unsigned char* staging = dynamic_shared<unsigned char>();  // the tile in digit order: keys, then values
  B* staged_keys = reinterpret_cast<B*>(staging);

  const unsigned tid = threadIdx.x, w = tid / 32, lane = tid % 32;
  if (tid == 0) tile_slot = atomicAdd(tile_counter, 1u);  // tiles in start order: predecessors are running
  for (unsigned i = tid; i < W * D; i += T) (&warp_counts[0][0])[i] = 0;
  __syncthreads();
  const u64 tile = tile_slot, tile_first = tile * tile_size;
  const unsigned tile_n = count - tile_first < tile_size ? static_cast<unsigned>(count - tile_first) : tile_size;

  // Load, warp-striped: item i of lane l is key w 32 I + 32 i + l of the tile, so (i, l) is input order.
  // Slots past the end of the last tile hold padding with the largest digit, D - 1: ranked after every real key
  // of the tile, they fill its last slots, which the scatter never reads (and no tile after the last looks back).
  const u64 warp_first = first + tile_first + static_cast<u64>(w) * 32 * I;
  const unsigned warp_n = tile_n > w * 32 * I ? tile_n - w * 32 * I : 0;
  B b[I];
  unsigned digit[I];
  if (warp_n >= 32 * I) {
#pragma unroll
    for (unsigned i = 0; i < I; ++i) b[i] = R::to_bits(keys_in[warp_first + i * 32 + lane], descending);
#pragma unroll
    for (unsigned i = 0; i < I; ++i) digit[i] = digit_of(b[i]);
  } else {
#pragma unroll
    for (unsigned i = 0; i < I; ++i) {
      const bool real = i * 32 + lane < warp_n;
      b[i] = real ? R::to_bits(keys_in[warp_first + i * 32 + lane], descending) : ~B{0};
      digit[i] = real ? digit_of(b[i]) : D - 1;
    }
  }

  // Early counts: each warp counts its keys per digit (shared atomics), so the tile's digit counts can be
  // published for the tiles after it before the ranking, which is the long part.
  unsigned* counts = warp_counts[w];
#pragma unroll
  for (unsigned i = 0; i < I; ++i) atomicAdd(&counts[digit[i]], 1u);
  __syncthreads();
  // One thread per digit: the tile's count (published), its first slot in the tile (exclusive scan over
  // digits), and each warp's first slot within the digit.
  unsigned total = 0;
  if (tid < D) {
    for (unsigned v = 0; v < W; ++v) {
      const unsigned c = warp_counts[v][tid];
      warp_counts[v][tid] = total;
      total += c;
    }
    state.publish(tile, tid, tile == 0 ? lookback::prefix : lookback::aggregate, total);
  }
  unsigned local_start;
  digit_scan(scan_storage).ExclusiveSum(tid < D ? total : 0u, local_start);
  if (tid < D)
    for (unsigned v = 0; v < W; ++v) warp_counts[v][tid] += local_start;
  __syncthreads();

  // Rank, in input order: lanes holding one digit find each other (one ballot per digit bit), the lowest
  // one bumps the warp's next slot for that digit, each takes the old slot plus its peers on lower lanes.
  unsigned slot[I];
  const unsigned lower_lanes = (1u << lane) - 1;
#pragma unroll
  for (unsigned i = 0; i < I; ++i) {
    unsigned peers;
    if constexpr (P::match_by_ballots) {
      peers = same_digit<P::digit_bits>(digit[i]);
    } else {
      peers = __match_any_sync(0xffffffffu, digit[i]);
    }
    const unsigned leader = __ffs(peers) - 1;
    unsigned before = 0;
    if (lane == leader) {
      before = counts[digit[i]];
      counts[digit[i]] = before + __popc(peers);
    }
    slot[i] = __shfl_sync(0xffffffffu, before, leader) + __popc(peers & lower_lanes);
    __syncwarp();
  }

  // Stage the keys in digit order.
#pragma unroll
  for (unsigned i = 0; i < I; ++i) {
    staged_keys[slot[i]] = b[i];
    digit_at[slot[i]] = static_cast<unsigned char>(digit[i]);
  }
  // The values' loads go out before the look-back waits. (Loading them after the keys' scatter, as CUB's
  // onesweep does, frees their registers for bigger tiles: measured slower at every tile shape, commit
  // fd76746 and docs/design/sort.md.)
  [[maybe_unused]] std::conditional_t<has_values, V, char> value[I];
  if constexpr (has_values) {
#pragma unroll
    for (unsigned i = 0; i < I; ++i)
      if (i * 32 + lane < warp_n) value[i] = values_in[warp_first + i * 32 + lane];
  }

  // Look back, one digit per thread: where this tile's run of each digit starts in the output.
  if (tid < D) {
    unsigned before = 0;
    if (tile > 0) {
      before = lookback::digit_exclusive_prefix<P::lookback_window, P::lookback_sleep_ns>(state, tile, tid);
      state.publish(tile, tid, lookback::prefix, before + total);
    }
    const u64 offset = base[tid] + before - local_start;  // slot s of digit tid goes to offset + s
    keys_to[tid] = keys_out + offset;
    if constexpr (has_values) values_to[tid] = values_out + offset;
    if (next_base != nullptr && tile_first + tile_size >= count)  // the next portion's, less this tile's padding
      next_base[tid] = base[tid] + before + total - (tid == D - 1 ? tile_size - tile_n : 0);
  }
  __syncthreads();

  // Scatter: consecutive slots of one digit go to consecutive output positions.
#pragma unroll
  for (unsigned k = 0; k < I; ++k) {
    const unsigned i = k * T + tid;
    if (tile_n == tile_size || i < tile_n) keys_to[digit_at[i]][i] = R::from_bits(staged_keys[i], descending);
  }
  if constexpr (has_values) {
    __syncthreads();  // the staging buffer now takes the values
    V* staged_values = reinterpret_cast<V*>(staging);
#pragma unroll
    for (unsigned i = 0; i < I; ++i)
      if (i * 32 + lane < warp_n) staged_values[slot[i]] = value[i];
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < I; ++k) {
      const unsigned i = k * T + tid;
      if (tile_n == tile_size || i < tile_n) values_to[digit_at[i]][i] = staged_values[i];
    }
  }
}

// The pass kernel's static shared memory (its __shared__ arrays above), to know when it must opt in.
template <class K, class P>
constexpr std::size_t pass_static_shared() {
  return (P::threads / 32) * P::digits * 4 + P::digits * 16 + P::tile + sizeof(typename cub::BlockScan<unsigned, P::threads>::TempStorage) + 16;
}

// ---- The driver. Keys alone: V = std::nullptr_t.
template <class K, class V, class P = policy<sizeof(K), !std::is_same_v<V, std::nullptr_t>>>
void sort_pass_by_pass(std::span<K> keys, std::span<V> values, bool descending, int begin, int end, cudaStream_t s, const char* fn,
                       u64 portion_keys = 0) {
  constexpr unsigned D = P::digits;
  constexpr bool has_values = !std::is_same_v<V, std::nullptr_t>;
  constexpr std::size_t value_bytes = has_values ? sizeof(V) : 0;
  const u64 n = keys.size();
  if (n < 2 || begin == end) return;
  const int passes = static_cast<int>(ceil_div(static_cast<u64>(end - begin), P::digit_bits));
  // Keys per launch: P::portion, or fewer where asked (whole tiles, at least one), but no fewer than the
  // histogram's grid allows (a row of blocks per portion, at most 65535 rows).
  u64 portion = portion_keys == 0 || portion_keys >= P::portion ? P::portion
                : portion_keys < P::tile                        ? P::tile
                                                                : portion_keys / P::tile * P::tile;
  const u64 fewest = ceil_div(ceil_div(n, u64{65535}), u64{P::tile}) * P::tile;
  if (portion < fewest) portion = fewest;
  const u64 portions = ceil_div(n, portion);
  const u64 most_tiles = ceil_div(n < portion ? n : portion, P::tile);
  constexpr u64 counter_words = 64;  // the tile counter, then the state from a 256-byte boundary
  scratch alt_keys(n * sizeof(K), s, fn), alt_values(n * value_bytes, s, fn);
  scratch counts(passes * portions * D * sizeof(unsigned), s, fn), base(passes * portions * D * sizeof(u64), s, fn);
  scratch state((counter_words + most_tiles * D) * sizeof(unsigned), s, fn);

  check_cuda(cudaMemsetAsync(counts.as<unsigned>(), 0, passes * portions * D * sizeof(unsigned), s), fn, "cudaMemsetAsync");
  const u64 grid_x = ceil_div(n < portion ? n : portion, u64{P::histogram_threads} * P::histogram_items);
  const u64 cap = static_cast<u64>(multiprocessor_count(fn)) * P::histogram_blocks_per_sm;
  histogram_kernel<K, P><<<dim3(static_cast<unsigned>(grid_x < cap ? grid_x : cap), static_cast<unsigned>(portions)), P::histogram_threads, 0, s>>>(
      keys.data(), n, portion, descending, begin, end, passes, counts.as<unsigned>());
  check_launch(fn, "onesweep::histogram_kernel");
  bases_kernel<P><<<1, D, 0, s>>>(counts.as<unsigned>(), passes, portions, base.as<u64>());
  check_launch(fn, "onesweep::bases_kernel");

  const std::size_t shared = P::tile * (sizeof(K) > value_bytes ? sizeof(K) : value_bytes);
  auto* kernel = pass_kernel<K, V, P>;
  if (shared + pass_static_shared<K, P>() > 48 * 1024)  // past the default, static and dynamic together opt in
    check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)), fn, "cudaFuncSetAttribute");
  K* key_src = keys.data();
  K* key_dst = alt_keys.as<K>();
  V* value_src = has_values ? values.data() : nullptr;
  V* value_dst = has_values ? alt_values.as<V>() : nullptr;
  unsigned* counter = state.as<unsigned>();
  const lookback::digit_state digits{counter + counter_words, D};
  for (int p = 0; p < passes; ++p) {
    const digit_window digit_of = digit_window::of(begin, end, p, P::digit_bits);
    for (u64 q = 0; q < portions; ++q) {
      const u64 first = q * portion, count = n - first < portion ? n - first : portion;
      const u64 tiles = ceil_div(count, P::tile);
      check_cuda(cudaMemsetAsync(counter, 0, (counter_words + tiles * D) * sizeof(unsigned), s), fn, "cudaMemsetAsync");
      u64* here = base.as<u64>() + (p * portions + q) * D;
      kernel<<<static_cast<unsigned>(tiles), P::threads, shared, s>>>(key_src, key_dst, value_src, value_dst, first, count, digits, counter,
                                                                      here, q + 1 < portions ? here + D : nullptr, descending, digit_of);
      check_launch(fn, "onesweep::pass_kernel");
    }
    std::swap(key_src, key_dst);
    std::swap(value_src, value_dst);
  }
  if (key_src != keys.data()) {
    check_cuda(cudaMemcpyAsync(keys.data(), key_src, n * sizeof(K), cudaMemcpyDeviceToDevice, s), fn, "cudaMemcpyAsync");
    if constexpr (has_values)
      check_cuda(cudaMemcpyAsync(values.data(), value_src, n * sizeof(V), cudaMemcpyDeviceToDevice, s), fn, "cudaMemcpyAsync");
  }
}

// The parameter portion=N: keys per launch of a digit pass (rounded down to whole tiles, at least one; default
// and most: P::portion, about 2^28). Smaller portions cost launches and exist to test the hand-over of the
// digit bases from portion to portion at sizes a sanitizer gets through.
inline u64 parse_portion(std::string_view spec, const char* fn) {
  sluice::detail::params p(spec, fn);
  const u64 portion = p.number("portion", 0, 1, u64{1} << 28);
  p.done("portion");
  return portion;
}

// Values wider than 8 bytes would take the staging buffer's whole shared memory: they ride as input
// indices (32-bit where n allows) and are gathered once at the end.
template <class K, class V>
void radix_sort(std::span<K> keys, std::span<V> values, bool descending, int begin, int end, cudaStream_t s, const char* fn,
                u64 portion = 0) {
  if constexpr (std::is_same_v<V, std::nullptr_t> || sizeof(V) <= 8) {
    sort_pass_by_pass(keys, values, descending, begin, end, s, fn, portion);
  } else {
    const u64 n = keys.size();
    if (n < 2 || begin == end) return;
    auto by_index = [&]<class I>() {
      scratch index(n * sizeof(I), s, fn);
      sort_common::iota_kernel<<<sort_common::elementwise_grid(n), 256, 0, s>>>(index.as<I>(), n);
      check_launch(fn, "sort_common::iota_kernel");
      sort_pass_by_pass(keys, std::span<I>(index.as<I>(), n), descending, begin, end, s, fn, portion);
      sort_common::permute_values(values, index.as<I>(), s, fn);
    };
    if (n <= (u64{1} << 32)) by_index.template operator()<std::uint32_t>();
    else by_index.template operator()<u64>();
  }
}

}  // namespace sluice::cuda_backend::onesweep
