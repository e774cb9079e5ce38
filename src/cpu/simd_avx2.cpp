// AVX2 block kernels: Billeter et al. 2009's compactSIMD without a compress instruction, by a permutation
// looked up from the lane mask (8 x 32-bit or 4 x 64-bit lanes), written through a line buffer (Sec. 4.2).
// 1-, 2- and 16-byte elements, and 64-bit integer products, minima and maxima, have no AVX2 kernel: they
// run the portable kernels (simd.hpp's has_* flags say so).
#include <immintrin.h>

#include <array>
#include <cstring>

#include "simd.hpp"
#include "simd_common.hpp"

namespace sluice::cpu_simd {
namespace {

using u8 = std::uint8_t;
using u64 = std::uint64_t;

class line_writer {  // as in simd_avx512.cpp, with 32-byte vectors
 public:
  line_writer(void* dst, bool stream) : stream_(stream) {
    const auto a = reinterpret_cast<std::uintptr_t>(dst);
    line_ = reinterpret_cast<u8*>(a & ~std::uintptr_t{63});
    head_ = pos_ = static_cast<unsigned>(a & 63);
  }
  void put(__m256i v, unsigned bytes) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(stage_ + pos_), v);
    pos_ += bytes;
    if (pos_ >= 64) flush();
  }
  void finish() {
    if (pos_ > head_) std::memcpy(line_ + head_, stage_ + head_, pos_ - head_);
    if (stream_) _mm_sfence();
  }

 private:
  void flush() {
    const __m256i lo = _mm256_load_si256(reinterpret_cast<const __m256i*>(stage_));
    const __m256i hi = _mm256_load_si256(reinterpret_cast<const __m256i*>(stage_ + 32));
    if (head_ != 0) {
      std::memcpy(line_ + head_, stage_ + head_, 64 - head_);
      head_ = 0;
    } else if (stream_) {
      _mm256_stream_si256(reinterpret_cast<__m256i*>(line_), lo);
      _mm256_stream_si256(reinterpret_cast<__m256i*>(line_ + 32), hi);
    } else {
      _mm256_store_si256(reinterpret_cast<__m256i*>(line_), lo);
      _mm256_store_si256(reinterpret_cast<__m256i*>(line_ + 32), hi);
    }
    _mm256_store_si256(reinterpret_cast<__m256i*>(stage_), _mm256_load_si256(reinterpret_cast<const __m256i*>(stage_ + 64)));
    line_ += 64;
    pos_ -= 64;
  }
  alignas(64) u8 stage_[128];
  u8* line_;
  unsigned head_, pos_;
  bool stream_;
};

inline int popcount(unsigned m) { return __builtin_popcount(m); }

// The permutation that moves the lanes set in an 8-bit mask to the front (4-byte elements); for 8-byte
// elements a 4-bit mask moves pairs of 32-bit lanes.
struct tables {
  alignas(32) std::int32_t by8[256][8];
  alignas(32) std::int32_t by4[16][8];
  constexpr tables() : by8{}, by4{} {
    for (int m = 0; m < 256; ++m) {
      int k = 0;
      for (int i = 0; i < 8; ++i)
        if (m >> i & 1) by8[m][k++] = i;
      while (k < 8) by8[m][k++] = 0;
    }
    for (int m = 0; m < 16; ++m) {
      int k = 0;
      for (int i = 0; i < 4; ++i)
        if (m >> i & 1) by4[m][k++] = 2 * i, by4[m][k++] = 2 * i + 1;
      while (k < 8) by4[m][k++] = 0;
    }
  }
};
constexpr tables lookup{};  // computed by the compiler: no AVX2 code runs at start-up

template <std::size_t S>
constexpr int lanes = static_cast<int>(32 / S);

template <std::size_t S>
__m256i compress(unsigned m, __m256i x) {
  const auto* idx = S == 4 ? lookup.by8[m] : lookup.by4[m];
  return _mm256_permutevar8x32_epi32(x, _mm256_load_si256(reinterpret_cast<const __m256i*>(idx)));
}

