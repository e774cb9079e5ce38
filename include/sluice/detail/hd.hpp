// SLUICE_HD: functions the host and, under nvcc, the device both call.
#pragma once

#if defined(__CUDACC__)
#define SLUICE_HD __host__ __device__
#else
#define SLUICE_HD
#endif
