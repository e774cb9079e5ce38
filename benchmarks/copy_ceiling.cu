// copy_ceiling: what can a kernel move at all on this GPU, against the cudaMemcpyAsync yardstick that every
// figure of `sluice bench` is a fraction of? A kernel that reads and writes every byte (the scans, the
// partitions) cannot beat the best copy a kernel makes, so that copy is its ceiling; where it lies below the
// yardstick (0.91-0.93 on an H200, measured 2026-11), a path at 0.92 of the copy is done. Timed in turn
// (`sluice bench`'s time_interleaved: CUDA events, medians) over `--bytes` (default 1 GiB): cudaMemcpyAsync
// device to device; a grid-stride copy with four 16-byte loads in flight a thread; and on sm_90+ the bulk copies
// the pipelined paths use (cp.async.bulk through shared memory, one thread a block, blocks/SM x tile x buffers)
// as copies and as reads alone. Copies are fractions of the memcpy's rate (read + written bytes), reads of the
// same byte rate (a read at the copy's byte rate is 1.0). Each kernel's copy is checked byte for byte first.
// Run: build/benchmarks/copy_ceiling [--bytes N|2^K] [--reps N]; built with the CUDA backend
// (-DSLUICE_BUILD_BENCHMARKS=ON); without a GPU it says so and exits 2.
#include <cuda/ptx>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common.hpp"
#include "sluice/device_buffer.hpp"
#include "timer.hpp"

namespace {

using u64 = std::uint64_t;
namespace bm = sluice::benchmarks;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// A persistent grid moving `bytes` in tiles through `stages` shared-memory buffers: tile t of the grid goes
// to block t % G, buffer (t / G) % stages. Thread 0 alone asks for each tile by one bulk load completing on the
// buffer's mbarrier, then (Store) writes it back by one bulk store, waiting for the store to have read the
// buffer before refilling it; without Store a byte of each tile is read (a read pipeline). sm_90+ only.
template <bool Store>
__global__ void bulk_kernel(const char* in, char* out, u64 bytes, unsigned tile, unsigned stages, unsigned long long* sink) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ __align__(128) char buf[];
  __shared__ alignas(8) std::uint64_t bar[16];
  if (threadIdx.x != 0) return;
  const u64 tiles = bytes / tile, G = gridDim.x;
  for (unsigned s = 0; s < stages; ++s) cuda::ptx::mbarrier_init(&bar[s], 1);
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  auto load = [&](unsigned s, u64 t) {
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared, &bar[s], tile);
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, buf + std::size_t{s} * tile, in + t * tile, tile, &bar[s]);
  };
  for (unsigned r = 0; r < stages && blockIdx.x + u64{r} * G < tiles; ++r) load(r, blockIdx.x + u64{r} * G);
  unsigned long long acc = 0;
  for (unsigned round = 0;; ++round) {
    const u64 t = blockIdx.x + u64{round} * G;
    if (t >= tiles) break;
    const unsigned s = round % stages;
    while (!cuda::ptx::mbarrier_try_wait_parity(&bar[s], (round / stages) & 1u)) {
    }
    if constexpr (Store) {
      cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared, out + t * tile, buf + std::size_t{s} * tile, tile);
      cuda::ptx::cp_async_bulk_commit_group();
      cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
    } else {
      acc += buf[std::size_t{s} * tile];
    }
    const u64 next = blockIdx.x + u64{round + stages} * G;
    if (next < tiles) load(s, next);
  }
  if constexpr (Store) cuda::ptx::cp_async_bulk_wait_group(cuda::ptx::n32_t<0>{});
  if (acc == 12345) *sink = acc;  // keeps the reads
#else
  __trap();  // launched only where the device is sm_90+
#endif
}

// Grid-stride copy, four 16-byte vectors in flight a thread.
__global__ void vector_copy(const uint4* in, uint4* out, u64 n) {
  const u64 stride = u64{gridDim.x} * blockDim.x;
  for (u64 i = blockIdx.x * u64{blockDim.x} + threadIdx.x; i < n; i += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (i + k * stride < n) v[k] = in[i + k * stride];
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (i + k * stride < n) out[i + k * stride] = v[k];
  }
}

__global__ void count_mismatches(const uint4* a, const uint4* b, u64 n, unsigned long long* bad) {
  unsigned long long k = 0;
  for (u64 i = blockIdx.x * u64{blockDim.x} + threadIdx.x; i < n; i += u64{gridDim.x} * blockDim.x)
    k += a[i].x != b[i].x || a[i].y != b[i].y || a[i].z != b[i].z || a[i].w != b[i].w;
  if (k) atomicAdd(bad, k);
}

__global__ void fill(std::uint32_t* p, u64 n) {
  for (u64 i = blockIdx.x * u64{blockDim.x} + threadIdx.x; i < n; i += u64{gridDim.x} * blockDim.x)
    p[i] = static_cast<std::uint32_t>((i * 0x9e3779b97f4a7c15ull) >> 32);
}

struct candidate {
  std::string label;
  bool copies;  // else a read: its bytes are read bytes alone
  std::function<void()> launch;
};

}  // namespace

