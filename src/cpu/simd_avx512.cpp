// AVX-512 block kernels (F, BW, VL, DQ, VBMI2): Billeter et al. 2009's compactSIMD by a native vector
// compress (Sec. 6), compressed in a register and written through a line buffer (Sec. 4.2 buffered output),
// never by a masked compress-store to memory. Everything here is in an anonymous namespace or is an
// explicit instantiation: no inline function compiled for AVX-512 can stand in for a portable one.
#include <immintrin.h>

#include <cstring>

#include "simd.hpp"
#include "simd_common.hpp"

namespace sluice::cpu_simd {
namespace {

using u8 = std::uint8_t;
using u64 = std::uint64_t;

// How far ahead of the loads the software prefetch runs: one core alone cannot keep enough lines in
// flight from memory with the hardware prefetcher only (measured: a copy loop goes from 36 to 31 ms).
constexpr int prefetch_bytes = 4096;
inline void prefetch(const u8* p) { _mm_prefetch(reinterpret_cast<const char*>(p) + prefetch_bytes, _MM_HINT_T0); }

// Output in whole aligned 64-byte lines: a line is written when every byte of it is ours (non-temporal
// when streaming), the partial first and last lines with byte copies. The stage holds the line being filled.
class line_writer {
 public:
  line_writer(void* dst, bool stream) : stream_(stream) {
    const auto a = reinterpret_cast<std::uintptr_t>(dst);
    line_ = reinterpret_cast<u8*>(a & ~std::uintptr_t{63});
    head_ = pos_ = static_cast<unsigned>(a & 63);
  }
  void put(__m512i v, unsigned bytes) {
    _mm512_storeu_si512(stage_ + pos_, v);
    pos_ += bytes;
    if (pos_ >= 64) flush();
  }
  void finish() {
    if (pos_ > head_) std::memcpy(line_ + head_, stage_ + head_, pos_ - head_);
    if (stream_) _mm_sfence();  // non-temporal stores are weakly ordered: visible before the caller's barrier
  }

 private:
  void flush() {
    if (head_ != 0) {
      std::memcpy(line_ + head_, stage_ + head_, 64 - head_);
      head_ = 0;
    } else if (stream_) {
      _mm512_stream_si512(reinterpret_cast<__m512i*>(line_), _mm512_load_si512(stage_));
    } else {
      _mm512_store_si512(line_, _mm512_load_si512(stage_));
    }
    _mm512_store_si512(stage_, _mm512_load_si512(stage_ + 64));
    line_ += 64;
    pos_ -= 64;
  }
  alignas(64) u8 stage_[128];
  u8* line_;
  unsigned head_, pos_;
  bool stream_;
};

template <int L>
using mask_t = std::conditional_t<(L > 32), __mmask64, std::conditional_t<(L > 16), __mmask32, __mmask16>>;

inline u64 low_bits(int r) { return r >= 64 ? ~u64{0} : (u64{1} << r) - 1; }
inline int popcount(u64 m) { return __builtin_popcountll(m); }

// Elements of S bytes: L per vector.
template <std::size_t S>
constexpr int lanes = S == 16 ? 4 : static_cast<int>(64 / S);

inline __m512i load_bytes(const u8* p, int bytes) {
  return bytes == 64 ? _mm512_loadu_si512(p) : _mm512_maskz_loadu_epi8(low_bits(bytes), p);
}

// The flags of r <= L elements as a bit mask.
template <int L>
u64 flag_mask(const u8* f, int r) {
  if constexpr (L == 64) {
    const __m512i v = load_bytes(f, r);
    return _mm512_test_epi8_mask(v, v);
  } else if constexpr (L == 32) {
    const __m256i v = r == 32 ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(f)) : _mm256_maskz_loadu_epi8(static_cast<__mmask32>(low_bits(r)), f);
    return _mm256_test_epi8_mask(v, v);
  } else {
    const __m128i v = r == 16 ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(f)) : _mm_maskz_loadu_epi8(static_cast<__mmask16>(low_bits(r)), f);
    return _mm_test_epi8_mask(v, v);
  }
}