// Lanes [0, r) of 4- or 8-byte elements as a load mask.
template <std::size_t S>
__m256i lane_mask(int r) {
  if constexpr (S == 4) return _mm256_cmpgt_epi32(_mm256_set1_epi32(r), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  else return _mm256_cmpgt_epi64(_mm256_set1_epi64x(r), _mm256_setr_epi64x(0, 1, 2, 3));
}
template <std::size_t S>
__m256i load(const u8* p, int r) {
  if (r == lanes<S>) return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  if constexpr (S == 4) return _mm256_maskload_epi32(reinterpret_cast<const int*>(p), lane_mask<S>(r));
  else return _mm256_maskload_epi64(reinterpret_cast<const long long*>(p), lane_mask<S>(r));
}

// The flags of r <= L elements as a bit mask.
template <int L>
unsigned flag_mask(const u8* f, int r) {
  std::uint64_t w = 0;
  std::memcpy(&w, f, r == L ? L : r);
  const __m128i eq = _mm_cmpeq_epi8(_mm_cvtsi64_si128(static_cast<long long>(w)), _mm_setzero_si128());
  return ~static_cast<unsigned>(_mm_movemask_epi8(eq)) & ((1u << r) - 1);
}

template <std::size_t S, class MaskOf, class Ahead>
void compress_block(const u8* in, u64 n, u8* out, bool stream, MaskOf mask_of, Ahead ahead) {
  constexpr int L = lanes<S>;
  line_writer w(out, stream);
  for (u64 i = 0; i < n; i += L) {
    const int r = n - i < static_cast<u64>(L) ? static_cast<int>(n - i) : L;
    ahead(i);
    const __m256i x = load<S>(in + i * S, r);
    const unsigned m = mask_of(i, r, x) & ((1u << r) - 1);
    w.put(compress<S>(m, x), static_cast<unsigned>(popcount(m) * S));
  }
  w.finish();
}
template <std::size_t S, class MaskOf, class Ahead>
void split_block(const u8* in, u64 n, u8* kept, u8* rejected, bool stream, MaskOf mask_of, Ahead ahead) {
  constexpr int L = lanes<S>;
  line_writer k(kept, stream), j(rejected, stream);
  for (u64 i = 0; i < n; i += L) {
    const int r = n - i < static_cast<u64>(L) ? static_cast<int>(n - i) : L;
    ahead(i);
    const __m256i x = load<S>(in + i * S, r);
    const unsigned all = (1u << r) - 1, m = mask_of(i, r, x) & all;
    k.put(compress<S>(m, x), static_cast<unsigned>(popcount(m) * S));
    j.put(compress<S>(all & ~m, x), static_cast<unsigned>(popcount(all & ~m) * S));
  }
  k.finish();
  j.finish();
}

template <class T>
__m256i splat(T v) {
  if constexpr (sizeof(T) == 4) { int b; std::memcpy(&b, &v, 4); return _mm256_set1_epi32(b); }
  else { long long b; std::memcpy(&b, &v, 8); return _mm256_set1_epi64x(b); }
}

// Lane mask of x C v (one bit per lane).
template <class T, compare C>
unsigned cmp_mask(__m256i x, __m256i v) {
  if constexpr (std::is_same_v<T, float>) return static_cast<unsigned>(_mm256_movemask_ps(_mm256_cmp_ps(_mm256_castsi256_ps(x), _mm256_castsi256_ps(v), float_imm(C))));
  else if constexpr (std::is_same_v<T, double>) return static_cast<unsigned>(_mm256_movemask_pd(_mm256_cmp_pd(_mm256_castsi256_pd(x), _mm256_castsi256_pd(v), float_imm(C))));
  else {
    constexpr bool w4 = sizeof(T) == 4;
    if constexpr (!std::is_signed_v<T>) {  // unsigned order = signed order with the top bit flipped
      const __m256i top = w4 ? _mm256_set1_epi32(INT32_MIN) : _mm256_set1_epi64x(INT64_MIN);
      x = _mm256_xor_si256(x, top);
      v = _mm256_xor_si256(v, top);
    }
    auto gt = [](__m256i a, __m256i b) { return w4 ? _mm256_cmpgt_epi32(a, b) : _mm256_cmpgt_epi64(a, b); };
    auto bits = [](__m256i a) { return static_cast<unsigned>(w4 ? _mm256_movemask_ps(_mm256_castsi256_ps(a)) : _mm256_movemask_pd(_mm256_castsi256_pd(a))); };
    constexpr unsigned all = w4 ? 0xFF : 0xF;
    if constexpr (C == compare::less) return bits(gt(v, x));
    else if constexpr (C == compare::greater) return bits(gt(x, v));
    else if constexpr (C == compare::less_equal) return ~bits(gt(x, v)) & all;
    else if constexpr (C == compare::greater_equal) return ~bits(gt(v, x)) & all;
    else if constexpr (C == compare::equal) return bits(w4 ? _mm256_cmpeq_epi32(x, v) : _mm256_cmpeq_epi64(x, v));
    else return ~bits(w4 ? _mm256_cmpeq_epi32(x, v) : _mm256_cmpeq_epi64(x, v)) & all;
  }
}

template <class T, class Op>
__m256i vop(__m256i a, __m256i b) {
  constexpr bool f32 = std::is_same_v<T, float>, f64 = std::is_same_v<T, double>, w4 = sizeof(T) == 4;
  constexpr bool sig = std::is_signed_v<T>;
  auto ps = [](__m256i x) { return _mm256_castsi256_ps(x); };
  auto pd = [](__m256i x) { return _mm256_castsi256_pd(x); };
  if constexpr (std::is_same_v<Op, sum>) {
    if constexpr (f32) return _mm256_castps_si256(_mm256_add_ps(ps(a), ps(b)));
    else if constexpr (f64) return _mm256_castpd_si256(_mm256_add_pd(pd(a), pd(b)));
    else if constexpr (w4) return _mm256_add_epi32(a, b);
    else return _mm256_add_epi64(a, b);
  } else if constexpr (std::is_same_v<Op, product>) {
    if constexpr (f32) return _mm256_castps_si256(_mm256_mul_ps(ps(a), ps(b)));
    else if constexpr (f64) return _mm256_castpd_si256(_mm256_mul_pd(pd(a), pd(b)));
    else return _mm256_mullo_epi32(a, b);
  } else if constexpr (std::is_same_v<Op, minimum>) {  // b < a ? b : a, which MINPS(b, a) is
    if constexpr (f32) return _mm256_castps_si256(_mm256_min_ps(ps(b), ps(a)));
    else if constexpr (f64) return _mm256_castpd_si256(_mm256_min_pd(pd(b), pd(a)));
    else return sig ? _mm256_min_epi32(a, b) : _mm256_min_epu32(a, b);
  } else {
    if constexpr (f32) return _mm256_castps_si256(_mm256_max_ps(ps(b), ps(a)));
    else if constexpr (f64) return _mm256_castpd_si256(_mm256_max_pd(pd(b), pd(a)));
    else return sig ? _mm256_max_epi32(a, b) : _mm256_max_epu32(a, b);
  }
}

// Inclusive prefix of the lanes: shifted combines, lanes below the shift kept.
template <class T, class Op>
__m256i lane_scan(__m256i x) {
  // (the combines go through a variable: clang's _mm256_blend_epi32 is a macro, and vop<T, Op> has a comma)
  if constexpr (sizeof(T) == 4) {
    __m256i y = vop<T, Op>(_mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6)), x);
    x = _mm256_blend_epi32(y, x, 0x01);
    y = vop<T, Op>(_mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(0, 0, 0, 1, 2, 3, 4, 5)), x);
    x = _mm256_blend_epi32(y, x, 0x03);
    y = vop<T, Op>(_mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(0, 0, 0, 0, 0, 1, 2, 3)), x);
    x = _mm256_blend_epi32(y, x, 0x0F);
  } else {
    __m256i y = vop<T, Op>(_mm256_permute4x64_epi64(x, 0x90), x);
    x = _mm256_blend_epi32(y, x, 0x03);
    y = vop<T, Op>(_mm256_permute4x64_epi64(x, 0x40), x);
    x = _mm256_blend_epi32(y, x, 0x0F);
  }
  return x;
}
template <class T>
__m256i last_lane(__m256i x) {
  if constexpr (sizeof(T) == 4) return _mm256_permutevar8x32_epi32(x, _mm256_set1_epi32(7));
  else return _mm256_permute4x64_epi64(x, 0xFF);
}
template <class T>
__m256i shift_in(__m256i x, __m256i carry) {  // (carry, x[0], ..., x[L-2])
  if constexpr (sizeof(T) == 4) return _mm256_blend_epi32(_mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6)), carry, 0x01);
  else return _mm256_blend_epi32(_mm256_permute4x64_epi64(x, 0x93), carry, 0x03);
}

}  // namespace

