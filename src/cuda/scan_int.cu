#include "instantiate.cuh"
#define X(T) SLUICE_OPS(SLUICE_INST_SCAN, T)
X(std::int32_t) X(std::uint32_t) X(std::int64_t) X(std::uint64_t)
