#include "instantiate.cuh"
#define X(T) SLUICE_OPS(SLUICE_INST_REDUCE, T)
SLUICE_NUMERIC_TYPES(X)