std::uint64_t avx2::count_flags(const std::uint8_t* f, std::uint64_t n) {
  u64 k = 0, i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i eq = _mm256_cmpeq_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(f + i)), _mm256_setzero_si256());
    k += 32 - popcount(static_cast<unsigned>(_mm256_movemask_epi8(eq)));
  }
  for (; i < n; ++i) k += f[i] != 0;
  return k;
}

template <std::size_t S>
void avx2::compact_flags(const void* in, const std::uint8_t* f, std::uint64_t n, void* out, bool stream, const void* ahead) {
  if constexpr (has_flags<S>)
    compress_block<S>(static_cast<const u8*>(in), n, static_cast<u8*>(out), stream,
                      [f](u64 i, int r, __m256i) { return flag_mask<lanes<S>>(f + i, r); }, ahead_of(ahead, 1));
}
template <std::size_t S>
void avx2::split_flags(const void* in, const std::uint8_t* f, std::uint64_t n, void* kept, void* rejected, bool stream, const void* ahead) {
  if constexpr (has_flags<S>)
    split_block<S>(static_cast<const u8*>(in), n, static_cast<u8*>(kept), static_cast<u8*>(rejected), stream,
                   [f](u64 i, int r, __m256i) { return flag_mask<lanes<S>>(f + i, r); }, ahead_of(ahead, 1));
}

