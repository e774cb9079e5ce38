// scan "streaming" (GPU Teaching Kit, Module 10.4, "Streaming" scan with "Dynamic Block ID Assignment"):
// one kernel. Each block takes its section number from an atomic counter (so every section before it
// belongs to a block that has already started: no deadlock whatever the grid size or residency), scans the
// section locally (Brent-Kung), then its thread 0 waits for the previous section's flag, reads that
// section's running prefix, passes prefix op local sum on to the next section and raises its flag; finally
// the block combines the prefix into its section. The flags are cuda::atomic_ref with release/acquire
// order (the kit's atomicAdd polling plus __threadfence). Input read once, output written once, but the
// sections pass their prefixes strictly one after another.
#pragma once
#include <cuda/atomic>

#include "sluice/cuda/scan/brent_kung.cuh"

namespace sluice::cuda_backend::streaming {

using local_scan = brent_kung::block_scan;

template <class T, class Op>
__global__ void scan_kernel(const T* in, T* out, u64 n, Op op, bool inclusive, T init, unsigned* counter, unsigned* flags,
                            T* running, local_scan ls) {
  T* xy = dynamic_shared<T>();
  __shared__ unsigned bid;
  __shared__ T previous;
  __shared__ bool has_previous;
  if (threadIdx.x == 0) bid = atomicAdd(counter, 1u);  // dynamic block id
  __syncthreads();
  const unsigned section = ls.section();
  const u64 sections = ceil_div(n, section), base = bid * static_cast<u64>(section);
  const unsigned valid = n - base < section ? static_cast<unsigned>(n - base) : section;
  for (unsigned k = threadIdx.x; k < valid; k += blockDim.x) xy[k] = in[base + k];
  __syncthreads();
  const T* local = ls.scan(xy, valid, op);  // Phase 1: local scan
  __syncthreads();
  if (threadIdx.x == 0) {
    if (bid == 0) {
      previous = init;
      has_previous = !inclusive;
    } else {
      cuda::atomic_ref<unsigned, cuda::thread_scope_device> flag(flags[bid]);
      while (flag.load(cuda::memory_order_acquire) == 0) {
      }
      previous = running[bid];
      has_previous = true;
    }
    if (bid + 1 < sections) {
      running[bid + 1] = has_previous ? op(previous, local[valid - 1]) : local[valid - 1];
      cuda::atomic_ref<unsigned, cuda::thread_scope_device>(flags[bid + 1]).store(1u, cuda::memory_order_release);
    }
  }
  __syncthreads();
  // Phase 3: local distribution.
  for (unsigned k = threadIdx.x; k < valid; k += blockDim.x) {
    if (inclusive) out[base + k] = has_previous ? op(previous, local[k]) : local[k];
    else out[base + k] = k == 0 ? previous : op(previous, local[k - 1]);
  }
}

// Parameter: threads (default 1024; the local Brent-Kung section is 2 x threads).
template <class T, class Op>
void run(const T* in, T* out, u64 n, bool inclusive, T init, Op op, cudaStream_t s, const char* fn, std::string_view spec) {
  const local_scan ls = local_scan::from(spec, fn);
  if (n == 0) return;
  const u64 sections = ceil_div(n, ls.section());
  const std::size_t bytes = ls.template shared_bytes<T>();
  allow_shared(scan_kernel<T, Op>, bytes, fn, "streaming's threads");
  scratch state((sections + 1) * sizeof(unsigned), s, fn), running(sections * sizeof(T), s, fn);
  check_cuda(cudaMemsetAsync(state.as<unsigned>(), 0, (sections + 1) * sizeof(unsigned), s), fn, "cudaMemsetAsync");
  scan_kernel<<<static_cast<unsigned>(sections), ls.threads, bytes, s>>>(in, out, n, op, inclusive, init, state.as<unsigned>(),
                                                                         state.as<unsigned>() + 1, running.as<T>(), ls);
  check_launch(fn, "streaming::scan_kernel");
}

}  // namespace sluice::cuda_backend::streaming
