// One call's setting (call.hpp), the dtype errors and the conversion of Python numbers.
#include "call.hpp"

#include <cmath>
#include <limits>
#include <optional>

#include "sluice/scratch.hpp"
#if SLUICE_HAS_CUDA
#include <cuda_runtime_api.h>
#endif

namespace sluice_py {

void fail_type(const std::string& fn, const char* arg, const dtype& t, const char* takes) {
  throw py::type_error("sluice." + fn + ": '" + arg + "' is " + t.name() + "; " + fn + " takes " + takes);
}
void fail_value(const std::string& fn, const char* arg, const std::string& what) {
  throw py::value_error("sluice." + fn + ": '" + arg + "' " + what);
}

template <class T>
T value_as(py::handle v, const std::string& fn, const char* what) {
  const auto bad = [&](const std::string& why) {
    throw py::value_error("sluice." + fn + ": " + what + " " + std::string(py::repr(v)) + " " + why);
  };
  if constexpr (std::is_floating_point_v<T>) {
    const double d = PyFloat_AsDouble(v.ptr());
    if (d == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      bad("is not a number");
    }
    return static_cast<T>(d);
  } else {
    PyObject* index = PyNumber_Index(v.ptr());  // Python and NumPy integers, bool
    if (index == nullptr) {
      PyErr_Clear();
      // A float: only where it is a whole number in range.
      const double d = PyFloat_AsDouble(v.ptr());
      if (PyErr_Occurred()) PyErr_Clear(), bad("is not a number");
      if (!std::isfinite(d) || d != std::floor(d)) bad("is not an integer, as the array's elements are");
      if (d < static_cast<double>(std::numeric_limits<T>::lowest()) || d >= std::ldexp(1.0, std::numeric_limits<T>::digits))
        bad("does not fit the array's dtype");
      return static_cast<T>(d);
    }
    const auto i = py::reinterpret_steal<py::object>(index);
    int overflow = 0;
    const long long s = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
    if (overflow == 0 && s >= 0) {
      if (static_cast<unsigned long long>(s) > static_cast<unsigned long long>(std::numeric_limits<T>::max())) bad("does not fit the array's dtype");
      return static_cast<T>(s);
    }
    if (overflow == 0) {  // negative
      if (!std::is_signed_v<T> || s < static_cast<long long>(std::numeric_limits<T>::lowest())) bad("does not fit the array's dtype");
      return static_cast<T>(s);
    }
    if (overflow > 0 && std::is_same_v<T, std::uint64_t>) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(i.ptr());
      if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) PyErr_Clear(), bad("does not fit the array's dtype");
      return static_cast<T>(u);
    }
    bad("does not fit the array's dtype");
  }
  return T{};
}
#define SLUICE_PY_VALUE_AS(T) template T value_as<T>(py::handle, const std::string&, const char*);
SLUICE_PY_VALUE_AS(std::uint8_t)
SLUICE_PY_VALUE_AS(std::int32_t)
SLUICE_PY_VALUE_AS(std::uint32_t)
SLUICE_PY_VALUE_AS(std::int64_t)
SLUICE_PY_VALUE_AS(std::uint64_t)
SLUICE_PY_VALUE_AS(float)
SLUICE_PY_VALUE_AS(double)

