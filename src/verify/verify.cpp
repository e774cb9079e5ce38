#include "verify/verify.hpp"

#include "verify/check.hpp"

namespace sluice::verify {

tally run(const algorithm_info& algo, const settings& s, std::string_view spec) {
  context c{algo, s, spec.empty() ? algo.name : spec, {}};
  switch (algo.prim) {
    case primitive::reduce: verify_reduce(c); break;
    case primitive::scan: verify_scan(c); break;
    case primitive::compact:
    case primitive::compact_unordered: verify_compact(c); break;
    case primitive::partition:
    case primitive::partition_unordered: verify_partition(c); break;
    case primitive::radix_sort: verify_sort(c); break;
    case primitive::unique:
    case primitive::run_length_encode: verify_runs(c); break;
    case primitive::reduce_by_key:
    case primitive::scan_by_key:
    case primitive::segmented_reduce:
    case primitive::segmented_scan: verify_segmented(c); break;
    case primitive::split: verify_split(c); break;
    case primitive::top_k: verify_top_k(c); break;
    case primitive::segmented_radix_sort: verify_segmented_sort(c); break;
  }
  return c.t;
}

}  // namespace sluice::verify
