// sluice: reduction, scan, stream compaction, partition, radix sort and runs (unique, run-length encoding), by-key and
// segmented reductions and scans, the k-way split and top-k, on CPUs and CUDA GPUs.
#pragma once
#include "sluice/algorithms.hpp"
#include "sluice/compact.hpp"
#include "sluice/device_buffer.hpp"
#include "sluice/error.hpp"
#include "sluice/options.hpp"
#include "sluice/partition.hpp"
#include "sluice/reduce.hpp"
#include "sluice/runs.hpp"
#include "sluice/scan.hpp"
#include "sluice/scratch.hpp"
#include "sluice/segmented.hpp"
#include "sluice/sort.hpp"
#include "sluice/split.hpp"
#include "sluice/top_k.hpp"
#include "sluice/types.hpp"
