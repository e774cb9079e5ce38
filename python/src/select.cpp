// Compaction and partition, by mask or by predicate, stable or not, and their _async forms: one path, the
// sluice function picked by the family and order.
#include "call.hpp"

namespace sluice_py {
namespace {

enum class family { compact, partition };

// The arrays of a call, checked: x, out, mask (or None), count (the _async forms' one-element array, or None).
struct selection {
  array x, out, mask, count;
  bool has_mask = false, has_count = false;
};

// A predicate's comparison by name ("less", ... "not_equal").
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

// The sluice call of a family and order, by flags or by a threshold; the count into *n (the _async forms) or
// returned.
template <class T>
std::uint64_t by_flags(family f, bool unordered, std::span<const T> in, std::span<const std::uint8_t> flags, std::span<T> out,
                       std::uint64_t* n, const sluice::options& opt) {
  if (f == family::compact) {
    if (n) return unordered ? sluice::compact_unordered_async(in, flags, out, n, opt) : sluice::compact_async(in, flags, out, n, opt), 0;
    return unordered ? sluice::compact_unordered(in, flags, out, opt) : sluice::compact(in, flags, out, opt);
  }
  if (n)
    return unordered ? sluice::partition_unordered_flagged_async(in, flags, out, n, opt) : sluice::partition_flagged_async(in, flags, out, n, opt), 0;
  return unordered ? sluice::partition_unordered_flagged(in, flags, out, opt) : sluice::partition_flagged(in, flags, out, opt);
}

template <class T>
std::uint64_t by_threshold(family f, bool unordered, std::span<const T> in, sluice::threshold<T> t, std::span<T> out, std::uint64_t* n,
                           const sluice::options& opt) {
  if (f == family::compact) {
    if (n) return unordered ? sluice::compact_unordered_if_async(in, out, t, n, opt) : sluice::compact_if_async(in, out, t, n, opt), 0;
    return unordered ? sluice::compact_unordered_if(in, out, t, opt) : sluice::compact_if(in, out, t, opt);
  }
  if (n) return unordered ? sluice::partition_unordered_async(in, out, t, n, opt) : sluice::partition_async(in, out, t, n, opt), 0;
  return unordered ? sluice::partition_unordered(in, out, t, opt) : sluice::partition(in, out, t, opt);
}

py::object select(family f, const std::string& fn, py::handle x, py::handle mask, py::handle pred, py::handle out, bool unordered,
                  py::handle count, const std::string& algorithm, std::uintptr_t stream, py::handle scratch) {
  selection s = select_arrays(fn, x, mask, out, count, stream);
  if (f == family::partition && s.out.size < s.x.size)
    fail_value(fn, "out", "has " + std::to_string(s.out.size) + " elements but 'x' has " + std::to_string(s.x.size) + "; a partition writes them all");
  call c(fn, s.x, algorithm, stream, scratch);
  c.wait_for(s.x);
  if (s.has_mask) c.wait_for(s.mask);
  auto* n = s.has_count ? static_cast<std::uint64_t*>(s.count.data) : nullptr;
  const auto done = [&](std::uint64_t k) { return n ? py::object(py::none()) : py::object(py::int_(k)); };
  if (s.has_mask) {
    const auto flags = const_span_of<std::uint8_t>(s.mask);
    const auto addresses = reinterpret_cast<std::uintptr_t>(s.x.data) | reinterpret_cast<std::uintptr_t>(s.out.data);
    return with_bytes(s.x.type, addresses, fn, "x", [&](auto e) -> py::object {
      using T = decltype(e);
      return done(c.run([&](const sluice::options& opt) { return by_flags(f, unordered, const_span_of<T>(s.x), flags, span_of<T>(s.out), n, opt); }));
    });
  }
  const auto p = pred.cast<py::tuple>();
  const sluice::compare cmp = compare_of(fn, p[0].cast<std::string>());
  return with_predicate_type(s.x.type, fn, "x", [&](auto e) -> py::object {
    using T = decltype(e);
    const sluice::threshold<T> t{cmp, value_as<T>(p[1], fn, "the predicate's value")};
    return done(c.run([&](const sluice::options& opt) { return by_threshold(f, unordered, const_span_of<T>(s.x), t, span_of<T>(s.out), n, opt); }));
  });
}

}  // namespace

void bind_select(py::module_& m) {
  m.def(
      "_compact",
      [](const std::string& fn, py::handle x, py::handle mask, py::handle pred, py::handle out, bool unordered, py::handle count,
         const std::string& algorithm, std::uintptr_t stream, py::handle scratch) {
        return select(family::compact, fn, x, mask, pred, out, unordered, count, algorithm, stream, scratch);
      },
      py::arg("fn"), py::arg("x"), py::arg("mask"), py::arg("pred"), py::arg("out"), py::arg("unordered"), py::arg("count"),
      py::arg("algorithm"), py::arg("stream"), py::arg("scratch"));
  m.def(
      "_partition",
      [](const std::string& fn, py::handle x, py::handle mask, py::handle pred, py::handle out, bool unordered, py::handle count,
         const std::string& algorithm, std::uintptr_t stream, py::handle scratch) {
        return select(family::partition, fn, x, mask, pred, out, unordered, count, algorithm, stream, scratch);
      },
      py::arg("fn"), py::arg("x"), py::arg("mask"), py::arg("pred"), py::arg("out"), py::arg("unordered"), py::arg("count"),
      py::arg("algorithm"), py::arg("stream"), py::arg("scratch"));
}

}  // namespace sluice_py
