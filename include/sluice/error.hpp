// sluice::error: the one exception type every public function throws.
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>

namespace sluice {

enum class errc {
  invalid_argument,  // a span, size, bit range or option the function cannot accept
  out_of_memory,     // scratch or device memory could not be allocated
  no_device,         // the device asked for is not present (no GPU, no OpenGL context) or not built in
  cuda_error,        // a CUDA call or kernel launch failed
  unsupported,       // a valid request this build or algorithm does not implement (e.g. in place on the GPU)
  gl_error,          // an OpenGL or EGL call of the gl device failed
  comm_error,        // an MPI call of sluice::dist failed
};

constexpr std::string_view to_string(errc c) noexcept {
  switch (c) {
    case errc::invalid_argument: return "invalid_argument";
    case errc::out_of_memory: return "out_of_memory";
    case errc::no_device: return "no_device";
    case errc::cuda_error: return "cuda_error";
    case errc::unsupported: return "unsupported";
    case errc::gl_error: return "gl_error";
    case errc::comm_error: return "comm_error";
  }
  return "unknown";
}

class error : public std::runtime_error {
 public:
  error(errc code, const std::string& message)
      : std::runtime_error(message + " [" + std::string(to_string(code)) + "]"), code_(code) {}
  errc code() const noexcept { return code_; }

 private:
  errc code_;
};

}  // namespace sluice
