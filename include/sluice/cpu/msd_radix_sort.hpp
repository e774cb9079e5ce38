// CPU radix sort "msd-lsd": one most-significant-digit pass through memory, then every bucket sorted from
// the cache by least-significant-digit passes. An LSD sort of 32-bit keys streams the whole array through
// memory once per 8-bit digit (4 reads and 4 writes, each scatter to 256 places in memory); here only the
// first digit goes through memory, and the buckets it makes are small enough for a core's L2.
//
//   Count.   Each thread histograms the top digit of its contiguous part and ORs the keys' differences; the
//            digit is the one ending at the highest bit where any two keys differ (guessed from a sample of
//            the keys, counted again in the rare case the guess was low). Its width grows with n, 8 to 12
//            bits, so that buckets of uniform keys hold about `bucket_bytes`, and widens where that saves an
//            LSD pass (32-bit keys: 10 + 11 + 11).
//   Prefix.  Over (digit, thread), so that every thread owns a run of each bucket.
//   Scatter. Each thread moves its part, in order, into the scratch array: keys (and values) gather in one
//            64-byte line per bucket in L1 and go to memory a whole aligned line at a time, by non-temporal
//            stores (no read for ownership).
//   Buckets. Dealt to the threads by an atomic counter, largest first, so that a busy core takes fewer. One
//            read of a bucket counts all its remaining 11-bit digits; digits that all its keys share are
//            skipped; the other passes run between two cache-sized buffers of the thread, the last pass
//            writing the keys' places (by write-combined lines where the runs are long). Where MSD digits
//            would leave a few keys each in fewer passes than LSD would take (64-bit keys), the bucket is
//            split by those instead, down to insertion sorts. A bucket larger than the cache (keys far from
//            uniform) takes another MSD pass of its own first, recursively.
//
// Stable (every pass moves equal digits in input order, the threads' runs in thread order), also for pairs.
// Keys are moved as they are; digits are read from their order-preserving image (detail/radix_key.hpp),
// with the descending complement folded in. Bytes through memory for uniform keys: the keys (and values)
// read three times (count, scatter, buckets) and written twice (scatter, buckets), the rest in cache; the OS
// also zeroes the scratch array's pages on first touch. Scratch: one array as large as the keys (and one as
// large as the values), plus per thread two buffers of up to 4 x bucket_bytes and the write-combining lines
// (up to 4096 x 64 bytes per array).
#pragma once
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "sluice/cpu/backend.hpp"
#include "sluice/detail/radix_key.hpp"

