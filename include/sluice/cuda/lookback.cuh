// Decoupled look-back (Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back",
// 2016, Sec. 4): the one tile-status protocol that the single-pass scan, compaction and partition share.
// Every tile publishes its aggregate as soon as it has one (status `aggregate`), then its inclusive prefix
// once its look-back ends (status `prefix`). A tile's look-back reads its predecessors a window at a
// time (`tuning` below), nearest first, waits for those nearer than the nearest inclusive prefix, and
// combines their aggregates with that prefix. Tiles take their numbers from an atomic counter in the
// order their blocks start, so every predecessor being waited on is already running: no deadlock on any
// grid.
// 4-byte values travel packed with their status in one 64-bit word (one relaxed access, no fences); wider
// ones (8 bytes: tile_state; pairs of 16 bytes or more: wide_state) in a status word with release/acquire order
// beside two value arrays.
// Packed words may carry the epoch of their call in bits 2..25 (launch_states below): the states are then
// kept per stream between calls, and a word of an earlier call reads as invalid, so none is zeroed first.
#pragma once
#include <cub/util_ptx.cuh>
#include <cuda/atomic>

#include <cstring>
#include <exception>
#include <type_traits>

#include "sluice/cuda/common.cuh"

namespace sluice::cuda_backend::lookback {

enum status : unsigned { invalid = 0, aggregate = 1, prefix = 2 };
inline constexpr unsigned epoch_mask = kept_state_epochs - 1;  // bits 2..25 of a packed word, shifted down
static_assert(kept_state_epochs == 1u << 24, "the epoch takes bits 2..25 of a packed state word");

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
// block of scratch starts zeroed (every tile invalid) or, for 4-byte T with an epoch, holds words of earlier
// calls whose other epochs read as invalid (launch_states below); see bytes() and the launchers.
template <class T>
struct tile_state {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "look-back carries 4- or 8-byte values");
  static constexpr bool packed = sizeof(T) == 4;
  using value_type = T;
  unsigned long long* words;
  unsigned* flags;
  bits_of<T>* aggregates;
  bits_of<T>* prefixes;
  unsigned epoch;  // packed: this call's epoch, in bits 2..25 of every word it writes (0 where zeroed first)

  static std::size_t bytes(u64 tiles) { return packed ? tiles * 8 : tiles * (4 + 2 * sizeof(T)); }
  static tile_state at(void* p, u64 tiles, unsigned epoch = 0) {
    tile_state s{};
    s.epoch = epoch;
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
      const unsigned long long w = (static_cast<unsigned long long>(to_bits(v)) << 32) | epoch << 2 | st;
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile]).store(w, cuda::memory_order_relaxed);
    } else {
      bits_of<T>* slot = st == aggregate ? aggregates : prefixes;
      cuda::atomic_ref<bits_of<T>, cuda::thread_scope_device>(slot[tile]).store(to_bits(v), cuda::memory_order_relaxed);
      cuda::atomic_ref<unsigned, cuda::thread_scope_device>(flags[tile]).fetch_or(st, cuda::memory_order_release);
    }
  }

  // Packed: `tile`'s word, loaded and left undecoded, so that the load stays in flight until decode() needs
  // it (a wide look-back asks for its words at a round's start and decodes them a phase later).
  __device__ unsigned long long word(u64 tile) const {
    static_assert(packed);
    return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile]).load(cuda::memory_order_relaxed);
  }
  __device__ status decode(unsigned long long x, T& v) const {
    static_assert(packed);
    v = from_bits<T>(static_cast<unsigned>(x >> 32));
    return (static_cast<unsigned>(x) >> 2 & epoch_mask) == epoch ? static_cast<status>(x & 3u) : invalid;
  }
  // One look at `tile`: its best status (prefix over aggregate), and that value unless it is invalid.
  __device__ status peek(u64 tile, T& v) const {
    if constexpr (packed) {
      return decode(word(tile), v);
    } else {
      const unsigned st = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(flags[tile]).load(cuda::memory_order_acquire);
      if (st == invalid) return invalid;
      const status best = (st & prefix) ? prefix : aggregate;
      bits_of<T>* slot = best == aggregate ? aggregates : prefixes;
      v = from_bits<T>(cuda::atomic_ref<bits_of<T>, cuda::thread_scope_device>(slot[tile]).load(cuda::memory_order_relaxed));
      return best;
    }
  }
};

