// For `sluice bench --suite gl` only: the gl device's yardsticks beyond gl/backend.hpp's.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sluice::gl_backend {

// A copy of `bytes` in ms, run `runs` times: by a fragment pass that copies an R32UI texture texel to texel
// (what every pass of the variants is made of), or, with fragment_pass false, by glCopyImageSubData.
std::vector<double> time_copy(std::uint64_t bytes, int runs, bool fragment_pass);

// While on, every gl run keeps the GPU time of each of its passes (GL_TIMESTAMP queries; the names of
// SLUICE_GL_PROFILE): profile_last() gives the last run's, in order, in ms.
void profile_capture(bool on);
std::vector<std::pair<std::string, double>> profile_last();

}  // namespace sluice::gl_backend
