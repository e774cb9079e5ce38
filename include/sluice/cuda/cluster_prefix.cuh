// The prefix over the tiles of a small input, through one thread block cluster (Hopper, sm_90+): Billeter et
// al. 2009 Sec. 3's "prefix over P" with the P blocks of one cluster. Where the whole input is at most
// max_blocks tiles, the grid is launched as one cluster: its blocks run at once on one GPC and read each
// other's shared memory, so after one cluster barrier each block reads every block's aggregate directly and
// combines those before its own, in rank order, by a tree that the grid's size alone fixes (float results
// repeat). No tile states, no ticket counter, no chain of published prefixes through global memory
// (lookback.cuh): at 2^16 four-byte elements the look-back's 8 tiles wait on each other's words in L2, and
// the stable partition's tiles on the last tile's (docs/design/partition.md).
// Kernel side: every thread of the block calls exchange() once (after its aggregate is in shared memory)
// and finish() before it leaves; the host side launches the grid as one cluster where the device holds one
// (launch()).
#pragma once
#include <cooperative_groups.h>

#include <tuple>

#include "sluice/cuda/common.cuh"
#include "sluice/cuda/lookback.cuh"
#include "sluice/detail/params.hpp"

namespace sluice::cuda_backend::cluster {

// The most blocks (tiles) one cluster takes: 8 is every Hopper's; 16 only where the device says it holds a
// cluster that large (launch() asks it, once per kernel).
inline constexpr unsigned max_blocks = 16;

// Every thread of every block calls it once, after `mine` (the block's aggregate, in its shared memory) is
// written and the block has passed a __syncthreads. In lane 0 of warp 0: `before`, the aggregates of the
// blocks of lower rank combined in rank order (`has` false in block 0), and `total`, all of them. The grid is
// one cluster: rank = blockIdx.x.
template <class T, class Op>
__device__ void exchange(const T& mine, Op op, maybe<T>& before, T& total) {
#if __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  cg::cluster_group::sync();  // every block's aggregate written (release and acquire at cluster scope)
  if (threadIdx.x < 32) {
    const unsigned lane = threadIdx.x, rank = blockIdx.x, ranks = gridDim.x;
    const T v = lane < ranks ? *cg::cluster_group::map_shared_rank(const_cast<T*>(&mine), static_cast<int>(lane)) : mine;
    const T b = lookback::ordered_warp_reduce(v, rank, op), all = lookback::ordered_warp_reduce(v, ranks, op);
    if (lane == 0) before = {b, rank > 0}, total = all;
  }
  cg::cluster_group::barrier_arrive();  // this block reads no more of the others' shared memory (finish waits)
#else
  (void)mine, (void)op, (void)before, (void)total;
  __trap();  // launch() never launches a cluster for code built before sm_90
#endif
}

// Every thread calls it after exchange() and before it leaves: no block leaves while another may still read
// its shared memory. It waits for the other blocks' exchanges only, which are long done by a block's end.
__device__ inline void finish() {
#if __CUDA_ARCH__ >= 900
  cooperative_groups::cluster_group::barrier_wait();
#endif
}

// Every thread calls it (after finish()): the cluster's barrier, whose release and acquire order every block's
// writes before it (ordered by a __syncthreads and a fence where later device work or the host is to see them)
// before any thread's writes after it.
__device__ inline void barrier() {
#if __CUDA_ARCH__ >= 900
  cooperative_groups::cluster_group::sync();
#endif
}

// The launch of `blocks` blocks of `threads` threads as one cluster, each block with `bytes` of dynamic shared
// memory, on stream s (config points at dims: neither copied nor moved).
struct cluster_config {
  cudaLaunchAttribute dims{};
  cudaLaunchConfig_t config{};
  cluster_config(unsigned blocks, unsigned threads, std::size_t bytes, cudaStream_t s) {
    dims.id = cudaLaunchAttributeClusterDimension;
    dims.val.clusterDim.x = blocks, dims.val.clusterDim.y = 1, dims.val.clusterDim.z = 1;
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(threads);
    config.dynamicSmemBytes = bytes;
    config.stream = s;
    config.attrs = &dims;
    config.numAttrs = 1;
  }
  cluster_config(const cluster_config&) = delete;
  cluster_config& operator=(const cluster_config&) = delete;
};

// How the current device runs `kernel` as one cluster of `blocks` blocks of `threads` threads: spread_bytes, the
// dynamic shared memory (unused) each block asks for so that an SM holds no more than one of them (the cluster's
// blocks then land on as many SMs as a plain grid's would, each with an SM's bandwidth to itself: packed several
// to an SM, the partitions' calls took longer), and whether the device holds such a
// cluster at all (Hopper or later, the kernel built for sm_90 or later; 16 blocks needs the non-portable size).
// Asked once per device, kernel and shape, then cached.
struct shape {
  std::size_t spread_bytes;
  bool fits;
};
template <class Kernel>
shape shape_of(Kernel* kernel, unsigned blocks, unsigned threads, const char* fn) {
  return once_per_device(std::tuple{reinterpret_cast<const void*>(kernel), blocks, threads}, fn, [&](int dev) {
    shape sh{0, false};
    int major = 0;
    check_cuda(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev), fn, "cudaDeviceGetAttribute");
    if (major < 9 || !built_for(kernel, 90, fn)) return sh;
    int per_sm = 0, per_block = 0;
    check_cuda(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev), fn, "cudaDeviceGetAttribute");
    check_cuda(cudaDeviceGetAttribute(&per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev), fn, "cudaDeviceGetAttribute");
    cudaFuncAttributes a{};
    check_cuda(cudaFuncGetAttributes(&a, kernel), fn, "cudaFuncGetAttributes");
    const std::size_t half = static_cast<std::size_t>(per_sm) / 2 + 1, used = a.sharedSizeBytes,
                      room = static_cast<std::size_t>(per_block) > used ? static_cast<std::size_t>(per_block) - used : 0;
    sh.spread_bytes = half > used ? half - used : 0;
    if (sh.spread_bytes > room) sh.spread_bytes = room;
    check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(sh.spread_bytes)), fn,
               "cudaFuncSetAttribute");
    if (blocks > 8)
      check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1), fn, "cudaFuncSetAttribute");
    const cluster_config c(blocks, threads, sh.spread_bytes, nullptr);
    int clusters = 0;
    const cudaError_t e = cudaOccupancyMaxActiveClusters(&clusters, kernel, &c.config);
    if (e != cudaSuccess) (void)cudaGetLastError();  // a size the device does not take: no cluster
    sh.fits = e == cudaSuccess && clusters > 0;
    return sh;
  });
}

// cluster=auto|off (the scans', compact's and the partitions' parameter): whether a small input may run as one
// cluster.
inline bool parse(sluice::detail::params& p) { return p.choice("cluster", {"auto", "off"}, 0) == 0; }

// Launches `kernel` as one cluster of `blocks` blocks (2 to max_blocks), spread one to an SM. False where the
// device or the build has no such cluster (before Hopper, a device that cannot hold it): the caller takes
// another path.
template <class... Params, class... Args>
bool launch(void (*kernel)(Params...), unsigned blocks, unsigned threads, cudaStream_t s, const char* fn, const char* what,
            Args... args) {
  if (blocks < 2 || blocks > max_blocks) return false;
  const shape sh = shape_of(kernel, blocks, threads, fn);
  if (!sh.fits) return false;
  const cluster_config c(blocks, threads, sh.spread_bytes, s);
  check_cuda(cudaLaunchKernelEx(&c.config, kernel, args...), fn, what);
  return true;
}

}  // namespace sluice::cuda_backend::cluster
