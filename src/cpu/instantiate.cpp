// The precompiled CPU entry points: the plan's SIMD level picks the block kernels (AVX-512, AVX2, or the
// portable ones where a level has none), the P x S algorithm runs them on the plan's threads.
#define SLUICE_INSTANTIATING 1
#include "simd.hpp"
#include "sluice/cpu/dispatch.hpp"

namespace sluice::cpu_backend {
namespace {

using detail::flag_select;
using detail::pred_select;

// The kernels of one instruction set in the shape the algorithms call them; where the set has no kernel
// for the element, operator or predicate, the portable one.
template <class ISA>
struct simd_kernels {
  using portable = cpu::portable_kernels;

  template <class W>
  static std::uint64_t count(const W* in, std::uint64_t first, std::uint64_t n, flag_select& s) {
    return ISA::count_flags(s.flags + first, n);
  }
  template <class T>
  static std::uint64_t count(const T* in, std::uint64_t first, std::uint64_t n, pred_select<threshold<T>>& s) {
    if constexpr (ISA::template has_if<T>) return ISA::count_if(in, n, s.pred);
    else return portable::count(in, first, n, s);
  }
  template <class W>
  static void compact(const W* in, std::uint64_t first, std::uint64_t n, flag_select& s, W* out, bool stream, const W* next,
                      std::uint64_t next_index) {
    if constexpr (ISA::template has_flags<sizeof(W)>)
      ISA::template compact_flags<sizeof(W)>(in, s.flags + first, n, out, stream, next ? s.flags + next_index : nullptr);
    else portable::compact(in, first, n, s, out, stream, next, next_index);
  }
  template <class T>
  static void compact(const T* in, std::uint64_t first, std::uint64_t n, pred_select<threshold<T>>& s, T* out, bool stream,
                      const T* next, std::uint64_t next_index) {
    if constexpr (ISA::template has_if<T>) ISA::compact_if(in, n, s.pred, out, stream, next);
    else portable::compact(in, first, n, s, out, stream, next, next_index);
  }
  template <class W>
  static void split(const W* in, std::uint64_t first, std::uint64_t n, flag_select& s, W* kept, W* rejected, bool stream,
                    const W* next, std::uint64_t next_index) {
    if constexpr (ISA::template has_flags<sizeof(W)>)
      ISA::template split_flags<sizeof(W)>(in, s.flags + first, n, kept, rejected, stream, next ? s.flags + next_index : nullptr);
    else portable::split(in, first, n, s, kept, rejected, stream, next, next_index);
  }
  template <class T>
  static void split(const T* in, std::uint64_t first, std::uint64_t n, pred_select<threshold<T>>& s, T* kept, T* rejected,
                    bool stream, const T* next, std::uint64_t next_index) {
    if constexpr (ISA::template has_if<T>) ISA::split_if(in, n, s.pred, kept, rejected, stream, next);
    else portable::split(in, first, n, s, kept, rejected, stream, next, next_index);
  }
  // The lanes are folded left to right here, in portable code.
  template <class T, class Op>
  static T reduce(const T* in, std::uint64_t n, Op& op) {
    if constexpr (ISA::template has_reduce<T, Op>) {
      constexpr int L = ISA::lane_bytes / static_cast<int>(sizeof(T));
      T lanes[L];
      ISA::template reduce_lanes<T, Op>(in, n, lanes);
      T acc = lanes[0];
      for (int i = 1; i < L; ++i) acc = op(acc, lanes[i]);
      return acc;
    } else {
      return portable::reduce(in, n, op);
    }
  }
  template <class T, class Op>
  static void scan(const T* in, T* out, std::uint64_t n, const T* carry, bool inclusive, Op& op, bool stream, const T* next) {
    if constexpr (ISA::template has_reduce<T, Op>) ISA::template scan<T, Op>(in, out, n, carry, inclusive, stream, next);
    else portable::scan(in, out, n, carry, inclusive, op, stream, next);
  }
};

template <class F>
decltype(auto) with_kernels(const plan& p, F&& f) {
  switch (p.simd) {
    case simd_level::avx512: return f(simd_kernels<cpu_simd::avx512>{});
    case simd_level::avx2: return f(simd_kernels<cpu_simd::avx2>{});
    default: return f(cpu::portable_kernels{});
  }
}

}  // namespace

template <class T, class Op>
T reduce(const plan& p, std::span<const T> in, T init, Op op) {
  return with_kernels(p, [&](auto k) { return cpu::vectorized_reduce<decltype(k)>(p.threads, in, init, op); });
}
template <class T, class Op>
void scan(const plan& p, std::span<const T> in, std::span<T> out, bool inclusive, T init, Op op) {
  with_kernels(p, [&](auto k) { cpu::billeter_scan<decltype(k)>(p.threads, in, out, inclusive, init, op); });
}
template <class T, class Sel>
std::uint64_t compact(const plan& p, std::span<const T> in, std::span<T> out, Sel sel) {
  return with_kernels(p, [&](auto k) { return cpu::billeter_compact<decltype(k)>(p.threads, in, out, sel); });
}
template <class T, class Sel>
std::uint64_t partition(const plan& p, std::span<const T> in, std::span<T> out, Sel sel, bool unordered) {
  return with_kernels(p, [&](auto k) { return cpu::split_partition<decltype(k)>(p.threads, in, out, sel, unordered); });
}

#define SLUICE_CPU_OP(T, Op)                                                                                   \
  template T reduce<T, Op>(const plan&, std::span<const T>, T, Op);                                            \
  template void scan<T, Op>(const plan&, std::span<const T>, std::span<T>, bool, T, Op);
#define SLUICE_CPU_OPS(T) SLUICE_OPS(SLUICE_CPU_OP, T)
SLUICE_NUMERIC_TYPES(SLUICE_CPU_OPS)
#define SLUICE_CPU_SEL(T, Sel)                                                                                 \
  template std::uint64_t compact<T, Sel>(const plan&, std::span<const T>, std::span<T>, Sel);                  \
  template std::uint64_t partition<T, Sel>(const plan&, std::span<const T>, std::span<T>, Sel, bool);
#define SLUICE_CPU_PRED(T) SLUICE_CPU_SEL(T, pred_select<threshold<T>>)
SLUICE_PREDICATE_TYPES(SLUICE_CPU_PRED)
#define SLUICE_CPU_STORAGE(S, A)                                                                               \
  template std::uint64_t compact<detail::storage<S, A>, flag_select>(const plan&, std::span<const detail::storage<S, A>>, \
                                                                     std::span<detail::storage<S, A>>, flag_select); \
  template std::uint64_t partition<detail::storage<S, A>, flag_select>(const plan&, std::span<const detail::storage<S, A>>, \
                                                                       std::span<detail::storage<S, A>>, flag_select, bool);
SLUICE_STORAGE(SLUICE_CPU_STORAGE)

}  // namespace sluice::cpu_backend