namespace {
// The caller's allocator, called from sluice with the GIL released: allocate(nbytes) -> int, free(int).
// A Python error is kept and raised once the call is back (sluice sees no memory: out_of_memory).
struct python_scratch {
  py::object allocate, free;
  PyObject* error[3] = {nullptr, nullptr, nullptr};
  sluice::scratch_allocator allocator;
  std::optional<sluice::scoped_scratch_allocator> scope;
};

void* python_allocate(void* context, std::size_t bytes, CUstream_st*) {
  auto* s = static_cast<python_scratch*>(context);
  py::gil_scoped_acquire gil;
  if (s->error[0]) return nullptr;
  try {
    return reinterpret_cast<void*>(s->allocate(bytes).cast<std::uintptr_t>());
  } catch (py::error_already_set& e) {
    e.restore();
    PyErr_Fetch(&s->error[0], &s->error[1], &s->error[2]);
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
    PyErr_Fetch(&s->error[0], &s->error[1], &s->error[2]);
  }
  return nullptr;
}

void python_free(void* context, void* p, std::size_t, CUstream_st*) noexcept {
  auto* s = static_cast<python_scratch*>(context);
  py::gil_scoped_acquire gil;
  try {
    s->free(reinterpret_cast<std::uintptr_t>(p));
  } catch (py::error_already_set& e) {
    e.discard_as_unraisable("sluice: the scratch allocator's free");
  } catch (...) {
  }
}
}  // namespace

call::call(std::string fn, const array& first, const std::string& algorithm, std::uintptr_t stream, py::handle scratch)
    : fn_(std::move(fn)), algorithm_(algorithm) {
  opt_.device = first.cuda ? sluice::device::cuda : sluice::device::cpu;
  opt_.algorithm = algorithm_;
  opt_.stream = reinterpret_cast<CUstream_st*>(stream);
  if (!first.cuda && stream != 0) throw py::value_error("sluice." + fn_ + ": stream= is for CUDA arrays, and these are on the host");
#if SLUICE_HAS_CUDA
  if (first.cuda) {
    int current = 0;
    if (cudaGetDevice(&current) == cudaSuccess && current != first.device) {
      if (cudaSetDevice(first.device) != cudaSuccess) (void)cudaGetLastError();
      else previous_device_ = current;
    }
    (void)cudaGetLastError();
  }
#endif
  if (first.cuda && !scratch.is_none()) scratch_ = py::reinterpret_borrow<py::object>(scratch);
}

call::~call() {
#if SLUICE_HAS_CUDA
  if (previous_device_ >= 0) (void)cudaSetDevice(previous_device_);
#endif
  if (state_) {
    auto* s = static_cast<python_scratch*>(state_);
    for (PyObject* o : s->error) Py_XDECREF(o);
    delete s;
  }
}

void call::wait_for([[maybe_unused]] const array& a) {
#if SLUICE_HAS_CUDA
  const auto producer = reinterpret_cast<cudaStream_t>(a.producer_stream);
  if (a.producer_stream == 0 || producer == reinterpret_cast<cudaStream_t>(opt_.stream)) return;
  cudaEvent_t e;
  if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess || cudaEventRecord(e, producer) != cudaSuccess ||
      cudaStreamWaitEvent(reinterpret_cast<cudaStream_t>(opt_.stream), e, 0) != cudaSuccess) {
    const cudaError_t err = cudaGetLastError();
    throw sluice::error(sluice::errc::cuda_error, "sluice." + fn_ + ": waiting for the producer's stream failed: " + cudaGetErrorString(err));
  }
  (void)cudaEventDestroy(e);
#endif
}

void call::enter() {
  python_scratch* s = nullptr;
  if (scratch_) {
    if (!state_) {
      s = new python_scratch;
      state_ = s;
      s->allocate = scratch_[py::int_(0)];
      s->free = scratch_[py::int_(1)];
      s->allocator = {&python_allocate, &python_free, s};
    }
    s = static_cast<python_scratch*>(state_);
    s->scope.emplace(s->allocator);
  }
  released_ = PyEval_SaveThread();
}

void call::leave() noexcept {
  auto* s = static_cast<python_scratch*>(state_);
  PyEval_RestoreThread(released_);
  if (s) {
    s->scope.reset();
    if (s->error[0] && !PyErr_Occurred()) {
      PyErr_Restore(s->error[0], s->error[1], s->error[2]);
      s->error[0] = s->error[1] = s->error[2] = nullptr;
    }
  }
}

}  // namespace sluice_py
