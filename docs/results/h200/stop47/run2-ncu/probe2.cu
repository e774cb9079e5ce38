// stop 47: ptxas -v of the library's other pipelines (spills checked here, not run); build as probe.cu.
// The other pipelined instantiations: u64 by predicate (compact, partition pass), u32 flags, f32 scan.
#include "sluice/cuda/compact/decoupled_lookback.cuh"
#include "sluice/cuda/scan/decoupled_lookback.cuh"
using namespace sluice::cuda_backend;
namespace sl = select_lookback;
struct below64 { unsigned long long limit; __host__ __device__ bool operator()(unsigned long long x) const { return x < limit; } };
using Sel = sluice::detail::pred_select<below64>;
using F = sluice::detail::flag_select;
template __global__ void sl::pipelined_compact_kernel<unsigned long long, Sel, lookback::tuning, sl::compact_pipeline<unsigned long long, false>, sl::mode::compact>(
    const unsigned long long*, Sel, unsigned long long*, u64, u64, u64*, unsigned*, lookback::count_state, sl::partition_args);
template __global__ void sl::pipelined_compact_kernel<unsigned long long, Sel, lookback::tuning, sl::partition_pipeline<unsigned long long>, sl::mode::partition>(
    const unsigned long long*, Sel, unsigned long long*, u64, u64, u64*, unsigned*, lookback::count_state, sl::partition_args);
template __global__ void sl::pipelined_compact_kernel<unsigned, F, lookback::tuning, sl::compact_pipeline<unsigned, true>, sl::mode::compact>(
    const unsigned*, F, unsigned*, u64, u64, u64*, unsigned*, lookback::count_state, sl::partition_args);
template __global__ void decoupled_lookback::pipelined_scan_kernel<float, sluice::sum, lookback::tuning, decoupled_lookback::scan_pipeline<float>>(
    const float*, float*, u64, sluice::sum, bool, float, unsigned*, lookback::tile_state<float>);
