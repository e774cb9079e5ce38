// compact_unordered "jumping-jack" on the gl device (Moreira, Reis, de Sousa 2009, Sec. 4 Algorithm 2 and
// Sec. 5 Fig. 8): blocks of s (default 256, Fig. 11); in each, the max-allowable-size MAS[i] = s - pSum[i]
// (Eq. 1, pSum the inclusive count of invalid elements, from Hillis-Steele passes) and the jump loop
// idx <- MAS[idx] run in a fragment shader; then, as Sec. 5 describes, a fragment pass computes the four
// endpoints and texture coordinates of each block's two line segments (the second off the viewport unless
// the block wraps) into an RGBA32F texture, which is read into a buffer object and drawn from it as lines
// (render to vertex array through a pixel-pack buffer). Order within a block is not kept.
#include "gl/block_compaction.hpp"

namespace sluice::gl_backend {
namespace {

inline constexpr unsigned default_s = 256;

const char* const jumps_fs = R"(
uint MAS(uint idx) { return u_s - texelFetch(u_psum, at(base + idx), 0).x; }  // Eq. 1
bool valid(uint idx) { return texelFetch(u_flags, at(base + idx), 0).x != 0u; }
void main() {
  uint i = here();
  base = i & ~(u_s - 1u);
  i -= base;
  if (i >= MAS(u_s - 1u)) { o_value = uvec4(0u); return; }  // v = MAS[s - 1] positions are filled
  uint idx = i;
  while (idx < u_s && !valid(idx)) idx = MAS(idx);  // idx < s always holds in a real block (see roger.cpp)
  o_value = texelFetch(u_elements, at(base + idx), 0);
}
)";

// Four vertices per block, vertex 4b + k at texel (4b + k) of the endpoint texture.
const char* const endpoints_fs = R"(
uniform uint u_blocks;
layout(location = 0) out vec4 o_vertex;
void main() {
  uint v = here();
  o_vertex = v / 4u < u_blocks ? segment(v / 4u, v % 4u) : vec4(-8.0, -8.0, 0.0, 0.0);
}
)";

const char* const line_vs = R"(#version 450 core
layout(location = 0) in vec4 a_vertex;  // (x, y) in the output, (u, v) in the compacted blocks
uniform vec2 u_viewport;
noperspective out vec2 g_uv;
void main() {
  gl_Position = vec4(a_vertex.xy / u_viewport * 2.0 - 1.0, 0.0, 1.0);
  g_uv = a_vertex.zw;
}
)";

class jumping_jack final : public block_compaction {
 public:
  jumping_jack(const session& s, unsigned block, const void* in, std::uint64_t n, std::size_t eb, const selection& sel)
      : block_compaction(s, in, n, eb, sel, block, "jumping-jack jumps", jumps_fs),
        endpoints_(stream_texture(s, GL_RGBA32F, 4 * blocks_n_)),
        vertices_(static_cast<std::size_t>(endpoints_.width()) * endpoints_.height() * 16) {
    endpoints_prog_ = program("jumping-jack endpoints", {{GL_VERTEX_SHADER, fullscreen_vs},
                                                          {GL_FRAGMENT_SHADER, glsl_header() + segment_glsl + endpoints_fs}});
    lines_ = program("jumping-jack lines", {{GL_VERTEX_SHADER, line_vs}, {GL_FRAGMENT_SHADER, segment_fs}});
    glCreateVertexArrays(1, &vao_);
    glVertexArrayVertexBuffer(vao_, 0, vertices_.id(), 0, 16);
    glEnableVertexArrayAttrib(vao_, 0);
    glVertexArrayAttribFormat(vao_, 0, 4, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(vao_, 0, 0);
    s.check("jumping-jack's vertex array");
  }
  ~jumping_jack() override { glDeleteVertexArrays(1, &vao_); }

 private:
  void concatenate(const session&) override {
    // The endpoints, computed by the fragment processor ...
    glProgramUniform1ui(endpoints_prog_, glGetUniformLocation(endpoints_prog_, "u_s"), static_cast<GLuint>(s_));
    glProgramUniform1ui(endpoints_prog_, glGetUniformLocation(endpoints_prog_, "u_blocks"), static_cast<GLuint>(blocks_n_));
    glBindTextureUnit(0, psum_->id());
    glBindTextureUnit(1, before_->id());
    const int rows = rows_for(4 * blocks_n_);
    draw_rows(endpoints_prog_, endpoints_, rows);
    profile_mark("endpoints");
    // ... become a vertex array: read into the buffer the lines are drawn from.
    glBindFramebuffer(GL_READ_FRAMEBUFFER, endpoints_.framebuffer());
    glBindBuffer(GL_PIXEL_PACK_BUFFER, vertices_.id());
    glReadPixels(0, 0, endpoints_.width(), rows, GL_RGBA, GL_FLOAT, nullptr);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT);
    profile_mark("render-to-vertex-array");
    // Two segments per block, textured from the compacted blocks.
    glProgramUniform2f(lines_, glGetUniformLocation(lines_, "u_viewport"), static_cast<float>(out_.width()), static_cast<float>(out_.height()));
    glBindTextureUnit(2, blocks_.id());
    glBindFramebuffer(GL_FRAMEBUFFER, out_.framebuffer());
    glViewport(0, 0, out_.width(), out_.height());
    glUseProgram(lines_);
    glBindVertexArray(vao_);
    glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(4 * blocks_n_));
  }
  texture endpoints_;
  buffer vertices_;
  GLuint endpoints_prog_ = 0, lines_ = 0, vao_ = 0;
};

}  // namespace

std::unique_ptr<compaction> make_jumping_jack(const session& s, std::string_view spec, const void* in, std::uint64_t n, std::size_t eb, const selection& sel) {
  const unsigned block = parse_block_size(spec, s.fn(), default_s);
  return std::make_unique<jumping_jack>(s, block, in, n, eb, sel);
}

}  // namespace sluice::gl_backend
