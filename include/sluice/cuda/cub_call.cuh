// Calling a CUB device-wide algorithm: ask its scratch size, take it from sluice's pool, run it.
#pragma once
#include "sluice/cuda/common.cuh"

namespace sluice::cuda_backend {

template <class F>  // F(void* temp, size_t& bytes) -> cudaError_t
void cub_call(F&& f, cudaStream_t s, const char* fn, const char* what) {
  std::size_t bytes = 0;
  check_cuda(f(nullptr, bytes), fn, what);
  scratch temp(bytes ? bytes : 1, s, fn);
  check_cuda(f(temp.as<void>(), bytes), fn, what);
}

}  // namespace sluice::cuda_backend