template <class T>
std::uint64_t avx2::count_if(const T* in, std::uint64_t n, threshold<T> p) {
  return with_compare(p, [&](auto c) {
    constexpr compare C = decltype(c)::value;
    constexpr int L = lanes<sizeof(T)>;
    const __m256i v = splat(p.value);
    const auto* b = reinterpret_cast<const u8*>(in);
    u64 k = 0;
    for (u64 i = 0; i < n; i += L) {
      const int r = n - i < static_cast<u64>(L) ? static_cast<int>(n - i) : L;
      k += popcount(cmp_mask<T, C>(load<sizeof(T)>(b + i * sizeof(T), r), v) & ((1u << r) - 1));
    }
    return k;
  });
}
template <class T>
void avx2::compact_if(const T* in, std::uint64_t n, threshold<T> p, T* out, bool stream, const void* ahead) {
  with_compare(p, [&](auto c) {
    constexpr compare C = decltype(c)::value;
    const __m256i v = splat(p.value);
    compress_block<sizeof(T)>(reinterpret_cast<const u8*>(in), n, reinterpret_cast<u8*>(out), stream,
                              [v](u64, int, __m256i x) { return cmp_mask<T, C>(x, v); }, ahead_of(ahead, sizeof(T)));
  });
}
template <class T>
void avx2::split_if(const T* in, std::uint64_t n, threshold<T> p, T* kept, T* rejected, bool stream, const void* ahead) {
  with_compare(p, [&](auto c) {
    constexpr compare C = decltype(c)::value;
    const __m256i v = splat(p.value);
    split_block<sizeof(T)>(reinterpret_cast<const u8*>(in), n, reinterpret_cast<u8*>(kept), reinterpret_cast<u8*>(rejected),
                           stream, [v](u64, int, __m256i x) { return cmp_mask<T, C>(x, v); }, ahead_of(ahead, sizeof(T)));
  });
}

