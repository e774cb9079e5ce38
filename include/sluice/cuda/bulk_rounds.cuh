// The round schedule that the pipelined scan (scan/pipelined.cuh) and the pipelined compact
// (compact/pipelined.cuh) share (Hopper and later). A persistent grid: block b of G takes tiles b,
// b + G, b + 2G, ..., one per round. Tiles arrive by bulk copies (cp.async.bulk) into `Stages` buffers of
// shared memory, each completing on its buffer's mbarrier; buffer round % Stages holds the tile of that
// round. A round works on the newest tile and on the one `Lag` rounds before it, which it stores from its
// buffer by a bulk copy; so at the end of round r, buffer (r - Lag - 1) % Stages, stored from in round
// r - 1, is the one to refill, with the tile of round r + Stages - Lag - 1, once that store has read it.
// One thread of the block, the copier, issues every bulk copy. The kernel owns its buffers' layout: it
// passes `receive(s, t)`, which asks buffer s for tile t through expect() and copy_in().
#pragma once
#include <cuda/ptx>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "sluice/cuda/common.cuh"

namespace sluice::cuda_backend {

// Register copies of any shape (a value, an array, an array of arrays), unrolled.
template <class T>
__device__ __forceinline__ void copy_registers(T& to, const T& from) {
  to = from;
}
template <class T, std::size_t N>
__device__ __forceinline__ void copy_registers(T (&to)[N], const T (&from)[N]) {
#pragma unroll
  for (std::size_t i = 0; i < N; ++i) copy_registers(to[i], from[i]);
}

// What a round with a lag keeps in registers for the tile it stores `Lag` rounds later, in Lag + 1 banks: either
// bank i holds the tile taken i rounds before, the newest in bank 0, and at the end of a round each moves one
// bank older (age: the compact's pipeline for 8-byte elements and flags) ...
template <unsigned Banks, class A>
__device__ __forceinline__ void age(A (&banks)[Banks]) {
#pragma unroll
  for (unsigned i = Banks - 1; i > 0; --i) copy_registers(banks[i], banks[i - 1]);
}

// ... or they stay where they are: round r's newest tile in bank r % (Lag + 1), so the tile it stores, taken Lag
// rounds before, sits in bank (r + 1) % (Lag + 1). step(r, bank) runs round r with its bank as a constant
// (std::integral_constant), Lag + 1 rounds per trip of the loop, so that no register moves from round to round
// (the scan's pipeline, where `age` moved about 60 registers a thread a round; the compact's for 4-byte elements
// by predicate). The loop's code is Lag + 1 times as long: a kernel whose round is long already can outgrow the
// instruction cache (the compact's with a comparison chosen by a switch in every element's test did).
// rotate_rounds<1> is the plain loop, for age.
template <unsigned Banks, class Step>
__device__ __forceinline__ void rotate_rounds(unsigned rounds, Step&& step) {
  for (unsigned r = 0; r < rounds; r += Banks)
    [&]<unsigned... k>(std::integer_sequence<unsigned, k...>) {
      auto one = [&](unsigned round, auto bank) {
        if (round >= rounds) return false;
        step(round, bank);
        return true;
      };
      (one(r + k, std::integral_constant<unsigned, k>{}) && ...);
    }(std::make_integer_sequence<unsigned, Banks>{});
}

template <unsigned Tile, unsigned Stages, unsigned Lag = 1, bool Release = false>
struct bulk_rounds {
  // Release: the caller refills a buffer itself as soon as it has read it (refill() is not used).
  static_assert(Release ? Stages >= 2 : Stages >= Lag + 3, "a buffer arriving besides those a round works on and the one being stored");
  u64 n, tiles;
  std::uint64_t* arrived;  // Stages mbarriers in shared memory, one per buffer

  __device__ bulk_rounds(u64 n_, std::uint64_t* arrived_) : n(n_), tiles(ceil_div(n_, Tile)), arrived(arrived_) {}

  static constexpr u64 none = ~u64{0};  // no tile

  __device__ u64 tile_of(unsigned round) const { return u64{round} * gridDim.x + blockIdx.x; }
  // Whether round r takes a tile (tile_of(r)), and which: none past this block's last.
  __device__ bool takes(unsigned r) const { return tile_of(r) < tiles; }
  __device__ u64 taken(unsigned r) const { return takes(r) ? tile_of(r) : none; }
  // The tile that round r looks back for and stores: the one taken Lag rounds before (none in the first Lag).
  __device__ u64 stored(unsigned r) const { return r >= Lag ? taken(r - Lag) : none; }
  // The rounds this block runs: one per tile it takes, then Lag more to store the last of them (none where it
  // takes no tile).
  __device__ unsigned rounds_of_block() const {
    return takes(0) ? static_cast<unsigned>((tiles - 1 - blockIdx.x) / gridDim.x) + 1 + Lag : 0u;
  }
  __device__ u64 count_of(u64 t) const { return n - t * Tile < Tile ? n - t * Tile : u64{Tile}; }
  // The bytes of tile t's `bytes_per_element` wide elements that bulk copies move: whole 16-byte units.
  __device__ unsigned bulk_bytes(u64 t, unsigned bytes_per_element) const {
    return static_cast<unsigned>(count_of(t) * bytes_per_element) & ~15u;
  }

  // receive(): buffer s is to get `bytes` in all, then each part of them by copy_in().
  __device__ void expect(unsigned s, unsigned bytes) const {
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared, &arrived[s], bytes);
  }
  template <class E>
  __device__ void copy_in(unsigned s, E* to, const E* from, unsigned bytes) const {
    if (bytes) cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, to, from, bytes, &arrived[s]);
  }
  // Copier: stores `bytes` from shared memory to global memory as one bulk group (commit: false leaves the
  // group open, for a round that stores more than one run: it commits them with cp_async_bulk_commit_group).
  template <class E>
  __device__ static void store(E* to, const E* from, unsigned bytes, bool commit = true) {
    cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared, to, from, bytes);
    if (commit) cuda::ptx::cp_async_bulk_commit_group();
  }

  // Whole block: the barriers set up and the first Stages tiles asked for.
  template <class Receive>
  __device__ void start(bool copier, Receive receive) const {
    if (copier) {
      for (unsigned s = 0; s < Stages; ++s) cuda::ptx::mbarrier_init(&arrived[s], 1);
      cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);  // the initialised barriers, seen by the copies
      for (unsigned s = 0; s < Stages; ++s)
        if (takes(s)) receive(s, tile_of(s));
    }
    __syncthreads();
  }
  // Waits until the tile of `round` has arrived in its buffer.
  __device__ void wait(unsigned round) const {
    while (!cuda::ptx::mbarrier_try_wait_parity(&arrived[round % Stages], (round / Stages) & 1u)) {
    }
  }
  // Copier, at the end of `round` (after this round's stores, if any, committed as one group: stored_now):
  // buffer (round - Lag - 1) was last stored from in the round before; once that store has read it, it
  // receives its next tile.
  template <class Receive>
  __device__ void refill(unsigned round, bool stored_now, Receive receive) const {
    if (round < Lag + 1 || !takes(round + Stages - Lag - 1)) return;
    if (stored_now)
      cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<1>{});
    else
      cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
    receive((round - Lag - 1) % Stages, tile_of(round + Stages - Lag - 1));
  }
  // Copier: every store done before the block ends.
  __device__ static void finish() { cuda::ptx::cp_async_bulk_wait_group(cuda::ptx::n32_t<0>{}); }
};

}  // namespace sluice::cuda_backend
