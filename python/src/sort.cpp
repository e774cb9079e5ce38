// radix_sort and segmented_radix_sort of keys, and of keys with values, in place.
#include "call.hpp"

namespace sluice_py {
namespace {

// offsets: None for radix_sort, else the segments' uint64 or int64 offsets (segmented_radix_sort).
void radix_sort(const std::string& fn, py::handle keys, py::handle values, py::handle offsets, bool descending, int begin, int end,
                const std::string& algorithm, std::uintptr_t stream, py::handle scratch) {
  const array ak = view(keys, fn.c_str(), "keys", stream);
  require_writable(ak, fn.c_str(), "keys");
  array av;
  if (!values.is_none()) {
    av = view(values, fn.c_str(), "values", stream);
    require_writable(av, fn.c_str(), "values");
    require_same_device(ak, "keys", av, "values", fn.c_str());
    if (av.size != ak.size)
      fail_value(fn, "values", "has " + std::to_string(av.size) + " elements but 'keys' has " + std::to_string(ak.size));
  }
  array ao;
  if (!offsets.is_none()) {
    ao = view(offsets, fn.c_str(), "offsets", stream);
    require_same_device(ak, "keys", ao, "offsets", fn.c_str());
    if (!(ao.type == dtype{'u', 8}) && !(ao.type == dtype{'i', 8})) fail_type(fn, "offsets", ao.type, "uint64 or int64 offsets");
  }
  call c(fn, ak, algorithm, stream, scratch);
  c.wait_for(ak);
  if (!offsets.is_none()) c.wait_for(ao);
  const sluice::order ord = descending ? sluice::order::descending : sluice::order::ascending;
  const sluice::bit_range bits{begin, end};
  with_numeric(ak.type, fn, "keys", [&](auto k) {
    using K = decltype(k);
    const auto ks = span_of<K>(ak);
    if (values.is_none()) {
      if (offsets.is_none()) c.run([&](const sluice::options& opt) { sluice::radix_sort(ks, ord, bits, opt); });
      else c.run([&](const sluice::options& opt) { sluice::segmented_radix_sort(ks, const_span_of<std::uint64_t>(ao), ord, bits, opt); });
      return;
    }
    c.wait_for(av);
    with_bytes(av.type, reinterpret_cast<std::uintptr_t>(av.data), fn, "values", [&](auto v) {
      using V = decltype(v);
      const auto vs = span_of<V>(av);
      if (offsets.is_none()) c.run([&](const sluice::options& opt) { sluice::radix_sort(ks, vs, ord, bits, opt); });
      else c.run([&](const sluice::options& opt) { sluice::segmented_radix_sort(ks, vs, const_span_of<std::uint64_t>(ao), ord, bits, opt); });
    });
  });
}

}  // namespace

void bind_sort(py::module_& m) {
  m.def("_radix_sort", &radix_sort, py::arg("fn"), py::arg("keys"), py::arg("values"), py::arg("offsets"), py::arg("descending"), py::arg("begin"),
        py::arg("end"), py::arg("algorithm"), py::arg("stream"), py::arg("scratch"));
}

}  // namespace sluice_py
