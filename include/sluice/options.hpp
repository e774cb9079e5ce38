// Where and how a call runs: device, algorithm by name, CUDA stream.
#pragma once
#include <cstdint>
#include <string_view>

struct CUstream_st;  // cudaStream_t without the CUDA headers

namespace sluice {

// cpu: host memory; cuda: CUDA device memory; gl: the papers' OpenGL systems (host memory in and out: each
// call uploads its streams into textures and reads the result back; see docs/guide/gl.md).
enum class device { cpu, cuda, gl };

constexpr std::string_view to_string(device d) noexcept { return d == device::cpu ? "cpu" : d == device::cuda ? "cuda" : "gl"; }

struct options {
  sluice::device device = sluice::device::cpu;  // cuda: every span must point to device (or managed) memory
  std::string_view algorithm = "best";  // a name from `sluice list`, optionally with parameters: "roger:s=128"
  CUstream_st* stream = nullptr;                 // CUDA stream (cudaStream_t); nullptr is the legacy default stream
};

// True when the device can run work now (cuda: built with CUDA and a GPU is present; gl: built with EGL and
// OpenGL and a headless OpenGL 4.5 core context can be made).
bool device_available(device d) noexcept;

// Hands every byte of freed scratch that sluice's CUDA memory pool on the current device holds back to the
// device, after waiting for the device; returns how many. Between calls the pool keeps up to an eighth of
// the device's memory, and each stream its own small scratch and look-back states (up to 1 MiB each, freed
// here too; docs/guide/cuda.md); call this before allocating most of the device
// yourself. Without CUDA, or with no scratch held: 0. Do not call it while a stream is being captured: it
// waits for the device, which capture forbids (it then hands nothing back and returns 0).
std::uint64_t release_scratch() noexcept;

}  // namespace sluice
