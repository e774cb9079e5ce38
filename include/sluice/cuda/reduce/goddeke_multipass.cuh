// reduce "goddeke-multipass" (Göddeke, GPGPU::Reduction Tutorial, "Basic idea" and "Solution 2: on-the-fly
// texcoord manipulation"): the input is an M x M grid (M a power of two, row-major); each pass computes,
// for every texel of an M/2 x M/2 output, the op of the 2x2 input group at topleft = 2 x (its position),
// reading topleft, +(1,0), +(1,1), +(0,1) as the shader does, into one of two ping-pong buffers, until
// 1 x 1 is left; log2(M) passes. Generalised from "N a power of two" to any n: M is the smallest power of
// two with M x M >= n and texels past n are absent (a group combines only what is present; there is no
// identity). The 2x2 groups are not contiguous in memory order, so the operator must be commutative
// (the tutorial's max is). Moves the input once, then a quarter, a sixteenth, ...
#pragma once
#include "sluice/cuda/reduce/multipass.cuh"

namespace sluice::cuda_backend::goddeke_multipass {

struct policy {
  static constexpr int threads = 256;  // one thread per output texel
};

// Texel (x, y) of level `level` (side M >> level) holds the op of a 2^level square of the input; it is
// present when the square's first input index, (y << level) * M + (x << level), is below n.
__device__ inline bool present(u64 x, u64 y, int level, u64 side0, u64 n) { return ((y << level) * side0 + (x << level)) < n; }

template <class T, class Op>
__global__ void __launch_bounds__(policy::threads) pass_kernel(const T* in, T* out, u64 out_side, int level, u64 side0, u64 n, Op op) {
  const u64 texel = blockIdx.x * static_cast<u64>(blockDim.x) + threadIdx.x;
  if (texel >= out_side * out_side) return;
  const u64 x = texel % out_side, y = texel / out_side, in_side = out_side * 2;
  const u64 tx = 2 * x, ty = 2 * y;  // topleft = ((coords - 0.5) * 2.0) + 0.5
  if (!present(tx, ty, level, side0, n)) return;  // the whole group is absent
  // val1 = topleft, val2 = +(1,0), val3 = +(1,1), val4 = +(0,1); result = op(val1, op(val2, op(val3, val4))).
  const u64 gx[4] = {tx, tx + 1, tx + 1, tx}, gy[4] = {ty, ty, ty + 1, ty + 1};
  T acc{};
  bool have = false;
  for (int k = 3; k >= 0; --k) {
    if (!present(gx[k], gy[k], level, side0, n)) continue;
    const T v = in[gy[k] * in_side + gx[k]];
    acc = have ? op(v, acc) : v;
    have = true;
  }
  out[y * out_side + x] = acc;
}

template <class T, class Op>
void run(const T* in, u64 n, T* result, T init, Op op, cudaStream_t s, const char* fn) {
  if (n <= 1) {
    multipass::finish_kernel<<<1, 1, 0, s>>>(in, n, init, op, result);
    return check_launch(fn, "multipass::finish_kernel");
  }
  u64 side0 = 1;
  while (side0 * side0 < n) side0 *= 2;
  // The input texture is read-only; passes ping-pong between two buffers of (M/2)^2 and (M/4)^2 texels.
  scratch ping((side0 / 2) * (side0 / 2) * sizeof(T), s, fn), pong((side0 / 4 ? (side0 / 4) * (side0 / 4) : 1) * sizeof(T), s, fn);
  const T* src = in;
  T* dst = ping.as<T>();
  T* other = pong.as<T>();
  int level = 0;
  for (u64 out_side = side0 / 2; out_side >= 1; out_side /= 2) {
    const u64 texels = out_side * out_side;
    pass_kernel<<<static_cast<unsigned>(ceil_div(texels, policy::threads)), policy::threads, 0, s>>>(src, dst, out_side, level, side0, n, op);
    check_launch(fn, "goddeke_multipass::pass_kernel");
    ++level;
    src = dst;
    std::swap(dst, other);
  }
  multipass::finish_kernel<<<1, 1, 0, s>>>(src, 1, init, op, result);
  check_launch(fn, "multipass::finish_kernel");
}

}  // namespace sluice::cuda_backend::goddeke_multipass
