// compact "roger" on the gl device (Roger, Assarsson, Holzschuch 2007, Sec. III): blocks of s (default 64,
// Sec. V-A), per-block Hillis-Steele prefix sum of the empties and the improved dichotomic search of Fig. 5
// in fragment shaders, then one point per block through a geometry shader that emits its line segment, split
// in two only where it wraps across a texture row (Fig. 7: "it is better to use the geometry engine").
// Stable. The framework: block_compaction.hpp.
#include "gl/block_compaction.hpp"

namespace sluice::gl_backend {
namespace {

inline constexpr unsigned default_s = 64;

// Fig. 5 at position i of the block: pSum[j] counts the empty elements in [0, j] of the block.
const char* const dichotomic_search_fs = R"(
int pSum(int j) { return int(texelFetch(u_psum, at(base + uint(j)), 0).x); }
bool wanted(int j) { return texelFetch(u_flags, at(base + uint(j)), 0).x != 0u; }
void main() {
  uint here_i = here();
  base = here_i & ~(u_s - 1u);
  int s = int(u_s), i = int(here_i - base);
  int lowerBound = i + pSum(i);
  int upperBound = i + pSum(s - 1);
  if (upperBound > s - 1) { o_value = uvec4(0u); return; }  // no element at position i
  int j = (lowerBound + upperBound) / 2;
  int found = j - pSum(j) - i;
  // lowerBound <= upperBound holds all along for a real block; it also ends the loop in the lanes a software
  // rasterizer runs past the viewport's edge (masked, on garbage), which would otherwise spin.
  while ((found != 0 || !wanted(j)) && lowerBound <= upperBound) {
    if (found < 0) lowerBound = j - found;
    else upperBound = j - max(1, found);
    j = (lowerBound + upperBound) / 2;
    found = j - pSum(j) - i;
  }
  o_value = texelFetch(u_elements, at(base + uint(j)), 0);
}
)";

const char* const point_vs = R"(#version 450 core
flat out uint v_block;
void main() { v_block = uint(gl_VertexID); gl_Position = vec4(0.0); }
)";

const char* const split_gs = R"(
layout(points) in;
layout(line_strip, max_vertices = 4) out;
flat in uint v_block[];
uniform vec2 u_viewport;
noperspective out vec2 g_uv;
void emit(vec4 e) {
  gl_Position = vec4(e.xy / u_viewport * 2.0 - 1.0, 0.0, 1.0);
  g_uv = e.zw;
  EmitVertex();
}
void main() {
  vec4 a = segment(v_block[0], 0u);
  if (a.x < 0.0) return;  // an empty block
  emit(a);
  emit(segment(v_block[0], 1u));
  EndPrimitive();
  vec4 c = segment(v_block[0], 2u);
  if (c.x < 0.0) return;  // no wrap: one segment
  emit(c);
  emit(segment(v_block[0], 3u));
  EndPrimitive();
}
)";

class roger final : public block_compaction {
 public:
  roger(const session& s, unsigned block, const void* in, std::uint64_t n, std::size_t eb, const selection& sel)
      : block_compaction(s, in, n, eb, sel, block, "roger dichotomic search", dichotomic_search_fs) {
    lines_ = program("roger lines", {{GL_VERTEX_SHADER, point_vs},
                                     {GL_GEOMETRY_SHADER, glsl_header() + segment_glsl + split_gs},
                                     {GL_FRAGMENT_SHADER, segment_fs}});
  }

 private:
  void concatenate(const session&) override {
    glProgramUniform1ui(lines_, glGetUniformLocation(lines_, "u_s"), static_cast<GLuint>(s_));
    glProgramUniform2f(lines_, glGetUniformLocation(lines_, "u_viewport"), static_cast<float>(out_.width()), static_cast<float>(out_.height()));
    glBindTextureUnit(0, psum_->id());
    glBindTextureUnit(1, before_->id());
    glBindTextureUnit(2, blocks_.id());
    draw_points(lines_, out_, static_cast<GLsizei>(blocks_n_));
  }
  GLuint lines_ = 0;
};

}  // namespace

std::unique_ptr<compaction> make_roger(const session& s, std::string_view spec, const void* in, std::uint64_t n, std::size_t eb, const selection& sel) {
  const unsigned block = parse_block_size(spec, s.fn(), default_s);
  return std::make_unique<roger>(s, block, in, n, eb, sel);
}

}  // namespace sluice::gl_backend
