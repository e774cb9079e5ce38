// partition, resident: the stable partition in one cooperative launch of the single pass's kernel
// (single_pass.cuh), where the device holds every tile's block at once. Stable partition puts the rejected
// elements after all the kept ones, so their place needs the total kept; here each tile publishes its count and
// looks back (Merrill and Garland 2016, Sec. 4) as in the single pass, stores its kept run, and then waits for the
// last tile's inclusive prefix, the total, to place and store its rejected run (select_kernel's `late` branch).
// No count pass: each byte is read once and written once (n x sizeof(T) each way, plus n flag bytes read).
// Dispatch (decoupled_lookback.cuh) takes it for resident=auto|on wherever the grid fits, ahead of phased=auto
// (at 2^22 u32 with flags, 512 tiles, it took 0.84x the phased path's time on the H100); past that grid the
// phased path or the count pass (phased.cuh) runs instead.
#pragma once
#include <span>

#include "sluice/cuda/compact/single_pass.cuh"

namespace sluice::cuda_backend::select_lookback {

// Whether the device holds all `tiles` blocks of the single pass's `kernel` at once.
template <class T, class Kernel>
bool resident_fits(Kernel* kernel, u64 tiles, const char* fn) {
  return tiles <= static_cast<u64>(multiprocessor_count(fn)) *
                      static_cast<u64>(resident_blocks_per_sm(kernel, policy<T>::threads, 0, 0, fn, "select_lookback::select_kernel"));
}

// One cooperative launch of `kernel` over every tile, the tile states and counter from `launch`. False where the
// device could not hold the grid after all (the caller then counts first).
template <class T, class Sel, class Kernel>
bool launch_resident(Kernel* kernel, std::span<const T> in, std::span<T> out, const Sel& sel, u64* count, u64 tiles, unsigned* counter,
                     unsigned* spare_counter, lookback::count_state states, const unsigned* skip, bool count_last, cudaStream_t s,
                     const char* fn) {
  return launch_cooperative(kernel, tiles, policy<T>::threads, 0, s, fn, "select_lookback::select_kernel", in.data(), sel, out.data(),
                            static_cast<u64>(in.size()), static_cast<u64>(out.size()), count, counter, spare_counter, states,
                            static_cast<const unsigned long long*>(nullptr), static_cast<const u64*>(nullptr),
                            static_cast<const unsigned*>(nullptr), skip, false, count_last, false);
}

}  // namespace sluice::cuda_backend::select_lookback
