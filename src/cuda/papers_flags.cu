// The papers' compaction and split variants (dispatch_papers.cuh) for flagged data movement.
#include "sluice/cuda/dispatch_papers.cuh"
#include "instantiate.cuh"
#define SLUICE_INST_PAPERS_S(S, A) SLUICE_INST_PAPERS(sluice::detail::storage<S SLUICE_COMMA A>, sluice::detail::flag_select)
#define SLUICE_COMMA ,
SLUICE_STORAGE(SLUICE_INST_PAPERS_S)
