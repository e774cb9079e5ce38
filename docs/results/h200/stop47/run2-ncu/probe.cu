// stop 47, run 2: built with nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild/include -cubin -Xptxas -v \
//   docs/results/h200/stop47/run2-ncu/probe.cu -o probe.cubin (from the repository root); cuobjdump -sass on the device.
// SASS probe: the default pipelined compact (u32 by predicate), partition pass and scan kernels alone.
#include "sluice/cuda/compact/decoupled_lookback.cuh"
#include "sluice/cuda/scan/decoupled_lookback.cuh"
using namespace sluice::cuda_backend;
namespace sl = select_lookback;
struct below { unsigned limit; __host__ __device__ bool operator()(unsigned x) const { return x < limit; } };
using Sel = sluice::detail::pred_select<below>;
template __global__ void sl::pipelined_compact_kernel<unsigned, Sel, lookback::tuning, sl::compact_pipeline<unsigned, false>, sl::mode::compact>(
    const unsigned*, Sel, unsigned*, u64, u64, u64*, unsigned*, lookback::count_state, sl::partition_args);
template __global__ void sl::pipelined_compact_kernel<unsigned, Sel, lookback::tuning, sl::partition_pipeline<unsigned>, sl::mode::partition>(
    const unsigned*, Sel, unsigned*, u64, u64, u64*, unsigned*, lookback::count_state, sl::partition_args);
template __global__ void decoupled_lookback::pipelined_scan_kernel<unsigned, sluice::sum, lookback::tuning, decoupled_lookback::scan_pipeline<unsigned>>(
    const unsigned*, unsigned*, u64, sluice::sum, bool, unsigned, unsigned*, lookback::tile_state<unsigned>);
