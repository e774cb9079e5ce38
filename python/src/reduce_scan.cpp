// reduce, reduce_async, inclusive_scan and exclusive_scan under sum, product, min and max.
#include "call.hpp"

namespace sluice_py {
namespace {

template <class T>
py::object numpy_scalar(T v, const dtype& t) {
  py::object value;
  if constexpr (std::is_floating_point_v<T>) value = py::float_(static_cast<double>(v));
  else value = py::int_(v);
  return py::module_::import("numpy").attr(t.name().c_str())(value);
}

py::object reduce(const std::string& fn, py::handle x, py::handle out, const std::string& op, py::handle init,
                  const std::string& algorithm, std::uintptr_t stream, py::handle scratch) {
  const array ax = view(x, fn.c_str(), "x", stream);
  array ao;
  if (!out.is_none()) {
    ao = view(out, fn.c_str(), "out", stream);
    require_writable(ao, fn.c_str(), "out");
    require_same_device(ax, "x", ao, "out", fn.c_str());
    if (!(ao.type == ax.type)) fail_value(fn, "out", "is " + ao.type.name() + " but 'x' is " + ax.type.name() + "; they must match");
    if (ao.size < 1) fail_value(fn, "out", "is empty; it must hold one element");
  }
  call c(fn, ax, algorithm, stream, scratch);
  c.wait_for(ax);
  return with_numeric(ax.type, fn, "x", [&](auto e) -> py::object {
    using T = decltype(e);
    return with_op(fn, op, [&](auto o) -> py::object {
      using Op = decltype(o);
      const T first = init.is_none() ? identity<T, Op>() : value_as<T>(init, fn, "init");
      const auto in = const_span_of<T>(ax);
      if (!out.is_none()) {
        c.run([&](const sluice::options& opt) { sluice::reduce_async(in, static_cast<T*>(ao.data), first, o, opt); });
        return py::none();
      }
      const T r = c.run([&](const sluice::options& opt) { return sluice::reduce(in, first, o, opt); });
      return numpy_scalar(r, ax.type);
    });
  });
}

void scan(const std::string& fn, py::handle x, py::handle out, bool inclusive, const std::string& op, py::handle init,
          const std::string& algorithm, std::uintptr_t stream, py::handle scratch) {
  const array ax = view(x, fn.c_str(), "x", stream);
  const array ao = view(out, fn.c_str(), "out", stream);
  require_writable(ao, fn.c_str(), "out");
  require_same_device(ax, "x", ao, "out", fn.c_str());
  if (!(ao.type == ax.type)) fail_value(fn, "out", "is " + ao.type.name() + " but 'x' is " + ax.type.name() + "; they must match");
  if (ao.size < ax.size) fail_value(fn, "out", "has " + std::to_string(ao.size) + " elements but 'x' has " + std::to_string(ax.size));
  call c(fn, ax, algorithm, stream, scratch);
  c.wait_for(ax);
  with_numeric(ax.type, fn, "x", [&](auto e) {
    using T = decltype(e);
    with_op(fn, op, [&](auto o) {
      using Op = decltype(o);
      const T first = init.is_none() ? identity<T, Op>() : value_as<T>(init, fn, "init");
      const auto in = const_span_of<T>(ax);
      const auto res = span_of<T>(ao);
      c.run([&](const sluice::options& opt) {
        if (inclusive) sluice::inclusive_scan(in, res, o, opt);
        else sluice::exclusive_scan(in, res, first, o, opt);
      });
    });
  });
}

}  // namespace

void bind_reduce_scan(py::module_& m) {
  m.def("_reduce", &reduce, py::arg("fn"), py::arg("x"), py::arg("out"), py::arg("op"), py::arg("init"), py::arg("algorithm"),
        py::arg("stream"), py::arg("scratch"));
  m.def("_scan", &scan, py::arg("fn"), py::arg("x"), py::arg("out"), py::arg("inclusive"), py::arg("op"), py::arg("init"),
        py::arg("algorithm"), py::arg("stream"), py::arg("scratch"));
}

}  // namespace sluice_py
