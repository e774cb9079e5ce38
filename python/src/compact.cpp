// compact, compact_if, compact_unordered(_if) and their _async forms.
#include "call.hpp"

namespace sluice_py {

sluice::compare compare_of(const std::string& fn, const std::string& name) {
  if (name == "less") return sluice::compare::less;
  if (name == "less_equal") return sluice::compare::less_equal;
  if (name == "greater") return sluice::compare::greater;
  if (name == "greater_equal") return sluice::compare::greater_equal;
  if (name == "equal") return sluice::compare::equal;
  if (name == "not_equal") return sluice::compare::not_equal;
  throw py::value_error("sluice." + fn + ": unknown comparison '" + name + "'");
}

selection select_arrays(const std::string& fn, py::handle x, py::handle mask, py::handle out, py::handle count, std::uintptr_t stream) {
  selection s;
  const char* f = fn.c_str();
  s.x = view(x, f, "x", stream);
  s.out = view(out, f, "out", stream);
  require_writable(s.out, f, "out");
  require_same_device(s.x, "x", s.out, "out", f);
  if (!(s.out.type == s.x.type)) fail_value(fn, "out", "is " + s.out.type.name() + " but 'x' is " + s.x.type.name() + "; they must match");
  if (!mask.is_none()) {
    s.has_mask = true;
    s.mask = view(mask, f, "mask", stream);
    require_same_device(s.x, "x", s.mask, "mask", f);
    if (!(s.mask.type == dtype{'b', 1} || s.mask.type == dtype{'u', 1})) fail_type(fn, "mask", s.mask.type, "bool or uint8 masks");
    if (s.mask.size != s.x.size)
      fail_value(fn, "mask", "has " + std::to_string(s.mask.size) + " elements but 'x' has " + std::to_string(s.x.size));
  }
  if (!count.is_none()) {
    s.has_count = true;
    s.count = view(count, f, "count", stream);
    require_writable(s.count, f, "count");
    require_same_device(s.x, "x", s.count, "count", f);
    if (s.count.type.bytes != 8 || (s.count.type.kind != 'u' && s.count.type.kind != 'i')) fail_type(fn, "count", s.count.type, "a uint64 or int64 count");
    if (s.count.size < 1) fail_value(fn, "count", "is empty; it must hold one element");
  }
  return s;
}

namespace {

py::object compact(const std::string& fn, py::handle x, py::handle mask, py::handle pred, py::handle out, bool unordered,
                   py::handle count, const std::string& algorithm, std::uintptr_t stream, py::handle scratch) {
  selection s = select_arrays(fn, x, mask, out, count, stream);
  call c(fn, s.x, algorithm, stream, scratch);
  c.wait_for(s.x);
  if (s.has_mask) c.wait_for(s.mask);
  auto* n = s.has_count ? static_cast<std::uint64_t*>(s.count.data) : nullptr;
  if (s.has_mask) {
    const auto flags = const_span_of<std::uint8_t>(s.mask);
    const auto addresses = reinterpret_cast<std::uintptr_t>(s.x.data) | reinterpret_cast<std::uintptr_t>(s.out.data);
    return with_bytes(s.x.type, addresses, fn, "x", [&](auto e) -> py::object {
      using T = decltype(e);
      const auto in = const_span_of<T>(s.x);
      const auto o = span_of<T>(s.out);
      const std::uint64_t k = c.run([&](const sluice::options& opt) -> std::uint64_t {
        if (n) {
          unordered ? sluice::compact_unordered_async(in, flags, o, n, opt) : sluice::compact_async(in, flags, o, n, opt);
          return 0;
        }
        return unordered ? sluice::compact_unordered(in, flags, o, opt) : sluice::compact(in, flags, o, opt);
      });
      return n ? py::object(py::none()) : py::object(py::int_(k));
    });
  }
  const auto p = pred.cast<py::tuple>();
  const sluice::compare cmp = compare_of(fn, p[0].cast<std::string>());
  return with_predicate_type(s.x.type, fn, "x", [&](auto e) -> py::object {
    using T = decltype(e);
    const sluice::threshold<T> t{cmp, value_as<T>(p[1], fn, "the predicate's value")};
    const auto in = const_span_of<T>(s.x);
    const auto o = span_of<T>(s.out);
    const std::uint64_t k = c.run([&](const sluice::options& opt) -> std::uint64_t {
      if (n) {
        unordered ? sluice::compact_unordered_if_async(in, o, t, n, opt) : sluice::compact_if_async(in, o, t, n, opt);
        return 0;
      }
      return unordered ? sluice::compact_unordered_if(in, o, t, opt) : sluice::compact_if(in, o, t, opt);
    });
    return n ? py::object(py::none()) : py::object(py::int_(k));
  });
}

}  // namespace

void bind_compact(py::module_& m) {
  m.def("_compact", &compact, py::arg("fn"), py::arg("x"), py::arg("mask"), py::arg("pred"), py::arg("out"), py::arg("unordered"),
        py::arg("count"), py::arg("algorithm"), py::arg("stream"), py::arg("scratch"));
}

}  // namespace sluice_py
