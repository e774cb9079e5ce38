// split "multisplit" on CUDA: the k-way split as one digit pass of the Onesweep radix sort
// (cuda/sort/onesweep.cuh), whose digits are the buckets. Billeter's stream split sends each element to one of
// two sides; a radix sort's digit pass already sends each key to one of 256, stably, reading it once:
//   1. Histogram: one read of the input counts each bucket (per portion of about 2^28 elements);
//   2. Bases: one block turns the counts into each bucket's first output position, copied to bucket_offsets;
//   3. The digit pass: each tile ranks its elements by bucket in input order, publishes its bucket counts,
//      looks back per bucket for the tiles before it, and writes its elements through shared memory in
//      bucket order, so each bucket's run of a tile leaves as contiguous stores.
// Elements move as their bits (u32 or u64 words); the bucket function reads them as T. Ids outside [0, k) go to
// a bucket k of their own, after the others (k <= 255 then: 256 digits in all); radix_digit with
// k >= 2^bits gives none. Moves: the input read twice, the output written once.
#pragma once
#include <cstring>
#include <span>
#include <type_traits>

#include "sluice/cuda/common.cuh"
#include "sluice/cuda/sort/onesweep.cuh"

namespace sluice::cuda_backend::multisplit {

// Onesweep's keys-only tuning for elements of T's width.
template <class T>
using policy = onesweep::policy<sizeof(T), false>;
template <class T>
using word_t = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

// A word's bucket: bucket_of of the element whose bits it holds; ids outside [0, k) are k.
template <class T, class Bucket>
struct bucket_digit {
  Bucket bucket_of;
  unsigned k;
  __device__ unsigned operator()(word_t<T> w) const {
    T x;
    std::memcpy(&x, &w, sizeof x);
    const auto id = static_cast<u64>(bucket_of(x));
    return id < k ? static_cast<unsigned>(id) : k;
  }
};

// ---- 1. Histogram: counts[portion][digit], from one read of the input.
template <class T, class P, class Digit>
__global__ void __launch_bounds__(P::histogram_threads) histogram_kernel(const word_t<T>* in, u64 n, u64 portion, Digit digit_of, unsigned* counts) {
  constexpr unsigned D = P::digits, H = P::histogram_threads, I = P::histogram_items;
  __shared__ unsigned h[D];
  for (unsigned i = threadIdx.x; i < D; i += H) h[i] = 0;
  __syncthreads();
  const u64 q = blockIdx.y, first = q * portion, last = n - first < portion ? n : first + portion;
  for (u64 chunk = first + static_cast<u64>(blockIdx.x) * H * I; chunk < last; chunk += static_cast<u64>(gridDim.x) * H * I) {
    const unsigned here = last - chunk < H * I ? static_cast<unsigned>(last - chunk) : H * I;
    word_t<T> w[I];
#pragma unroll
    for (unsigned i = 0; i < I; ++i)
      if (here == H * I || i * H + threadIdx.x < here) w[i] = in[chunk + i * H + threadIdx.x];
#pragma unroll
    for (unsigned i = 0; i < I; ++i)
      if (here == H * I || i * H + threadIdx.x < here) atomicAdd(&h[digit_of(w[i])], 1u);
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < D; i += H)
    if (h[i]) atomicAdd(&counts[q * D + i], h[i]);
}

// offsets[b] = base[b], the first position of bucket b, for b < k; offsets[k] = the elements of the k buckets:
// base[k] (bucket k's, that of the ids outside, first position), or n where k = D (no bucket k).
template <unsigned D>
__global__ void offsets_kernel(const u64* base, unsigned k, u64 n, u64* offsets) {
  const unsigned b = threadIdx.x;
  if (b <= k) offsets[b] = b < D ? base[b] : n;
}

// out.size() >= in.size(), offsets.size() >= k + 1, 1 <= k <= 256 (256 only where no id can fall outside).
// offsets[b] = where bucket b starts, offsets[k] = the elements whose id is in [0, k) (those outside follow them).
// portion_keys: elements per launch of the pass (0: P::portion, about 2^28; fewer only to test the hand-over).
template <class T, class Bucket>
void split(std::span<const T> in, Bucket bucket_of, unsigned k, std::span<T> out, std::span<u64> offsets, cudaStream_t s, const char* fn,
           u64 portion_keys = 0) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "the CUDA split moves elements of 4 or 8 bytes");
  using P = policy<T>;
  using W = word_t<T>;
  constexpr unsigned D = P::digits;
  const u64 n = in.size();
  if (n == 0) {
    check_cuda(cudaMemsetAsync(offsets.data(), 0, (k + 1) * sizeof(u64), s), fn, "cudaMemsetAsync");
    return;
  }
  const bucket_digit<T, Bucket> digit_of{bucket_of, k};
  // Portions of at most P::portion elements a launch (the look-back's counts are 30-bit); enough that the
  // histogram's grid has at most 65535 rows.
  u64 portion = portion_keys == 0 || portion_keys >= P::portion ? P::portion
                : portion_keys < P::tile                        ? P::tile
                                                                : portion_keys / P::tile * P::tile;
  const u64 fewest = ceil_div(ceil_div(n, u64{65535}), u64{P::tile}) * P::tile;
  if (portion < fewest) portion = fewest;
  const u64 portions = ceil_div(n, portion);
  const u64 most_tiles = ceil_div(n < portion ? n : portion, P::tile);
  constexpr u64 counter_words = 64;  // the tile counter, then the state from a 256-byte boundary
  scratch counts(portions * D * sizeof(unsigned), s, fn), base(portions * D * sizeof(u64), s, fn);
  scratch state((counter_words + most_tiles * D) * sizeof(unsigned), s, fn);
  const W* src = reinterpret_cast<const W*>(in.data());
  W* dst = reinterpret_cast<W*>(out.data());

  check_cuda(cudaMemsetAsync(counts.as<unsigned>(), 0, portions * D * sizeof(unsigned), s), fn, "cudaMemsetAsync");
  const u64 grid_x = ceil_div(n < portion ? n : portion, u64{P::histogram_threads} * P::histogram_items);
  const u64 cap = static_cast<u64>(multiprocessor_count(fn)) * P::histogram_blocks_per_sm;
  histogram_kernel<T, P><<<dim3(static_cast<unsigned>(grid_x < cap ? grid_x : cap), static_cast<unsigned>(portions)), P::histogram_threads, 0, s>>>(
      src, n, portion, digit_of, counts.as<unsigned>());
  check_launch(fn, "multisplit::histogram_kernel");
  onesweep::bases_kernel<P><<<1, D, 0, s>>>(counts.as<unsigned>(), 1, portions, base.as<u64>());
  check_launch(fn, "onesweep::bases_kernel");
  offsets_kernel<D><<<1, D + 1, 0, s>>>(base.as<u64>(), k, n, offsets.data());
  check_launch(fn, "multisplit::offsets_kernel");

  const std::size_t shared = P::tile * sizeof(W);
  auto* kernel = onesweep::pass_kernel<W, std::nullptr_t, P, bucket_digit<T, Bucket>>;
  if (shared + onesweep::pass_static_shared<W, P>() > 48 * 1024)
    check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)), fn, "cudaFuncSetAttribute");
  unsigned* counter = state.as<unsigned>();
  const lookback::digit_state digits{counter + counter_words, D};
  for (u64 q = 0; q < portions; ++q) {
    const u64 first = q * portion, count = n - first < portion ? n - first : portion;
    const u64 tiles = ceil_div(count, P::tile);
    check_cuda(cudaMemsetAsync(counter, 0, (counter_words + tiles * D) * sizeof(unsigned), s), fn, "cudaMemsetAsync");
    u64* here = base.as<u64>() + q * D;
    kernel<<<static_cast<unsigned>(tiles), P::threads, shared, s>>>(src, dst, nullptr, nullptr, first, count, digits, counter, here,
                                                                    q + 1 < portions ? here + D : nullptr, false, digit_of);
    check_launch(fn, "onesweep::pass_kernel");
  }
}

}  // namespace sluice::cuda_backend::multisplit
