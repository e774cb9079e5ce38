// compact "sort-compact": compaction by a stable sort on the flag, the papers' baseline ("Sorting algorithms
// can trivially be used to perform stream reduction", Roger et al. 2007 Sec. II; Moreira et al. 2009
// Sec. 3.3). Each element gets the one-bit key "discarded"; a stable one-bit radix sort of (key, element)
// pairs (cub::DeviceRadixSort) puts the kept elements first, in input order; their count is where the keys
// turn from 0 to 1, and they are copied to the output.
// Stable; not in place. Moves: reads the input once (+ flags), the sort reads and writes keys and elements
// (about 2 passes each), and the kept elements are copied once more. Scratch: n elements + 2n key bytes.
#pragma once
#include <cub/device/device_radix_sort.cuh>
#include <span>

#include "sluice/cuda/compact/cub.cuh"

namespace sluice::cuda_backend::sort_compact {

template <class T, class Sel>
__global__ void key_kernel(const T* in, Sel sel, u64 n, std::uint8_t* keys) {
  for (u64 i = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; i < n; i += static_cast<u64>(gridDim.x) * blockDim.x)
    keys[i] = sel(i, in[i]) ? 0 : 1;
}

// The count is the index of the first key 1 (n when there is none).
__global__ inline void count_kernel(const std::uint8_t* sorted_keys, u64 n, u64* count) {
  for (u64 i = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x; i < n; i += static_cast<u64>(gridDim.x) * blockDim.x) {
    if (sorted_keys[i] == 1 && (i == 0 || sorted_keys[i - 1] == 0)) *count = i;
    if (i == n - 1 && sorted_keys[i] == 0) *count = n;
  }
}

inline unsigned grid_of(u64 n) {
  const u64 b = ceil_div(n, 256);
  return static_cast<unsigned>(b < 65536 * 8 ? b : 65536 * 8);
}

template <class T, class Sel>
void compact(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn) {
  const u64 n = in.size();
  if (n == 0) return check_cuda(cudaMemsetAsync(count, 0, sizeof(u64), s), fn, "cudaMemsetAsync");
  scratch keys(2 * n, s, fn), sorted(n * sizeof(T), s, fn);
  std::uint8_t* keys_in = keys.as<std::uint8_t>();
  std::uint8_t* keys_out = keys_in + n;
  key_kernel<<<grid_of(n), 256, 0, s>>>(in.data(), sel, n, keys_in);
  check_launch(fn, "sort_compact::key_kernel");
  cub_call(
      [&](void* t, std::size_t& b) {
        return cub::DeviceRadixSort::SortPairs(t, b, keys_in, keys_out, in.data(), sorted.as<T>(), static_cast<std::int64_t>(n), 0, 1, s);
      },
      s, fn, "cub::DeviceRadixSort::SortPairs");
  count_kernel<<<grid_of(n), 256, 0, s>>>(keys_out, n, count);
  check_launch(fn, "sort_compact::count_kernel");
  if (!out.empty()) {
    cub_peer::copy_prefix_kernel<<<grid_of(out.size()), 256, 0, s>>>(sorted.as<T>(), out.data(), count, out.size());
    check_launch(fn, "sort_compact::copy_prefix_kernel");
  }
}

}  // namespace sluice::cuda_backend::sort_compact
