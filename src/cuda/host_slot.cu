// copy_to_host's small copies (runtime.cpp): one thread copies a result of up to 16 bytes from device memory to
// a mapped host slot, in stream order after the kernel that wrote it, so that the host reads it once the stream
// is done. Measured against cudaMemcpyAsync to the host: docs/performance.md, "Stop 41".
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace sluice::cuda_backend {

namespace {
__global__ void copy_small_kernel(void* to, const void* from, unsigned bytes) {
  if (bytes % 8 == 0 && reinterpret_cast<std::uintptr_t>(to) % 8 == 0 && reinterpret_cast<std::uintptr_t>(from) % 8 == 0) {
    for (unsigned i = 0; i < bytes / 8; ++i) static_cast<unsigned long long*>(to)[i] = static_cast<const unsigned long long*>(from)[i];
  } else {
    for (unsigned i = 0; i < bytes; ++i) static_cast<unsigned char*>(to)[i] = static_cast<const unsigned char*>(from)[i];
  }
}
}  // namespace

cudaError_t launch_copy_small(void* to, const void* from, std::size_t bytes, cudaStream_t s) {
  copy_small_kernel<<<1, 1, 0, s>>>(to, from, static_cast<unsigned>(bytes));
  return cudaGetLastError();
}

}  // namespace sluice::cuda_backend
