// A synchronous call that returns once its result is in host memory, before the stream has signalled that it is done
// (bench/sync_poll.cu, docs/performance.md "Stop 52": the host saw a mapped slot change 1.8-2.2 us before
// cudaStreamSynchronize returned, H200).
#pragma once
#include "sluice/cuda/backend.hpp"

namespace sluice::cuda_backend {

// Host-slot watching (src/runtime.cpp). arm: the slot's first 8 bytes set to all ones. watch: true once they
// differ (read with acquire), within watch_limit_us; false where they do not change in that time, where the stream
// ends first (the result may equal the all-ones pattern) or fails: the caller then waits for the stream.
inline constexpr double watch_limit_us = 100;
void arm_host_slot(void* slot) noexcept;
bool watch_host_slot(const void* slot, CUstream_st* stream) noexcept;

// through_host_slot for a call whose kernels store the result last: one store of at most 8 bytes, after every other
// store of the call and after every load of its input, by the call's last kernel (vectorized reduce's single
// kernel or its last block). When the slot changes, all the call's work that anyone can see is done and
// everything before it in the stream finished before it began; the kernel may still be ending, in stream order
// before any later work. Bounded: past watch_limit_us the stream is waited for as through_host_slot does.
template <class T, class Write>
std::optional<T> through_watched_host_slot(CUstream_st* stream, const char* fn, Write write) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "one store the host sees whole");
  host_slot slot(fn);
  T* const p = slot.as<T>();
  if (p == nullptr) return std::nullopt;
  arm_host_slot(p);
  write(p);
  if (!watch_host_slot(p, stream)) synchronize(stream, fn);
  slot.done();
  T result;
  std::memcpy(&result, p, sizeof result);
  return result;
}

}  // namespace sluice::cuda_backend