template <class T, class Op>
void avx2::reduce_lanes(const T* in, std::uint64_t n, T* lanes_out) {
  constexpr int L = lanes<sizeof(T)>;
  const __m256i id = splat(identity<T, Op>());
  __m256i a0 = id, a1 = id, a2 = id, a3 = id;
  const auto* b = reinterpret_cast<const u8*>(in);
  auto at = [&](u64 i) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + i * sizeof(T))); };
  u64 i = 0;
  for (; i + 4 * L <= n; i += 4 * L) {
    a0 = vop<T, Op>(a0, at(i));
    a1 = vop<T, Op>(a1, at(i + L));
    a2 = vop<T, Op>(a2, at(i + 2 * L));
    a3 = vop<T, Op>(a3, at(i + 3 * L));
  }
  for (; i + L <= n; i += L) a0 = vop<T, Op>(a0, at(i));
  if (i < n) {  // the missing lanes take the identity
    const __m256i m = lane_mask<sizeof(T)>(static_cast<int>(n - i));
    a1 = vop<T, Op>(a1, _mm256_blendv_epi8(id, load<sizeof(T)>(b + i * sizeof(T), static_cast<int>(n - i)), m));
  }
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(lanes_out), vop<T, Op>(vop<T, Op>(a0, a1), vop<T, Op>(a2, a3)));
}

template <class T, class Op>
void avx2::scan(const T* in, T* out, std::uint64_t n, const T* carry, bool inclusive, bool stream, const void* ahead) {
  constexpr int L = lanes<sizeof(T)>;
  line_writer w(out, stream);
  const auto* b = reinterpret_cast<const u8*>(in);
  bool has = carry != nullptr;
  __m256i c = has ? splat(*carry) : _mm256_setzero_si256();
  const ahead_t next = ahead_of(ahead, sizeof(T));
  for (u64 i = 0; i < n; i += L) {
    const int r = n - i < static_cast<u64>(L) ? static_cast<int>(n - i) : L;
    next(i);
    __m256i x = lane_scan<T, Op>(load<sizeof(T)>(b + i * sizeof(T), r));
    if (has) x = vop<T, Op>(c, x);
    w.put(inclusive ? x : shift_in<T>(x, c), static_cast<unsigned>(r * sizeof(T)));
    c = last_lane<T>(x);
    has = true;
  }
  w.finish();
}

#define SLUICE_AVX2_SIZE(S)                                                                                    \
  template void avx2::compact_flags<S>(const void*, const std::uint8_t*, std::uint64_t, void*, bool, const void*);           \
  template void avx2::split_flags<S>(const void*, const std::uint8_t*, std::uint64_t, void*, void*, bool, const void*);
SLUICE_AVX2_SIZE(4) SLUICE_AVX2_SIZE(8)
#define SLUICE_AVX2_IF(T)                                                                                      \
  template std::uint64_t avx2::count_if<T>(const T*, std::uint64_t, threshold<T>);                              \
  template void avx2::compact_if<T>(const T*, std::uint64_t, threshold<T>, T*, bool, const void*);                           \
  template void avx2::split_if<T>(const T*, std::uint64_t, threshold<T>, T*, T*, bool, const void*);
SLUICE_AVX2_IF(std::int32_t) SLUICE_AVX2_IF(std::uint32_t) SLUICE_AVX2_IF(std::int64_t) SLUICE_AVX2_IF(std::uint64_t)
SLUICE_AVX2_IF(float) SLUICE_AVX2_IF(double)
#define SLUICE_AVX2_OP(T, Op)                                                                                  \
  template void avx2::reduce_lanes<T, Op>(const T*, std::uint64_t, T*);                                         \
  template void avx2::scan<T, Op>(const T*, T*, std::uint64_t, const T*, bool, bool, const void*);
#define SLUICE_AVX2_OPS(T) SLUICE_AVX2_OP(T, sum) SLUICE_AVX2_OP(T, product) SLUICE_AVX2_OP(T, minimum) SLUICE_AVX2_OP(T, maximum)
SLUICE_AVX2_OPS(std::int32_t) SLUICE_AVX2_OPS(std::uint32_t) SLUICE_AVX2_OPS(float) SLUICE_AVX2_OPS(double)
SLUICE_AVX2_OP(std::int64_t, sum) SLUICE_AVX2_OP(std::uint64_t, sum)

}  // namespace sluice::cpu_simd