namespace sluice::cpu {
namespace msd_lsd {

inline constexpr std::size_t bucket_bytes = std::size_t{256} << 10;  // uniform keys' bucket (keys + values): 2 fit L2
inline constexpr std::size_t in_cache_bytes = 4 * bucket_bytes;      // larger buckets take another MSD pass
inline constexpr int min_msd_bits = 8, max_msd_bits = 12, lsd_bits = 11, recurse_bits = 8;
inline constexpr std::size_t one_thread_below = std::size_t{1} << 16;  // keys; and at least 2^14 per thread
inline constexpr std::size_t line = 64;
inline constexpr std::size_t insertion_below = 32;  // keys: a bucket this small is sorted by insertion

// Memory that is not zeroed by the allocator (the first write touches each page), 2 MiB aligned so that Linux
// may back it with huge pages (fewer faults on first touch).
template <class T>
struct raw_array {
  struct free_t {
    void operator()(T* p) const noexcept { std::free(p); }
  };
  std::unique_ptr<T, free_t> p;
  raw_array() = default;
  explicit raw_array(std::size_t n) {
    if (n == 0) return;
    constexpr std::size_t huge = std::size_t{2} << 20;
    const std::size_t align = n * sizeof(T) >= huge ? huge : line;
    const std::size_t bytes = (n * sizeof(T) + align - 1) / align * align;
    p.reset(static_cast<T*>(std::aligned_alloc(align, bytes)));
    if (!p) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (align == huge) (void)madvise(p.get(), bytes, MADV_HUGEPAGE);
#endif
  }
  T* get() const noexcept { return p.get(); }
};

// The order-preserving image of a key, descending folded in: ~image sorts ascending into descending order.
template <class K>
struct image {
  using bits_t = typename detail::radix_key<K>::bits_t;
  bits_t flip;  // all ones for descending order
  explicit image(bool descending) : flip(descending ? static_cast<bits_t>(~bits_t{0}) : bits_t{0}) {}
  bits_t operator()(K k) const noexcept { return detail::radix_key<K>::to_bits(k, false) ^ flip; }
};

// 16-byte aligned bytes of a full line go out by non-temporal stores; anything else by plain ones.
inline void store_line(void* dst, const void* src, std::size_t bytes) noexcept {
#if defined(__SSE2__)
  if (bytes % 16 == 0 && reinterpret_cast<std::uintptr_t>(dst) % 16 == 0) {
    for (std::size_t b = 0; b < bytes; b += 16)
      _mm_stream_si128(reinterpret_cast<__m128i*>(static_cast<char*>(dst) + b),
                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(static_cast<const char*>(src) + b)));
    return;
  }
#endif
  std::memcpy(dst, src, bytes);
}
inline void store_fence() noexcept {
#if defined(__SSE2__)
  _mm_sfence();  // non-temporal stores are weakly ordered: before another thread reads them
#endif
}

// A thread's working memory: write-combining lines (radix x one key line, and the values of those keys) and
// the two cache buffers the LSD passes run between.
template <class K, class W>
struct thread_space {
  static constexpr std::size_t per_line = line / sizeof(K);
  raw_array<K> wc_keys, t1, t2;
  raw_array<W> wc_values, v1, v2;
  raw_array<std::uint64_t> counts;  // a bucket's histogram of every LSD digit
  void reserve(std::size_t radix, std::size_t items, bool with_values) {
    counts = raw_array<std::uint64_t>(((sizeof(K) * 8 + lsd_bits - 1) / lsd_bits) << lsd_bits);
    wc_keys = raw_array<K>(radix * per_line);
    t1 = raw_array<K>(items), t2 = raw_array<K>(items);
    if (with_values) wc_values = raw_array<W>(radix * per_line), v1 = raw_array<W>(items), v2 = raw_array<W>(items);
  }
};

// ---- Scatter: one stable counting-sort move of m keys by the digit at `shift` of `bits` bits ----------------
// pos[d]: where digit d's next key goes in dst (advanced). With `stream`, each key's line of dst fills in the
// thread's write-combining line first and leaves whole; lines shared with other runs at the ends of this run
// are written key by key (no race: each key has one writer).
template <bool with_values, class K, class W>
void scatter(const K* src, const W* vsrc, std::size_t m, image<K> im, int shift, int bits, std::uint64_t* pos, K* dst, W* vdst,
             thread_space<K, W>& ts, bool stream) {
  using bits_t = typename image<K>::bits_t;
  const bits_t mask = static_cast<bits_t>((bits_t{1} << bits) - 1);
  if (!stream || m < (std::size_t{2} << bits) * thread_space<K, W>::per_line) {  // runs under 2 lines: plain stores
    for (std::size_t i = 0; i < m; ++i) {
      const std::uint64_t j = pos[(im(src[i]) >> shift) & mask]++;
      dst[j] = src[i];
      if constexpr (with_values) vdst[j] = vsrc[i];
    }
    return;
  }
  constexpr std::size_t L = thread_space<K, W>::per_line;
  const std::size_t radix = std::size_t{1} << bits;
  const std::uint64_t misalign = (reinterpret_cast<std::uintptr_t>(dst) % line) / sizeof(K);  // keys: K-aligned
  K* const wk = ts.wc_keys.get();
  W* const wv = ts.wc_values.get();
  std::uint64_t first[std::size_t{1} << max_msd_bits];  // each run's start: its first line may be shared
  std::copy(pos, pos + radix, first);
  auto flush = [&](std::size_t d, std::uint64_t from, std::uint64_t to) {  // dst[from, to), one line
    const std::uint64_t s = (from + misalign) % L;
    if (to - from == L) {
      store_line(dst + from, wk + d * L, line);
      if constexpr (with_values) store_line(vdst + from, wv + d * L, L * sizeof(W));
    } else {
      std::memcpy(dst + from, wk + d * L + s, (to - from) * sizeof(K));
      if constexpr (with_values) std::memcpy(vdst + from, wv + d * L + s, (to - from) * sizeof(W));
    }
  };
  // A line leaves when its digit's next key starts the next line: its last key was stored long before, so
  // the line's loads do not wait on that store.
  auto before = [](std::uint64_t j, std::uint64_t k) { return j >= k ? j - k : 0; };
  for (std::size_t i = 0; i < m; ++i) {
    const std::size_t d = (im(src[i]) >> shift) & mask;
    const std::uint64_t j = pos[d]++;
    const std::uint64_t s = (j + misalign) % L;
    if (s == 0 && j > first[d]) flush(d, std::max(first[d], before(j, L)), j);
    wk[d * L + s] = src[i];
    if constexpr (with_values) wv[d * L + s] = vsrc[i];
  }
  for (std::size_t d = 0; d < radix; ++d) {  // the last lines
    const std::uint64_t j = pos[d], s = (j + misalign) % L;
    if (j > first[d]) flush(d, std::max(first[d], before(j, s == 0 ? L : s)), j);
  }
}

// ---- Buckets: keys [s, s + m) sorted by image bits [begin, hi) into f ---------------------------------------
template <class K, class W>
struct bucket_job {
  image<K> im;
  int begin;
  thread_space<K, W>* ts;
};

template <bool with_values, class K, class W>
void sort_bucket(const bucket_job<K, W>& job, K* s, W* vs, K* f, W* vf, std::size_t m, int hi, K* other, W* vother);

// A few keys, stably by insertion (histograms would cost more than the moves), from s into f.
template <bool with_values, class K, class W>
void insertion_sort(const bucket_job<K, W>& job, const K* s, const W* vs, K* f, W* vf, std::size_t m,
                    typename image<K>::bits_t window) {
  if (s != f) {
    std::memcpy(f, s, m * sizeof(K));
    if constexpr (with_values) std::memcpy(vf, vs, m * sizeof(W));
  }
  for (std::size_t i = 1; i < m; ++i) {
    const K k = f[i];
    const auto x = job.im(k) & window;
    const W v = [&] {
      if constexpr (with_values) return vf[i];
      else return W{};
    }();
    std::size_t j = i;
    for (; j > 0 && (job.im(f[j - 1]) & window) > x; --j) {  // strictly greater: equal keys keep their order
      f[j] = f[j - 1];
      if constexpr (with_values) vf[j] = vf[j - 1];
    }
    f[j] = k;
    if constexpr (with_values) vf[j] = v;
  }
}

// The LSD passes of a bucket that fits the thread's buffers: one read counts every digit of [begin, hi).
template <bool with_values, class K, class W>
void lsd_in_cache(const bucket_job<K, W>& job, K* s, W* vs, K* f, W* vf, std::size_t m, int hi) {
  constexpr int max_digits = (static_cast<int>(sizeof(K)) * 8 + lsd_bits - 1) / lsd_bits;
  const int width = hi - job.begin;
  const int digits = (width + lsd_bits - 1) / lsd_bits;
  const int bits = digits == 0 ? 0 : (width + digits - 1) / digits;  // balanced: 20 bits as 10 + 10
  constexpr std::size_t R = std::size_t{1} << lsd_bits;
  auto count = [&](int q) { return job.ts->counts.get() + static_cast<std::size_t>(q) * R; };
  for (int q = 0; q < digits; ++q) {  // a digit at a time: the bucket is in cache, and the loop stays tight
    const int lo = job.begin + q * bits;
    const auto mask = (1u << std::min(bits, hi - lo)) - 1;
    std::uint64_t* h = count(q);
    std::fill(h, h + R, 0);
    for (std::size_t i = 0; i < m; ++i) ++h[(job.im(s[i]) >> lo) & mask];
  }
  int pass[max_digits], passes = 0;
  for (int q = 0; q < digits; ++q)
    if (std::none_of(count(q), count(q) + R, [&](std::uint64_t c) { return c == m; })) pass[passes++] = q;
  auto& ts = *job.ts;
  if (passes == 0) {
    if (s != f) {
      std::memcpy(f, s, m * sizeof(K));
      if constexpr (with_values) std::memcpy(vf, vs, m * sizeof(W));
    }
    return;
  }
  // s -> t1 -> t2 -> t1 ... -> f; one pass in place goes s -> t1 and is copied back.
  K* from = s;
  W* vfrom = vs;
  for (int p = 0; p < passes; ++p) {
    const bool last = p == passes - 1 && !(passes == 1 && s == f);
    K* to = last ? f : (p % 2 == 0 ? ts.t1.get() : ts.t2.get());
    W* vto = last ? vf : (p % 2 == 0 ? ts.v1.get() : ts.v2.get());
    const int q = pass[p], lo = job.begin + q * bits;
    std::uint64_t pos[std::size_t{1} << lsd_bits];
    std::uint64_t sum = 0;
    for (std::size_t d = 0; d < R; ++d) pos[d] = sum, sum += count(q)[d];
    scatter<with_values>(from, vfrom, m, job.im, lo, std::min(bits, hi - lo), pos, to, vto, ts, last);
    from = to, vfrom = vto;
  }
  if (from != f) {
    std::memcpy(f, from, m * sizeof(K));
    if constexpr (with_values) std::memcpy(vf, vfrom, m * sizeof(W));
  }
}

// A bucket larger than the cache: the digit below its keys' highest difference first (s -> f, or f -> other
// when sorting in place), then each part as a bucket, the free region as the in-place part's spare.
template <bool with_values, class K, class W>
void sort_bucket(const bucket_job<K, W>& job, K* s, W* vs, K* f, W* vf, std::size_t m, int hi, K* other, W* vother) {
  if (m == 0 || hi <= job.begin) {
    if (m && s != f) std::memcpy(f, s, m * sizeof(K));
    if constexpr (with_values) if (m && s != f) std::memcpy(vf, vs, m * sizeof(W));
    return;
  }
  using bits_t = typename image<K>::bits_t;
  const bits_t window = static_cast<bits_t>((hi >= static_cast<int>(sizeof(K)) * 8 ? ~bits_t{0} : (bits_t{1} << hi) - 1) &
                                            ~((bits_t{1} << job.begin) - 1));
  if (m <= insertion_below) return insertion_sort<with_values>(job, s, vs, f, vf, m, window);
  // In cache, LSD passes over every remaining digit, unless MSD digits would leave only insertion sorts
  // sooner (64-bit keys: 52 bits left are 5 LSD passes, but 16 K keys are split to ~8 by one MSD digit).
  const int lsd_passes = (hi - job.begin + lsd_bits - 1) / lsd_bits;
  const int msd_levels = (std::max(0, static_cast<int>(std::bit_width(m)) - 4) + lsd_bits - 1) / lsd_bits;
  const bool in_cache = m * (sizeof(K) + (with_values ? sizeof(W) : 0)) <= in_cache_bytes;
  if (in_cache && lsd_passes <= msd_levels + 1) return lsd_in_cache<with_values>(job, s, vs, f, vf, m, hi);
  const bits_t ref = job.im(s[0]);
  bits_t diff = 0;
  for (std::size_t i = 0; i < m; ++i) diff |= job.im(s[i]) ^ ref;
  diff &= window;
  if (diff == 0) return sort_bucket<with_values>(job, s, vs, f, vf, m, job.begin, other, vother);  // all equal: a copy
  // The digit below the bucket's highest difference: in cache as wide as the keys are many, else 8 bits.
  const int top = static_cast<int>(std::bit_width(diff)) - 1;
  const int bits = in_cache ? std::min(lsd_bits, static_cast<int>(std::bit_width(m))) : recurse_bits;
  const int lo = std::max(job.begin, top + 1 - bits);
  const std::size_t R = std::size_t{1} << (top + 1 - lo);
  std::uint64_t pos[std::size_t{1} << std::max(lsd_bits, recurse_bits)];  // starts; after the scatter, ends
  std::fill(pos, pos + R, 0);
  for (std::size_t i = 0; i < m; ++i) ++pos[(job.im(s[i]) >> lo) & (R - 1)];
  std::uint64_t sum = 0;
  for (std::size_t d = 0; d < R; ++d) {
    const std::uint64_t c = pos[d];
    pos[d] = sum, sum += c;
  }
  const bits_t sub_window = static_cast<bits_t>(window & ((bits_t{1} << lo) - 1));
  K* to = s == f ? other : f;  // in place: through the spare region
  W* vto = s == f ? vother : vf;
  scatter<with_values>(s, vs, m, job.im, lo, top + 1 - lo, pos, to, vto, *job.ts, false);
  for (std::size_t d = 0; d < R; ++d) {
    const std::uint64_t a = d == 0 ? 0 : pos[d - 1], c = pos[d] - a;
    if (c <= insertion_below) {  // most parts of a split in cache: no call with this frame's 16 KiB
      if (c > 1 || to != f) insertion_sort<with_values>(job, to + a, with_values ? vto + a : vto, f + a, with_values ? vf + a : vf, c, sub_window);
      continue;
    }
    if (to == f) sort_bucket<with_values>(job, f + a, with_values ? vf + a : vf, f + a, with_values ? vf + a : vf, c, lo, s + a, with_values ? vs + a : vs);
    else sort_bucket<with_values>(job, other + a, with_values ? vother + a : vother, f + a, with_values ? vf + a : vf, c, lo, static_cast<K*>(nullptr), static_cast<W*>(nullptr));
  }
}

}  // namespace msd_lsd