template <std::size_t S>
__m512i compress(u64 m, __m512i x) {
  if constexpr (S == 1) return _mm512_maskz_compress_epi8(m, x);
  else if constexpr (S == 2) return _mm512_maskz_compress_epi16(static_cast<__mmask32>(m), x);
  else if constexpr (S == 4) return _mm512_maskz_compress_epi32(static_cast<__mmask16>(m), x);
  else if constexpr (S == 8) return _mm512_maskz_compress_epi64(static_cast<__mmask8>(m), x);
  else {  // 16 bytes: each element is two 64-bit lanes
    const auto m2 = static_cast<unsigned>(_pdep_u64(m, 0x55) | _pdep_u64(m, 0xAA));
    return _mm512_maskz_compress_epi64(static_cast<__mmask8>(m2), x);
  }
}

// The line writer for 4- and 8-byte elements at an element-aligned output, without a stage in memory: the
// pending line stays in a register, a new compressed vector is appended by one two-source permute, and
// what overflows a completed line is shifted down by one permute.
template <std::size_t S>
class register_line {
  static_assert(S == 4 || S == 8);
  static constexpr int L = static_cast<int>(64 / S);

 public:
  register_line(void* dst, bool stream) : stream_(stream) {
    const auto a = reinterpret_cast<std::uintptr_t>(dst);
    line_ = reinterpret_cast<u8*>(a & ~std::uintptr_t{63});
    head_ = fill_ = static_cast<int>((a & 63) / S);
  }
  void put(__m512i c, unsigned bytes) {
    const int k = static_cast<int>(bytes / S);
    // lane j: j < fill ? pending[j] : c[j - fill], i.e. index j + (j < fill ? 0 : L - fill) of (pending, c)
    const __m512i joined = permute2(pending_, with_offset(static_cast<u64>(~low_bits(fill_)), L - fill_), c);
    if (fill_ + k < L) {
      pending_ = joined;
      fill_ += k;
      return;
    }
    if (head_ != 0) {  // the first line is partly another thread's
      _mm512_mask_storeu_epi8(line_, low_bits(64) & ~low_bits(head_ * static_cast<int>(S)), joined);
      head_ = 0;
    } else if (stream_) {
      _mm512_stream_si512(reinterpret_cast<__m512i*>(line_), joined);
    } else {
      _mm512_store_si512(line_, joined);
    }
    line_ += 64;
    pending_ = permute1(with_offset(~u64{0}, L - fill_), c);  // c[L - fill ...] down to lane 0
    fill_ = fill_ + k - L;
  }
  void finish() {
    if (fill_ > head_)
      _mm512_mask_storeu_epi8(line_, low_bits(fill_ * static_cast<int>(S)) & ~low_bits(head_ * static_cast<int>(S)), pending_);
    if (stream_) _mm_sfence();
  }

 private:
  static __m512i with_offset(u64 lanes_mask, int offset) {  // iota, plus offset in the lanes of the mask
    if constexpr (S == 4)
      return _mm512_mask_add_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                   static_cast<__mmask16>(lanes_mask),
                                   _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), _mm512_set1_epi32(offset));
    else
      return _mm512_mask_add_epi64(_mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7), static_cast<__mmask8>(lanes_mask),
                                   _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7), _mm512_set1_epi64(offset));
  }
  static __m512i permute2(__m512i a, __m512i idx, __m512i b) {
    if constexpr (S == 4) return _mm512_permutex2var_epi32(a, idx, b);
    else return _mm512_permutex2var_epi64(a, idx, b);
  }
  static __m512i permute1(__m512i idx, __m512i a) {
    if constexpr (S == 4) return _mm512_permutexvar_epi32(idx, a);
    else return _mm512_permutexvar_epi64(idx, a);
  }
  __m512i pending_ = _mm512_setzero_si512();
  u8* line_;
  int head_, fill_;
  bool stream_;
};

// Calls f with the writer of out: the register line where it applies, else the line writer.
template <std::size_t S, class F>
void with_writer(u8* out, bool stream, F&& f) {
  if constexpr (S == 4 || S == 8) {
    if (reinterpret_cast<std::uintptr_t>(out) % S == 0) {
      register_line<S> w(out, stream);
      f(w);
      return;
    }
  }
  line_writer w(out, stream);
  f(w);
}

