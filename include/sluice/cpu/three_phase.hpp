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

// The first exception any thread throws, kept for the caller; the other threads see `stopped()` and return.
struct first_error {
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::atomic_flag taken = ATOMIC_FLAG_INIT;
  void fail() noexcept {  // from a catch block
    if (!taken.test_and_set()) error = std::current_exception();
    failed.store(true, std::memory_order_release);
  }
  bool stopped() const noexcept { return failed.load(std::memory_order_acquire); }
  void rethrow() const {
    if (error) std::rethrow_exception(error);
  }
};

inline std::uint64_t block_count(std::uint64_t n, std::uint64_t block) { return (n + block - 1) / block; }
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
  const std::uint64_t blocks = detail_three_phase::block_count(n, block);
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
    detail_three_phase::first_error errors;
  } s{n, block, blocks, init, &op, &reduce, &move, std::make_unique<slot[]>(blocks), {}};

  cpu_backend::run_parallel(P, [](void* ctx, int t, int nt) {
    auto& s = *static_cast<shared_t*>(ctx);
    for (std::uint64_t blk = t; blk < s.blocks; blk += nt) {
      if (s.errors.stopped()) return;
      const std::uint64_t b = blk * s.block, e = b + s.block < s.n ? b + s.block : s.n;
      try {
        const V self = (*s.reduce)(b, e);  // count
        std::optional<V> before;           // prefix: wait for the block before
        if (blk == 0) {
          if (s.init) before = *s.init;
        } else {
          unsigned spins = 0;
          while (!s.slots[blk - 1].ready.load(std::memory_order_acquire)) {
            if (s.errors.stopped()) return;
            detail_three_phase::relax(spins);
          }
          before = s.slots[blk - 1].inclusive;
        }
        s.slots[blk].inclusive = before ? (*s.op)(*before, self) : self;
        s.slots[blk].ready.store(true, std::memory_order_release);
        const std::uint64_t next = (blk + nt) * s.block < s.n ? (blk + nt) * s.block : s.n;
        (*s.move)(b, e, before ? &*before : nullptr, self, next);  // move
      } catch (...) {
        s.errors.fail();
        return;
      }
    }
  }, &s);
  s.errors.rethrow();
}

// each(blk, b, e, next) for every block [b, e), the threads taking contiguous runs of blocks so that each
// streams through its own part of memory; `next` is where the thread's next block starts (n: none), for a
// move to prefetch while it writes. The first exception thrown stops the threads and reaches the caller.
template <class Each>
void blocked_each(int threads, std::uint64_t n, std::uint64_t block, Each each) {
  if (n == 0) return;
  const std::uint64_t blocks = detail_three_phase::block_count(n, block);
  const int P = static_cast<int>(blocks < static_cast<std::uint64_t>(threads) ? blocks : threads);
  struct shared_t {
    std::uint64_t n, block, blocks;
    Each* each;
    detail_three_phase::first_error errors;
  } s{n, block, blocks, &each, {}};
  cpu_backend::run_parallel(P, [](void* ctx, int t, int nt) {
    auto& s = *static_cast<shared_t*>(ctx);
    const std::uint64_t first = s.blocks * t / nt, last = s.blocks * (t + 1) / nt;
    for (std::uint64_t blk = first; blk < last; ++blk) {
      if (s.errors.stopped()) return;
      const std::uint64_t b = blk * s.block, e = b + s.block < s.n ? b + s.block : s.n;
      try {
        (*s.each)(blk, b, e, blk + 1 < last ? e : s.n);
      } catch (...) {
        s.errors.fail();
        return;
      }
    }
  }, &s);
  s.errors.rethrow();
}

// The blocks' aggregates, in block order (the count phase of Billeter Sec. 3 on its own).
template <class V, class Reduce>
std::vector<V> blocked_values(int threads, std::uint64_t n, std::uint64_t block, Reduce reduce) {
  std::vector<std::optional<V>> part(detail_three_phase::block_count(n, block));
  blocked_each(threads, n, block, [&](std::uint64_t blk, std::uint64_t b, std::uint64_t e, std::uint64_t) { part[blk] = reduce(b, e); });
  std::vector<V> values;
  values.reserve(part.size());
  for (auto& v : part) values.push_back(std::move(*v));
  return values;
}

// The blocks' aggregates, combined left to right (the reduce of Billeter's count phase on its own).
template <class V, class Op, class Reduce>
std::optional<V> blocked_reduce(int threads, std::uint64_t n, std::uint64_t block, Op op, Reduce reduce) {
  std::vector<V> part = blocked_values<V>(threads, n, block, reduce);
  if (part.empty()) return std::nullopt;
  std::optional<V> acc = std::move(part[0]);
  for (std::size_t i = 1; i < part.size(); ++i) acc = op(*acc, part[i]);
  return acc;
}

}  // namespace sluice::cpu
