// compact, partition and their unordered forms by decoupled look-back: the pieces every path shares. The
// single pass's tile shape (policy; the phased, resident and cluster paths move the same tiles and the tile
// states are laid out for them), the keep bits of flag bytes, the ranks of kept elements within a warp, the
// staged stores that write a tile's runs with whole 16-byte stores, and the settings the spec strings parse to.
// The paths: single_pass.cuh, phased.cuh, resident_partition.cuh, cluster.cuh, pipelined.cuh, reversal.cuh;
// decoupled_lookback.cuh chooses between them.
#pragma once
#include <cub/warp/warp_scan.cuh>
#include <cuda/std/bit>
#include <span>
#include <type_traits>

#include "sluice/cuda/lookback.cuh"
#include "sluice/detail/params.hpp"
#include "sluice/detail/select.hpp"

namespace sluice::cuda_backend::select_lookback {

enum class mode { compact, partition, unordered };

// The single pass's tile: 8 loads of 16 bytes in flight per thread, 256 threads (32 KiB of elements).
template <class T>
struct policy {
  static constexpr unsigned threads = 256;
  static constexpr unsigned warps = threads / 32;
  static constexpr unsigned per_vector = 16 / sizeof(T);  // elements per 16-byte load
  static constexpr unsigned vectors = 8;                   // 16-byte loads in flight per thread
  static constexpr unsigned warp_items = 32 * per_vector * vectors;
  static constexpr unsigned tile = threads * per_vector * vectors;  // 32 KiB of elements
};

template <class Sel>
inline constexpr bool is_flags = std::is_same_v<Sel, sluice::detail::flag_select>;

// Bit e set where flag byte e of the Bytes at p (aligned to Bytes) is non-zero.
template <unsigned Bytes>
__device__ inline unsigned nonzero_mask(const std::uint8_t* p) {
  if constexpr (Bytes == 1) {
    return p[0] != 0;
  } else if constexpr (Bytes == 2) {
    const unsigned w = *reinterpret_cast<const unsigned short*>(p);
    return ((w & 0xffu) != 0) | (((w >> 8) != 0) << 1);
  } else {
    unsigned w[Bytes / 4];
    if constexpr (Bytes == 4) {
      w[0] = *reinterpret_cast<const unsigned*>(p);
    } else if constexpr (Bytes == 8) {
      const uint2 v = *reinterpret_cast<const uint2*>(p);
      w[0] = v.x, w[1] = v.y;
    } else {
      const uint4 v = *reinterpret_cast<const uint4*>(p);
      w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
    }
    unsigned m = 0;
#pragma unroll
    for (unsigned k = 0; k < Bytes / 4; ++k)
#pragma unroll
      for (unsigned b = 0; b < 4; ++b) m |= (((w[k] >> (8 * b)) & 0xffu) != 0) << (4 * k + b);
    return m;
  }
}

// The top bit of each of the 4 bytes of w set where that byte is non-zero, the other bits clear.
__device__ inline unsigned nonzero_top_bits(unsigned w) {
  return (((w & 0x7f7f7f7fu) + 0x7f7f7f7fu) | w) & 0x80808080u;
}

// How many of the 4 bytes of w are non-zero.
__device__ inline unsigned nonzero_bytes(unsigned w) { return __popc(nonzero_top_bits(w)); }

// Bit e set where byte e of the 16 in v is non-zero. Per word, the multiply gathers the four top bits (at 0,
// 8, 16, 24 after the shift) into bits 21-24, no two products overlapping.
__device__ inline unsigned nonzero_bits(uint4 v) {
  auto four = [](unsigned w) { return (nonzero_top_bits(w) >> 7) * 0x00204081u >> 21 & 0xfu; };
  return four(v.x) | four(v.y) << 4 | four(v.z) << 8 | four(v.w) << 12;
}

// Writes the run stage[0, c) to out[g, g + c): whole 16-byte stores where they fit, element stores at the
// ragged ends. `stage` sits at the same 16-byte phase as out + g (Aligned), so both sides are aligned.
template <class T, bool Aligned>
__device__ void store_run(const T* stage, T* out, u64 g, u64 c) {
  using P = policy<T>;
  if (c == 0) return;
  if constexpr (Aligned) {
    constexpr unsigned pv = P::per_vector;
    for (u64 slot = g / pv + threadIdx.x; slot * pv < g + c; slot += P::threads) {
      const u64 g0 = slot * pv;
      if (g0 >= g && g0 + pv <= g + c) {
        *reinterpret_cast<uint4*>(out + g0) = *reinterpret_cast<const uint4*>(stage + (g0 - g));
      } else {
#pragma unroll
        for (unsigned e = 0; e < pv; ++e)
          if (g0 + e >= g && g0 + e < g + c) out[g0 + e] = stage[g0 + e - g];
      }
    }
  } else {
    for (u64 i = threadIdx.x; i < c; i += P::threads) out[g + i] = stage[i];
  }
}

// Rank within the warp: vector j of lane l (bit e of keep[j]: its element e is kept) follows vectors [0, j)
// of every lane and vector j of lanes < l. lane_before[j] = the kept elements before it within the warp's
// run; returns the warp's kept count. The vectors' counts travel through one warp scan per word, packed in
// 8-bit fields while a warp's count per vector fits (elements of 4 bytes or more), else in 16-bit fields.
template <unsigned PerVector, unsigned Vectors>
__device__ unsigned warp_ranks(const unsigned (&keep)[Vectors], unsigned (&lane_before)[Vectors],
                               typename cub::WarpScan<unsigned>::TempStorage& storage) {
  constexpr unsigned field_bits = 32 * PerVector <= 255 ? 8 : 16, fields = 32 / field_bits,
                     words = (Vectors + fields - 1) / fields, field = (1u << field_bits) - 1;
  unsigned warp_vector[Vectors];
#pragma unroll
  for (unsigned w = 0; w < words; ++w) {
    unsigned packed = 0;
#pragma unroll
    for (unsigned f = 0; f < fields; ++f)
      if (w * fields + f < Vectors) packed |= __popc(keep[w * fields + f]) << (f * field_bits);
    unsigned incl;
    cub::WarpScan<unsigned>(storage).InclusiveSum(packed, incl);
    const unsigned excl = incl - packed, total = __shfl_sync(0xffffffffu, incl, 31);
#pragma unroll
    for (unsigned f = 0; f < fields; ++f)
      if (w * fields + f < Vectors) {
        lane_before[w * fields + f] = (excl >> (f * field_bits)) & field;
        warp_vector[w * fields + f] = (total >> (f * field_bits)) & field;
      }
  }
  unsigned warp_kept = 0;
#pragma unroll
  for (unsigned j = 0; j < Vectors; ++j) {
    lane_before[j] += warp_kept;  // now: kept before this lane's vector j within the warp's run
    warp_kept += warp_vector[j];
  }
  return warp_kept;
}

// A shared-memory cursor (the pipelines' staging): the 32-bit shared address of p, and one element stored there.
__device__ inline unsigned shared_address(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }
template <class T>
__device__ void store_shared(unsigned address, const T& v) {
  if constexpr (sizeof(T) == 4 && alignof(T) == 4)
    asm volatile("st.shared.b32 [%0], %1;" ::"r"(address), "r"(cuda::std::bit_cast<unsigned>(v)) : "memory");
  else if constexpr (sizeof(T) == 8 && alignof(T) == 8)
    asm volatile("st.shared.b64 [%0], %1;" ::"r"(address), "l"(cuda::std::bit_cast<unsigned long long>(v)) : "memory");
  else
    *static_cast<T*>(__cvta_shared_to_generic(address)) = v;
}

// The spec's parameters (parsed in decoupled_lookback.cuh). phased: count first (phased.cuh); pipelined: the
// pipeline (pipelined.cuh); resident: the cooperative stable partition (resident_partition.cuh); reversed: the
// partition's pipelined pass (reversal.cuh); blocks: at most that many blocks in the pipeline's grid; cluster:
// one thread block cluster for 2 to cluster::max_blocks tiles (cluster.cuh).
using phasing = sluice::detail::setting;
struct compact_settings {
  phasing phased = phasing::automatic;
  sluice::detail::setting pipelined = sluice::detail::setting::automatic;  // compact
  sluice::detail::setting resident = sluice::detail::setting::automatic;   // partition
  u64 blocks = 0;  // at most this many blocks in the pipeline's grid (0: as many as the device holds)
  sluice::detail::setting reversed = sluice::detail::setting::automatic;  // partition's pipelined pass: auto|on|off
  bool cluster = true;  // cluster=auto|off: one thread block cluster for 2 to cluster::max_blocks tiles (try_cluster)
};

// A launch's tile counts (lookback::count_state), kept from the stream's last call where n allows.
inline lookback::launch_states count_states(u64 n, u64 tiles, cudaStream_t s, const char* fn) {
  return lookback::launch_states(lookback::count_state::bytes(tiles), n < lookback::count_state::kept_limit, s, fn);
}

}  // namespace sluice::cuda_backend::select_lookback
