// The public primitives' path to the gl device: element types and operators mapped to what the shaders know.
#pragma once
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "sluice/error.hpp"
#include "sluice/gl/backend.hpp"
#include "sluice/detail/select.hpp"

namespace sluice::detail {

template <class Op>
constexpr bool gl_op_v = std::is_same_v<Op, sum> || std::is_same_v<Op, product> || std::is_same_v<Op, minimum> ||
                         std::is_same_v<Op, maximum>;

template <class Op>
constexpr gl_backend::reduce_op gl_op() {
  if constexpr (std::is_same_v<Op, sum>) return gl_backend::reduce_op::sum;
  else if constexpr (std::is_same_v<Op, product>) return gl_backend::reduce_op::product;
  else if constexpr (std::is_same_v<Op, minimum>) return gl_backend::reduce_op::min;
  else return gl_backend::reduce_op::max;
}

[[noreturn]] inline void no_gl_shaders(const char* fn, const std::string& what) {
  throw error(errc::unsupported, std::string("sluice::") + fn + ": the gl device has no shaders for " + what);
}

// init op (the tree's result): the tree runs on the GPU, init joins it on the host.
template <class T, class Op>
T gl_reduce(std::string_view spec, std::span<const T> in, T init, Op op, const char* fn) {
  if constexpr (gl_backend::known_scalar_v<T> && !std::is_same_v<T, std::uint8_t> && gl_op_v<Op>) {
    const std::uint64_t bits = gl_backend::reduce(spec, gl_backend::scalar_of<T>(), gl_op<Op>(), in.data(), in.size(), fn);
    if (in.empty()) return init;
    T r;
    std::memcpy(&r, &bits, sizeof r);
    return op(init, r);
  } else {
    no_gl_shaders(fn, "this element type and operator (i32, u32, i64, u64, f32, f64 with sum, product, minimum, maximum)");
  }
}

template <class T, class Sel>
std::uint64_t gl_compact(std::string_view spec, bool unordered, std::span<const T> in, std::span<T> out, Sel sel, const char* fn) {
  constexpr std::size_t bytes = sizeof(T);
  if constexpr (bytes != 1 && bytes != 4 && bytes != 8 && bytes != 16) {
    no_gl_shaders(fn, "elements of " + std::to_string(bytes) + " bytes (1, 4, 8 or 16)");
  } else {
    gl_backend::selection s;
    if constexpr (std::is_same_v<Sel, flag_select>) {
      s.flags = sel.flags;
    } else if constexpr (gl_backend::known_scalar_v<T> && std::is_same_v<decltype(sel.pred), threshold<T>>) {
      s.type = gl_backend::scalar_of<T>();
      s.op = sel.pred.op;
      std::memcpy(&s.value_bits, &sel.pred.value, sizeof(T));
    } else {
      no_gl_shaders(fn, "this predicate (the built-in sluice::threshold on a scalar element is evaluated in a shader)");
    }
    return gl_backend::compact(spec, unordered, in.data(), in.size(), bytes, s, out.data(), out.size(), fn);
  }
}

}  // namespace sluice::detail