template <std::size_t S, class Writer, class MaskOf, class Ahead>
void compress_with(const u8* in, u64 n, Writer& w, MaskOf& mask_of, Ahead& ahead) {
  constexpr int L = lanes<S>;
  u64 i = 0;
  for (; i + L <= n; i += L) {
    prefetch(in + i * S);
    ahead(i);
    const __m512i x = _mm512_loadu_si512(in + i * S);
    const u64 m = mask_of(i, L, x);
    w.put(compress<S>(m, x), static_cast<unsigned>(popcount(m) * S));
  }
  if (i < n) {
    const int r = static_cast<int>(n - i);
    const __m512i x = load_bytes(in + i * S, static_cast<int>(r * S));
    const u64 m = mask_of(i, r, x) & low_bits(r);
    w.put(compress<S>(m, x), static_cast<unsigned>(popcount(m) * S));
  }
  w.finish();
}

// The compaction and the split of one block; mask_of(element index, lanes present, vector) gives the kept lanes.
template <std::size_t S, class MaskOf, class Ahead>
void compress_block(const u8* in, u64 n, u8* out, bool stream, MaskOf mask_of, Ahead ahead) {
  with_writer<S>(out, stream, [&](auto& w) { compress_with<S>(in, n, w, mask_of, ahead); });
}
template <std::size_t S, class K, class J, class MaskOf, class Ahead>
void split_with(const u8* in, u64 n, K& k, J& j, MaskOf& mask_of, Ahead& ahead) {
  constexpr int L = lanes<S>;
  for (u64 i = 0; i < n; i += L) {
    const int r = n - i < static_cast<u64>(L) ? static_cast<int>(n - i) : L;
    prefetch(in + i * S);
    ahead(i);
    const __m512i x = r == L ? _mm512_loadu_si512(in + i * S) : load_bytes(in + i * S, static_cast<int>(r * S));
    const u64 all = low_bits(r), m = mask_of(i, r, x) & all;
    k.put(compress<S>(m, x), static_cast<unsigned>(popcount(m) * S));
    j.put(compress<S>(all & ~m, x), static_cast<unsigned>(popcount(all & ~m) * S));
  }
  k.finish();
  j.finish();
}
template <std::size_t S, class MaskOf, class Ahead>
void split_block(const u8* in, u64 n, u8* kept, u8* rejected, bool stream, MaskOf mask_of, Ahead ahead) {
  with_writer<S>(kept, stream, [&](auto& k) {
    with_writer<S>(rejected, stream, [&](auto& j) { split_with<S>(in, n, k, j, mask_of, ahead); });
  });
}

// ---- the threshold predicates, lane by lane ----
template <class T>
__m512i splat(T v) {
  if constexpr (sizeof(T) == 1) { char c; std::memcpy(&c, &v, 1); return _mm512_set1_epi8(c); }
  else if constexpr (sizeof(T) == 4) { int b; std::memcpy(&b, &v, 4); return _mm512_set1_epi32(b); }
  else { long long b; std::memcpy(&b, &v, 8); return _mm512_set1_epi64(b); }
}

constexpr int int_imm(compare c) {
  switch (c) {
    case compare::less: return _MM_CMPINT_LT;
    case compare::less_equal: return _MM_CMPINT_LE;
    case compare::greater: return _MM_CMPINT_NLE;
    case compare::greater_equal: return _MM_CMPINT_NLT;
    case compare::equal: return _MM_CMPINT_EQ;
    case compare::not_equal: return _MM_CMPINT_NE;
  }
  return 0;
}
template <class T, compare C>
u64 cmp_mask(__m512i x, __m512i v) {
  if constexpr (std::is_same_v<T, float>) return _mm512_cmp_ps_mask(_mm512_castsi512_ps(x), _mm512_castsi512_ps(v), float_imm(C));
  else if constexpr (std::is_same_v<T, double>) return _mm512_cmp_pd_mask(_mm512_castsi512_pd(x), _mm512_castsi512_pd(v), float_imm(C));
  else if constexpr (std::is_same_v<T, std::uint8_t>) return _mm512_cmp_epu8_mask(x, v, int_imm(C));
  else if constexpr (std::is_same_v<T, std::int32_t>) return _mm512_cmp_epi32_mask(x, v, int_imm(C));
  else if constexpr (std::is_same_v<T, std::uint32_t>) return _mm512_cmp_epu32_mask(x, v, int_imm(C));
  else if constexpr (std::is_same_v<T, std::int64_t>) return _mm512_cmp_epi64_mask(x, v, int_imm(C));
  else return _mm512_cmp_epu64_mask(x, v, int_imm(C));
}

