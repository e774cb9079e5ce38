// Selectors: how a data-movement primitive decides whether element i (value x) is kept.
#pragma once
#include <cstdint>

#include "sluice/types.hpp"

namespace sluice::detail {

struct flag_select {  // a flag byte keeps its element when non-zero
  const std::uint8_t* flags;
  template <class T>
  SLUICE_HD bool operator()(std::uint64_t i, const T&) const { return flags[i] != 0; }
};

template <class Pred>
struct pred_select {  // the user's predicate on the value
  Pred pred;
  template <class T>
  SLUICE_HD bool operator()(std::uint64_t, const T& x) const { return static_cast<bool>(pred(x)); }
};

}  // namespace sluice::detail
