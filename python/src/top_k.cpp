// top_k: the k largest or smallest keys (sluice::top_k), with their positions.
#include <optional>

#include "call.hpp"

namespace sluice_py {
namespace {

// top_k(x, k, largest, sorted, out, indices): indices (uint64 or int64) may be None.
void top_k(const std::string& fn, py::handle x, std::uint64_t k, bool largest, bool sorted, py::handle out, py::handle indices,
           const std::string& algorithm, std::uintptr_t stream, py::handle scratch) {
  const array ax = view(x, fn.c_str(), "x", stream);
  array ao = view(out, fn.c_str(), "out", stream);
  require_writable(ao, fn.c_str(), "out");
  require_same_device(ax, "x", ao, "out", fn.c_str());
  if (!(ao.type == ax.type)) fail_value(fn, "out", "is " + ao.type.name() + " but 'x' is " + ax.type.name() + "; they must match");
  std::optional<array> ai;
  if (!indices.is_none()) {
    ai = view(indices, fn.c_str(), "indices", stream);
    require_writable(*ai, fn.c_str(), "indices");
    require_same_device(ax, "x", *ai, "indices", fn.c_str());
    if (!(ai->type == dtype{'u', 8}) && !(ai->type == dtype{'i', 8})) fail_type(fn, "indices", ai->type, "uint64 or int64 indices");
  }
  const auto ord = largest ? sluice::order::descending : sluice::order::ascending;
  const auto arrange = sorted ? sluice::output_order::sorted : sluice::output_order::input;
  call c(fn, ax, algorithm, stream, scratch);
  with_numeric(ax.type, fn, "x", [&](auto e) {
    using T = decltype(e);
    c.run([&](const sluice::options& opt) {
      if (!ai) sluice::top_k(const_span_of<T>(ax), k, span_of<T>(ao), ord, arrange, opt);
      else if (ai->type == dtype{'i', 8}) sluice::top_k(const_span_of<T>(ax), k, span_of<T>(ao), span_of<std::int64_t>(*ai), ord, arrange, opt);
      else sluice::top_k(const_span_of<T>(ax), k, span_of<T>(ao), span_of<std::uint64_t>(*ai), ord, arrange, opt);
      return 0;
    });
  });
}

}  // namespace

void bind_top_k(py::module_& m) {
  m.def("_top_k", &top_k, py::arg("fn"), py::arg("x"), py::arg("k"), py::arg("largest"), py::arg("sorted"), py::arg("out"), py::arg("indices"),
        py::arg("algorithm"), py::arg("stream"), py::arg("scratch"));
}

}  // namespace sluice_py
