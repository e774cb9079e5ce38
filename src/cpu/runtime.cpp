// The CPU backend's plan: how many threads (OpenMP's default count, or a parameter or the environment) and
// which SIMD level (detected once, or forced likewise). See include/sluice/cpu/backend.hpp; the threads
// themselves are src/cpu/team.cpp's.
#include <omp.h>

#include <cstdlib>
#include <string>

#include "sluice/cpu/backend.hpp"
#include "sluice/detail/params.hpp"
#include "sluice/error.hpp"

namespace sluice::cpu_backend {

namespace {
constexpr int max_threads_allowed = 4096;

bool supports(simd_level s) noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  switch (s) {
    case simd_level::scalar: return true;
    case simd_level::avx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
    case simd_level::avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_supports("bmi2");
  }
  return false;
#else
  return s == simd_level::scalar;
#endif
}

[[noreturn]] void bad_env(const char* var, const char* value, const char* want) {
  throw error(errc::invalid_argument, std::string("sluice: environment variable ") + var + "='" + value + "' is not " + want);
}

// -1 when unset.
int threads_from_env() {
  const char* v = std::getenv("SLUICE_CPU_THREADS");
  if (v == nullptr || *v == '\0') return -1;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  if (*end != '\0' || x < 1 || x > max_threads_allowed) bad_env("SLUICE_CPU_THREADS", v, "an integer in [1, 4096]");
  return static_cast<int>(x);
}

// -1 when unset or "auto".
int simd_from_env() {
  const char* v = std::getenv("SLUICE_CPU_SIMD");
  if (v == nullptr || *v == '\0') return -1;
  const std::string_view s(v);
  if (s == "auto") return -1;
  if (s == "scalar") return 0;
  if (s == "avx2") return 1;
  if (s == "avx512") return 2;
  bad_env("SLUICE_CPU_SIMD", v, "one of auto, avx512, avx2, scalar");
}
}  // namespace

simd_level detected_simd() noexcept {
  static const simd_level best = supports(simd_level::avx512) ? simd_level::avx512
                                 : supports(simd_level::avx2) ? simd_level::avx2
                                                              : simd_level::scalar;
  return best;
}

int default_threads() noexcept {
  try {
    const int t = threads_from_env();
    if (t > 0) return t;
  } catch (...) {
  }
  return omp_get_max_threads();
}

plan make_plan(std::string_view spec, const char* fn) {
  detail::params p(spec, fn);
  const auto threads = p.number("threads", 0, 0, max_threads_allowed);
  const int simd = p.choice("simd", {"auto", "scalar", "avx2", "avx512"}, 0);
  p.done("threads (0 = all), simd=auto|avx512|avx2|scalar");
  plan out{};
  const int env_threads = threads_from_env();
  out.threads = threads > 0 ? static_cast<int>(threads) : env_threads > 0 ? env_threads : omp_get_max_threads();
  const int env_simd = simd_from_env();
  const int level = simd > 0 ? simd - 1 : env_simd;
  out.simd = level < 0 ? detected_simd() : static_cast<simd_level>(level);
  if (!supports(out.simd))
    throw error(errc::unsupported, std::string("sluice::") + fn + ": SIMD level " + std::string(to_string(out.simd)) +
                                       " was asked for, but this processor supports at most " +
                                       std::string(to_string(detected_simd())));
  return out;
}

}  // namespace sluice::cpu_backend
