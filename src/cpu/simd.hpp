// The SIMD block kernels of the CPU backend, one struct per instruction set (src/cpu/simd_avx512.cpp,
// src/cpu/simd_avx2.cpp; each file is compiled for its own instruction set, and nothing else is). Elements are
// moved as bytes of size S; predicates and operators are the built-in ones. `has_*` says which kernels a
// level has: the others run the portable kernels (include/sluice/cpu/portable_kernels.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "sluice/types.hpp"

namespace sluice::cpu_simd {

// `ahead`: where this thread's next block starts (its flags for the flag kernels); the move kernels prefetch it
// into L2 at the pace they read, so that the next count finds it in cache.
#define SLUICE_CPU_ISA_KERNELS                                                                                  \
  static std::uint64_t count_flags(const std::uint8_t* flags, std::uint64_t n);                                 \
  template <std::size_t S>                                                                                      \
  static void compact_flags(const void* in, const std::uint8_t* flags, std::uint64_t n, void* out, bool stream, const void* ahead); \
  template <std::size_t S>                                                                                      \
  static void split_flags(const void* in, const std::uint8_t* flags, std::uint64_t n, void* kept, void* rejected, \
                          bool stream, const void* ahead);                                                      \
  template <class T>                                                                                            \
  static std::uint64_t count_if(const T* in, std::uint64_t n, threshold<T> p);                                  \
  template <class T>                                                                                            \
  static void compact_if(const T* in, std::uint64_t n, threshold<T> p, T* out, bool stream, const void* ahead);  \
  template <class T>                                                                                            \
  static void split_if(const T* in, std::uint64_t n, threshold<T> p, T* kept, T* rejected, bool stream, const void* ahead); \
  /* lanes[0 .. 64 / sizeof(T)): per-lane folds of in[0, n), identity where a lane saw nothing */               \
  template <class T, class Op>                                                                                  \
  static void reduce_lanes(const T* in, std::uint64_t n, T* lanes);                                             \
  template <class T, class Op>                                                                                  \
  static void scan(const T* in, T* out, std::uint64_t n, const T* carry, bool inclusive, bool stream, const void* ahead);

struct avx512 {
  static constexpr int lane_bytes = 64;
  template <std::size_t S> static constexpr bool has_flags = true;
  template <class T> static constexpr bool has_if = true;
  template <class T, class Op> static constexpr bool has_reduce = true;
  SLUICE_CPU_ISA_KERNELS
};

struct avx2 {
  static constexpr int lane_bytes = 32;
  template <std::size_t S> static constexpr bool has_flags = S == 4 || S == 8;
  template <class T> static constexpr bool has_if = sizeof(T) == 4 || sizeof(T) == 8;
  // No 64-bit integer multiply, minimum or maximum in AVX2.
  template <class T, class Op>
  static constexpr bool has_reduce = !(sizeof(T) == 8 && std::is_integral_v<T> && !std::is_same_v<Op, sum>);
  SLUICE_CPU_ISA_KERNELS
};

#undef SLUICE_CPU_ISA_KERNELS

}  // namespace sluice::cpu_simd
