// The gl device's entry points (sluice/gl/backend.hpp): the variant by name, streams up, passes, results down.
#include <algorithm>

#include "gl/variants.hpp"
#include "sluice/detail/params.hpp"
#include "sluice/gl/bench.hpp"

namespace sluice::gl_backend {

compaction::compaction(const session& s, const void* in, std::uint64_t n, std::size_t elem_bytes, const selection& sel)
    : n_(n), elem_bytes_(elem_bytes), elements_(stream_texture(s, element_format(elem_bytes), n)) {
  upload(elements_, in, n);
  flags_ = make_flags(s, sel, &elements_, n);
  s.check("uploading the stream");
}

namespace {

std::unique_ptr<compaction> make(const session& s, std::string_view spec, bool unordered, const void* in, std::uint64_t n,
                                 std::size_t eb, const selection& sel) {
  const std::string_view name = detail::base_name(spec);
  auto no_params = [&] { detail::params(spec, s.fn()).done(""); };
  if (unordered && name == "jumping-jack") return make_jumping_jack(s, spec, in, n, eb, sel);
  if (!unordered && name == "roger") return make_roger(s, spec, in, n, eb, sel);
  if (!unordered && name == "horn") return no_params(), make_horn(s, in, n, eb, sel);
  if (!unordered && name == "geometry-shader") return no_params(), make_geometry_shader(s, in, n, eb, sel);
  throw error(errc::invalid_argument, std::string("sluice::") + s.fn() + ": no gl variant '" + std::string(spec) + "'");
}

void check_reduce(std::string_view spec, const char* fn) {
  if (detail::base_name(spec) != "goddeke-multipass")
    throw error(errc::invalid_argument, std::string("sluice::") + fn + ": no gl reduction '" + std::string(spec) + "'");
  detail::params(spec, fn).done("");
}

}  // namespace

std::uint64_t reduce(std::string_view spec, scalar type, reduce_op op, const void* bits, std::uint64_t n, const char* fn) {
  check_reduce(spec, fn);
  session s(fn);
  goddeke_multipass r(s, type, op, bits, n);
  return r.result(r.run(s));
}

std::uint64_t compact(std::string_view spec, bool unordered, const void* in, std::uint64_t n, std::size_t elem_bytes,
                      const selection& sel, void* out, std::uint64_t out_capacity, const char* fn) {
  session s(fn);
  auto c = make(s, spec, unordered, in, n, elem_bytes, sel);
  c->run(s);
  const std::uint64_t count = c->count();
  s.check("reading the count back");
  c->read(out, std::min(count, out_capacity));
  s.check("reading the result back");
  return count;
}

std::vector<double> time_reduce(std::string_view spec, scalar type, reduce_op op, const void* bits, std::uint64_t n,
                                int runs, std::uint64_t* result) {
  const char* fn = "gl_backend::time_reduce";
  check_reduce(spec, fn);
  session s(fn);
  goddeke_multipass r(s, type, op, bits, n);
  timer t;
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    t.begin();
    texture& last = r.run(s);
    ms.push_back(t.end_ms());
    if (i + 1 == runs) *result = r.result(last);
  }
  return ms;
}

std::vector<double> time_compact(std::string_view spec, bool unordered, const void* in, std::uint64_t n,
                                 std::size_t elem_bytes, const std::uint8_t* flags, int runs, std::uint64_t* count) {
  session s("gl_backend::time_compact");
  selection sel;
  sel.flags = flags;
  auto c = make(s, spec, unordered, in, n, elem_bytes, sel);
  timer t;
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    t.begin();
    c->run(s);
    ms.push_back(t.end_ms());
  }
  *count = c->count();
  s.check("timing a compaction");
  return ms;
}

namespace {
const char* const copy_fs = R"(
layout(binding = 0) uniform usampler2D u_in;
layout(location = 0) out uint o_value;
void main() { o_value = texelFetch(u_in, ivec2(gl_FragCoord.xy), 0).x; }
)";
}  // namespace

std::vector<double> time_copy(std::uint64_t bytes, int runs) { return time_copy(bytes, runs, false); }

std::vector<double> time_copy(std::uint64_t bytes, int runs, bool fragment_pass) {
  session s("gl_backend::time_copy");
  const std::uint64_t texels = fragment_pass ? (bytes + 3) / 4 : (bytes + 15) / 16;  // R32UI or RGBA32UI
  const GLenum fmt = fragment_pass ? GL_R32UI : GL_RGBA32UI;
  texture a = stream_texture(s, fmt, texels), b = stream_texture(s, fmt, texels);
  const GLuint p = program("copy", {{GL_VERTEX_SHADER, fullscreen_vs}, {GL_FRAGMENT_SHADER, glsl_header() + copy_fs}});
  timer t;
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    t.begin();
    if (fragment_pass) {
      glBindTextureUnit(0, a.id());
      draw_rows(p, b, b.height());
    } else {
      glCopyImageSubData(a.id(), GL_TEXTURE_2D, 0, 0, 0, 0, b.id(), GL_TEXTURE_2D, 0, 0, 0, 0, a.width(), a.height(), 1);
    }
    ms.push_back(t.end_ms());
  }
  s.check("timing a texture copy");
  return ms;
}

}  // namespace sluice::gl_backend
