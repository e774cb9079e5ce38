// "three-phase" on the CPU for the by-key and segmented family: Billeter, Olsson and Assarsson 2009, Sec. 3
// and 5.2 (the three phases of the CPU compaction and scan, cpu/three_phase.hpp), with the segmented scan's
// carry (Blelloch 1990, "Prefix sums and their applications", Sec. 1.5: a head flag beside each partial
// value, (f_a, a) + (f_b, b) = (f_a | f_b, f_b ? b : a op b), associative whenever op is).
// A head starts a run of equal keys (by key: i == 0 || !(keys[i] == keys[i - 1])) or a segment (segmented:
// some offsets[s] == i). The stream is cut into cache-sized blocks dealt to P threads:
//   1. reduce: each block folds its values since its last head (found searching back from its end, or by a
//      binary search of the offsets; all of them, without one), counting its heads where the output is per
//      run (reduce_by_key): a block of short runs reads little more than its keys here;
//   2. prefix: the carries are chained block to block, left to right, by the operator above;
//   3. finalise: each block rescans (scans) or folds (reductions) its elements from its carried prefix, while
//      the block is still in cache; a run's or segment's reduction is written by the block where it ends.
// Output order is kept. Float results: each run or segment is folded left to right inside a block, and the
// blocks' folds are combined left to right; blocks are cut at multiples of a size fixed by the element types
// (block_elements; counted from offsets[0] for the segmented forms), so a result repeats bit for bit whatever P is, but
// may differ from the serial variant's single left fold where a run or segment spans blocks.
// Bytes moved: keys (or offsets) and values read once from memory (twice from cache), the outputs written once.
// Scans may run in place (out is values): a block writes only its own elements, after reading each. reduce_by_key
// may not (its outputs land at earlier blocks' positions; dispatch runs the serial variant there).
#pragma once
#include <algorithm>
#include <cstdint>
#include <span>

#include "sluice/cpu/billeter.hpp"
#include "sluice/cpu/three_phase.hpp"

