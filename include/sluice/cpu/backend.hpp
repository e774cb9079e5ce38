// The CPU backend's run-time services (src/cpu/runtime.cpp, src/cpu/team.cpp): how many threads (P) and
// which SIMD level (S lanes) a call uses, and the team of threads its phases run on. The algorithms
// themselves are templates (cpu/billeter.hpp, cpu/split.hpp, cpu/billeter_scan.hpp, cpu/vectorized_reduce.hpp,
// cpu/lsd_radix_sort.hpp); the SIMD kernels for the listed element types are precompiled (src/cpu/).
#pragma once
#include <cstdint>
#include <string_view>

namespace sluice::cpu_backend {

// The instruction set of the kernels. avx512 needs AVX-512 F, BW, VL, DQ and VBMI2 (the compress of bytes
// and words); avx2 needs AVX2 and BMI2.
enum class simd_level { scalar, avx2, avx512 };

constexpr std::string_view to_string(simd_level s) noexcept {
  return s == simd_level::avx512 ? "avx512" : s == simd_level::avx2 ? "avx2" : "scalar";
}

// The best level this processor supports.
simd_level detected_simd() noexcept;
// The processors this process may run on (its affinity mask; the hardware's count where that is unknown).
int processors() noexcept;
// The number of threads a call uses by default: SLUICE_CPU_THREADS if set, else OpenMP's default.
int default_threads() noexcept;

// How one call runs: P threads, S lanes.
struct plan {
  int threads;
  simd_level simd;
};

// The plan of a spec ("billeter:threads=2,simd=avx2"): the spec's parameters first, then the environment
// (SLUICE_CPU_THREADS, SLUICE_CPU_SIMD=avx512|avx2|scalar), then the defaults (all threads, the best level).
// Asking for a level the processor lacks is an `unsupported` error; a malformed value an `invalid_argument`.
plan make_plan(std::string_view spec, const char* fn);

// Run body(ctx, thread, threads) on `threads` threads (the calling thread and its own team of workers,
// src/cpu/team.cpp) and wait for all of them. body must not throw; barrier() inside it waits for every thread
// of the call.
void run_parallel(int threads, void (*body)(void* ctx, int thread, int threads), void* ctx);
void barrier();

}  // namespace sluice::cpu_backend
