// Billeter et al. 2009, Sec. 3 on P cores: count (each processor reduces its block), prefix, move (each
// block written from its prefix). The stream is cut into blocks of `block` elements that the threads claim in
// order from a shared counter, so that every block is still in its core's cache when it moves: one read from
// memory per element.
//
// The prefix: a block publishes its aggregate as soon as it has counted, then looks back over the blocks
// before it (the GPU's decoupled look-back, Merrill and Garland 2016, on cores): it folds their aggregates
// until it meets a published inclusive prefix, publishes its own and moves. A machine is rarely ours alone:
// a predecessor whose thread the scheduler has taken off its core may not have counted yet. Its block's input
// is there to read, so after a short wait (about one of its own block's cycles) the thread counts that block
// itself instead of waiting a scheduler time slice for it, and publishes the result for the blocks after it.
// No thread ever waits on another for long; the only wait left is the end of the call, for the blocks the
// threads hold.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "sluice/cpu/backend.hpp"

namespace sluice::cpu {

namespace detail_three_phase {
inline void pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
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

inline std::int64_t now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A block's published state. The aggregate is written by its own thread or by one that counted the block for it,
// whichever claims `aggregate_state` first (0: none, 1: being written, 2: there); the inclusive prefix only by
// its own thread.
template <class V>
struct slot {
  std::atomic<int> aggregate_state{0};
  std::atomic<bool> has_inclusive{false};
  std::optional<V> aggregate, inclusive;
  void publish_aggregate(const V& v) {
    int none = 0;
    if (!aggregate_state.compare_exchange_strong(none, 1, std::memory_order_acq_rel)) return;  // someone else's
    aggregate = v;
    aggregate_state.store(2, std::memory_order_release);
  }
};
}  // namespace detail_three_phase

// reduce(b, e) -> V: the aggregate of [b, e); it must only read (it may run for a block another thread owns).
// move(b, e, before, self, next): write [b, e) given `before`, the aggregate of init and [0, b) (nullptr when
// there is neither), and `self`, the block's own aggregate from reduce; `next` is where this thread's next
// block starts (n: none), for the move to prefetch while it writes, so that the next count reads from cache
// and a core's reads and writes overlap.
// Prefixes are folded block by block, left to right, whatever P is and whoever counts a block: a
// floating-point result depends on `block` only. In place (move writing the input) is allowed: a count made for
// another thread's block is used only if that block had published nothing, and so had not begun to move, by
// the time the count ended.
template <class V, class Op, class Reduce, class Move>
void three_phase(int threads, std::uint64_t n, std::uint64_t block, const V* init, Op op, Reduce reduce, Move move) {
  using detail_three_phase::now_ns;
  if (n == 0) return;
  const std::uint64_t blocks = detail_three_phase::block_count(n, block);
  const int P = static_cast<int>(blocks < static_cast<std::uint64_t>(threads) ? blocks : threads);
  struct shared_t {
    std::uint64_t n, block, blocks;
    const V* init;
    Op* op;
    Reduce* reduce;
    Move* move;
    std::unique_ptr<detail_three_phase::slot<V>[]> slots;
    std::atomic<std::uint64_t> claimed{0};
    detail_three_phase::first_error errors;
  } s{n, block, blocks, init, &op, &reduce, &move, std::make_unique<detail_three_phase::slot<V>[]>(blocks), {}, {}};

  cpu_backend::run_parallel(P, [](void* ctx, int, int) {
    auto& s = *static_cast<shared_t*>(ctx);
    auto bounds = [&](std::uint64_t blk) { return std::pair{blk * s.block, blk * s.block + s.block < s.n ? blk * s.block + s.block : s.n}; };
    std::vector<V> folded;  // the aggregates met by a look-back, nearest first
    std::int64_t cycle = 0;  // this thread's last block, count to move, in ns: how long a look-back waits
    std::uint64_t blk = s.claimed.fetch_add(1, std::memory_order_relaxed);
    while (blk < s.blocks) {
      if (s.errors.stopped()) return;
      const auto [b, e] = bounds(blk);
      try {
        const std::int64_t start = now_ns();
        const V self = (*s.reduce)(b, e);  // count
        std::optional<V> before;           // prefix: look back
        // Every block, block 0 too, publishes its aggregate before it can move: a count made for it by another
        // thread is trusted only while none is published (in place, a published block may be moving).
        s.slots[blk].publish_aggregate(self);
        if (blk > 0) {
          folded.clear();
          std::uint64_t j = blk - 1;
          for (;;) {
            auto& p = s.slots[j];
            const std::int64_t until = now_ns() + (cycle > 0 ? cycle : now_ns() - start) + 1000;
            for (unsigned spins = 0; !p.has_inclusive.load(std::memory_order_acquire) && p.aggregate_state.load(std::memory_order_acquire) != 2;) {
              if (s.errors.stopped()) return;
              if ((++spins & 63) == 0 && now_ns() > until) break;
              detail_three_phase::pause();
            }
            if (p.has_inclusive.load(std::memory_order_acquire)) {
              before = *p.inclusive;
              break;
            }
            if (p.aggregate_state.load(std::memory_order_acquire) == 2) {
              folded.push_back(*p.aggregate);
            } else {  // its thread is off its core: count the block here
              const auto [pb, pe] = bounds(j);
              V mine = (*s.reduce)(pb, pe);
              std::atomic_thread_fence(std::memory_order_acquire);  // the count's reads before the check below
              if (p.aggregate_state.load(std::memory_order_acquire) == 0) {  // its owner had not counted: nor moved
                p.publish_aggregate(mine);
                folded.push_back(std::move(mine));
              } else {  // published meanwhile (in place, the block may be moving): take that
                for (unsigned spins = 0; p.aggregate_state.load(std::memory_order_acquire) != 2;)
                  if (++spins < 1024) detail_three_phase::pause();
                  else std::this_thread::yield();
                folded.push_back(*p.aggregate);
              }
            }
            if (j == 0) {
              if (s.init) before = *s.init;
              break;
            }
            --j;
          }
          for (std::size_t k = folded.size(); k-- > 0;) before = before ? (*s.op)(*before, folded[k]) : folded[k];
        } else if (s.init) {
          before = *s.init;
        }
        s.slots[blk].inclusive = before ? (*s.op)(*before, self) : self;
        s.slots[blk].has_inclusive.store(true, std::memory_order_release);
        std::atomic_thread_fence(std::memory_order_release);  // published before the move writes (in place)
        const std::uint64_t next = s.claimed.fetch_add(1, std::memory_order_relaxed);
        (*s.move)(b, e, before ? &*before : nullptr, self, next < s.blocks ? next * s.block : s.n);  // move
        cycle = now_ns() - start;
        blk = next;
      } catch (...) {
        s.errors.fail();
        return;
      }
    }
  }, &s);
  s.errors.rethrow();
}

// each(blk, b, e, next) for every block [b, e), claimed in order from a shared counter (a thread the scheduler
// takes off its core holds at most two blocks); `next` is where the thread's next block starts (n: none), for a
// move to prefetch while it writes. The first exception thrown stops the threads and reaches the caller.
template <class Each>
void blocked_each(int threads, std::uint64_t n, std::uint64_t block, Each each) {
  if (n == 0) return;
  const std::uint64_t blocks = detail_three_phase::block_count(n, block);
  const int P = static_cast<int>(blocks < static_cast<std::uint64_t>(threads) ? blocks : threads);
  struct shared_t {
    std::uint64_t n, block, blocks;
    Each* each;
    std::atomic<std::uint64_t> claimed{0};
    detail_three_phase::first_error errors;
  } s{n, block, blocks, &each, {}, {}};
  cpu_backend::run_parallel(P, [](void* ctx, int, int) {
    auto& s = *static_cast<shared_t*>(ctx);
    std::uint64_t blk = s.claimed.fetch_add(1, std::memory_order_relaxed);
    while (blk < s.blocks) {
      if (s.errors.stopped()) return;
      const std::uint64_t b = blk * s.block, e = b + s.block < s.n ? b + s.block : s.n;
      const std::uint64_t next = s.claimed.fetch_add(1, std::memory_order_relaxed);
      try {
        (*s.each)(blk, b, e, next < s.blocks ? next * s.block : s.n);
      } catch (...) {
        s.errors.fail();
        return;
      }
      blk = next;
    }
  }, &s);
  s.errors.rethrow();
}

// The blocks' aggregates, in block order (the count phase of Billeter Sec. 3 on its own). reduce must only
// read: a thread that finds no block left to claim counts the blocks still in flight whose thread has not
// published after about two of its own block times (the scheduler took it off its core), so the call does not
// wait a time slice for it; whoever publishes a block's value first wins, and every count of it is the same.
template <class V, class Reduce>
std::vector<V> blocked_values(int threads, std::uint64_t n, std::uint64_t block, Reduce reduce) {
  using detail_three_phase::now_ns;
  const std::uint64_t blocks = detail_three_phase::block_count(n, block);
  if (blocks == 0) return {};
  const int P = static_cast<int>(blocks < static_cast<std::uint64_t>(threads) ? blocks : threads);
  struct shared_t {
    std::uint64_t n, block, blocks;
    Reduce* reduce;
    std::unique_ptr<detail_three_phase::slot<V>[]> slots;
    std::atomic<std::uint64_t> claimed{0};
    detail_three_phase::first_error errors;
  } s{n, block, blocks, &reduce, std::make_unique<detail_three_phase::slot<V>[]>(blocks), {}, {}};
  cpu_backend::run_parallel(P, [](void* ctx, int, int) {
    auto& s = *static_cast<shared_t*>(ctx);
    auto count = [&](std::uint64_t blk) {
      const std::uint64_t b = blk * s.block, e = b + s.block < s.n ? b + s.block : s.n;
      s.slots[blk].publish_aggregate((*s.reduce)(b, e));
    };
    std::int64_t cycle = 0;
    try {
      for (std::uint64_t blk = s.claimed.fetch_add(1, std::memory_order_relaxed); blk < s.blocks;
           blk = s.claimed.fetch_add(1, std::memory_order_relaxed)) {
        if (s.errors.stopped()) return;
        const std::int64_t start = now_ns();
        count(blk);
        cycle = now_ns() - start;
      }
      for (std::uint64_t blk = 0; blk < s.blocks; ++blk) {  // the blocks still in flight
        const std::int64_t until = now_ns() + 2 * cycle + 5000;
        for (unsigned spins = 0; s.slots[blk].aggregate_state.load(std::memory_order_acquire) == 0;) {
          if (s.errors.stopped()) return;
          if ((++spins & 63) == 0 && now_ns() > until) {
            count(blk);
            break;
          }
          detail_three_phase::pause();
        }
      }
    } catch (...) {
      s.errors.fail();
    }
  }, &s);
  s.errors.rethrow();
  std::vector<V> values;
  values.reserve(blocks);
  for (std::uint64_t blk = 0; blk < blocks; ++blk) {  // being written (state 1) only by a thread that has returned now
    values.push_back(std::move(*s.slots[blk].aggregate));
  }
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
