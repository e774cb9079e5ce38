// compact and partition by predicate, one cluster: the single pass (single_pass.cuh) as one thread block cluster
// (cluster_prefix.cuh; Hopper) for 2 to cluster::max_blocks tiles: the tiles' counts read from each other's shared
// memory in rank order, in place of the look-back (Merrill and Garland 2016, Sec. 4), with no tile states,
// counter or count pass; the stable partition's tiles learn the total with their prefix and stage both runs at
// once. Keeps order; each byte read once and written once. Dispatch (decoupled_lookback.cuh) tries it first for
// small inputs unless phased=on, resident=on, cluster=off or partition's pipelined pass asks for another path.
// Where it served, under ncu, the cluster's kernels measured faster than the look-back's for compact (flags and
// predicate) and the stable partition by predicate; not for the stable partition with flags (every block waits
// for the slowest block's count before it stores), which keeps its resident grid.
#pragma once
#include <span>

#include "sluice/cuda/cluster_prefix.cuh"
#include "sluice/cuda/compact/single_pass.cuh"

namespace sluice::cuda_backend::select_lookback {

// The forms that one cluster serves.
template <mode M, class Sel>
inline constexpr bool cluster_wanted = M == mode::compact || (M == mode::partition && !is_flags<Sel>);

// The single pass as one thread block cluster (cluster_prefix.cuh), where the form gains by it (cluster_wanted),
// the input is 2 to cluster::max_blocks tiles, the device holds such a cluster (Hopper) and cluster=off does not
// rule it out: the tiles' counts exchanged in shared memory, with no look-back states, counter or count pass, and
// a synchronous call's count the call's last store, so that it may be read as it lands (permit_watch). False
// where the caller is to take another path.
template <mode M, class T, class Sel, class Kernel>
bool try_cluster(Kernel* kernel, std::span<const T> in, std::span<T> out, const Sel& sel, u64* count, cudaStream_t s, const char* fn,
                 const compact_settings& c, bool from_end) {
  const u64 n = in.size(), tiles = ceil_div(n, policy<T>::tile);
  const bool host_slot = is_host_slot(count);  // the count as the call's last store (count_last)
  if (!cluster_wanted<M, Sel> || !c.cluster || tiles < 2 || tiles > cluster::max_blocks) return false;
  if (!cluster::launch(kernel, static_cast<unsigned>(tiles), policy<T>::threads, s, fn, "select_lookback::select_kernel", in.data(), sel,
                       out.data(), n, static_cast<u64>(out.size()), count, static_cast<unsigned*>(nullptr), static_cast<unsigned*>(nullptr),
                       lookback::count_state{}, static_cast<const unsigned long long*>(nullptr), static_cast<const u64*>(nullptr),
                       static_cast<const unsigned*>(nullptr), static_cast<const unsigned*>(nullptr), from_end, host_slot, true))
    return false;
  if (host_slot) permit_watch(count);
  return true;
}

}  // namespace sluice::cuda_backend::select_lookback
