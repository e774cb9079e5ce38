// What the test files share: the error expectation and, with CUDA, the GPU fixture, the sanitizer switch and
// CUDA graph capture. The fixture lives here, outside any anonymous namespace, because googletest wants one
// fixture class for all the tests of a suite, whichever file they are in.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sluice/sluice.hpp"
#include "switches.hpp"
#if SLUICE_HAS_CUDA
#include <cuda_runtime.h>
#endif

namespace sluice_test {

// Expect a sluice::error with this code whose message contains every fragment.
template <class F>
void expect_error(sluice::errc code, std::vector<std::string> fragments, F&& f) {
  try {
    f();
    ADD_FAILURE() << "no error thrown";
  } catch (const sluice::error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    for (const auto& frag : fragments) EXPECT_NE(std::string(e.what()).find(frag), std::string::npos) << e.what() << " lacks " << frag;
  }
}

#if SLUICE_HAS_CUDA
// The GPU's tests (suite gpu): skipped, with the reason, where no GPU is present.
class gpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!sluice::device_available(sluice::device::cuda)) GTEST_SKIP() << "no CUDA device: no GPU present on this machine";
  }
};

// Under compute-sanitizer (SLUICE_TEST_SANITIZE=1, as docs/guide/tool.md runs the GPU tests there), the
// large tests run smaller inputs and name the paths they exist for (pipelined=on, resident=off), so that
// racecheck and initcheck, which slow kernels by orders of magnitude, finish over the same code.
inline bool sanitizing() { return test_switch("SLUICE_TEST_SANITIZE"); }

// The pipelined path by name; sanitizing, on a grid of 7 blocks, so that at the smaller sizes each block still
// takes several rounds through its shared-memory buffers, as every block does at 2^24.
inline const char* pipelined_spec() { return sanitizing() ? "decoupled-lookback:pipelined=on,blocks=7" : "decoupled-lookback:pipelined=on"; }

// What `record` enqueues on stream s, captured in a CUDA graph: launch() replays it on s and waits for it.
class captured {
 public:
  template <class Record>
  captured(cudaStream_t s, Record record) : s_(s) {
    EXPECT_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    record();
    EXPECT_EQ(cudaStreamEndCapture(s, &graph_), cudaSuccess);
    EXPECT_EQ(cudaGraphInstantiate(&exec_, graph_, 0), cudaSuccess);
  }
  ~captured() {
    cudaGraphExecDestroy(exec_);
    cudaGraphDestroy(graph_);
  }
  captured(const captured&) = delete;
  captured& operator=(const captured&) = delete;
  bool launch() const { return cudaGraphLaunch(exec_, s_) == cudaSuccess && cudaStreamSynchronize(s_) == cudaSuccess; }

 private:
  cudaStream_t s_;
  cudaGraph_t graph_{};
  cudaGraphExec_t exec_{};
};
#endif

}  // namespace sluice_test
