// reduce_by_key, inclusive_scan_by_key, exclusive_scan_by_key, segmented_reduce and the segmented scans under
// sum, product, min and max.
#include "call.hpp"

namespace sluice_py {
namespace {

// Keys compare by ==: bools and integers as unsigned integers of their width (equal values, equal bits), floats
// as floats (each NaN a run of its own, -0.0 == 0.0).
inline constexpr const char* key_types = "bool, int8 to int64, uint8 to uint64, float32, float64";
template <class F>
decltype(auto) with_key(const dtype& t, const std::string& fn, F&& f) {
  if (t == dtype{'f', 4}) return f(float{});
  if (t == dtype{'f', 8}) return f(double{});
  if (t.kind == 'b' || t.kind == 'i' || t.kind == 'u') {
    if (t.bytes == 1) return f(std::uint8_t{});
    if (t.bytes == 2) return f(std::uint16_t{});
    if (t.bytes == 4) return f(std::uint32_t{});
    if (t.bytes == 8) return f(std::uint64_t{});
  }
  fail_type(fn, "keys", t, key_types);
}

// An output of the dtype of `like`, on like's device, writable.
array output(const std::string& fn, py::handle obj, const char* arg, const array& like, const char* like_arg, std::uintptr_t stream) {
  array a = view(obj, fn.c_str(), arg, stream);
  require_writable(a, fn.c_str(), arg);
  require_same_device(like, like_arg, a, arg, fn.c_str());
  if (!(a.type == like.type)) fail_value(fn, arg, "is " + a.type.name() + " but '" + like_arg + "' is " + like.type.name() + "; they must match");
  return a;
}

// Offsets: uint64, or int64 (PyTorch has no uint64 tensors; a negative entry reads as one past the values).
array offsets_of(const std::string& fn, py::handle obj, const array& values, std::uintptr_t stream) {
  array a = view(obj, fn.c_str(), "offsets", stream);
  require_same_device(values, "values", a, "offsets", fn.c_str());
  if (!(a.type == dtype{'u', 8}) && !(a.type == dtype{'i', 8})) fail_type(fn, "offsets", a.type, "uint64 or int64 offsets");
  return a;
}

py::int_ reduce_by_key(const std::string& fn, py::handle keys, py::handle values, py::handle out_keys, py::handle out_values,
                       const std::string& op, const std::string& algorithm, std::uintptr_t stream, py::handle scratch) {
  const array ak = view(keys, fn.c_str(), "keys", stream);
  const array av = view(values, fn.c_str(), "values", stream);
  require_same_device(ak, "keys", av, "values", fn.c_str());
  const array aok = output(fn, out_keys, "out_keys", ak, "keys", stream);
  const array aov = output(fn, out_values, "out_values", av, "values", stream);
  call c(fn, ak, algorithm, stream, scratch);
  return with_key(ak.type, fn, [&](auto k) -> py::int_ {
    using K = decltype(k);
    return with_numeric(av.type, fn, "values", [&](auto v) -> py::int_ {
      using V = decltype(v);
      return with_op(fn, op, [&](auto o) -> py::int_ {
        return py::int_(c.run([&](const sluice::options& opt) {
          return sluice::reduce_by_key(const_span_of<K>(ak), const_span_of<V>(av), span_of<K>(aok), span_of<V>(aov), o, opt);
        }));
      });
    });
  });
}

void scan_by_key(const std::string& fn, py::handle keys, py::handle values, py::handle out, bool inclusive, const std::string& op,
                 py::handle init, const std::string& algorithm, std::uintptr_t stream, py::handle scratch) {
  const array ak = view(keys, fn.c_str(), "keys", stream);
  const array av = view(values, fn.c_str(), "values", stream);
  require_same_device(ak, "keys", av, "values", fn.c_str());
  const array ao = output(fn, out, "out", av, "values", stream);
  call c(fn, ak, algorithm, stream, scratch);
  with_key(ak.type, fn, [&](auto k) {
    using K = decltype(k);
    with_numeric(av.type, fn, "values", [&](auto v) {
      using V = decltype(v);
      with_op(fn, op, [&](auto o) {
        const V first = init.is_none() ? identity<V, decltype(o)>() : value_as<V>(init, fn, "init");
        c.run([&](const sluice::options& opt) {
          if (inclusive) sluice::inclusive_scan_by_key(const_span_of<K>(ak), const_span_of<V>(av), span_of<V>(ao), o, opt);
          else sluice::exclusive_scan_by_key(const_span_of<K>(ak), const_span_of<V>(av), span_of<V>(ao), first, o, opt);
        });
      });
    });
  });
}

// segmented_reduce (scan false) or a segmented scan.
void segmented(const std::string& fn, py::handle values, py::handle offsets, py::handle out, bool scan, bool inclusive, const std::string& op,
               py::handle init, const std::string& algorithm, std::uintptr_t stream, py::handle scratch) {
  const array av = view(values, fn.c_str(), "values", stream);
  const array aoff = offsets_of(fn, offsets, av, stream);
  const array ao = output(fn, out, "out", av, "values", stream);
  call c(fn, av, algorithm, stream, scratch);
  with_numeric(av.type, fn, "values", [&](auto v) {
    using V = decltype(v);
    with_op(fn, op, [&](auto o) {
      const V first = init.is_none() ? identity<V, decltype(o)>() : value_as<V>(init, fn, "init");
      const auto in = const_span_of<V>(av);
      const auto off = const_span_of<std::uint64_t>(aoff);
      const auto res = span_of<V>(ao);
      c.run([&](const sluice::options& opt) {
        if (!scan) sluice::segmented_reduce(in, off, res, first, o, opt);
        else if (inclusive) sluice::segmented_inclusive_scan(in, off, res, o, opt);
        else sluice::segmented_exclusive_scan(in, off, res, first, o, opt);
      });
    });
  });
}

}  // namespace

void bind_segmented(py::module_& m) {
  m.def("_reduce_by_key", &reduce_by_key, py::arg("fn"), py::arg("keys"), py::arg("values"), py::arg("out_keys"), py::arg("out_values"),
        py::arg("op"), py::arg("algorithm"), py::arg("stream"), py::arg("scratch"));
  m.def("_scan_by_key", &scan_by_key, py::arg("fn"), py::arg("keys"), py::arg("values"), py::arg("out"), py::arg("inclusive"), py::arg("op"),
        py::arg("init"), py::arg("algorithm"), py::arg("stream"), py::arg("scratch"));
  m.def("_segmented", &segmented, py::arg("fn"), py::arg("values"), py::arg("offsets"), py::arg("out"), py::arg("scan"), py::arg("inclusive"),
        py::arg("op"), py::arg("init"), py::arg("algorithm"), py::arg("stream"), py::arg("scratch"));
}

}  // namespace sluice_py