int main(int argc, char** argv) try {
  u64 bytes = u64{1} << 30;
  int reps = 11;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--bytes" && i + 1 < argc) {
      bytes = bm::parse_count("--bytes", argv[++i]);
    } else if (a == "--reps" && i + 1 < argc) {
      reps = static_cast<int>(bm::parse_count("--reps", argv[++i]));
    } else {
      std::fprintf(stderr, "usage: copy_ceiling [--bytes N|2^K] [--reps N]\n");
      return 1;
    }
  }
  constexpr u64 largest_tile = 32768;
  if (bytes < largest_tile || bytes % largest_tile != 0) throw std::invalid_argument("--bytes: a positive multiple of 32 KiB");
  if (reps < 1) throw std::invalid_argument("--reps: at least 1");
  if (!bm::present_or_say("copy_ceiling", sluice::device::cuda)) return bm::no_device_status;

  int dev = 0, sms = 0, major = 0, smem_optin = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "cudaDeviceGetAttribute");
  check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev), "cudaDeviceGetAttribute");
  check(cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev), "cudaDeviceGetAttribute");
  sluice::device_buffer<char> in(bytes), out(bytes);
  sluice::device_buffer<unsigned long long> counters(2);  // [0] the reads' sink, [1] mismatches
  fill<<<sms * 4, 256>>>(reinterpret_cast<std::uint32_t*>(in.data()), bytes / 4);
  check(cudaDeviceSynchronize(), "fill");
  std::printf("copy_ceiling on %s, %llu bytes, %d repetitions\n", sluice::tool::machine_name(sluice::device::cuda).c_str(),
              static_cast<unsigned long long>(bytes), reps);

  const auto in4 = reinterpret_cast<const uint4*>(in.data());
  const auto out4 = reinterpret_cast<uint4*>(out.data());
  std::vector<candidate> cs;
  cs.push_back({"cudaMemcpyAsync", true, [&] { sluice::tool::device_copy(sluice::device::cuda, out.data(), in.data(), bytes); }});
  cs.push_back({"vector copy, 4 x 16 B a thread", true, [&] { vector_copy<<<sms * 8, 256>>>(in4, out4, bytes / 16); }});
  if (major >= 9) {
    // Tiles and buffers that fit beside each other: from 32 KiB in flight an SM (below it the bulk copies fall to
    // 0.76-0.85 of the memcpy on an H200) to what the device's shared memory allows.
    // The kernels' dynamic shared memory limit, set once to the largest shape's: a limit set per shape would
    // hold only the last one's, and every launch of a larger shape would fail.
    constexpr unsigned largest_smem = 32768u * 6u;
    if (largest_smem + 1024 <= static_cast<unsigned>(smem_optin)) {
      check(cudaFuncSetAttribute(bulk_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(largest_smem)), "cudaFuncSetAttribute");
      check(cudaFuncSetAttribute(bulk_kernel<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(largest_smem)), "cudaFuncSetAttribute");
    }
    for (const unsigned blocks : {1u, 2u, 4u})
      for (const unsigned tile : {16384u, 32768u})
        for (const unsigned stages : {2u, 4u, 6u}) {
          const std::size_t smem = std::size_t{tile} * stages;
          // (beside the kernel's own 128 bytes of barriers; blocks that do not fit an SM at once run later)
          if ((smem + 1024) * blocks > static_cast<std::size_t>(smem_optin) || smem > largest_smem) continue;
          const unsigned grid = static_cast<unsigned>(sms) * blocks;
          const std::string shape = std::to_string(blocks) + " blocks/SM, " + std::to_string(tile / 1024) + " KiB x " + std::to_string(stages);
          cs.push_back({"bulk copy, " + shape, true, [=, &in, &out, &counters] {
                          bulk_kernel<true><<<grid, 32, smem>>>(in.data(), out.data(), bytes, tile, stages, counters.data());
                        }});
          cs.push_back({"bulk read, " + shape, false, [=, &in, &out, &counters] {
                          bulk_kernel<false><<<grid, 32, smem>>>(in.data(), out.data(), bytes, tile, stages, counters.data());
                        }});
        }
  } else {
    std::printf("bulk copies left out: they need sm_90 or later (this GPU is sm_%d)\n", major * 10);
  }

  // Every copy checked first: out cleared, one launch, every byte compared with in.
  int failures = 0;
  for (const candidate& c : cs) {
    if (!c.copies) continue;
    out.fill_bytes(0);
    counters.fill_bytes(0);
    c.launch();
    check(cudaGetLastError(), c.label.c_str());
    count_mismatches<<<sms * 4, 256>>>(in4, out4, bytes / 16, counters.data() + 1);
    check(cudaDeviceSynchronize(), c.label.c_str());
    const auto bad = counters.download()[1];
    if (bad != 0) std::printf("%-40s WRONG: %llu of %llu vectors differ\n", c.label.c_str(), bad, static_cast<unsigned long long>(bytes / 16));
    failures += bad != 0;
  }

  std::vector<std::function<void()>> fs;
  for (const candidate& c : cs) fs.push_back(c.launch);
  const auto t = sluice::tool::time_interleaved(sluice::device::cuda, reps, fs);
  check(cudaGetLastError(), "the timed launches");
  const double copy_ms = t[0].median_ms;
  for (std::size_t k = 0; k < cs.size(); ++k) {
    const double moved = (cs[k].copies ? 2.0 : 1.0) * static_cast<double>(bytes);
    const double frac = cs[k].copies ? copy_ms / t[k].median_ms : moved / t[k].median_ms / (2.0 * static_cast<double>(bytes) / copy_ms);
    std::printf("%-40s %9.4f ms %8.1f GB/s %6.3f of the memcpy's rate\n", cs[k].label.c_str(), t[k].median_ms, moved / t[k].median_ms / 1e6, frac);
  }
  return failures ? 1 : 0;
} catch (const std::exception& x) {
  std::fprintf(stderr, "copy_ceiling: %s\n", x.what());
  return 1;
}
