// sluice::device_buffer<T>: an owning array in CUDA device memory, usable as a range by every sluice function.
#pragma once
#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "sluice/options.hpp"

namespace sluice {

namespace detail {
void* device_malloc(std::size_t bytes);  // errc::out_of_memory / no_device
void device_free(void* p) noexcept;
void memcpy_to_device(void* dst, const void* src, std::size_t bytes);  // synchronous
void memcpy_to_host(void* dst, const void* src, std::size_t bytes);    // synchronous
void memset_device(void* dst, int byte, std::size_t bytes);            // synchronous
}  // namespace detail

template <class T>
class device_buffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  device_buffer() = default;
  // n elements, every byte zero (as std::vector<T>(n) value-initializes): no read of the buffer ever sees
  // memory nothing has written.
  explicit device_buffer(std::size_t n) : device_buffer(n, allocate_only{}) { fill_bytes(0); }
  // A copy of host.
  explicit device_buffer(std::span<const T> host) : device_buffer(host.size(), allocate_only{}) { upload(host); }
  ~device_buffer() { detail::device_free(p_); }
  device_buffer(device_buffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  device_buffer& operator=(device_buffer&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;

  T* data() noexcept { return p_; }
  const T* data() const noexcept { return p_; }
  std::size_t size() const noexcept { return n_; }
  bool empty() const noexcept { return n_ == 0; }
  T* begin() noexcept { return p_; }
  T* end() noexcept { return p_ + n_; }
  const T* begin() const noexcept { return p_; }
  const T* end() const noexcept { return p_ + n_; }

  // Copy host.size() elements to the front of the buffer (synchronous).
  void upload(std::span<const T> host) { detail::memcpy_to_device(p_, host.data(), host.size_bytes()); }
  // All elements back to the host (synchronous).
  std::vector<T> download() const {
    std::vector<T> h(n_);
    detail::memcpy_to_host(h.data(), p_, n_ * sizeof(T));
    return h;
  }
  // Set every byte (synchronous): poison outputs before a test.
  void fill_bytes(int byte) { detail::memset_device(p_, byte, n_ * sizeof(T)); }

 private:
  struct allocate_only {};
  device_buffer(std::size_t n, allocate_only) : p_(static_cast<T*>(n ? detail::device_malloc(n * sizeof(T)) : nullptr)), n_(n) {}
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace sluice
