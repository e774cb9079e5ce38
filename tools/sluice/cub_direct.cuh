// What cub_direct_reduce_scan.cu and cub_direct_select.cu share: a CUB call set up once (cub_direct.hpp).
#pragma once
#include <cuda_runtime.h>

#include <climits>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "cub_direct.hpp"
#include "sluice/error.hpp"

namespace sluice::tool::cub_direct {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw error(errc::cuda_error, std::string("sluice bench: ") + what + ": " + cudaGetErrorString(e));
}

// Device memory freed when the last call holding it goes.
struct device_block {
  void* p = nullptr;
  explicit device_block(std::size_t bytes) { check(cudaMalloc(&p, bytes ? bytes : 1), "cudaMalloc of CUB's temporary storage"); }
  ~device_block() { cudaFree(p); }
  device_block(const device_block&) = delete;
  device_block& operator=(const device_block&) = delete;
};

// f(temp, bytes, items) runs one CUB algorithm (temp null: asks its storage size); items is n as an int where
// it fits, else std::int64_t. The storage is asked for and allocated now; the call runs f, then, where
// `result` is given, copies its `result_bytes` to the host.
template <class F>
call make(std::uint64_t n, const char* what, F f, const void* result = nullptr, std::size_t result_bytes = 0) {
  auto with_items = [n](auto&& g) {
    if (n <= static_cast<std::uint64_t>(INT_MAX)) return g(static_cast<int>(n));
    return g(static_cast<std::int64_t>(n));
  };
  std::size_t bytes = 0;
  check(with_items([&](auto items) { return f(nullptr, bytes, items); }), what);
  auto temp = std::make_shared<device_block>(bytes);
  return [=] {
    std::size_t b = bytes;
    check(with_items([&](auto items) { return f(temp->p, b, items); }), what);
    if (result) {
      alignas(8) unsigned char host[16];
      check(cudaMemcpy(host, result, result_bytes, cudaMemcpyDeviceToHost), "cudaMemcpy of CUB's result");
    }
  };
}

}  // namespace sluice::tool::cub_direct
