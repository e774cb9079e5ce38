// Data-movement primitives only copy bits: flagged compaction, partition and sort values run on an opaque
// storage word of the element's size and alignment, so the precompiled library serves any trivially
// copyable element of 1, 2, 4, 8 or 16 bytes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "sluice/types.hpp"

namespace sluice::detail {

template <std::size_t Size, std::size_t Align>
struct storage {
  static_assert(Size % Align == 0);
  using word = std::conditional_t<Align == 1, std::uint8_t,
               std::conditional_t<Align == 2, std::uint16_t,
               std::conditional_t<Align == 4, std::uint32_t, std::uint64_t>>>;
  static constexpr std::size_t words = Size / (Align > 8 ? 8 : Align);
  alignas(Align) word w[words];
};

template <class T>
inline constexpr bool movable_element_v = std::is_trivially_copyable_v<T> &&
    (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16) &&
    alignof(T) <= sizeof(T);

template <class T>
using storage_of = storage<sizeof(T), alignof(T)>;

// A range of T seen as its storage words (the element's size and alignment): what the precompiled kernels take.
template <class T>
std::span<const storage_of<T>> as_storage(std::span<const T> s) {
  return {reinterpret_cast<const storage_of<T>*>(s.data()), s.size()};
}
template <class T>
std::span<storage_of<T>> as_storage(std::span<T> s) {
  return {reinterpret_cast<storage_of<T>*>(s.data()), s.size()};
}

}  // namespace sluice::detail
