// The timing of the standalone tuning studies (bench/*_tuning.cu): the median of CUDA-event timings of f(),
// after `warmup` untimed runs; setup() runs untimed before every run (restoring an input sorted in place).
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

template <class Setup, class F>
float event_median_ms(int warmup, int reps, Setup setup, F f) {
  cudaEvent_t a, b;
  cudaEventCreate(&a), cudaEventCreate(&b);
  for (int i = 0; i < warmup; ++i) setup(), f();
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    setup();
    cudaEventRecord(a);
    f();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  cudaEventDestroy(a), cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}
