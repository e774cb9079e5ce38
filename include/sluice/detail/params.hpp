// An algorithm's tunable parameters, written after its name: "roger:s=128,scan=hillis-steele".
// Each variant reads the keys it knows from its policy; a key it does not know, a value out of range or a
// malformed pair is an invalid_argument that names the algorithm, the key and the valid choices.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/error.hpp"

namespace sluice::detail {

// The registry name of a spec ("roger" for "roger:s=128").
constexpr std::string_view base_name(std::string_view spec) noexcept { return spec.substr(0, spec.find(':')); }

// A choice a variant makes by itself unless told: key=auto|on|off.
enum class setting { automatic, on, off };

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
    for (const auto& p : pairs_)
      if (!p.used) fail("unknown parameter '" + std::string(p.key) + "' (valid: " + std::string(known) + ")");
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
