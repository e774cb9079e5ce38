// The papers' compaction and split variants (dispatch_papers.cuh) for compact_if / partition with a threshold.
#include "sluice/cuda/dispatch_papers.cuh"
#include "instantiate.cuh"
#define X(T) SLUICE_INST_PAPERS(T, sluice::detail::pred_select<sluice::threshold<T>>)
SLUICE_PREDICATE_TYPES(X)