// ---- operators, lane by lane: op(a, b) with a on the left ----
#define SLUICE_PS(x) _mm512_castsi512_ps(x)
#define SLUICE_PD(x) _mm512_castsi512_pd(x)
template <class T, class Op>
__m512i vop(__m512i a, __m512i b) {
  constexpr bool f32 = std::is_same_v<T, float>, f64 = std::is_same_v<T, double>, w4 = sizeof(T) == 4;
  constexpr bool sig = std::is_signed_v<T>;
  if constexpr (std::is_same_v<Op, sum>) {
    if constexpr (f32) return _mm512_castps_si512(_mm512_add_ps(SLUICE_PS(a), SLUICE_PS(b)));
    else if constexpr (f64) return _mm512_castpd_si512(_mm512_add_pd(SLUICE_PD(a), SLUICE_PD(b)));
    else if constexpr (w4) return _mm512_add_epi32(a, b);
    else return _mm512_add_epi64(a, b);
  } else if constexpr (std::is_same_v<Op, product>) {
    if constexpr (f32) return _mm512_castps_si512(_mm512_mul_ps(SLUICE_PS(a), SLUICE_PS(b)));
    else if constexpr (f64) return _mm512_castpd_si512(_mm512_mul_pd(SLUICE_PD(a), SLUICE_PD(b)));
    else if constexpr (w4) return _mm512_mullo_epi32(a, b);
    else return _mm512_mullo_epi64(a, b);
  } else if constexpr (std::is_same_v<Op, minimum>) {  // b < a ? b : a, which MINPS(b, a) is, NaN included
    if constexpr (f32) return _mm512_castps_si512(_mm512_min_ps(SLUICE_PS(b), SLUICE_PS(a)));
    else if constexpr (f64) return _mm512_castpd_si512(_mm512_min_pd(SLUICE_PD(b), SLUICE_PD(a)));
    else if constexpr (w4) return sig ? _mm512_min_epi32(a, b) : _mm512_min_epu32(a, b);
    else return sig ? _mm512_min_epi64(a, b) : _mm512_min_epu64(a, b);
  } else {  // a < b ? b : a, which MAXPS(b, a) is
    if constexpr (f32) return _mm512_castps_si512(_mm512_max_ps(SLUICE_PS(b), SLUICE_PS(a)));
    else if constexpr (f64) return _mm512_castpd_si512(_mm512_max_pd(SLUICE_PD(b), SLUICE_PD(a)));
    else if constexpr (w4) return sig ? _mm512_max_epi32(a, b) : _mm512_max_epu32(a, b);
    else return sig ? _mm512_max_epi64(a, b) : _mm512_max_epu64(a, b);
  }
}
#undef SLUICE_PS
#undef SLUICE_PD

// Lanes in m get op(a, b), the others keep b.
template <class T, class Op>
__m512i vop_keep(u64 m, __m512i a, __m512i b) {
  if constexpr (sizeof(T) == 4) return _mm512_mask_mov_epi32(b, static_cast<__mmask16>(m), vop<T, Op>(a, b));
  else return _mm512_mask_mov_epi64(b, static_cast<__mmask8>(m), vop<T, Op>(a, b));
}

// Inclusive prefix of the lanes (Hillis-Steele in a register: log2(L) shifted combines).
template <class T, class Op>
__m512i lane_scan(__m512i x) {
  if constexpr (sizeof(T) == 4) {
    x = vop_keep<T, Op>(0xFFFE, _mm512_alignr_epi32(x, x, 15), x);
    x = vop_keep<T, Op>(0xFFFC, _mm512_alignr_epi32(x, x, 14), x);
    x = vop_keep<T, Op>(0xFFF0, _mm512_alignr_epi32(x, x, 12), x);
    x = vop_keep<T, Op>(0xFF00, _mm512_alignr_epi32(x, x, 8), x);
  } else {
    x = vop_keep<T, Op>(0xFE, _mm512_alignr_epi64(x, x, 7), x);
    x = vop_keep<T, Op>(0xFC, _mm512_alignr_epi64(x, x, 6), x);
    x = vop_keep<T, Op>(0xF0, _mm512_alignr_epi64(x, x, 4), x);
  }
  return x;
}

