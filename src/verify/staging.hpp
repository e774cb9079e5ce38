// Inputs and outputs of a verification case, on the host or copied to the GPU, with poisoned outputs.
#pragma once
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "sluice/device_buffer.hpp"
#include "sluice/options.hpp"
#include "sluice/types.hpp"

namespace sluice::verify {

inline constexpr unsigned char poison_byte = 0xA5;
inline constexpr std::size_t guard = 16;  // elements past the span handed to sluice that must stay poisoned

template <class T>
class staged {
 public:
  staged(const std::vector<T>& host, device d) : host_(host), on_gpu_(d == device::cuda) {
    if (on_gpu_) dev_ = device_buffer<T>(std::span<const T>(host_));
  }
  // A poisoned output of n elements plus the guard.
  static staged poisoned(std::size_t n, device d) {
    std::vector<T> h(n + guard);
    std::memset(static_cast<void*>(h.data()), poison_byte, h.size() * sizeof(T));
    staged s(h, d);
    s.n_ = n;
    return s;
  }
  std::span<T> span() { return {on_gpu_ ? dev_.data() : host_.data(), n_ == npos ? host_.size() : n_}; }
  std::vector<T> fetch() const { return on_gpu_ ? dev_.download() : host_; }

 private:
  static constexpr std::size_t npos = ~std::size_t{0};
  std::vector<T> host_;
  device_buffer<T> dev_;
  bool on_gpu_;
  std::size_t n_ = npos;
};

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
bool is_poison(const T& a) {
  const auto* p = reinterpret_cast<const unsigned char*>(&a);
  for (std::size_t i = 0; i < sizeof(T); ++i)
    if (p[i] != poison_byte) return false;
  return true;
}

template <class T>
std::string show(const T& x) {
  if constexpr (std::is_same_v<T, vec4u>) {
    return "{" + std::to_string(x.x) + "," + std::to_string(x.y) + "," + std::to_string(x.z) + "," + std::to_string(x.w) + "}";
  } else if constexpr (std::is_floating_point_v<T>) {
    char b[64];
    std::snprintf(b, sizeof b, "%.9g", static_cast<double>(x));
    return b;
  } else {
    return std::to_string(+x);
  }
}

template <class T> constexpr const char* type_name();
template <> constexpr const char* type_name<std::uint8_t>() { return "u8"; }
template <> constexpr const char* type_name<std::int32_t>() { return "i32"; }
template <> constexpr const char* type_name<std::uint32_t>() { return "u32"; }
template <> constexpr const char* type_name<std::int64_t>() { return "i64"; }
template <> constexpr const char* type_name<std::uint64_t>() { return "u64"; }
template <> constexpr const char* type_name<float>() { return "f32"; }
template <> constexpr const char* type_name<double>() { return "f64"; }
template <> constexpr const char* type_name<vec4u>() { return "vec4u"; }

}  // namespace sluice::verify
