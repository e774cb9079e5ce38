#include "instantiate.cuh"
#define X(T) SLUICE_OPS(SLUICE_INST_SCAN, T)
X(float) X(double)
