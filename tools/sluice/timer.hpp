// Timing for benchmarks: CUDA events on the GPU, a steady clock on the CPU; medians after warm-up.
#pragma once
#include <cstddef>
#include <functional>

#include "sluice/options.hpp"

namespace sluice::tool {

struct timing {
  double median_ms;
  int repetitions;
};

// Run f once to warm up, then `reps` times, each timed alone (setup, if given, runs untimed before each);
// the median in milliseconds.
timing time_median(device d, int reps, const std::function<void()>& f, const std::function<void()>& setup = {});

// Copy `bytes` from src to dst on the device (cudaMemcpyAsync device to device, or std::memcpy).
void device_copy(device d, void* dst, const void* src, std::size_t bytes);

}  // namespace sluice::tool
