// Argument checks shared by the public functions: each error names the function and the argument.
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include "sluice/error.hpp"
#include "sluice/options.hpp"

namespace sluice::detail {

inline std::string arg_error(const char* fn, const char* arg, const std::string& what) {
  return std::string("sluice::") + fn + ": '" + arg + "' " + what;
}

template <class T>
void check_span(const char* fn, const char* arg, std::span<T> s) {
  if (s.data() == nullptr && !s.empty())
    throw error(errc::invalid_argument, arg_error(fn, arg, "is null but has size " + std::to_string(s.size())));
}

// Whether two ranges share a byte (empty ones share none).
template <class A, class B>
bool share_bytes(std::span<A> a, std::span<B> b) noexcept {
  if (a.empty() || b.empty()) return false;
  const auto a0 = reinterpret_cast<std::uintptr_t>(a.data()), a1 = a0 + a.size_bytes();
  const auto b0 = reinterpret_cast<std::uintptr_t>(b.data()), b1 = b0 + b.size_bytes();
  return a0 < b1 && b0 < a1;
}

// Partial overlap is always an error; exact aliasing (same start) only where `in_place_ok`.
template <class A, class B>
void check_overlap(const char* fn, const char* a_name, std::span<A> a, const char* b_name, std::span<B> b,
                   bool in_place_ok) {
  if (!share_bytes(a, b)) return;
  const bool same_start = static_cast<const void*>(a.data()) == static_cast<const void*>(b.data());
  if (same_start && in_place_ok) return;
  throw error(same_start ? errc::unsupported : errc::invalid_argument,
              arg_error(fn, b_name,
                        same_start ? std::string("aliases '") + a_name + "': this function does not run in place"
                                   : std::string("partially overlaps '") + a_name + "'"));
}

// A range read beside the one written (flags beside out) may not share a byte with it, not even its start: the
// write would change what is still to be read.
template <class R, class W>
void check_disjoint(const char* fn, const char* read_name, std::span<R> read, const char* written_name, std::span<W> written) {
  if (!share_bytes(read, written)) return;
  throw error(errc::invalid_argument, arg_error(fn, written_name, std::string("overlaps '") + read_name + "'"));
}

inline void check_capacity(const char* fn, const char* arg, std::uint64_t capacity, std::uint64_t needed) {
  if (capacity < needed)
    throw error(errc::invalid_argument, arg_error(fn, arg, "holds " + std::to_string(capacity) + " elements but " +
                                                               std::to_string(needed) + " are needed"));
}

inline void check_same_size(const char* fn, const char* arg, std::uint64_t size, const char* other,
                            std::uint64_t other_size) {
  if (size != other_size)
    throw error(errc::invalid_argument, arg_error(fn, arg, "has " + std::to_string(size) + " elements but '" + other +
                                                               "' has " + std::to_string(other_size)));
}

// n_segments + 1 entries, non-decreasing, none past the values: on the cpu one serial pass before any work (on
// cuda the backend checks them on the device).
inline void check_offsets(const char* fn, std::span<const std::uint64_t> offsets, std::uint64_t values, const options& opt) {
  if (offsets.empty()) throw error(errc::invalid_argument, arg_error(fn, "offsets", "is empty: it holds n_segments + 1 entries"));
  if (opt.device != device::cpu) return;
  for (std::uint64_t s = 1; s < offsets.size(); ++s)
    if (offsets[s] < offsets[s - 1])
      throw error(errc::invalid_argument, arg_error(fn, "offsets", "decreases at " + std::to_string(s) + ": " + std::to_string(offsets[s - 1]) +
                                                                       " then " + std::to_string(offsets[s])));
  if (offsets.back() > values)
    throw error(errc::invalid_argument, arg_error(fn, "offsets", "ends at " + std::to_string(offsets.back()) + ", past the " +
                                                                     std::to_string(values) + " values"));
}

}  // namespace sluice::detail
