// The gl device: the papers' OpenGL systems (fragment shaders, render-to-texture, line drawing, transform
// feedback) on a headless OpenGL 4.5 core context made through EGL (src/gl). Host memory in, host memory out:
// each call uploads its streams into 2D textures, runs the passes, and reads the result back. Built when
// CMake finds EGL and OpenGL (libegl-dev, libopengl-dev); otherwise every call reports errc::no_device.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "sluice/types.hpp"

namespace sluice::gl_backend {

// The element types the shaders know, as the bits they move and the comparisons and operators they apply.
enum class scalar : std::uint8_t { u8, i32, u32, i64, u64, f32, f64 };

template <class T>
constexpr bool known_scalar_v = std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::int32_t> ||
                                std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::int64_t> ||
                                std::is_same_v<T, std::uint64_t> || std::is_same_v<T, float> || std::is_same_v<T, double>;
template <class T>
constexpr scalar scalar_of() {
  if constexpr (std::is_same_v<T, std::uint8_t>) return scalar::u8;
  else if constexpr (std::is_same_v<T, std::int32_t>) return scalar::i32;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return scalar::u32;
  else if constexpr (std::is_same_v<T, std::int64_t>) return scalar::i64;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return scalar::u64;
  else if constexpr (std::is_same_v<T, float>) return scalar::f32;
  else return scalar::f64;
}

enum class reduce_op : std::uint8_t { sum, product, min, max };

// How a compaction selects: the caller's flag bytes, or a threshold predicate evaluated in a fragment shader.
struct selection {
  const std::uint8_t* flags = nullptr;  // non-null: keep element i when flags[i] != 0
  scalar type = scalar::u32;           // the predicate's element type
  compare op = compare::greater;       // the predicate: x op value
  std::uint64_t value_bits = 0;        // value, as the element's bits (zero-extended)
};

bool available() noexcept;          // a context can be made (cached)
std::string unavailable_reason();   // why not, when it cannot
void require_device(const char* fn);  // errc::no_device with the reason, unless available()

// reduce: `bits` holds n elements of `type`; returns the tree's result as bits (n > 0), op(init, .) left to the caller.
std::uint64_t reduce(std::string_view spec, scalar type, reduce_op op, const void* bits, std::uint64_t n, const char* fn);

// compact / compact_unordered of n elements of elem_bytes (1, 4, 8 or 16): writes min(count, out_capacity)
// elements to out and returns count.
std::uint64_t compact(std::string_view spec, bool unordered, const void* in, std::uint64_t n, std::size_t elem_bytes,
                      const selection& sel, void* out, std::uint64_t out_capacity, const char* fn);

// For `sluice bench`: the same work on streams uploaded once, run `runs` times, each timed on the GPU with a
// GL_TIME_ELAPSED query (milliseconds). The count or result bits of the last run go to *result.
std::vector<double> time_reduce(std::string_view spec, scalar type, reduce_op op, const void* bits, std::uint64_t n,
                                int runs, std::uint64_t* result);
std::vector<double> time_compact(std::string_view spec, bool unordered, const void* in, std::uint64_t n,
                                 std::size_t elem_bytes, const std::uint8_t* flags, int runs, std::uint64_t* count);
// The same-run yardstick on this device: a texture-to-texture copy of `bytes` (glCopyImageSubData), in ms.
std::vector<double> time_copy(std::uint64_t bytes, int runs);
std::string renderer();  // GL_RENDERER of the context, for the bench's labels

}  // namespace sluice::gl_backend
