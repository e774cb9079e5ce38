// What every CUDA variant shares: launch checks, ceil division, loads and stores through functors.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "sluice/cuda/backend.hpp"
#include "sluice/error.hpp"
#include "sluice/types.hpp"

namespace sluice::cuda_backend {

using u64 = std::uint64_t;

inline void check_launch(const char* fn, const char* kernel) { check_cuda(cudaGetLastError(), fn, kernel); }

__host__ __device__ constexpr u64 ceil_div(u64 a, u64 b) { return (a + b - 1) / b; }

template <class T>
struct ptr_load {
  const T* p;
  __device__ T operator()(u64 i) const { return p[i]; }
};
template <class T>
struct ptr_store {
  T* p;
  __device__ void operator()(u64 i, const T& v) const { p[i] = v; }
};

// Sixteen bytes seen as one vector load/store or as its elements (the single-pass kernels' I/O unit).
template <class T>
union vec16 {
  uint4 raw;
  T e[16 / sizeof(T)];
};

// An optional value: `has` is false for an empty range (a general operator has no identity), and
// maybe_op<T, Op>{op} combines two of them in order, an empty side leaving the other as it is.
template <class T>
struct maybe {
  T v;
  bool has;
};
template <class T, class Op>
struct maybe_op {
  Op op;
  __device__ maybe<T> operator()(const maybe<T>& a, const maybe<T>& b) const {
    if (!a.has) return b;
    if (!b.has) return a;
    return {op(a.v, b.v), true};
  }
};

// The block's dynamic shared memory as an array of T (launch with the bytes as the third <<<>>> argument).
template <class T>
__device__ T* dynamic_shared() {
  extern __shared__ __align__(16) unsigned char dynamic_shared_bytes[];
  return reinterpret_cast<T*>(dynamic_shared_bytes);
}

// The V that lies Offset bytes into the block's dynamic shared memory (a pipeline's variables after its buffers,
// pipeline::vars): Offset a template constant, so that every address of V's members stays a constant.
template <class V, std::size_t Offset>
__device__ V& dynamic_shared_after() {
  static_assert(Offset % alignof(V) == 0, "V aligned where it lies");
  return *reinterpret_cast<V*>(dynamic_shared<unsigned char>() + Offset);
}

// Lets `kernel` take `bytes` of dynamic shared memory: past the default 48 KiB it opts in, and past what the
// device allows it is an invalid_argument that names the variant's parameters (`what`).
template <class Kernel>
void allow_shared(Kernel* kernel, std::size_t bytes, const char* fn, const char* what) {
  if (bytes <= 48 * 1024) return;
  int dev = 0, most = 0;
  check_cuda(cudaGetDevice(&dev), fn, "cudaGetDevice");
  check_cuda(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev), fn, "cudaDeviceGetAttribute");
  if (bytes > static_cast<std::size_t>(most))
    throw error(errc::invalid_argument, std::string("sluice::") + fn + ": " + what + " needs " + std::to_string(bytes) +
                                            " bytes of shared memory per block; this device allows " + std::to_string(most));
  check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)), fn,
             "cudaFuncSetAttribute");
}

// Whether the code of `kernel` that runs on the current device was built for compute capability `cc` (as
// 10 x major + minor) or later: kernels that use newer instructions are empty below their architecture.
template <class Kernel>
bool built_for(Kernel* kernel, int cc, const char* fn) {
  cudaFuncAttributes a{};
  check_cuda(cudaFuncGetAttributes(&a, kernel), fn, "cudaFuncGetAttributes");
  return a.binaryVersion >= cc;
}

