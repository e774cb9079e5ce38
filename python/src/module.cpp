// sluice._sluice: the compiled half of the Python package (sluice/__init__.py is the other): the primitives
// on arrays of any dtype they take, the registry, the devices, and sluice::error as sluice.Error.
#include <pybind11/stl.h>

#include "call.hpp"

namespace sluice_py {
namespace {

std::optional<sluice::device> device_named(const std::string& d) {
  if (d == "cpu") return sluice::device::cpu;
  if (d == "cuda") return sluice::device::cuda;
  if (d == "gl") return sluice::device::gl;
  return std::nullopt;
}

py::list algorithms() {
  py::list out;
  for (const auto& a : sluice::algorithms()) {
    py::list devices, defaults;
    for (const auto d : {sluice::device::cpu, sluice::device::cuda, sluice::device::gl}) {
      if (sluice::runs_on(a, d)) devices.append(std::string(sluice::to_string(d)));
      if (sluice::runs_on(a, d) && sluice::is_best(a, d)) defaults.append(std::string(sluice::to_string(d)));
    }
    py::dict e;
    e["primitive"] = std::string(sluice::to_string(a.prim));
    e["name"] = std::string(a.name);
    e["devices"] = devices;
    e["default_on"] = defaults;
    e["stable"] = a.stable;
    e["summary"] = std::string(a.summary);
    e["params"] = std::string(a.params);
    out.append(e);
  }
  return out;
}

}  // namespace
}  // namespace sluice_py

PYBIND11_MODULE(_sluice, m) {
  namespace py = pybind11;
  using namespace sluice_py;
  m.doc() = "sluice's compiled primitives; use the functions of the sluice package";
  m.attr("version") = SLUICE_PY_VERSION;
  m.attr("has_cuda") = sluice::config::has_cuda;
  m.attr("has_gl") = sluice::config::has_gl;
  // sluice::error as sluice.Error (sluice/_errors.py: a RuntimeError, and a ValueError too for invalid_argument).
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const sluice::error& e) {
      const auto errors = py::module_::import("sluice._errors");
      const std::string code(sluice::to_string(e.code()));
      const py::object cls = errors.attr(e.code() == sluice::errc::invalid_argument ? "InvalidArgument" : "Error");
      const py::object instance = cls(e.what(), code);
      PyErr_SetObject(cls.ptr(), instance.ptr());
    }
  });
  bind_reduce_scan(m);
  bind_select(m);
  bind_sort(m);
  bind_runs(m);
  bind_segmented(m);
  bind_split(m);
  bind_top_k(m);
  m.def("_algorithms", &algorithms);
  m.def(
      "_describe",
      [](py::handle x, const std::string& fn, const std::string& arg) {
        const array a = view(x, fn.c_str(), arg.c_str(), 0);
        return py::make_tuple(a.size, a.cuda, a.device, a.type.name());
      },
      py::arg("x"), py::arg("fn"), py::arg("arg"));
  m.def(
      "device_available",
      [](const std::string& d) {
        const auto dev = device_named(d);
        if (!dev) throw py::value_error("sluice.device_available: device '" + d + "': expected 'cpu', 'cuda' or 'gl'");
        return sluice::device_available(*dev);
      },
      py::arg("device"), "Whether 'cpu', 'cuda' or 'gl' can run work now.");
  m.def(
      "release_scratch",
      [] {
        py::gil_scoped_release release;
        return sluice::release_scratch();
      },
      "Hands sluice's freed GPU scratch back to the device (after waiting for it); returns how many bytes.");
}
