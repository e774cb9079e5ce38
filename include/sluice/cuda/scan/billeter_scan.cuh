// scan "billeter-scan" (Billeter, Olsson, Assarsson 2009, Sec. 5.2, "Global Prefix Sum"): the three phases
// of the `billeter` compaction (compact/billeter.cuh) with values in place of valid flags. P virtual
// processors of S = 32 lanes (warps) own contiguous ranges of rows of S elements.
//   Phase 1: each processor reduces its range, row by row (a warp prefix sum per row, Listing 5, whose last
//            lane is the row's total), into one partial per processor.
//   Phase 2: an inclusive prefix sum over the P partials (unchanged from the compaction).
//   Phase 3: each processor scans its rows again, adds the running carry from phase 2 and writes all S
//            elements of the row: aligned, coalesced reads and writes.
// The operator only needs to be associative (rows and ranges combine in order). In place is safe (every
// row is read before it is written, by the same warp). Reads the input twice, writes the output once.
// Parameters: P (default: every warp slot of the device; capped at the number of rows).
#pragma once
#include <cub/warp/warp_scan.cuh>
#include <cub/util_ptx.cuh>

#include "sluice/cuda/compact/billeter.cuh"

namespace sluice::cuda_backend::billeter_scan {

using billeter::policy;
constexpr unsigned S = policy::S;

// The row at `base`: lane's element (lanes past the end repeat the row's first element, never stored),
// its inclusive scan across the warp, and the row's total.
template <class T, class Op>
struct row_scan {
  T x, incl, total;
  __device__ row_scan(const T* in, u64 base, u64 n, unsigned lane, Op op, typename cub::WarpScan<T>::TempStorage& ts) {
    const unsigned valid = n - base < S ? static_cast<unsigned>(n - base) : S;
    x = in[base + (lane < valid ? lane : 0)];
    cub::WarpScan<T>(ts).InclusiveScan(x, incl, op);
    total = cub::ShuffleIndex<32>(incl, static_cast<int>(valid - 1), 0xffffffffu);
  }
};

// ---- Phase 1: one partial per processor. ----
template <class T, class Op>
__global__ void __launch_bounds__(policy::warps_per_block * 32) reduce_kernel(const T* in, u64 n, u64 P, Op op, T* partials) {
  __shared__ typename cub::WarpScan<T>::TempStorage ts[policy::warps_per_block];
  const unsigned w = threadIdx.x / 32, lane = threadIdx.x & 31u;
  const u64 p = static_cast<u64>(blockIdx.x) * policy::warps_per_block + w;
  if (p >= P) return;
  const billeter::ranges r(n, S, P);
  u64 k = r.first(p);
  T acc = row_scan<T, Op>(in, k * S, n, lane, op, ts[w]).total;  // every range has at least one row (P <= rows)
  for (++k; k < r.last(p); ++k) acc = op(acc, row_scan<T, Op>(in, k * S, n, lane, op, ts[w]).total);
  if (lane == 0) partials[p] = acc;
}

// ---- Phase 3: rescan every row with the carry of the ranges before it. ----
template <class T, class Op>
__global__ void __launch_bounds__(policy::warps_per_block * 32)
    scan_kernel(const T* in, T* out, u64 n, u64 P, Op op, bool inclusive, T init, const T* partials_incl) {
  __shared__ typename cub::WarpScan<T>::TempStorage ts[policy::warps_per_block];
  const unsigned w = threadIdx.x / 32, lane = threadIdx.x & 31u;
  const u64 p = static_cast<u64>(blockIdx.x) * policy::warps_per_block + w;
  if (p >= P) return;
  const billeter::ranges r(n, S, P);
  bool has = !inclusive || p > 0;  // an inclusive scan has no carry into the first range
  T carry = init;
  if (p > 0) carry = inclusive ? partials_incl[p - 1] : op(init, partials_incl[p - 1]);
  for (u64 k = r.first(p); k < r.last(p); ++k) {
    const u64 i = k * S + lane;
    const row_scan<T, Op> row(in, k * S, n, lane, op, ts[w]);
    const T before = cub::ShuffleUp<32>(row.incl, 1, 0, 0xffffffffu);  // exclusive: the lane to the left
    T o;
    if (inclusive) o = has ? op(carry, row.incl) : row.incl;
    else o = lane == 0 ? carry : op(carry, before);
    if (i < n) out[i] = o;
    carry = has ? op(carry, row.total) : row.total;
    has = true;
  }
}

template <class T, class Op>
void run(const T* in, T* out, u64 n, bool inclusive, T init, Op op, cudaStream_t s, const char* fn, std::string_view spec) {
  sluice::detail::params prm(spec, fn);
  u64 P = policy::processors(prm, fn);
  prm.done("P");
  if (n == 0) return;
  const u64 rows = ceil_div(n, S);
  if (P > rows) P = rows;
  scratch partials(P * sizeof(T), s, fn), partials_incl(P * sizeof(T), s, fn);
  const unsigned blocks = static_cast<unsigned>(ceil_div(P, policy::warps_per_block));
  reduce_kernel<<<blocks, policy::warps_per_block * 32, 0, s>>>(in, n, P, op, partials.as<T>());
  check_launch(fn, "billeter_scan::reduce_kernel");
  reduce_then_scan::run<T>(ptr_load<T>{partials.as<T>()}, ptr_store<T>{partials_incl.as<T>()}, P, /*inclusive=*/true, init, op, s, fn);
  scan_kernel<<<blocks, policy::warps_per_block * 32, 0, s>>>(in, out, n, P, op, inclusive, init, partials_incl.as<T>());
  check_launch(fn, "billeter_scan::scan_kernel");
}

}  // namespace sluice::cuda_backend::billeter_scan
