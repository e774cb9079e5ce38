// Billeter et al. 2009, Sec. 3 on P cores: count (each processor reduces its block), prefix over P, move
// (each block written from its prefix). The stream is cut into blocks of `block` elements and processed in
// rounds of P blocks, so that every block is still in its core's cache when it moves: one read from memory
// per element, one barrier per round.
#pragma once
#include <atomic>
#include <cstdint>
#include <exception>
#include <optional>
#include <vector>

#include "sluice/cpu/backend.hpp"

namespace sluice::cpu {

// reduce(b, e) -> V: the aggregate of [b, e).
// move(b, e, before, self): write [b, e) given `before`, the aggregate of init and [0, b) (nullptr when there
// is neither), and `self`, the block's own aggregate from reduce.
// Blocks are combined left to right whatever P is, so a floating-point result depends on `block` only.
template <class V, class Op, class Reduce, class Move>
void three_phase(int threads, std::uint64_t n, std::uint64_t block, const V* init, Op op, Reduce reduce, Move move) {
  if (n == 0) return;
  const std::uint64_t blocks = (n + block - 1) / block;
  const int P = static_cast<int>(blocks < static_cast<std::uint64_t>(threads) ? blocks : threads);
  struct shared_t {
    std::uint64_t n, block, blocks;
    const V* init;
    Op* op;
    Reduce* reduce;
    Move* move;
    std::vector<std::optional<V>> agg;  // [2][P]: double-buffered, so one barrier per round suffices
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::atomic_flag error_taken = ATOMIC_FLAG_INIT;
    void fail() noexcept {
      if (!error_taken.test_and_set()) error = std::current_exception();
      failed.store(true, std::memory_order_relaxed);
    }
  } s{n, block, blocks, init, &op, &reduce, &move, std::vector<std::optional<V>>(2 * static_cast<std::size_t>(P)), {}, {}};

  cpu_backend::run_parallel(P, [](void* ctx, int t, int nt) {
    auto& s = *static_cast<shared_t*>(ctx);
    std::optional<V> running;
    if (s.init) running = *s.init;
    const std::uint64_t rounds = (s.blocks + nt - 1) / nt;
    for (std::uint64_t r = 0; r < rounds; ++r) {
      auto* agg = s.agg.data() + (r & 1) * static_cast<std::uint64_t>(nt);
      const std::uint64_t blk = r * nt + t, b = blk * s.block, e = b + s.block < s.n ? b + s.block : s.n;
      const bool mine = blk < s.blocks;
      if (mine && !s.failed.load(std::memory_order_relaxed)) {  // count
        try {
          agg[t] = (*s.reduce)(b, e);
        } catch (...) {
          s.fail();
        }
      }
      cpu_backend::barrier();
      if (s.failed.load(std::memory_order_relaxed)) continue;  // every thread still meets every barrier
      std::optional<V> before = running;  // prefix over P, left to right
      for (int u = 0; u < nt && r * nt + u < s.blocks; ++u) {
        if (u == t) before = running;
        running = running ? (*s.op)(*running, *agg[u]) : *agg[u];
      }
      if (mine) {  // move
        try {
          (*s.move)(b, e, before ? &*before : nullptr, *agg[t]);
        } catch (...) {
          s.fail();
        }
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
    for (std::uint64_t blk = t; blk < s.blocks; blk += nt) {
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
