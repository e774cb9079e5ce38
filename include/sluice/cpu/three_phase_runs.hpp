// "three-phase" on the CPU for the runs family: Billeter, Olsson and Assarsson 2009, Sec. 3 (the three phases
// of the CPU compaction, cpu/billeter.hpp), with "element i is valid" read as "element i starts a run":
// head(i) = i == 0 || !(in[i] == in[i - 1]). The stream is cut into cache-sized blocks dealt to P threads
// (cpu/three_phase.hpp); each block's first head test reads one element before the block.
//   1. count: each block counts its run heads;
//   2. prefix: the counts are chained block to block (exclusive prefix over the blocks);
//   3. move: each block writes its heads from its prefix on, while the block is still in cache.
// unique and unique_by_key move the head elements (and their values). run_length_encode and non_trivial_runs
// also need each run's length, which ends where the next head is, possibly blocks later: the prefix carries,
// beside the count, where the last head before the block lies, so the block holding a run's successor (or
// the last block) writes that run's length. non_trivial_runs counts only heads followed by an equal element,
// which reads one element past the block.
// Output order is kept. Bytes moved: the input read once (twice from cache), the outputs written once.
// Not in place: a block writes its heads over input an earlier block may still be reading (dispatch runs
// the serial variant there).
#pragma once
#include <cstdint>
#include <functional>
#include <span>

#include "sluice/cpu/billeter.hpp"
#include "sluice/cpu/three_phase.hpp"

namespace sluice::cpu {

namespace detail_runs {
template <class T>
inline bool is_head(const T* in, std::uint64_t i) {
  return i == 0 || !(in[i] == in[i - 1]);
}

// The prefix of the runs with lengths: how many runs were counted, and the last head seen.
struct carry {
  std::uint64_t count = 0;
  std::uint64_t last_head = 0;  // valid where has_head
  bool has_head = false;
  bool last_counted = false;  // whether the run at last_head is one of the counted
};
struct carry_op {
  carry operator()(const carry& a, const carry& b) const {
    return b.has_head ? carry{a.count + b.count, b.last_head, true, b.last_counted} : carry{a.count + b.count, a.last_head, a.has_head, a.last_counted};
  }
};
}  // namespace detail_runs

// The head elements in order. emit(i, k): head i is the k-th (k < cap). Returns the number of runs.
template <class T, class Emit>
std::uint64_t three_phase_unique(int threads, std::span<const T> in, std::uint64_t cap, Emit emit) {
  const std::uint64_t n = in.size();
  const T* x = in.data();
  std::uint64_t total = 0;
  three_phase<std::uint64_t>(threads_for<T>(threads, n), n, block_elements<T>(), nullptr, std::plus<>{},
      // Phase 1, count: the block's run heads.
      [&](std::uint64_t b, std::uint64_t e) {
        std::uint64_t c = detail_runs::is_head(x, b) ? 1 : 0;
        for (std::uint64_t i = b + 1; i < e; ++i) c += !(x[i] == x[i - 1]) ? 1 : 0;
        return c;
      },
      // Phase 3, move: the block's heads from its prefix on (phase 2 chained the prefix). Every element is
      // written at k and k advances past heads only (no branch to mispredict on short runs); the loop ends at
      // the block's last head, so nothing lands in the next block's output.
      [&](std::uint64_t b, std::uint64_t e, const std::uint64_t* before, std::uint64_t self, std::uint64_t) {
        std::uint64_t k = before ? *before : 0;
        if (e == n) total = k + self;  // the last block knows the total
        const std::uint64_t end = k + self < cap ? k + self : cap;
        if (k >= end) return;
        emit(b, k);
        k += detail_runs::is_head(x, b) ? 1 : 0;
        for (std::uint64_t i = b + 1; i < e && k < end; ++i) {
          emit(i, k);
          k += !(x[i] == x[i - 1]) ? 1 : 0;
        }
      });
  return total;
}

// The runs with their lengths: every run (run_length_encode), or with non_trivial only the runs longer than
// one element (non_trivial_runs). head(i, k): the run at i is the k-th counted (k < cap); length(k, len): the
// k-th counted run has len elements (k < cap). Returns the number of runs counted.
template <class T, class Head, class Length>
std::uint64_t three_phase_runs(int threads, std::span<const T> in, std::uint64_t cap, bool non_trivial, Head head, Length length) {
  using detail_runs::carry;
  const std::uint64_t n = in.size();
  const T* x = in.data();
  // Whether the run at head i is counted: a non-trivial one goes on past i (reads one element past a block).
  const auto counted = [&](std::uint64_t i) { return !non_trivial || (i + 1 < n && x[i + 1] == x[i]); };
  std::uint64_t total = 0;
  three_phase<carry>(threads_for<T>(threads, n), n, block_elements<T>(), nullptr, detail_runs::carry_op{},
      // Phase 1, count: the block's last head (searched back from its end), then its counted heads.
      [&](std::uint64_t b, std::uint64_t e) {
        carry c;
        for (std::uint64_t i = e; i-- > b;)
          if (detail_runs::is_head(x, i)) {
            c.last_head = i, c.has_head = true, c.last_counted = counted(i);
            break;
          }
        if (!c.has_head) return c;  // inside one run
        if (!non_trivial) {
          c.count = detail_runs::is_head(x, b) ? 1 : 0;
          for (std::uint64_t i = b + 1; i < e; ++i) c.count += !(x[i] == x[i - 1]) ? 1 : 0;
        } else {
          const std::uint64_t last = e < n ? e : n - 1;  // the input's last element starts no non-trivial run
          for (std::uint64_t i = b; i < last; ++i) c.count += detail_runs::is_head(x, i) && x[i + 1] == x[i] ? 1 : 0;
        }
        return c;
      },
      // Phase 3, move: each head closes the counted run before it (its length is known now) and opens its own;
      // the last block closes the last run.
      [&](std::uint64_t b, std::uint64_t e, const carry* before, const carry& self, std::uint64_t) {
        const carry start = before ? *before : carry{};
        if (e == n) total = start.count + self.count;
        if ((!self.has_head && e != n) || start.count > cap) return;  // nothing of this block's to write
        std::uint64_t k = start.count, prev = start.last_head;
        bool has_prev = start.has_head, prev_counted = start.last_counted;
        for (std::uint64_t i = b; i < e && (k <= cap); ++i) {
          if (!detail_runs::is_head(x, i)) continue;
          if (has_prev && prev_counted && k - 1 < cap) length(k - 1, i - prev);
          prev_counted = counted(i);
          if (prev_counted) {
            if (k < cap) head(i, k);
            ++k;
          }
          prev = i, has_prev = true;
        }
        if (e == n && has_prev && prev_counted && k - 1 < cap) length(k - 1, n - prev);
      });
  return total;
}

}  // namespace sluice::cpu
