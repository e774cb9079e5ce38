// Instrumentation for `sluice bench --suite blocksize` (Roger Fig. 10, Moreira Figs. 9 and 10): while a
// recorder is installed, an algorithm made of several launches calls it after each step with the step's name
// and its CUDA stream, and the recorder may record an event there. With none installed, a step costs one
// atomic load. Install one only while a single host thread calls sluice; it is not part of the public API.
#pragma once

namespace sluice::detail {

class step_recorder {
 public:
  virtual void after(const char* step, void* stream) = 0;

 protected:
  ~step_recorder() = default;
};

void set_step_recorder(step_recorder* r) noexcept;  // null removes it
step_recorder* current_step_recorder() noexcept;

inline void mark_step(const char* step, void* stream) {
  if (step_recorder* r = current_step_recorder()) r->after(step, stream);
}

}  // namespace sluice::detail
