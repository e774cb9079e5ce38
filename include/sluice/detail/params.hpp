// An algorithm's tunable parameters, written after its name: "roger:s=128,scan=hillis-steele".
// The registry describes each variant's parameters (param_info, algorithms.hpp) and checks a spec against them
// before any work; each variant then reads the keys it knows from its policy. A key it does not know, a value
// out of range or a malformed pair is an invalid_argument that names the algorithm, the key and the valid choices.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/error.hpp"

namespace sluice::detail {

// The registry name of a spec ("roger" for "roger:s=128").
constexpr std::string_view base_name(std::string_view spec) noexcept { return spec.substr(0, spec.find(':')); }

// A choice a variant makes by itself unless told: key=auto|on|off.
enum class setting { automatic, on, off };

// One tunable of a variant as the registry describes it: an unsigned integer in [lo, hi] (a power of two
// where pow2), or one of `choices` ("auto|on|off", the first the default). `def` is the default as
// `sluice list` shows it; empty where the variant derives it (billeter's P from the SM count).
struct param_info {
  enum kind_t { integer, choice } kind;
  std::string_view key;
  std::string_view def = {};
  std::uint64_t lo = 0, hi = 0;
  bool pow2 = false;
  std::string_view choices = {};
};
constexpr param_info integer_param(std::string_view key, std::string_view def, std::uint64_t lo, std::uint64_t hi, bool pow2 = false) {
  return {param_info::integer, key, def, lo, hi, pow2, {}};
}
constexpr param_info choice_param(std::string_view key, std::string_view choices) {
  return {param_info::choice, key, choices.substr(0, choices.find('|')), 0, 0, false, choices};
}

// "s: a power of two in [2, 1024]", "scan: blelloch|hillis-steele".
inline std::string describe(const param_info& p) {
  if (p.kind == param_info::choice) return std::string(p.key) + ": " + std::string(p.choices);
  return std::string(p.key) + ": " + (p.pow2 ? "a power of two" : "an integer") + " in [" + std::to_string(p.lo) + ", " +
         std::to_string(p.hi) + "]";
}

class params {
 public:
  params(std::string_view spec, const char* fn) : spec_(spec), fn_(fn) {
    const auto colon = spec.find(':');
    if (colon == std::string_view::npos) return;
    std::string_view rest = spec.substr(colon + 1);
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      const std::string_view pair = rest.substr(0, comma);
      const auto eq = pair.find('=');
      if (eq == std::string_view::npos || eq == 0 || eq + 1 == pair.size())
        fail("'" + std::string(pair) + "' is not key=value");
      pairs_.push_back({pair.substr(0, eq), pair.substr(eq + 1), false});
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    }
  }

  // An unsigned integer in [lo, hi]; `pow2` also asks for a power of two.
  std::uint64_t number(std::string_view key, std::uint64_t def, std::uint64_t lo, std::uint64_t hi, bool pow2 = false) {
    const std::string_view* v = take(key);
    if (v == nullptr) return def;
    std::uint64_t x = 0;
    bool ok = !v->empty() && v->size() <= 19;
    for (char c : *v) ok = ok && c >= '0' && c <= '9', x = x * 10 + static_cast<std::uint64_t>(c - '0');
    if (!ok || x < lo || x > hi || (pow2 && (x & (x - 1)) != 0))
      fail(std::string(key) + "=" + std::string(*v) + " is not " + (pow2 ? "a power of two " : "an integer ") + "in [" +
           std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return x;
  }

  // The index of the value among `names`, or `def` when the key is absent.
  int choice(std::string_view key, std::initializer_list<std::string_view> names, int def) {
    const std::string_view* v = take(key);
    if (v == nullptr) return def;
    int i = 0;
    std::string valid;
    for (auto n : names) {
      if (n == *v) return i;
      valid += (i++ ? ", " : "") + std::string(n);
    }
    fail(std::string(key) + "=" + std::string(*v) + " is not one of " + valid);
  }

  // choice() with the names written as one string, "blelloch|hillis-steele".
  int one_of(std::string_view key, std::string_view names, int def) {
    const std::string_view* v = take(key);
    if (v == nullptr) return def;
    std::string valid;
    int i = 0;
    for (std::string_view rest = names;; ++i) {
      const auto bar = rest.find('|');
      const std::string_view n = rest.substr(0, bar);
      if (n == *v) return i;
      valid += (i ? ", " : "") + std::string(n);
      if (bar == std::string_view::npos) break;
      rest = rest.substr(bar + 1);
    }
    fail(std::string(key) + "=" + std::string(*v) + " is not one of " + valid);
  }

  // Reads every parameter of `described` in its order (each value checked as number() and choice() check
  // it), then done(): the registry's check of a spec, with the variant's own error messages.
  void check(std::span<const param_info> described) {
    std::string keys, details;
    for (const auto& p : described) {
      if (p.kind == param_info::integer) (void)number(p.key, p.lo, p.lo, p.hi, p.pow2);
      else (void)one_of(p.key, p.choices, 0);
      keys += (keys.empty() ? "" : ", ") + std::string(p.key);
      details += "; " + describe(p);
    }
    done(keys + details);
  }

  // key=auto|on|off, automatic when the key is absent.
  setting auto_on_off(std::string_view key) { return static_cast<setting>(choice(key, {"auto", "on", "off"}, 0)); }

  // The keys written in the spec, in order.
  std::vector<std::string_view> keys() const {
    std::vector<std::string_view> k;
    for (const auto& p : pairs_) k.push_back(p.key);
    return k;
  }

  // Call after reading every key the variant knows: any key left over is an error.
  void done(std::string_view known) const {
    for (const auto& p : pairs_) {
      if (p.used) continue;
      for (const auto& q : pairs_)
        if (q.used && q.key == p.key) fail("parameter '" + std::string(p.key) + "' given twice");
      fail("unknown parameter '" + std::string(p.key) + "' (valid: " + std::string(known) + ")");
    }
  }

 private:
  struct pair_t {
    std::string_view key, value;
    bool used;
  };
  const std::string_view* take(std::string_view key) {
    for (auto& p : pairs_)
      if (p.key == key) {
        if (p.used) fail("parameter '" + std::string(key) + "' given twice");
        p.used = true;
        return &p.value;
      }
    return nullptr;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw error(errc::invalid_argument, std::string("sluice::") + fn_ + ": algorithm '" + std::string(spec_) + "': " + what);
  }
  std::string_view spec_;
  const char* fn_;
  std::vector<pair_t> pairs_;
};

}  // namespace sluice::detail
