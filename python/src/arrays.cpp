// How each kind of Python array is read: see arrays.hpp.
#include "arrays.hpp"

#include <dlpack.h>  // DLPack: Debian's libdlpack-dev, or CuPy's copy (python/CMakeLists.txt)
#include <pybind11/numpy.h>

#include "sluice/config.hpp"
#if SLUICE_HAS_CUDA
#include <cuda_runtime_api.h>
#endif

namespace sluice_py {

std::string dtype::name() const {
  const std::string bits = std::to_string(bytes * 8);
  switch (kind) {
    case 'b': return "bool";
    case 'i': return "int" + bits;
    case 'u': return "uint" + bits;
    case 'f': return "float" + bits;
    case 'c': return "complex" + bits;
    case 'B': return "bfloat16";
  }
  return "a " + std::to_string(bytes) + "-byte element";
}

namespace {

[[noreturn]] void fail_value(const char* fn, const char* arg, const std::string& what) {
  throw py::value_error(std::string("sluice.") + fn + ": '" + arg + "' " + what);
}

void require_1d(const char* fn, const char* arg, std::int64_t ndim, std::int64_t size, std::int64_t stride_elements) {
  if (ndim != 1) fail_value(fn, arg, "has " + std::to_string(ndim) + " dimensions; sluice takes 1-D arrays (flatten it first)");
  if (size > 1 && stride_elements != 1)
    fail_value(fn, arg, "is not contiguous (a stride of " + std::to_string(stride_elements) +
                            " elements); sluice takes contiguous arrays (copy it first)");
}

// NumPy arrays: read-only ones too (DLPack cannot say that an array is read-only, so NumPy does not export those).
array from_numpy(py::handle obj, const char* fn, const char* arg) {
  auto a = py::reinterpret_borrow<py::array>(obj);
  const py::dtype dt = a.dtype();
  array v;
  const char kind = dt.kind();
  if (kind == 'O') throw py::type_error(std::string("sluice.") + fn + ": '" + arg + "' holds Python objects; sluice takes numeric arrays");
  const char order = dt.attr("byteorder").cast<std::string>().at(0);
  v.type = {order == '>' ? 'V' : (kind == 'M' || kind == 'm' || kind == 'S' || kind == 'U' ? 'V' : kind), static_cast<int>(dt.itemsize())};
  v.size = a.ndim() == 1 ? a.shape(0) : a.size();
  require_1d(fn, arg, a.ndim(), v.size, a.ndim() == 1 && v.type.bytes ? a.strides(0) / v.type.bytes : 1);
  if (a.ndim() == 1 && v.size > 1 && a.strides(0) != v.type.bytes) fail_value(fn, arg, "is not contiguous; sluice takes contiguous arrays (copy it first)");
  v.data = const_cast<void*>(a.data());
  v.writable = a.writeable();
  v.keep = a;
  return v;
}

dtype from_dlpack_type(DLDataType t) {
  if (t.lanes != 1) return {'V', 0};
  const int bytes = (t.bits + 7) / 8;
  switch (t.code) {
    case kDLInt: return {'i', bytes};
    case kDLUInt: return {'u', bytes};
    case kDLFloat: return {'f', bytes};
    case kDLBfloat: return {'B', bytes};
    case 5: return {'c', bytes};  // kDLComplex
    case 6: return {'b', bytes};  // kDLBool (DLPack 0.8)
  }
  return {'V', bytes};
}

array from_dlpack(py::handle obj, const char* fn, const char* arg, std::uintptr_t stream) {
  const auto where = obj.attr("__dlpack_device__")().cast<py::tuple>();
  const int device_type = where[0].cast<int>();
  const bool cuda = device_type == kDLCUDA || device_type == kDLCUDAManaged;
  if (!cuda && device_type != kDLCPU && device_type != kDLCUDAHost)
    fail_value(fn, arg, "lives on a DLPack device of type " + std::to_string(device_type) + "; sluice reads host and CUDA memory");
  // The producer orders its pending work on the array before `stream` (1: CUDA's legacy default stream).
  py::object capsule = cuda ? obj.attr("__dlpack__")(py::arg("stream") = stream == 0 ? 1 : stream) : obj.attr("__dlpack__")();
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  if (managed == nullptr) throw py::error_already_set();
  const DLTensor& t = managed->dl_tensor;
  array v;
  v.type = from_dlpack_type(t.dtype);
  std::int64_t size = 1;
  for (int d = 0; d < t.ndim; ++d) size *= t.shape[d];
  v.size = t.ndim == 1 ? t.shape[0] : size;
  require_1d(fn, arg, t.ndim, v.size, t.ndim == 1 && t.strides ? t.strides[0] : 1);
  v.data = static_cast<char*>(t.data) + t.byte_offset;
  v.cuda = cuda;
  v.device = cuda ? t.device.device_id : 0;
  v.keep = std::move(capsule);  // unconsumed: its destructor calls the producer's deleter
  return v;
}

dtype from_typestr(const std::string& s) {
  if (s.size() < 3) return {'V', 0};
  const int bytes = std::stoi(s.substr(2));
  const char kind = s[0] == '>' ? 'V' : s[1];
  return {kind == 'i' || kind == 'u' || kind == 'f' || kind == 'c' || kind == 'b' ? kind : 'V', bytes};
}

int device_of_pointer([[maybe_unused]] const void* p, const char* fn, const char* arg) {
#if SLUICE_HAS_CUDA
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError();
    fail_value(fn, arg, "claims CUDA memory (__cuda_array_interface__) that CUDA does not know");
  }
  return a.device;
#else
  (void)fn, (void)arg;
  return 0;
#endif
}

array from_cuda_array_interface(py::handle obj, const char* fn, const char* arg) {
  const auto cai = obj.attr("__cuda_array_interface__").cast<py::dict>();
  const auto shape = cai["shape"].cast<py::tuple>();
  array v;
  v.type = from_typestr(cai["typestr"].cast<std::string>());
  std::int64_t size = 1;
  for (auto s : shape) size *= s.cast<std::int64_t>();
  v.size = shape.size() == 1 ? shape[0].cast<std::int64_t>() : size;
  std::int64_t stride = 1;
  if (cai.contains("strides") && !cai["strides"].is_none() && shape.size() == 1 && v.type.bytes)
    stride = cai["strides"].cast<py::tuple>()[0].cast<std::int64_t>() / v.type.bytes;
  require_1d(fn, arg, static_cast<std::int64_t>(shape.size()), v.size, stride);
  const auto data = cai["data"].cast<py::tuple>();
  v.data = reinterpret_cast<void*>(data[0].cast<std::uintptr_t>());
  v.writable = !data[1].cast<bool>();
  v.cuda = true;
  v.device = v.data ? device_of_pointer(v.data, fn, arg) : 0;
  if (cai.contains("stream") && !cai["stream"].is_none()) v.producer_stream = cai["stream"].cast<std::uintptr_t>();
  v.keep = py::reinterpret_borrow<py::object>(obj);
  return v;
}

}  // namespace