template <class T>
__m512i broadcast_lane(__m512i x, int lane) {
  if constexpr (sizeof(T) == 4) return _mm512_permutexvar_epi32(_mm512_set1_epi32(lane), x);
  else return _mm512_permutexvar_epi64(_mm512_set1_epi64(lane), x);
}
// (carry, x[0], ..., x[L-2]): the exclusive form.
template <class T>
__m512i shift_in(__m512i x, __m512i carry) {
  if constexpr (sizeof(T) == 4) return _mm512_alignr_epi32(x, carry, 15);
  else return _mm512_alignr_epi64(x, carry, 7);
}

}  // namespace

// ---- the kernels ----
std::uint64_t avx512::count_flags(const std::uint8_t* f, std::uint64_t n) {
  u64 k = 0, i = 0;
  for (; i + 64 <= n; i += 64) k += popcount(flag_mask<64>(f + i, 64));
  if (i < n) k += popcount(flag_mask<64>(f + i, static_cast<int>(n - i)));
  return k;
}

template <std::size_t S>
void avx512::compact_flags(const void* in, const std::uint8_t* f, std::uint64_t n, void* out, bool stream, const void* ahead) {
  compress_block<S>(static_cast<const u8*>(in), n, static_cast<u8*>(out), stream,
                    [f](u64 i, int r, __m512i) { return flag_mask<lanes<S>>(f + i, r); }, ahead_of(ahead, 1));
}
template <std::size_t S>
void avx512::split_flags(const void* in, const std::uint8_t* f, std::uint64_t n, void* kept, void* rejected, bool stream, const void* ahead) {
  split_block<S>(static_cast<const u8*>(in), n, static_cast<u8*>(kept), static_cast<u8*>(rejected), stream,
                 [f](u64 i, int r, __m512i) { return flag_mask<lanes<S>>(f + i, r); }, ahead_of(ahead, 1));
}

template <class T>
std::uint64_t avx512::count_if(const T* in, std::uint64_t n, threshold<T> p) {
  return with_compare(p, [&](auto c) {
    constexpr int L = 64 / sizeof(T);
    constexpr compare C = decltype(c)::value;
    const __m512i v = splat(p.value);
    const auto* b = reinterpret_cast<const u8*>(in);
    u64 k = 0, i = 0;
    for (; i + L <= n; i += L) k += popcount(cmp_mask<T, C>(_mm512_loadu_si512(b + i * sizeof(T)), v));
    if (i < n) {
      const int r = static_cast<int>(n - i);
      k += popcount(cmp_mask<T, C>(load_bytes(b + i * sizeof(T), r * static_cast<int>(sizeof(T))), v) & low_bits(r));
    }
    return k;
  });
}
template <class T>
void avx512::compact_if(const T* in, std::uint64_t n, threshold<T> p, T* out, bool stream, const void* ahead) {
  with_compare(p, [&](auto c) {
    constexpr compare C = decltype(c)::value;
    const __m512i v = splat(p.value);
    compress_block<sizeof(T)>(reinterpret_cast<const u8*>(in), n, reinterpret_cast<u8*>(out), stream,
                              [v](u64, int, __m512i x) { return cmp_mask<T, C>(x, v); }, ahead_of(ahead, sizeof(T)));
  });
}
template <class T>
void avx512::split_if(const T* in, std::uint64_t n, threshold<T> p, T* kept, T* rejected, bool stream, const void* ahead) {
  with_compare(p, [&](auto c) {
    constexpr compare C = decltype(c)::value;
    const __m512i v = splat(p.value);
    split_block<sizeof(T)>(reinterpret_cast<const u8*>(in), n, reinterpret_cast<u8*>(kept), reinterpret_cast<u8*>(rejected),
                           stream, [v](u64, int, __m512i x) { return cmp_mask<T, C>(x, v); }, ahead_of(ahead, sizeof(T)));
  });
}

