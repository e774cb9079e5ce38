#include "instantiate.cuh"
#define X(T) SLUICE_INST_DATA(T, sluice::detail::pred_select<sluice::threshold<T>>)
SLUICE_PREDICATE_TYPES(X)
