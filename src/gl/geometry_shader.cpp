// compact "geometry-shader" on the gl device: the papers' baseline (Roger Sec. II, Moreira Sec. 3): every
// element is a point; a geometry shader emits it only when it is kept, and transform feedback captures the
// emitted values, in input order, into a buffer; a query counts the primitives written. Stable.
#include "gl/variants.hpp"

#include <cstring>
#include <vector>

namespace sluice::gl_backend {
namespace {

const char* const index_vs = R"(#version 450 core
flat out uint v_index;
void main() { v_index = uint(gl_VertexID); }
)";

const char* const drop_gs = R"(
layout(points) in;
layout(points, max_vertices = 1) out;
flat in uint v_index[];
layout(binding = 0) uniform usampler2D u_flags;
layout(binding = 1) uniform usampler2D u_elements;
flat out VALUE v_value;
void main() {
  uint i = v_index[0];
  if (texelFetch(u_flags, at(i), 0).x == 0u) return;  // the unwanted element emits nothing
  v_value = VALUE(texelFetch(u_elements, at(i), 0)COMPONENTS);
  EmitVertex();
  EndPrimitive();
}
)";

class geometry_shader final : public compaction {
 public:
  geometry_shader(const session& s, const void* in, std::uint64_t n, std::size_t eb, const selection& sel)
      : compaction(s, in, n, eb, sel), value_bytes_(eb < 4 ? 4 : eb), captured_(n * value_bytes_) {
    const char* type = value_bytes_ == 4 ? "#define VALUE uint\n#define COMPONENTS .x\n"
                       : value_bytes_ == 8 ? "#define VALUE uvec2\n#define COMPONENTS .xy\n"
                                           : "#define VALUE uvec4\n#define COMPONENTS\n";
    prog_ = program("geometry-shader", {{GL_VERTEX_SHADER, index_vs}, {GL_GEOMETRY_SHADER, glsl_header() + type + drop_gs}}, {"v_value"});
    glCreateQueries(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, 1, &query_);
    s.check("the transform feedback buffer");
  }
  ~geometry_shader() override { glDeleteQueries(1, &query_); }
  void run(const session& s) override {
    if (n_ == 0) return;
    profile_mark("start");
    glBindTextureUnit(0, flags_.id());
    glBindTextureUnit(1, elements_.id());
    glUseProgram(prog_);
    glBindVertexArray(empty_vertex_array());
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, captured_.id());
    bind_spare_framebuffer();
    glEnable(GL_RASTERIZER_DISCARD);
    glBeginQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, query_);
    glBeginTransformFeedback(GL_POINTS);
    glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(n_));
    glEndTransformFeedback();
    glEndQuery(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
    glDisable(GL_RASTERIZER_DISCARD);
    profile_mark("points-through-geometry-shader");
    profile_report("geometry-shader", n_);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
    s.check("the geometry shader pass");
  }
  std::uint64_t count() override {
    if (n_ == 0) return 0;
    GLuint64 written = 0;
    glGetQueryObjectui64v(query_, GL_QUERY_RESULT, &written);
    return written;
  }
  void read(void* out, std::uint64_t k) override {
    if (k == 0) return;
    if (value_bytes_ == elem_bytes_) {
      glGetNamedBufferSubData(captured_.id(), 0, static_cast<GLsizeiptr>(k * value_bytes_), out);
      return;
    }
    std::vector<std::uint32_t> words(k);  // bytes were captured one per uint
    glGetNamedBufferSubData(captured_.id(), 0, static_cast<GLsizeiptr>(k * 4), words.data());
    auto* o = static_cast<std::uint8_t*>(out);
    for (std::uint64_t i = 0; i < k; ++i) o[i] = static_cast<std::uint8_t>(words[i]);
  }

 private:
  std::size_t value_bytes_;
  buffer captured_;
  GLuint prog_ = 0, query_ = 0;
};

}  // namespace

std::unique_ptr<compaction> make_geometry_shader(const session& s, const void* in, std::uint64_t n, std::size_t eb, const selection& sel) {
  return std::make_unique<geometry_shader>(s, in, n, eb, sel);
}

}  // namespace sluice::gl_backend