// What compute(device) gives for `key` on the current device, computed once per device and key and then cached:
// the queries behind it would otherwise run on every call. Each caller (its lambda's type) has a cache of its own.
template <class Key, class Compute>
auto once_per_device(const Key& key, const char* fn, Compute compute) -> decltype(compute(0)) {
  using value = decltype(compute(0));
  static std::mutex m;
  static std::vector<std::tuple<int, Key, value>> known;
  int dev = 0;
  check_cuda(cudaGetDevice(&dev), fn, "cudaGetDevice");
  {
    std::lock_guard lock(m);
    for (const auto& [d, k, v] : known)
      if (d == dev && k == key) return v;
  }
  const value v = compute(dev);
  std::lock_guard lock(m);
  known.emplace_back(dev, key, v);
  return v;
}

// How many blocks of `kernel` (at `threads` threads and `shared_bytes` of dynamic shared memory, which it is
// allowed to take) one SM of the current device holds at once; 0 where `min_cc` is set and the code that runs
// on this device was built for an earlier compute capability (10 x major + minor). Queried once per device,
// kernel and launch shape, then cached: the persistent kernels ask on every call.
template <class Kernel>
int resident_blocks_per_sm(Kernel* kernel, unsigned threads, std::size_t shared_bytes, int min_cc, const char* fn, const char* what) {
  const auto key = std::tuple{reinterpret_cast<const void*>(kernel), threads, shared_bytes, min_cc};
  return once_per_device(key, fn, [&](int) {
    int per_sm = 0;
    if (min_cc == 0 || built_for(kernel, min_cc, fn)) {
      allow_shared(kernel, shared_bytes, fn, what);
      check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, static_cast<int>(threads), shared_bytes), fn,
                 "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
      if (per_sm < 0) per_sm = 0;
    }
    return per_sm;
  });
}

// The grid of a persistent kernel that needs Hopper (its body is empty below sm_90): as many blocks as the
// device holds at once with `shared_bytes` of dynamic shared memory each, at most `tiles` and, where `blocks`
// is not 0, at most `blocks` (the parameter blocks=N); 0 where the code that runs on this device was built
// for an earlier architecture.
template <class Kernel>
u64 resident_grid(Kernel* kernel, unsigned threads, std::size_t shared_bytes, u64 tiles, u64 blocks, const char* fn,
                  const char* what) {
  const u64 most = static_cast<u64>(multiprocessor_count(fn)) * static_cast<u64>(resident_blocks_per_sm(kernel, threads, shared_bytes, 90, fn, what));
  const u64 wanted = blocks && blocks < tiles ? blocks : tiles;
  return wanted < most ? wanted : most;
}

// Launches a persistent kernel cooperatively, which guarantees every block resident at once (its blocks wait
// on each other). False where the device cannot hold the grid after all (a partitioned device: MPS, green
// contexts): the caller then takes another path.
template <class... Params, class... Args>
bool launch_cooperative(void (*kernel)(Params...), u64 grid, unsigned threads, std::size_t shared_bytes, cudaStream_t s,
                        const char* fn, const char* what, Args... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(grid));
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = shared_bytes;
  config.stream = s;
  cudaLaunchAttribute cooperative{};
  cooperative.id = cudaLaunchAttributeCooperative;
  cooperative.val.cooperative = 1;
  config.attrs = &cooperative;
  config.numAttrs = 1;
  const cudaError_t e = cudaLaunchKernelEx(&config, kernel, args...);
  if (e == cudaErrorCooperativeLaunchTooLarge) {
    (void)cudaGetLastError();
    return false;
  }
  check_cuda(e, fn, what);
  return true;
}

// Grid of chunks: at most `blocks_per_sm` resident blocks per SM, each a contiguous run of whole tiles.
struct chunking {
  u64 tiles, blocks, tiles_per_block;
  chunking(u64 n, u64 tile, int sms, int blocks_per_sm) {
    tiles = ceil_div(n, tile);
    const u64 cap = static_cast<u64>(sms) * blocks_per_sm;
    blocks = tiles < cap ? tiles : cap;
    tiles_per_block = blocks ? ceil_div(tiles, blocks) : 0;
    blocks = tiles_per_block ? ceil_div(tiles, tiles_per_block) : 0;  // no empty chunk
  }
};

}  // namespace sluice::cuda_backend