// PyTorch tensors and CuPy arrays as sluice/_arrays.py describes them, where reading their attributes costs less
// than a DLPack export (1-D contiguous checked there): (raw_marker, pointer, size, kind, bytes, cuda, device,
// writable, producer stream, the array).
PyObject* raw_marker() {  // kept for the life of the process: no reference to drop after the interpreter is gone
  static PyObject* marker = py::object(py::module_::import("sluice._arrays").attr("RAW")).release().ptr();
  return marker;
}

array from_raw(py::handle obj) {
  const auto t = py::reinterpret_borrow<py::tuple>(obj);
  array v;
  v.data = reinterpret_cast<void*>(t[1].cast<std::uintptr_t>());
  v.size = t[2].cast<std::int64_t>();
  v.type = {t[3].cast<std::string>().at(0), t[4].cast<int>()};
  v.cuda = t[5].cast<bool>();
  v.device = t[6].cast<int>();
  v.writable = t[7].cast<bool>();
  v.producer_stream = t[8].cast<std::uintptr_t>();
  v.keep = t[9];
  return v;
}

array view(py::handle obj, const char* fn, const char* arg, std::uintptr_t stream) {
  if (py::isinstance<py::array>(obj)) return from_numpy(obj, fn, arg);
  if (PyTuple_Check(obj.ptr()) && PyTuple_GET_SIZE(obj.ptr()) == 10 && PyTuple_GET_ITEM(obj.ptr(), 0) == raw_marker())
    return from_raw(obj);
  if (py::hasattr(obj, "__dlpack__") && py::hasattr(obj, "__dlpack_device__")) return from_dlpack(obj, fn, arg, stream);
  if (py::hasattr(obj, "__cuda_array_interface__")) return from_cuda_array_interface(obj, fn, arg);
  if (PyObject_CheckBuffer(obj.ptr()) && !PyBytes_Check(obj.ptr()) && !PyUnicode_Check(obj.ptr()))
    return from_numpy(py::module_::import("numpy").attr("asarray")(obj), fn, arg);  // array.array, memoryview: no copy
  throw py::type_error(std::string("sluice.") + fn + ": '" + arg + "' is a " + std::string(py::str(obj.get_type().attr("__name__"))) +
                       ", not an array (a NumPy array, or an object with __dlpack__ or __cuda_array_interface__)");
}

void require_writable(const array& a, const char* fn, const char* arg) {
  if (!a.writable) fail_value(fn, arg, "is read-only, but sluice writes it");
}

void require_same_device(const array& a, const char* a_arg, const array& b, const char* b_arg, const char* fn) {
  if (a.cuda == b.cuda && (!a.cuda || a.device == b.device)) return;
  const auto where = [](const array& x) { return x.cuda ? "CUDA device " + std::to_string(x.device) : std::string("the host"); };
  fail_value(fn, b_arg, "lives on " + where(b) + " but '" + a_arg + "' on " + where(a) + "; all arrays of a call must be on one device");
}

}  // namespace sluice_py