namespace sluice::cpu {

namespace detail_segmented {
// Blocks of about billeter_tuning::block_bytes of the streams read per element (`bytes`: keys and values, or
// values alone), and one thread below billeter_tuning::parallel_bytes of them.
inline std::uint64_t block_elements(std::uint64_t bytes) {
  const std::uint64_t b = billeter_tuning::block_bytes / bytes;
  return b < 64 ? 64 : b;
}
inline int threads_for(int threads, std::uint64_t n, std::uint64_t bytes) {
  return n * bytes < billeter_tuning::parallel_bytes ? 1 : threads;
}

// The fold since the last head (has_head), or of the whole stretch without one; count: the heads (runs) seen.
template <class V>
struct carry {
  std::uint64_t count = 0;
  bool has_head = false;
  V value{};
};
template <class V, class Op>
struct carry_op {
  Op op;
  carry<V> operator()(const carry<V>& a, const carry<V>& b) const {
    return carry<V>{a.count + b.count, a.has_head || b.has_head, b.has_head ? b.value : op(a.value, b.value)};
  }
};

// Heads of runs of equal keys: head(i) for positions in increasing order from a block's start (at(b)), and
// last_head(b, e), searched back from the block's end (e where the block has none).
template <class K>
struct key_heads {
  const K* keys;
  key_heads at(std::uint64_t) const { return *this; }
  bool head(std::uint64_t i) const { return i == 0 || !(keys[i] == keys[i - 1]); }
  std::uint64_t last_head(std::uint64_t b, std::uint64_t e) const {
    for (std::uint64_t i = e; i-- > b;)
      if (head(i)) return i;
    return e;
  }
  std::uint64_t count(std::uint64_t b, std::uint64_t e) const {  // no branch to mispredict on short runs
    std::uint64_t c = head(b) ? 1 : 0;
    for (std::uint64_t i = b + 1; i < e; ++i) c += !(keys[i] == keys[i - 1]) ? 1 : 0;
    return c;
  }
};

// Heads of segments, positions relative to offsets[0]: a cursor on the next segment start at or after the block;
// the last start in a block by a binary search.
struct offset_heads {
  const std::uint64_t* offsets;  // the n_segments starts (offsets without its last entry)
  std::uint64_t segments, lo;
  std::uint64_t s = 0, next = 0;
  offset_heads at(std::uint64_t b) const {
    offset_heads h = *this;
    h.s = static_cast<std::uint64_t>(std::lower_bound(offsets, offsets + segments, lo + b) - offsets);
    h.next = h.s < segments ? offsets[h.s] - lo : ~std::uint64_t{0};
    return h;
  }
  bool head(std::uint64_t i) {
    if (i != next) return false;
    while (s < segments && offsets[s] - lo == i) ++s;  // empty segments start where the next one does
    next = s < segments ? offsets[s] - lo : ~std::uint64_t{0};
    return true;
  }
  std::uint64_t last_head(std::uint64_t b, std::uint64_t e) const {
    const std::uint64_t start = *(std::upper_bound(offsets, offsets + segments, lo + e - 1) - 1) - lo;  // offsets[0] = lo <= lo + e - 1
    return start >= b ? start : e;
  }
};

// Phase 1 of every variant: the block's carry, the fold from its last head (led by init where `init`), or of the
// whole block without one; only that tail of the values is read. count_heads: also the block's heads.
template <class V, class Heads, class Op>
carry<V> block_carry(const Heads& heads, const V* x, std::uint64_t b, std::uint64_t e, const V* init, Op& op, bool count_heads = false) {
  carry<V> c;
  const std::uint64_t h = heads.last_head(b, e);
  c.has_head = h < e;
  std::uint64_t i = c.has_head ? h : b;
  c.value = c.has_head && init ? op(*init, x[i]) : x[i];
  for (++i; i < e; ++i) c.value = op(c.value, x[i]);
  if constexpr (requires { heads.count(b, e); })
    if (count_heads && c.has_head) c.count = heads.count(b, e);
  return c;
}
}  // namespace detail_segmented

// The scan of x into out (x.size() elements, out may be x), restarted at each head: inclusive, or exclusive with
// init at each head and leading each run's fold. bytes: what is read per element (keys and values, or values).
template <class V, class Heads, class Op>
void three_phase_scan_by_heads(int threads, std::uint64_t bytes, Heads heads, std::span<const V> x, std::span<V> out, bool inclusive, V init,
                               Op op) {
  using carry = detail_segmented::carry<V>;
  const std::uint64_t n = x.size();
  const V* in = x.data();
  V* o = out.data();
  const V* lead = inclusive ? nullptr : &init;
  three_phase<carry>(detail_segmented::threads_for(threads, n, bytes), n, detail_segmented::block_elements(bytes), nullptr,
      detail_segmented::carry_op<V, Op>{op},
      // Phase 1, reduce: the fold since the block's last head.
      [&](std::uint64_t b, std::uint64_t e) { return detail_segmented::block_carry(heads, in, b, e, lead, op); },
      // Phase 3, rescan: from the carried prefix (block 0 starts at a head and needs none).
      [&](std::uint64_t b, std::uint64_t e, const carry* before, const carry&, std::uint64_t) {
        auto h = heads.at(b);
        V acc = before ? before->value : init;
        if (inclusive) {
          for (std::uint64_t i = b; i < e; ++i) {
            const V v = in[i];
            acc = h.head(i) ? v : op(acc, v);
            o[i] = acc;
          }
        } else {
          for (std::uint64_t i = b; i < e; ++i) {
            const V v = in[i];
            if (h.head(i)) acc = init;
            o[i] = acc;
            acc = op(acc, v);
          }
        }
      });
}

// reduce_by_key: each run's first key and the fold of its values; writes at most cap runs, returns the count.
template <class K, class V, class Op>
std::uint64_t three_phase_reduce_by_key(int threads, std::span<const K> keys, std::span<const V> values, std::span<K> out_keys,
                                        std::span<V> out_values, Op op) {
  using carry = detail_segmented::carry<V>;
  const std::uint64_t n = keys.size(), cap = out_keys.size();
  const K* k = keys.data();
  const V* x = values.data();
  const detail_segmented::key_heads<K> heads{k};
  std::uint64_t total = 0;
  three_phase<carry>(detail_segmented::threads_for(threads, n, sizeof(K) + sizeof(V)), n, detail_segmented::block_elements(sizeof(K) + sizeof(V)), nullptr,
      detail_segmented::carry_op<V, Op>{op},
      // Phase 1, reduce: the block's heads, and the fold since its last one.
      [&](std::uint64_t b, std::uint64_t e) { return detail_segmented::block_carry<V>(heads, x, b, e, nullptr, op, true); },
      // Phase 3, finalise: each head closes the run before it (its fold is complete now) and opens its own; the
      // last block closes the last run. A block without a head closes nothing.
      [&](std::uint64_t b, std::uint64_t e, const carry* before, const carry& self, std::uint64_t) {
        std::uint64_t r = before ? before->count : 0;
        if (e == n) total = r + self.count;  // the last block knows the total
        if ((!self.has_head && e != n) || r > cap) return;
        V acc = before ? before->value : V{};
        for (std::uint64_t i = b; i < e && r <= cap; ++i) {
          const V v = x[i];
          if (heads.head(i)) {
            if (r > 0 && r - 1 < cap) out_values[r - 1] = acc;
            if (r < cap) out_keys[r] = k[i];
            ++r;
            acc = v;
          } else {
            acc = op(acc, v);
          }
        }
        if (e == n && r > 0 && r - 1 < cap) out_values[r - 1] = acc;
      });
  return total;
}

// segmented_reduce: out[s] = init op the values of segment s, for the offsets.size() - 1 segments.
template <class T, class Op>
void three_phase_segmented_reduce(int threads, std::span<const T> values, std::span<const std::uint64_t> offsets, std::span<T> out, T init,
                                  Op op) {
  using carry = detail_segmented::carry<T>;
  const std::uint64_t segments = offsets.size() - 1, lo = offsets[0], hi = offsets[segments], n = hi - lo;
  const std::uint64_t* off = offsets.data();
  const T* x = values.data() + lo;
  const detail_segmented::offset_heads heads{off, segments, lo};
  if (n == 0) {  // every segment empty
    std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(segments), init);
    return;
  }
  three_phase<carry>(detail_segmented::threads_for(threads, n, sizeof(T)), n, detail_segmented::block_elements(sizeof(T)), nullptr,
      detail_segmented::carry_op<T, Op>{op},
      // Phase 1, reduce: the fold from the start of the segment holding the block's last element, where that
      // start lies in the block (led by init), else of the whole block.
      [&](std::uint64_t b, std::uint64_t e) { return detail_segmented::block_carry(heads, x, b, e, &init, op); },
      // Phase 3, finalise: the segments that end in (b, e] (block 0: [b, e], taking the empty ones at offsets[0]),
      // each folded from its start or, where it began in an earlier block, from the carried prefix.
      [&](std::uint64_t b, std::uint64_t e, const carry* before, const carry&, std::uint64_t) {
        std::uint64_t s = b == 0 ? 0 : static_cast<std::uint64_t>(std::upper_bound(off + 1, off + segments + 1, lo + b) - (off + 1));
        for (; s < segments && off[s + 1] - lo <= e; ++s) {
          const std::uint64_t start = off[s] - lo, end = off[s + 1] - lo;
          T acc = start < b ? before->value : init;
          for (std::uint64_t i = start < b ? b : start; i < end; ++i) acc = op(acc, x[i]);
          out[s] = acc;
        }
      });
}

// segmented inclusive and exclusive scans: [offsets[0], offsets.back()) scanned, restarted at every segment.
template <class T, class Op>
void three_phase_segmented_scan(int threads, std::span<const T> values, std::span<const std::uint64_t> offsets, std::span<T> out,
                                bool inclusive, T init, Op op) {
  const std::uint64_t segments = offsets.size() - 1, lo = offsets[0], hi = offsets[segments];
  const detail_segmented::offset_heads heads{offsets.data(), segments, lo};
  three_phase_scan_by_heads(threads, sizeof(T), heads, values.subspan(lo, hi - lo), out.subspan(lo, hi - lo), inclusive, init, op);
}

}  // namespace sluice::cpu
