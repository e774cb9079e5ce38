// For nvcc users: the whole API plus the CUDA kernels, so your own operators and predicates
// (__host__ __device__ callables) run on the GPU too. Plain C++ callers include <sluice/sluice.hpp>.
#pragma once
#include "sluice/cuda/dispatch.cuh"
#include "sluice/cuda/dispatch_papers.cuh"
#include "sluice/cuda/dispatch_runs.cuh"
#include "sluice/sluice.hpp"
