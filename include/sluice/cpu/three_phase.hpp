// Billeter et al. 2009, Sec. 3 on P cores: count (each processor reduces its block), prefix, move (each
// block written from its prefix). The stream is cut into blocks of `block` elements, dealt to the P threads in
// turn, so that every block is still in its core's cache when it moves: one read from memory per element.
// The prefix is chained from block to block (each block publishes its inclusive prefix as soon as it has
// counted, before it moves) instead of a barrier per round of P blocks: a thread reads its next block from
// memory while its neighbour writes, and no thread waits for the slowest of a round.
#pragma once
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "sluice/cpu/backend.hpp"

namespace sluice::cpu {

namespace detail_three_phase {
inline void relax(unsigned& spins) {
  if (++spins < 2048) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  } else {
    std::this_thread::yield();  // more threads than cores: let the one we wait for run
  }
}
}  // namespace detail_three_phase

// reduce(b, e) -> V: the aggregate of [b, e).
// move(b, e, before, self, next): write [b, e) given `before`, the aggregate of init and [0, b) (nullptr when
// there is neither), and `self`, the block's own aggregate from reduce; `next` is where this thread's next
// block starts (n: none), for the move to prefetch while it writes, so that the next count reads from cache
// and a core's reads and writes overlap.
// Prefixes are combined block by block, left to right, whatever P is: a floating-point result depends on
// `block` only.
template <class V, class Op, class Reduce, class Move>
void three_phase(int threads, std::uint64_t n, std::uint64_t block, const V* init, Op op, Reduce reduce, Move move) {
  if (n == 0) return;
  const std::uint64_t blocks = (n + block - 1) / block;
  const int P = static_cast<int>(blocks < static_cast<std::uint64_t>(threads) ? blocks : threads);
  struct slot {
    std::atomic<bool> ready{false};
    std::optional<V> inclusive;  // init and blocks [0, b]
  };
  struct shared_t {
    std::uint64_t n, block, blocks;
    const V* init;
    Op* op;
    Reduce* reduce;
    Move* move;
    std::unique_ptr<slot[]> slots;
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::atomic_flag error_taken = ATOMIC_FLAG_INIT;
    void fail() noexcept {
      if (!error_taken.test_and_set()) error = std::current_exception();
      failed.store(true, std::memory_order_release);
    }
  } s{n, block, blocks, init, &op, &reduce, &move, std::make_unique<slot[]>(blocks), {}, {}};

  cpu_backend::run_parallel(P, [](void* ctx, int t, int nt) {
    auto& s = *static_cast<shared_t*>(ctx);
    for (std::uint64_t blk = t; blk < s.blocks; blk += nt) {
      if (s.failed.load(std::memory_order_acquire)) return;
      const std::uint64_t b = blk * s.block, e = b + s.block < s.n ? b + s.block : s.n;
      try {
        const V self = (*s.reduce)(b, e);  // count
        std::optional<V> before;           // prefix: wait for the block before
        if (blk == 0) {
          if (s.init) before = *s.init;
        } else {
          unsigned spins = 0;
          while (!s.slots[blk - 1].ready.load(std::memory_order_acquire)) {
            if (s.failed.load(std::memory_order_acquire)) return;
            detail_three_phase::relax(spins);
          }
          before = s.slots[blk - 1].inclusive;
        }
        s.slots[blk].inclusive = before ? (*s.op)(*before, self) : self;
        s.slots[blk].ready.store(true, std::memory_order_release);
        const std::uint64_t next = (blk + nt) * s.block < s.n ? (blk + nt) * s.block : s.n;
        (*s.move)(b, e, before ? &*before : nullptr, self, next);  // move
      } catch (...) {
        s.fail();
        return;
      }
    }
  }, &s);
  if (s.error) std::rethrow_exception(s.error);
}

// The blocks' aggregates, combined left to right (the reduce of Billeter's count phase on its own).
template <class V, class Op, class Reduce>
std::optional<V> blocked_reduce(int threads, std::uint64_t n, std::uint64_t block, Op op, Reduce reduce) {
  if (n == 0) return std::nullopt;
  const std::uint64_t blocks = (n + block - 1) / block;
  const int P = static_cast<int>(blocks < static_cast<std::uint64_t>(threads) ? blocks : threads);
  struct shared_t {
    std::uint64_t n, block, blocks;
    Reduce* reduce;
    std::vector<std::optional<V>> part;
    std::exception_ptr error;
    std::atomic_flag error_taken = ATOMIC_FLAG_INIT;
  } s{n, block, blocks, &reduce, std::vector<std::optional<V>>(blocks), {}};
  cpu_backend::run_parallel(P, [](void* ctx, int t, int nt) {
    auto& s = *static_cast<shared_t*>(ctx);
    // A contiguous run of blocks per thread: each thread streams through its own part of memory.
    const std::uint64_t first = s.blocks * t / nt, last = s.blocks * (t + 1) / nt;
    for (std::uint64_t blk = first; blk < last; ++blk) {
      const std::uint64_t b = blk * s.block, e = b + s.block < s.n ? b + s.block : s.n;
      try {
        s.part[blk] = (*s.reduce)(b, e);
      } catch (...) {
        if (!s.error_taken.test_and_set()) s.error = std::current_exception();
        return;
      }
    }
  }, &s);
  if (s.error) std::rethrow_exception(s.error);
  std::optional<V> acc = std::move(s.part[0]);
  for (std::uint64_t i = 1; i < blocks; ++i) acc = op(*acc, *s.part[i]);
  return acc;
}

}  // namespace sluice::cpu
