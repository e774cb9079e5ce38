// Decoupled look-back (Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back",
// 2016, Sec. 4): the one tile-status protocol that the single-pass scan, compaction and partition share.
// Every tile publishes its aggregate as soon as it has one (status `aggregate`), then its inclusive prefix
// once its look-back ends (status `prefix`). A tile's look-back reads its predecessors 32 at a time, one per
// lane, nearest first, waiting on any that have not published yet, and combines aggregates back to the
// first inclusive prefix it meets. Tiles take their numbers from an atomic counter in the order their
// blocks start, so every predecessor being waited on is already running: no deadlock on any grid.
// 4-byte values travel packed with their status in one 64-bit word (one relaxed access, no fences); wider
// ones in a status word with release/acquire order beside two value arrays.
#pragma once
#include <cuda/atomic>

#include <cstring>
#include <type_traits>

#include "sluice/cuda/common.cuh"

namespace sluice::cuda_backend::lookback {

enum status : unsigned { invalid = 0, aggregate = 1, prefix = 2 };

template <class T>
using bits_of = std::conditional_t<sizeof(T) == 4, unsigned, unsigned long long>;

template <class T>
__device__ inline T from_bits(bits_of<T> b) {
  T v;
  memcpy(&v, &b, sizeof(T));
  return v;
}
template <class T>
__device__ inline bits_of<T> to_bits(const T& v) {
  bits_of<T> b;
  memcpy(&b, &v, sizeof(T));
  return b;
}

// The status of every tile. `words` (4-byte T) or `flags` + `aggregates` + `prefixes` (8-byte T); the whole
// block of scratch starts zeroed (every tile invalid), see bytes() and the launchers.
template <class T>
struct tile_state {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "look-back carries 4- or 8-byte values");
  static constexpr bool packed = sizeof(T) == 4;
  unsigned long long* words;
  unsigned* flags;
  bits_of<T>* aggregates;
  bits_of<T>* prefixes;

  static std::size_t bytes(u64 tiles) { return packed ? tiles * 8 : tiles * (4 + 2 * sizeof(T)); }
  static tile_state at(void* p, u64 tiles) {
    tile_state s{};
    if constexpr (packed) {
      s.words = static_cast<unsigned long long*>(p);
    } else {
      s.aggregates = static_cast<bits_of<T>*>(p);
      s.prefixes = s.aggregates + tiles;
      s.flags = reinterpret_cast<unsigned*>(s.prefixes + tiles);
    }
    return s;
  }

  __device__ void publish(u64 tile, status st, const T& v) const {
    if constexpr (packed) {
      const unsigned long long w = (static_cast<unsigned long long>(to_bits(v)) << 32) | st;
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile]).store(w, cuda::memory_order_relaxed);
    } else {
      bits_of<T>* slot = st == aggregate ? aggregates : prefixes;
      cuda::atomic_ref<bits_of<T>, cuda::thread_scope_device>(slot[tile]).store(to_bits(v), cuda::memory_order_relaxed);
      cuda::atomic_ref<unsigned, cuda::thread_scope_device>(flags[tile]).fetch_or(st, cuda::memory_order_release);
    }
  }

  // Spins until `tile` has published; returns its best status (prefix over aggregate) and that value.
  __device__ status wait(u64 tile, T& v) const {
    if constexpr (packed) {
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> w(words[tile]);
      unsigned long long x;
      while (((x = w.load(cuda::memory_order_relaxed)) & 3u) == invalid) {
      }
      v = from_bits<T>(static_cast<unsigned>(x >> 32));
      return static_cast<status>(x & 3u);
    } else {
      cuda::atomic_ref<unsigned, cuda::thread_scope_device> f(flags[tile]);
      unsigned st;
      while ((st = f.load(cuda::memory_order_acquire)) == invalid) {
      }
      const status best = (st & prefix) ? prefix : aggregate;
      bits_of<T>* slot = best == aggregate ? aggregates : prefixes;
      v = from_bits<T>(cuda::atomic_ref<bits_of<T>, cuda::thread_scope_device>(slot[tile]).load(cuda::memory_order_relaxed));
      return best;
    }
  }
};

// Called by one whole warp of tile `tile` (> 0) after lane 0 published the tile's aggregate: the
// combination, in order, of every element before the tile. Valid in lane 0.
template <class T, class Op>
__device__ T exclusive_prefix(const tile_state<T>& state, u64 tile, Op op) {
  const unsigned lane = threadIdx.x & 31u;
  T acc{};
  bool have = false;
  for (long long window = static_cast<long long>(tile) - 1;; window -= 32) {
    const long long t = window - static_cast<long long>(lane);  // lane 0 is the nearest predecessor
    T v{};
    status st = prefix;  // lanes before tile 0 never count: tile 0 always holds a prefix
    if (t >= 0) st = state.wait(static_cast<u64>(t), v);
    const unsigned prefixes = __ballot_sync(0xffffffffu, st == prefix);
    const unsigned count = prefixes ? __ffs(prefixes) : 32u;  // lanes [0, count) take part, far to near
    // Reduce lanes [0, count), the farther range on the left of op (any associative op).
    for (unsigned offset = 1; offset < 32; offset *= 2) {
      const T other = __shfl_down_sync(0xffffffffu, v, offset);
      if (lane + offset < count) v = op(other, v);
    }
    acc = have ? op(v, acc) : v;
    have = true;
    if (prefixes) return acc;
  }
}

}  // namespace sluice::cuda_backend::lookback
