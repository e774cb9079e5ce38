// The test binary's switches, environment variables set to "1": SLUICE_TEST_QUICK (the quick generator
// matrix), SLUICE_TEST_SANITIZE (smaller inputs under compute-sanitizer), SLUICE_TEST_HUGE (the huge tests).
#pragma once
#include <cstdlib>
#include <string_view>

inline bool test_switch(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && std::string_view(v) == "1";
}