template <class T, class Op>
void avx512::reduce_lanes(const T* in, std::uint64_t n, T* lanes_out) {
  constexpr int L = 64 / sizeof(T);
  const __m512i id = splat(identity<T, Op>());
  __m512i a0 = id, a1 = id, a2 = id, a3 = id;
  const auto* b = reinterpret_cast<const u8*>(in);
  u64 i = 0;
  for (; i + 4 * L <= n; i += 4 * L) {
    for (int j = 0; j < 4; ++j) prefetch(b + (i + j * L) * sizeof(T));
    a0 = vop<T, Op>(a0, _mm512_loadu_si512(b + i * sizeof(T)));
    a1 = vop<T, Op>(a1, _mm512_loadu_si512(b + (i + L) * sizeof(T)));
    a2 = vop<T, Op>(a2, _mm512_loadu_si512(b + (i + 2 * L) * sizeof(T)));
    a3 = vop<T, Op>(a3, _mm512_loadu_si512(b + (i + 3 * L) * sizeof(T)));
  }
  for (; i + L <= n; i += L) a0 = vop<T, Op>(a0, _mm512_loadu_si512(b + i * sizeof(T)));
  if (i < n) {
    const int r = static_cast<int>(n - i);
    const __m512i x = _mm512_mask_loadu_epi8(id, low_bits(r * static_cast<int>(sizeof(T))), b + i * sizeof(T));
    a1 = vop<T, Op>(a1, x);
  }
  _mm512_storeu_si512(lanes_out, vop<T, Op>(vop<T, Op>(a0, a1), vop<T, Op>(a2, a3)));
}

// Vectors start at multiples of L elements of the block (so the association depends on positions only, not
// on where out lies). When out is on a 64-byte line they are stored straight to it (non-temporal when
// streaming); otherwise through the line writer.
template <class T, class Op>
void avx512::scan(const T* in, T* out, std::uint64_t n, const T* carry, bool inclusive, bool stream, const void* ahead) {
  constexpr int L = 64 / sizeof(T);
  const auto* b = reinterpret_cast<const u8*>(in);
  auto* o = reinterpret_cast<u8*>(out);
  bool has = carry != nullptr;
  __m512i c = has ? splat(*carry) : _mm512_setzero_si512();
  const ahead_t next = ahead_of(ahead, sizeof(T));
  auto step = [&](__m512i x, int r) {  // the next r <= L outputs
    x = lane_scan<T, Op>(x);
    if (has) x = vop<T, Op>(c, x);
    const __m512i y = inclusive ? x : shift_in<T>(x, c);
    c = broadcast_lane<T>(x, r - 1);
    has = true;
    return y;
  };
  u64 i = 0;
  if (reinterpret_cast<std::uintptr_t>(out) % 64 == 0) {
    for (; i + L <= n; i += L) {
      prefetch(b + i * sizeof(T));
      next(i);
      const __m512i y = step(_mm512_loadu_si512(b + i * sizeof(T)), L);
      if (stream) _mm512_stream_si512(reinterpret_cast<__m512i*>(o + i * sizeof(T)), y);
      else _mm512_store_si512(o + i * sizeof(T), y);
    }
    if (i < n) {
      const int bytes = static_cast<int>((n - i) * sizeof(T));
      _mm512_mask_storeu_epi8(o + i * sizeof(T), low_bits(bytes), step(load_bytes(b + i * sizeof(T), bytes), static_cast<int>(n - i)));
    }
    if (stream) _mm_sfence();
    return;
  }
  if (reinterpret_cast<std::uintptr_t>(out) % sizeof(T) != 0) {  // not even element-aligned: the line writer
    line_writer w(out, stream);
    for (; i < n; i += L) {
      const int r = n - i < static_cast<u64>(L) ? static_cast<int>(n - i) : L, bytes = r * static_cast<int>(sizeof(T));
      prefetch(b + i * sizeof(T));
      next(i);
      w.put(step(load_bytes(b + i * sizeof(T), bytes), r), static_cast<unsigned>(bytes));
    }
    w.finish();
    return;
  }
  // out lies h elements past a line: each whole line joins the last h outputs of one vector with the first
  // L - h of the next (one two-source permute); the first and last partial lines are masked stores.
  const int h = static_cast<int>((reinterpret_cast<std::uintptr_t>(out) % 64) / sizeof(T)), S = static_cast<int>(sizeof(T));
  __m512i join;  // lane j: j < h ? prev[L - h + j] : y[j - h], i.e. index j + L - h of (prev, y)
  if constexpr (sizeof(T) == 4) join = _mm512_add_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), _mm512_set1_epi32(L - h));
  else join = _mm512_add_epi64(_mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7), _mm512_set1_epi64(L - h));
  __m512i prev = _mm512_setzero_si512();
  for (; i + L <= n; i += L) {
    prefetch(b + i * sizeof(T));
    next(i);
    const __m512i y = step(_mm512_loadu_si512(b + i * sizeof(T)), L);
    if (i == 0) {
      _mm512_mask_storeu_epi8(o, low_bits((L - h) * S), y);
    } else {
      const __m512i line = sizeof(T) == 4 ? _mm512_permutex2var_epi32(prev, join, y) : _mm512_permutex2var_epi64(prev, join, y);
      u8* dst = o + (i - h) * sizeof(T);  // on a line
      if (stream) _mm512_stream_si512(reinterpret_cast<__m512i*>(dst), line);
      else _mm512_store_si512(dst, line);
    }
    prev = y;
  }
  if (i > 0) _mm512_mask_storeu_epi8(o + (i - L) * sizeof(T), low_bits(64) & ~low_bits((L - h) * S), prev);
  if (i < n) {
    const int bytes = static_cast<int>((n - i) * sizeof(T));
    _mm512_mask_storeu_epi8(o + i * sizeof(T), low_bits(bytes), step(load_bytes(b + i * sizeof(T), bytes), static_cast<int>(n - i)));
  }
  if (stream) _mm_sfence();
}

