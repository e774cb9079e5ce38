// partition and partition_unordered, by mask or by predicate, and their _async forms.
#include "call.hpp"

namespace sluice_py {
namespace {

py::object partition(const std::string& fn, py::handle x, py::handle mask, py::handle pred, py::handle out, bool unordered,
                     py::handle count, const std::string& algorithm, std::uintptr_t stream, py::handle scratch) {
  selection s = select_arrays(fn, x, mask, out, count, stream);
  if (s.out.size < s.x.size)
    fail_value(fn, "out", "has " + std::to_string(s.out.size) + " elements but 'x' has " + std::to_string(s.x.size) + "; a partition writes them all");
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
          unordered ? sluice::partition_unordered_flagged_async(in, flags, o, n, opt) : sluice::partition_flagged_async(in, flags, o, n, opt);
          return 0;
        }
        return unordered ? sluice::partition_unordered_flagged(in, flags, o, opt) : sluice::partition_flagged(in, flags, o, opt);
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
        unordered ? sluice::partition_unordered_async(in, o, t, n, opt) : sluice::partition_async(in, o, t, n, opt);
        return 0;
      }
      return unordered ? sluice::partition_unordered(in, o, t, opt) : sluice::partition(in, o, t, opt);
    });
    return n ? py::object(py::none()) : py::object(py::int_(k));
  });
}

}  // namespace

void bind_partition(py::module_& m) {
  m.def("_partition", &partition, py::arg("fn"), py::arg("x"), py::arg("mask"), py::arg("pred"), py::arg("out"), py::arg("unordered"),
        py::arg("count"), py::arg("algorithm"), py::arg("stream"), py::arg("scratch"));
}

}  // namespace sluice_py
