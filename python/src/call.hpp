// What every binding shares: the typed dispatch over a Python array's dtype, and one call's setting (options,
// current device, the caller's scratch allocator, the GIL released while sluice works).
#pragma once
#include <pybind11/pybind11.h>

#include <cstdint>
#include <limits>
#include <span>
#include <type_traits>
#include <string>

#include "arrays.hpp"
#include "sluice/sluice.hpp"

namespace sluice_py {

[[noreturn]] void fail_type(const std::string& fn, const char* arg, const dtype& t, const char* takes);
[[noreturn]] void fail_value(const std::string& fn, const char* arg, const std::string& what);

// reduce, scan and sort keys: int32, uint32, int64, uint64, float32, float64.
inline constexpr const char* numeric_types = "int32, uint32, int64, uint64, float32, float64";
template <class F>
decltype(auto) with_numeric(const dtype& t, const std::string& fn, const char* arg, F&& f) {
  if (t == dtype{'i', 4}) return f(std::int32_t{});
  if (t == dtype{'u', 4}) return f(std::uint32_t{});
  if (t == dtype{'i', 8}) return f(std::int64_t{});
  if (t == dtype{'u', 8}) return f(std::uint64_t{});
  if (t == dtype{'f', 4}) return f(float{});
  if (t == dtype{'f', 8}) return f(double{});
  fail_type(fn, arg, t, numeric_types);
}

// compact_if and partition by predicate: uint8 and the numeric types.
inline constexpr const char* predicate_types = "uint8, int32, uint32, int64, uint64, float32, float64";
template <class F>
decltype(auto) with_predicate_type(const dtype& t, const std::string& fn, const char* arg, F&& f) {
  if (t == dtype{'u', 1}) return f(std::uint8_t{});
  if (t == dtype{'i', 4} || t == dtype{'u', 4} || t == dtype{'i', 8} || t == dtype{'u', 8} || t == dtype{'f', 4} || t == dtype{'f', 8})
    return with_numeric(t, fn, arg, f);
  fail_type(fn, arg, t, predicate_types);
}

// Elements that only move (by mask, sort values): their bytes, aligned as much as every pointer allows.
template <std::size_t Size, std::size_t Align>
struct alignas(Align) bytes {
  unsigned char b[Size];
};
inline constexpr const char* movable_types = "any dtype of 1, 2, 4, 8 or 16 bytes";
template <class F>
decltype(auto) with_bytes(const dtype& t, std::uintptr_t addresses, const std::string& fn, const char* arg, F&& f) {
  const auto aligned = [&](std::uintptr_t a) { return addresses % a == 0; };  // addresses: the OR of every pointer
  const auto misaligned = [&] { fail_value(fn, arg, "is not aligned to its " + std::to_string(t.bytes) + "-byte elements"); };
  switch (t.bytes) {
    case 1: return f(bytes<1, 1>{});
    case 2: if (!aligned(2)) misaligned(); return f(bytes<2, 2>{});
    case 4: if (!aligned(4)) misaligned(); return f(bytes<4, 4>{});
    case 8:
      if (aligned(8)) return f(bytes<8, 8>{});
      if (aligned(4)) return f(bytes<8, 4>{});
      misaligned();
    case 16:
      if (aligned(16)) return f(bytes<16, 16>{});
      if (aligned(8)) return f(bytes<16, 8>{});
      if (aligned(4)) return f(bytes<16, 4>{});
      misaligned();
  }
  fail_type(fn, arg, t, movable_types);
}

// The operators of reduce, the scans and the by-key and segmented family, by name.
template <class F>
decltype(auto) with_op(const std::string& fn, const std::string& op, F&& f) {
  if (op == "sum") return f(sluice::sum{});
  if (op == "product") return f(sluice::product{});
  if (op == "min") return f(sluice::minimum{});
  if (op == "max") return f(sluice::maximum{});
  throw py::value_error("sluice." + fn + ": op='" + op + "': expected 'sum', 'product', 'min' or 'max'");
}

// The op's identity: what init defaults to.
template <class T, class Op>
T identity() {
  if constexpr (std::is_same_v<Op, sluice::product>) return T{1};
  else if constexpr (std::is_same_v<Op, sluice::minimum>)
    return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
  else if constexpr (std::is_same_v<Op, sluice::maximum>)
    return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
  else return T{0};
}

template <class T>
std::span<T> span_of(const array& a) {
  return {static_cast<T*>(a.data), static_cast<std::size_t>(a.size)};
}
template <class T>
std::span<const T> const_span_of(const array& a) {
  return {static_cast<const T*>(a.data), static_cast<std::size_t>(a.size)};
}

// A value from Python as T: ValueError where it is not a number of T's kind or does not fit.
template <class T>
T value_as(py::handle v, const std::string& fn, const char* what);

// One call on the device of `first`: sluice::options, that device current, the producers' streams waited
// for, the caller's scratch allocator (a (allocate, free) pair of callables, or None) in place, and the GIL
// released while run(f) runs f(options).
class call {
 public:
  call(std::string fn, const array& first, const std::string& algorithm, std::uintptr_t stream, py::handle scratch);
  ~call();
  call(const call&) = delete;
  call& operator=(const call&) = delete;
  void wait_for(const array& a);  // a's __cuda_array_interface__ stream, before the call reads a
  const char* fn() const { return fn_.c_str(); }
  const sluice::options& options() const { return opt_; }
  // A Python error raised by the caller's allocator comes back as itself (sluice saw no memory).
  template <class F>
  decltype(auto) run(F&& f) {
    enter();
    struct leaving {
      call& c;
      bool armed = true;
      ~leaving() {
        if (armed) c.leave();
      }
    } l{*this};
    try {
      return f(opt_);
    } catch (const sluice::error&) {
      l.armed = false;
      leave();
      if (PyErr_Occurred()) throw py::error_already_set();
      throw;
    }
  }

 private:
  void enter();  // releases the GIL, puts the scratch allocator in place
  void leave() noexcept;
  std::string fn_;
  std::string algorithm_;
  sluice::options opt_;
  int previous_device_ = -1;
  py::object scratch_;
  void* state_ = nullptr;  // the caller's allocator as sluice calls it, made at the first enter()
  PyThreadState* released_ = nullptr;
};

// The bindings of each family (select.cpp: compaction and partition; reduce_scan.cpp, sort.cpp, runs.cpp).
void bind_select(py::module_& m);
void bind_reduce_scan(py::module_& m);
void bind_sort(py::module_& m);
void bind_runs(py::module_& m);
void bind_segmented(py::module_& m);
void bind_split(py::module_& m);
void bind_top_k(py::module_& m);

}  // namespace sluice_py