// Sort keys (and values, V = std::nullptr_t: none) stably by image bits [begin, end), on `threads` threads.
template <class K, class V>
void radix_sort_msd_lsd(int threads, std::span<K> keys, std::span<V> values, bool descending, int begin, int end) {
  using namespace msd_lsd;
  using bits_t = typename image<K>::bits_t;
  constexpr bool with_values = !std::is_same_v<V, std::nullptr_t>;
  using W = std::conditional_t<with_values, V, char>;
  constexpr std::size_t item = sizeof(K) + (with_values ? sizeof(W) : 0);
  const std::size_t n = keys.size();
  if (n < 2 || begin >= end) return;
  const image<K> im(descending);
  W* const vals = with_values ? reinterpret_cast<W*>(values.data()) : nullptr;

  if (n * item <= bucket_bytes) {  // one thread, in cache
    thread_space<K, W> ts;
    ts.reserve(std::size_t{1} << lsd_bits, n, with_values);
    raw_array<K> spare(n);
    raw_array<W> vspare(with_values ? n : 0);
    sort_bucket<with_values>(bucket_job<K, W>{im, begin, &ts}, keys.data(), vals, keys.data(), vals, n, end, spare.get(), vspare.get());
    return;
  }
  // The top digit's width: buckets of about bucket_bytes for uniform keys.
  int msd_bits = min_msd_bits;
  while (msd_bits < max_msd_bits && (n * item >> msd_bits) > bucket_bytes) ++msd_bits;
  auto lsd_passes = [&](int b) { return (std::max(0, end - begin - b) + lsd_bits - 1) / lsd_bits; };
  for (int b = msd_bits + 1; b <= max_msd_bits; ++b)  // wider if that saves an LSD pass: 32-bit keys as 10 + 11 + 11
    if (lsd_passes(b) < lsd_passes(msd_bits)) msd_bits = b;
  if (lsd_passes(msd_bits) > 2) msd_bits = max_msd_bits;  // buckets split by MSD digits in cache: the smaller the fewer levels
  const std::size_t radix = std::size_t{1} << msd_bits;
  const int P = n < one_thread_below ? 1 : static_cast<int>(std::clamp<std::size_t>(n >> 14, 1, static_cast<std::size_t>(std::max(threads, 1))));

  // The guess of the top digit: the highest bit where a sample of 1024 keys differ.
  const bits_t window = static_cast<bits_t>((end >= static_cast<int>(sizeof(K)) * 8 ? ~bits_t{0} : (bits_t{1} << end) - 1) &
                                            ~((bits_t{1} << begin) - 1));
  const bits_t ref = im(keys[0]);
  bits_t sampled = 0;
  for (std::size_t i = 0; i < n; i += std::max<std::size_t>(1, n / 1024)) sampled |= (im(keys[i]) ^ ref) & window;
  auto top_bit = [](bits_t x) {
    int t = static_cast<int>(sizeof(K)) * 8 - 1;
    while (!((x >> t) & 1)) --t;
    return t;
  };
  std::vector<std::uint64_t> hist(static_cast<std::size_t>(P) * radix), bucket_start(radix + 1);
  std::vector<bits_t> diffs(static_cast<std::size_t>(P));
  std::vector<std::uint32_t> order(radix);
  std::atomic<std::uint64_t> next{0};
  std::vector<thread_space<K, W>> spaces(static_cast<std::size_t>(P));

  struct ctx_t {
    K* keys;
    W* vals;
    K* scratch;
    W* vscratch;
    std::size_t n, radix;
    image<K> im;
    int begin, msd_lo, msd_hi, parts;
    bits_t ref;
    std::uint64_t* hist;
    std::uint64_t* bucket_start;
    bits_t* diffs;
    std::uint32_t* order;
    std::atomic<std::uint64_t>* next;
    thread_space<K, W>* spaces;
  } c{keys.data(), vals, nullptr, nullptr, n, radix, im, begin, 0, 0, 1, ref,
      hist.data(), bucket_start.data(), diffs.data(), order.data(), &next, spaces.data()};
  c.msd_hi = sampled ? top_bit(sampled) + 1 : end;

  // ---- Count: each part's top digit, and where its keys differ (again if a key differs above the guess) -----
  for (;;) {
    c.msd_lo = std::max(begin, c.msd_hi - msd_bits);
    cpu_backend::run_parallel(P, [](void* p, int t, int nt) {
      auto& c = *static_cast<ctx_t*>(p);
      if (t == 0) c.parts = nt;
      const std::size_t lo = c.n * t / nt, hi = c.n * (t + 1) / nt;
      std::uint64_t* mine = c.hist + static_cast<std::size_t>(t) * c.radix;
      const bits_t mask = static_cast<bits_t>((bits_t{1} << (c.msd_hi - c.msd_lo)) - 1);
      std::fill(mine, mine + c.radix, 0);
      bits_t diff = 0;
      for (std::size_t i = lo; i < hi; ++i) {
        const bits_t x = c.im(c.keys[i]);
        diff |= x ^ c.ref;
        ++mine[(x >> c.msd_lo) & mask];
      }
      c.diffs[t] = diff;
    }, &c);
    bits_t all = 0;
    for (int u = 0; u < c.parts; ++u) all |= diffs[static_cast<std::size_t>(u)];
    all &= window;
    if (all == 0) return;  // every key equal in the window: sorted as it is
    if (c.msd_hi >= static_cast<int>(sizeof(K)) * 8 || !(all >> c.msd_hi)) break;
    c.msd_hi = top_bit(all) + 1;
  }
  // ---- Prefix over (digit, part); the buckets' order of dealing, largest first -------------------------------
  std::uint64_t sum = 0, largest = 0;
  for (std::size_t d = 0; d < radix; ++d) {
    bucket_start[d] = sum;
    for (int u = 0; u < c.parts; ++u) {
      std::uint64_t& h = hist[static_cast<std::size_t>(u) * radix + d];
      const std::uint64_t k = h;
      h = sum, sum += k;
    }
    largest = std::max(largest, sum - bucket_start[d]);
  }
  bucket_start[radix] = sum;
  for (std::size_t d = 0; d < radix; ++d) order[d] = static_cast<std::uint32_t>(d);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return bucket_start[a + 1] - bucket_start[a] > bucket_start[b + 1] - bucket_start[b];
  });
  raw_array<K> scratch(n);
  raw_array<W> vscratch(with_values ? n : 0);
  c.scratch = scratch.get(), c.vscratch = vscratch.get();
  for (auto& ts : spaces) ts.reserve(std::max(radix, std::size_t{1} << lsd_bits), std::min<std::size_t>(largest, in_cache_bytes / item), with_values);

  cpu_backend::run_parallel(P, [](void* p, int t, int nt) {
    auto& c = *static_cast<ctx_t*>(p);
    auto& ts = c.spaces[t];
    // ---- Scatter: each part, in order, into the scratch array -------------------------------------------
    for (int u = t; u < c.parts; u += nt) {
      const std::size_t lo = c.n * u / c.parts, hi = c.n * (u + 1) / c.parts;
      scatter<with_values>(c.keys + lo, with_values ? c.vals + lo : c.vals, hi - lo, c.im, c.msd_lo, c.msd_hi - c.msd_lo,
                           c.hist + static_cast<std::size_t>(u) * c.radix, c.scratch, c.vscratch, ts, true);
    }
    store_fence();
    cpu_backend::barrier();
    // ---- Buckets: dealt by the counter, each sorted from the cache into its place in keys -----------------
    const bucket_job<K, W> job{c.im, c.begin, &ts};
    for (std::uint64_t k; (k = c.next->fetch_add(1, std::memory_order_relaxed)) < c.radix;) {
      const std::uint32_t d = c.order[k];
      const std::uint64_t a = c.bucket_start[d], m = c.bucket_start[d + 1] - a;
      sort_bucket<with_values>(job, c.scratch + a, with_values ? c.vscratch + a : c.vscratch, c.keys + a, with_values ? c.vals + a : c.vals, m,
                               c.msd_lo, static_cast<K*>(nullptr), static_cast<W*>(nullptr));
    }
    store_fence();
  }, &c);
}

}  // namespace sluice::cpu