// Values wider than 8 bytes (a pair of counts, a count beside a value): a status word beside two arrays of
// values, each value stored word by word (relaxed) before its status is published (release) and read after the
// status (acquire), as tile_state does for 8-byte values. The states start zeroed (every tile invalid).
template <class T>
struct wide_state {
  static_assert(sizeof(T) % 8 == 0 && std::is_trivially_copyable_v<T>, "whole 8-byte words of a trivially copyable value");
  static constexpr unsigned words = sizeof(T) / 8;
  using value_type = T;
  unsigned long long* aggregates;
  unsigned long long* prefixes;
  unsigned* flags;

  static std::size_t bytes(u64 tiles) { return tiles * (2 * sizeof(T) + sizeof(unsigned)); }
  static wide_state at(void* p, u64 tiles) {
    wide_state s;
    s.aggregates = static_cast<unsigned long long*>(p);
    s.prefixes = s.aggregates + tiles * words;
    s.flags = reinterpret_cast<unsigned*>(s.prefixes + tiles * words);
    return s;
  }
  __device__ void publish(u64 tile, status st, const T& v) const {
    unsigned long long w[words];
    memcpy(w, &v, sizeof(T));
    unsigned long long* slot = (st == aggregate ? aggregates : prefixes) + tile * words;
#pragma unroll
    for (unsigned k = 0; k < words; ++k)
      cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(slot[k]).store(w[k], cuda::memory_order_relaxed);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(flags[tile]).fetch_or(st, cuda::memory_order_release);
  }
  __device__ status peek(u64 tile, T& v) const {
    const unsigned st = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(flags[tile]).load(cuda::memory_order_acquire);
    if (st == invalid) return invalid;
    const status best = (st & prefix) ? prefix : aggregate;
    const unsigned long long* slot = (best == aggregate ? aggregates : prefixes) + tile * words;
    unsigned long long w[words];
#pragma unroll
    for (unsigned k = 0; k < words; ++k)
      w[k] = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(const_cast<unsigned long long&>(slot[k])).load(cuda::memory_order_relaxed);
    memcpy(&v, w, sizeof(T));
    return best;
  }
};

// Counts (compaction and partition): a count and its status in one relaxed 64-bit word, so even 64-bit
// positions cost one access per predecessor: 62 bits of count where the states were zeroed (epoch 0), else
// the epoch in bits 2..25 and 38 bits of count (launch_states keeps states only below 2^38 elements).
struct count_state {
  using value_type = unsigned long long;
  static constexpr u64 kept_limit = u64{1} << 38;  // counts (and n) below this may take kept states
  unsigned long long* words;
  unsigned epoch;

  static std::size_t bytes(u64 tiles) { return tiles * 8; }
  static count_state at(void* p, u64, unsigned epoch = 0) { return {static_cast<unsigned long long*>(p), epoch}; }

  __device__ void publish(u64 tile, status st, unsigned long long v) const {
    const unsigned long long w = epoch ? v << 26 | epoch << 2 | st : v << 2 | st;
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile]).store(w, cuda::memory_order_relaxed);
  }
  // `tile`'s word, loaded and left undecoded (as tile_state::word), and what it says.
  __device__ unsigned long long word(u64 tile) const {
    return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[tile]).load(cuda::memory_order_relaxed);
  }
  __device__ status decode(unsigned long long x, unsigned long long& v) const {
    if (epoch == 0) return v = x >> 2, static_cast<status>(x & 3u);
    v = x >> 26;
    return (static_cast<unsigned>(x) >> 2 & epoch_mask) == epoch ? static_cast<status>(x & 3u) : invalid;
  }
  __device__ unsigned long long none_word() const { return epoch ? epoch << 2 | prefix : prefix; }  // decodes as a prefix of 0
  __device__ status peek(u64 tile, unsigned long long& v) const { return decode(word(tile), v); }
};