// ---- what the library uses ----
#define SLUICE_AVX512_SIZE(S)                                                                                  \
  template void avx512::compact_flags<S>(const void*, const std::uint8_t*, std::uint64_t, void*, bool, const void*);         \
  template void avx512::split_flags<S>(const void*, const std::uint8_t*, std::uint64_t, void*, void*, bool, const void*);
SLUICE_AVX512_SIZE(1) SLUICE_AVX512_SIZE(2) SLUICE_AVX512_SIZE(4) SLUICE_AVX512_SIZE(8) SLUICE_AVX512_SIZE(16)
#define SLUICE_AVX512_IF(T)                                                                                    \
  template std::uint64_t avx512::count_if<T>(const T*, std::uint64_t, threshold<T>);                            \
  template void avx512::compact_if<T>(const T*, std::uint64_t, threshold<T>, T*, bool, const void*);                         \
  template void avx512::split_if<T>(const T*, std::uint64_t, threshold<T>, T*, T*, bool, const void*);
SLUICE_AVX512_IF(std::uint8_t) SLUICE_AVX512_IF(std::int32_t) SLUICE_AVX512_IF(std::uint32_t)
SLUICE_AVX512_IF(std::int64_t) SLUICE_AVX512_IF(std::uint64_t) SLUICE_AVX512_IF(float) SLUICE_AVX512_IF(double)
#define SLUICE_AVX512_OP(T, Op)                                                                                \
  template void avx512::reduce_lanes<T, Op>(const T*, std::uint64_t, T*);                                       \
  template void avx512::scan<T, Op>(const T*, T*, std::uint64_t, const T*, bool, bool, const void*);
#define SLUICE_AVX512_OPS(T) SLUICE_AVX512_OP(T, sum) SLUICE_AVX512_OP(T, product) SLUICE_AVX512_OP(T, minimum) SLUICE_AVX512_OP(T, maximum)
SLUICE_AVX512_OPS(std::int32_t) SLUICE_AVX512_OPS(std::uint32_t) SLUICE_AVX512_OPS(std::int64_t)
SLUICE_AVX512_OPS(std::uint64_t) SLUICE_AVX512_OPS(float) SLUICE_AVX512_OPS(double)

}  // namespace sluice::cpu_simd
