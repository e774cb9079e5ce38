// The gl device in a build without EGL and OpenGL: every entry reports errc::no_device with the reason.
#include <string>

#include "sluice/error.hpp"
#include "sluice/gl/backend.hpp"
#include "sluice/gl/bench.hpp"

namespace sluice::gl_backend {
namespace {
const char* const why = "sluice was built without EGL and OpenGL (install libegl-dev and libopengl-dev, then rebuild)";
[[noreturn]] void none(const char* fn) { throw error(errc::no_device, std::string("sluice::") + fn + ": the gl device is not available: " + why); }
}  // namespace

bool available() noexcept { return false; }
std::string unavailable_reason() { return why; }
void require_device(const char* fn) { none(fn); }
std::string renderer() { return {}; }
std::uint64_t reduce(std::string_view, scalar, reduce_op, const void*, std::uint64_t, const char* fn) { none(fn); }
std::uint64_t compact(std::string_view, bool, const void*, std::uint64_t, std::size_t, const selection&, void*, std::uint64_t, const char* fn) { none(fn); }
std::vector<double> time_reduce(std::string_view, scalar, reduce_op, const void*, std::uint64_t, int, std::uint64_t*) { none("time_reduce"); }
std::vector<double> time_compact(std::string_view, bool, const void*, std::uint64_t, std::size_t, const std::uint8_t*, int, std::uint64_t*) { none("time_compact"); }
std::vector<double> time_copy(std::uint64_t, int) { none("time_copy"); }
std::vector<double> time_copy(std::uint64_t, int, bool) { none("time_copy"); }
void profile_capture(bool) {}
std::vector<std::pair<std::string, double>> profile_last() { return {}; }

}  // namespace sluice::gl_backend
