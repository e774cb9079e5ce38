// split: the stable k-way split by a radix digit of the key's order-preserving image (sluice::radix_digit).
#include "call.hpp"

namespace sluice_py {
namespace {

// split(x, shift, bits, out, offsets): k = 2^bits buckets; offsets (uint64 or int64) of k + 1 entries.
void split(const std::string& fn, py::handle x, int shift, int bits, py::handle out, py::handle offsets, const std::string& algorithm,
           std::uintptr_t stream, py::handle scratch) {
  const array ax = view(x, fn.c_str(), "x", stream);
  array ao = view(out, fn.c_str(), "out", stream);
  require_writable(ao, fn.c_str(), "out");
  require_same_device(ax, "x", ao, "out", fn.c_str());
  if (!(ao.type == ax.type)) fail_value(fn, "out", "is " + ao.type.name() + " but 'x' is " + ax.type.name() + "; they must match");
  array aoff = view(offsets, fn.c_str(), "offsets", stream);
  require_writable(aoff, fn.c_str(), "offsets");
  require_same_device(ax, "x", aoff, "offsets", fn.c_str());
  if (!(aoff.type == dtype{'u', 8}) && !(aoff.type == dtype{'i', 8})) fail_type(fn, "offsets", aoff.type, "uint64 or int64 offsets");
  if (bits < 1 || bits > 8) fail_value(fn, "bits", "is " + std::to_string(bits) + " but must be in [1, 8]");
  call c(fn, ax, algorithm, stream, scratch);
  with_numeric(ax.type, fn, "x", [&](auto e) {
    using T = decltype(e);
    c.run([&](const sluice::options& opt) {
      sluice::split(const_span_of<T>(ax), sluice::radix_digit{shift, bits}, 1u << bits, span_of<T>(ao), span_of<std::uint64_t>(aoff), opt);
      return 0;
    });
  });
}

}  // namespace

void bind_split(py::module_& m) {
  m.def("_split", &split, py::arg("fn"), py::arg("x"), py::arg("shift"), py::arg("bits"), py::arg("out"), py::arg("offsets"),
        py::arg("algorithm"), py::arg("stream"), py::arg("scratch"));
}

}  // namespace sluice_py
