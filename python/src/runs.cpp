// unique, unique_by_key, run_length_encode and non_trivial_runs (runs of equal elements, by ==).
#include "call.hpp"

namespace sluice_py {
namespace {

// Checks shared by the runs' outputs: writable, on x's device, of the dtype asked for (64-bit counts, offsets and
// lengths may be int64: PyTorch has no uint64 tensors).
array output(const std::string& fn, py::handle obj, const char* arg, const array& x, const char* x_arg, const dtype& want,
             std::uintptr_t stream) {
  array a = view(obj, fn.c_str(), arg, stream);
  require_writable(a, fn.c_str(), arg);
  require_same_device(x, x_arg, a, arg, fn.c_str());
  const bool count_like = want == dtype{'u', 8} && a.type == dtype{'i', 8};
  if (!(a.type == want) && !count_like) fail_value(fn, arg, "is " + a.type.name() + " but must be " + want.name());
  return a;
}

std::uint64_t* count_of(const std::string& fn, py::handle count, const array& x, std::uintptr_t stream, array& holder) {
  if (count.is_none()) return nullptr;
  holder = view(count, fn.c_str(), "count", stream);
  require_writable(holder, fn.c_str(), "count");
  require_same_device(x, "x", holder, "count", fn.c_str());
  if (holder.type.bytes != 8 || (holder.type.kind != 'u' && holder.type.kind != 'i')) fail_type(fn, "count", holder.type, "a uint64 or int64 count");
  if (holder.size < 1) fail_value(fn, "count", "is empty; it must hold one element");
  return static_cast<std::uint64_t*>(holder.data);
}

py::object result(std::uint64_t* n, std::uint64_t k) { return n ? py::object(py::none()) : py::object(py::int_(k)); }

// unique(x, out) or, with values, unique_by_key(x, values, out, out_values).
py::object unique(const std::string& fn, py::handle x, py::handle values, py::handle out, py::handle out_values, py::handle count,
                  const std::string& algorithm, std::uintptr_t stream, py::handle scratch) {
  const array ax = view(x, fn.c_str(), "x", stream);
  const array ao = output(fn, out, "out", ax, "x", ax.type, stream);
  array holder, av, aov;
  auto* n = count_of(fn, count, ax, stream, holder);
  const bool by_key = !values.is_none();
  if (by_key) {
    av = view(values, fn.c_str(), "values", stream);
    require_same_device(ax, "x", av, "values", fn.c_str());
    aov = output(fn, out_values, "out_values", ax, "x", av.type, stream);
  }
  call c(fn, ax, algorithm, stream, scratch);
  return with_predicate_type(ax.type, fn, "x", [&](auto e) -> py::object {
    using T = decltype(e);
    const auto in = const_span_of<T>(ax);
    const auto o = span_of<T>(ao);
    if (!by_key) {
      const std::uint64_t k = c.run([&](const sluice::options& opt) -> std::uint64_t {
        if (n) return sluice::unique_async(in, o, n, opt), 0;
        return sluice::unique(in, o, opt);
      });
      return result(n, k);
    }
    const auto addresses = reinterpret_cast<std::uintptr_t>(av.data) | reinterpret_cast<std::uintptr_t>(aov.data);
    return with_bytes(av.type, addresses, fn, "values", [&](auto v) -> py::object {
      using V = decltype(v);
      const auto vs = const_span_of<V>(av);
      const auto ovs = span_of<V>(aov);
      const std::uint64_t k = c.run([&](const sluice::options& opt) -> std::uint64_t {
        if (n) return sluice::unique_by_key_async(in, vs, o, ovs, n, opt), 0;
        return sluice::unique_by_key(in, vs, o, ovs, opt);
      });
      return result(n, k);
    });
  });
}

// run_length_encode(x, out_unique, out_counts) or, nontrivial, non_trivial_runs(x, out_offsets, out_lengths).
py::object runs(const std::string& fn, py::handle x, bool nontrivial, py::handle first, py::handle second, py::handle count,
                const std::string& algorithm, std::uintptr_t stream, py::handle scratch) {
  const array ax = view(x, fn.c_str(), "x", stream);
  const dtype u64{'u', 8};
  const array a1 = output(fn, first, nontrivial ? "out_offsets" : "out_unique", ax, "x", nontrivial ? u64 : ax.type, stream);
  const array a2 = output(fn, second, nontrivial ? "out_lengths" : "out_counts", ax, "x", u64, stream);
  array holder;
  auto* n = count_of(fn, count, ax, stream, holder);
  call c(fn, ax, algorithm, stream, scratch);
  return with_predicate_type(ax.type, fn, "x", [&](auto e) -> py::object {
    using T = decltype(e);
    const auto in = const_span_of<T>(ax);
    const auto lengths = span_of<std::uint64_t>(a2);
    const std::uint64_t k = c.run([&](const sluice::options& opt) -> std::uint64_t {
      if (nontrivial) {
        const auto offsets = span_of<std::uint64_t>(a1);
        if (n) return sluice::non_trivial_runs_async(in, offsets, lengths, n, opt), 0;
        return sluice::non_trivial_runs(in, offsets, lengths, opt);
      }
      const auto uniques = span_of<T>(a1);
      if (n) return sluice::run_length_encode_async(in, uniques, lengths, n, opt), 0;
      return sluice::run_length_encode(in, uniques, lengths, opt);
    });
    return result(n, k);
  });
}

}  // namespace

void bind_runs(py::module_& m) {
  m.def("_unique", &unique, py::arg("fn"), py::arg("x"), py::arg("values"), py::arg("out"), py::arg("out_values"), py::arg("count"),
        py::arg("algorithm"), py::arg("stream"), py::arg("scratch"));
  m.def("_runs", &runs, py::arg("fn"), py::arg("x"), py::arg("nontrivial"), py::arg("first"), py::arg("second"), py::arg("count"),
        py::arg("algorithm"), py::arg("stream"), py::arg("scratch"));
}

}  // namespace sluice_py
