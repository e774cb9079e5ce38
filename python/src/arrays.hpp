// Arrays from Python, read where they are: NumPy arrays through their buffer, any object with __dlpack__
// (PyTorch, CuPy, JAX, NumPy) through DLPack, CuPy and Numba arrays through __cuda_array_interface__.
#pragma once
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>

namespace sluice_py {
namespace py = pybind11;

// An element type as NumPy names its kinds: 'b' bool, 'i' signed, 'u' unsigned, 'f' float, 'c' complex,
// 'B' bfloat16, 'V' anything else; and its size in bytes.
struct dtype {
  char kind = 'V';
  int bytes = 0;
  bool operator==(const dtype&) const = default;
  std::string name() const;
};

// One 1-D contiguous array, its data and where it lives, kept alive by `keep` while the view is used.
struct array {
  void* data = nullptr;
  std::int64_t size = 0;
  dtype type;
  bool cuda = false;  // device (or managed) memory of GPU `device`; else host memory
  int device = 0;
  bool writable = true;
  // __cuda_array_interface__'s stream: work on it must finish before the call reads the data (0: none named).
  std::uintptr_t producer_stream = 0;
  py::object keep;
  std::shared_ptr<void> buffer;  // a Py_buffer held until the view dies
};

// The array `obj` passed as argument `arg` of function `fn`: TypeError where it is no array, ValueError where
// it is not one-dimensional and contiguous. `stream`: the stream the call runs on (DLPack's hand-over).
array view(py::handle obj, const char* fn, const char* arg, std::uintptr_t stream);

// ValueError unless `a` can be written (outputs).
void require_writable(const array& a, const char* fn, const char* arg);
// ValueError unless b lives where a does.
void require_same_device(const array& a, const char* a_arg, const array& b, const char* b_arg, const char* fn);

}  // namespace sluice_py
