// Timing for benchmarks: CUDA events on the GPU, a steady clock on the CPU; medians after warm-up.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/options.hpp"

namespace sluice::tool {

struct timing {
  double median_ms;
  int repetitions;
};

// Run f once to warm up, then `reps` times, each timed alone (setup, if given, runs untimed before each);
// the median in milliseconds.
timing time_median(device d, int reps, const std::function<void()>& f, const std::function<void()>& setup = {});

// The candidates of one case timed together: each once to warm up, then `reps` rounds in which every candidate
// runs once, timed alone, round r starting from candidate r % k (k candidates). So none always runs first:
// timed one after another, whichever algorithm ran first took 4-7 us less per synchronous call at 2^10 on an
// H100 (docs/design/measurement.md; measured 2026-11). The medians, in the candidates' order.
std::vector<timing> time_interleaved(device d, int reps, const std::vector<std::function<void()>>& fs);

// What the machine is, for the figures: the GPU's name, or the CPU's model and the yardsticks' threads.
std::string machine_name(device d);

// CUDA only: run f once to warm up, then `reps` times with a step recorder installed (sluice/detail/
// step_recorder.hpp); the median milliseconds of each step the algorithm marks, in the order it marks them
// (a step's time runs from the previous mark, or the start of f, to its own). Empty when f marks no step.
std::vector<std::pair<std::string, double>> time_steps_median(int reps, const std::function<void()>& f);

// Threads of the CPU yardsticks and parallel peers: SLUICE_CPU_THREADS when it is a positive integer, else
// omp_get_max_threads() (OMP_NUM_THREADS when set, else every hardware thread).
int cpu_threads();

// Copy `bytes` from src to dst on the device: cudaMemcpyAsync device to device, or on the CPU one contiguous
// slice per thread, each a std::memcpy: cpu_threads() threads, fewer where a slice would be under 64 KiB;
// slices start 64-byte aligned in src.
void device_copy(device d, void* dst, const void* src, std::size_t bytes);

// The CPU read-rate yardstick: the wrapping sum of n u32, one contiguous slice per thread as device_copy.
std::uint32_t cpu_read(const std::uint32_t* p, std::size_t n);

}  // namespace sluice::tool