// The scratch of one look-back launch: [0, 8) two tile counters, [8, 16) the caller's (zero where epoch()
// is 0, else as the stream's last call left it), then `state_bytes` of tile states from byte 16. Where `keep`
// (packed states only: every word written there is a state word with its epoch in bits 2..25) and the
// stream's kept buffer is free, the states stay from call to call and this call's epoch tells its own apart:
// nothing is zeroed. Else pool memory, zeroed in stream order, epoch 0. counter() starts at zero; every
// kernel launched on these states must zero spare_counter() once (the block that draws ticket 0, or block 0
// where nothing is counted): it is the next call's counter (the counters alternate with the epoch's parity;
// the last call on the stream, which used spare_counter(), is done before this one starts).
class launch_states {
 public:
  launch_states() = default;
  launch_states(std::size_t state_bytes, bool keep, cudaStream_t s, const char* fn) {
    const std::size_t bytes = 16 + state_bytes;
    if (keep) {
      mem_ = scratch(bytes, s, fn, &epoch_);
    } else {
      mem_ = scratch(bytes, s, fn);
    }
    if (epoch_ == 0) check_cuda(cudaMemsetAsync(mem_.as<void>(), 0, bytes, s), fn, "cudaMemsetAsync");
  }
  // A call that took the stream's kept states and launches nothing on them (its launch refused, or an
  // exception on the way) has not zeroed the next call's counter: the stream's buffer is then zeroed again
  // when it is next lent (src/runtime.cpp). The destructor does this during stack unwinding.
  void unused() noexcept {
    if (epoch_ && mem_.as<void>()) kept_states_spoil(mem_.as<void>());
  }
  ~launch_states() {
    if (std::uncaught_exceptions() > exceptions_) unused();
  }
  launch_states(launch_states&&) noexcept = default;
  launch_states& operator=(launch_states&&) noexcept = default;

  unsigned epoch() const { return epoch_; }
  unsigned* counter() const { return mem_.as<unsigned>() ? mem_.as<unsigned>() + (epoch_ & 1u) : nullptr; }
  unsigned* spare_counter() const { return mem_.as<unsigned>() ? mem_.as<unsigned>() + (~epoch_ & 1u) : nullptr; }
  char* callers() const { return mem_.as<char>() + 8; }
  void* states() const { return mem_.as<char>() + 16; }

 private:
  scratch mem_;
  unsigned epoch_ = 0;
  int exceptions_ = std::uncaught_exceptions();
};

// A block's tile number, drawn by one thread: the next ticket of `counter` (launch_states::counter()), or the
// block's index where there is none (one tile); the drawer of ticket 0 zeroes spare_counter(), the next call's.
// mask: the counter's bits that count tickets, where a kernel counts something else in the others.
__device__ inline unsigned draw_tile(unsigned* counter, unsigned* spare_counter, unsigned mask = ~0u) {
  const unsigned tile = counter ? atomicAdd(counter, 1u) & mask : blockIdx.x;
  if (tile == 0 && spare_counter) *spare_counter = 0;
  return tile;
}

// The look-back's tunables: predecessors read per lane and round (window = 32 x per_lane), and how long a
// warp sleeps between polls of tiles that have not published (0: spin). Measured in docs/design/lookback.md.
struct tuning {
  static constexpr unsigned per_lane = 1;
  static constexpr unsigned sleep_ns = 0;
  static constexpr unsigned min_blocks = 4;  // __launch_bounds__ residency of the kernels that look back (measured best of 1, 3, 4, 5)
};

// v of the lane `offset` above (as __shfl_down_sync), for any trivially copyable value (a pair of counts, say).
template <class T>
__device__ inline T shuffle_down(const T& v, unsigned offset) {
  if constexpr (std::is_arithmetic_v<T>)
    return __shfl_down_sync(0xffffffffu, v, offset);
  else
    return cub::ShuffleDown<32>(v, static_cast<int>(offset), 31, 0xffffffffu);
}

