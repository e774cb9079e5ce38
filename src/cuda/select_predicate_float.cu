// Compaction and partition by the built-in threshold, in three files (unsigned, signed, floating point) that
// compile side by side: each holds one 4-byte type, whose pipelines are six kernels each (one per comparison), and
// one 8-byte type, whose compact's pipeline is too.
#include "instantiate.cuh"
#define X(T) SLUICE_INST_DATA(T, sluice::detail::pred_select<sluice::threshold<T>>)
X(float) X(double)