// Called by one whole warp of tile `tile` (> 0) after lane 0 published the tile's aggregate: the
// combination, in order, of every element before the tile. Valid in lane 0.
template <class Tuning = tuning, class State, class Op>
__device__ auto exclusive_prefix(const State& state, u64 tile, Op op) {
  using T = typename State::value_type;
  constexpr unsigned K = Tuning::per_lane;
  const long long lane = threadIdx.x & 31u;
  T acc{};
  bool have = false;
  for (long long window = static_cast<long long>(tile) - 1;; window -= 32 * K) {
    // Lane l reads tiles window - l K - k (k = 0 the nearest), all K loads in flight. Lanes before tile 0
    // never count: tile 0 always holds a prefix.
    T v[K] = {};
    status st[K];
#pragma unroll
    for (unsigned k = 0; k < K; ++k) {
      const long long t = window - lane * K - k;
      st[k] = t >= 0 ? state.peek(static_cast<u64>(t), v[k]) : prefix;
    }
    // Wait only for what the answer needs: every tile nearer than the nearest prefix of the window (all of
    // the window when it holds none). Farther stragglers do not hold the tile up.
    bool has_prefix, found;
    unsigned nearest;
    for (;;) {
      has_prefix = false;
      bool ready = true;  // this lane's tiles are published up to its nearest prefix (or all of them)
#pragma unroll
      for (unsigned k = 0; k < K; ++k) {
        if (!has_prefix && st[k] == invalid) ready = false;
        if (st[k] == prefix) has_prefix = true;
      }
      const unsigned prefixes = __ballot_sync(0xffffffffu, has_prefix), readies = __ballot_sync(0xffffffffu, ready);
      found = prefixes != 0;
      nearest = found ? __ffs(prefixes) - 1 : 31u;
      const unsigned needed = nearest == 31 ? 0xffffffffu : (2u << nearest) - 1;
      if ((readies & needed) == needed) break;
      if constexpr (Tuning::sleep_ns > 0) __nanosleep(Tuning::sleep_ns);
#pragma unroll
      for (unsigned k = 0; k < K; ++k)
        if (st[k] == invalid) st[k] = state.peek(static_cast<u64>(window - lane * K - k), v[k]);
    }
    // The lane's part, far to near, from its nearest prefix on.
    T part = v[K - 1];
#pragma unroll
    for (int k = static_cast<int>(K) - 2; k >= 0; --k) part = st[k] == prefix ? v[k] : op(part, v[k]);
    const unsigned count = nearest + 1;  // lanes [0, count) take part, far to near
    // Reduce lanes [0, count), the farther range on the left of op (any associative op).
    for (unsigned offset = 1; offset < 32; offset *= 2) {
      const T other = shuffle_down(part, offset);
      if (lane + offset < count) part = op(other, part);
    }
    acc = have ? op(part, acc) : part;
    have = true;
    if (found) return acc;
  }
}

// Lanes [0, lanes) of the calling warp combined left to right (any associative op) by one binary tree that
// `lanes` alone fixes, so floating-point results repeat; valid in lane 0. Every lane of the warp calls it.
template <class T, class Op>
__device__ T ordered_warp_reduce(T part, unsigned lanes, Op op) {
  const unsigned lane = threadIdx.x & 31u;
  for (unsigned offset = 1; offset < 32; offset *= 2) {
    const T other = shuffle_down(part, offset);
    if (lane % (2 * offset) == 0 && lane + offset < lanes) part = op(part, other);
  }
  return part;
}

// The anchored look-back: the same protocol with the combination's order fixed by the tile numbers alone, so
// that a floating-point scan repeats bit for bit from run to run (exclusive_prefix above combines a tile with
// whichever predecessor's prefix it meets first, which timing decides). Every Anchor-th tile (0, A, 2A, ...)
// is an anchor: it publishes only its inclusive prefix, incl(a) = incl(a - A) + agg(a - A + 1) + ... + agg(a);
// every other tile publishes only its aggregate. Tile t > 0 waits for incl(a), a = A floor((t - 1) / A), and for
// the aggregates of a + 1 .. t - 1 (fewer than A, all read at once, Anchor / 32 a lane), and combines them in
// one tree fixed by t - a. The anchors' prefixes form a chain, one hop per A tiles (4 MiB of u32 at A = 128,
// about a microsecond a hop: ahead of the memory's pace); a tile below them waits for no other prefix.
template <unsigned Anchor>
__host__ __device__ constexpr bool is_anchor(u64 tile) {
  return tile % Anchor == 0;
}

// Called by one whole warp of tile `tile` (> 0): the combination, in order, of every element before the tile
// (valid in lane 0), from its anchor's inclusive prefix and the aggregates after it.
template <unsigned Anchor, class State, class Op>
__device__ auto anchored_exclusive_prefix(const State& state, u64 tile, Op op) {
  using T = typename State::value_type;
  static_assert(Anchor % 32 == 0 && Anchor / 32 <= 32, "whole lanes of the window");
  constexpr unsigned K = Anchor / 32;
  const unsigned lane = threadIdx.x & 31u;
  const u64 anchor = (tile - 1) / Anchor * Anchor, count = tile - anchor;  // positions [0, count): the anchor, then aggregates
  // Lane l reads positions l K .. l K + K - 1 (position p is tile anchor + p), all its loads in flight; bit k of
  // `waiting`: position l K + k not yet as wanted (the anchor: a prefix; after it: published at all).
  const u64 first = u64{lane} * K;
  T v[K] = {};
  unsigned waiting = 0;
#pragma unroll
  for (unsigned k = 0; k < K; ++k)
    if (first + k < count) {
      const status st = state.peek(anchor + first + k, v[k]);
      waiting |= static_cast<unsigned>(st == invalid || (first + k == 0 && st != prefix)) << k;
    }
  while (__any_sync(0xffffffffu, waiting != 0)) {
#pragma unroll
    for (unsigned k = 0; k < K; ++k)
      if (waiting >> k & 1u) {
        const status st = state.peek(anchor + first + k, v[k]);
        if (st != invalid && (first + k != 0 || st == prefix)) waiting &= ~(1u << k);
      }
  }
  // The lane's positions left to right, then lanes [0, lanes) left to right by a tree fixed by `count`.
  T part = v[0];
#pragma unroll
  for (unsigned k = 1; k < K; ++k)
    if (first + k < count) part = op(part, v[k]);
  return ordered_warp_reduce(part, static_cast<unsigned>((count + K - 1) / K), op);
}

// Per-digit counts (radix sort, Onesweep): one 32-bit word per (tile, digit), a 30-bit count under the
// 2-bit status, so a tile's whole histogram is 1 KiB and one relaxed access per predecessor and digit.
// Counts are relative to the launch, which therefore covers fewer than 2^30 elements.
struct digit_state {
  static constexpr unsigned count_bits = 30, count_mask = (1u << count_bits) - 1;
  unsigned* words;  // [tiles][digits]
  unsigned digits;

  __device__ void publish(u64 tile, unsigned digit, status st, unsigned count) const {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(words[tile * digits + digit]).store(st << count_bits | count, cuda::memory_order_relaxed);
  }
  __device__ status peek(u64 tile, unsigned digit, unsigned& count) const {
    const unsigned x = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(words[tile * digits + digit]).load(cuda::memory_order_relaxed);
    count = x & count_mask;
    return static_cast<status>(x >> count_bits);
  }
};

// Called by the one thread of tile `tile` (> 0) that owns `digit`, after the tile published its aggregate:
// how many elements of that digit the tiles before it hold. Reads `Window` predecessors at a time, all
// loads in flight (the digits of a warp read side by side: coalesced), waits only for those nearer than
// the nearest prefix (sleeping SleepNs between polls), and goes on to the next window while it finds none.
template <unsigned Window, unsigned SleepNs>
__device__ unsigned digit_exclusive_prefix(const digit_state& state, u64 tile, unsigned digit) {
  unsigned acc = 0;
  for (long long first = static_cast<long long>(tile) - 1;; first -= Window) {
    unsigned c[Window];
    status st[Window];
#pragma unroll
    for (unsigned k = 0; k < Window; ++k) {  // k = 0 the nearest; before tile 0 nothing (tile 0 holds a prefix)
      c[k] = 0;
      st[k] = first - static_cast<long long>(k) >= 0 ? state.peek(static_cast<u64>(first - k), digit, c[k]) : prefix;
    }
    for (;;) {
      bool ready = true;
#pragma unroll
      for (unsigned k = 0; k < Window; ++k) {
        if (st[k] == invalid) ready = false;
        if (st[k] != aggregate) break;  // a prefix (or the first unpublished tile) ends what is needed
      }
      if (ready) break;
      if constexpr (SleepNs > 0) __nanosleep(SleepNs);
#pragma unroll
      for (unsigned k = 0; k < Window; ++k)
        if (st[k] == invalid) st[k] = state.peek(static_cast<u64>(first - k), digit, c[k]);
    }
#pragma unroll
    for (unsigned k = 0; k < Window; ++k) {
      acc += c[k];
      if (st[k] == prefix) return acc;
    }
  }
}

}  // namespace sluice::cuda_backend::lookback
