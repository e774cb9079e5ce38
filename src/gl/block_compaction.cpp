#include "gl/block_compaction.hpp"

#include "sluice/detail/params.hpp"

namespace sluice::gl_backend {
namespace {

const char* const empties_fs = R"(
layout(binding = 0) uniform usampler2D u_flags;
uniform uint u_n;
layout(location = 0) out uint o_empty;
void main() { o_empty = (here() >= u_n || texelFetch(u_flags, ivec2(gl_FragCoord.xy), 0).x == 0u) ? 1u : 0u; }
)";

// Roger Fig. 6: the empties before block b are the sum of the last pSum terms of blocks 0 .. b-1; this pass
// lays those terms out one block later, and a Hillis-Steele scan over the blocks sums them.
const char* const shift_fs = R"(
layout(binding = 0) uniform usampler2D u_psum;
uniform uint u_s;
uniform uint u_blocks;
layout(location = 0) out uint o_empties;
void main() {
  uint b = here();
  o_empties = (b == 0u || b > u_blocks) ? 0u : texelFetch(u_psum, at(b * u_s - 1u), 0).x;
}
)";

}  // namespace

const char* const in_block_prelude = R"(
layout(binding = 0) uniform usampler2D u_psum;
layout(binding = 1) uniform usampler2D u_flags;
layout(binding = 2) uniform usampler2D u_elements;
uniform uint u_s;
layout(location = 0) out uvec4 o_value;
uint base;
)";

const char* const segment_fs = R"(#version 450 core
layout(binding = 2) uniform usampler2D u_blocks;
noperspective in vec2 g_uv;
layout(location = 0) out uvec4 o_value;
void main() { o_value = texelFetch(u_blocks, ivec2(floor(g_uv)), 0); }
)";

const char* const segment_glsl = R"(
layout(binding = 0) uniform usampler2D u_psum;
layout(binding = 1) uniform usampler2D u_before;
uniform uint u_s;
// Endpoint k of block b's segments: (x, y) in the output, (u, v) in the compacted blocks, at texel centres.
vec4 segment(uint b, uint k) {
  uint first = b * u_s;
  uint kept = u_s - texelFetch(u_psum, at(first + u_s - 1u), 0).x;
  uint start = first - texelFetch(u_before, at(b), 0).x;
  uint len = min(kept, W - start % W);  // what fits in the row; the rest wraps (Roger Fig. 7)
  if (kept == 0u || (k >= 2u && len == kept)) return vec4(-8.0, -8.0, 0.0, 0.0);  // nothing to draw
  float x = float(start % W) + 0.5, y = float(start / W) + 0.5;
  float u = float(first % W) + 0.5, v = float(first / W) + 0.5;
  if (k == 0u) return vec4(x, y, u, v);
  if (k == 1u) return vec4(x + float(len), y, u + float(len), v);
  if (k == 2u) return vec4(0.5, y + 1.0, u + float(len), v);
  return vec4(float(kept - len) + 0.5, y + 1.0, u + float(kept), v);
}
)";

void empties_pass(texture& flags, texture& target, std::uint64_t n) {
  const GLuint p = program("empties", {{GL_VERTEX_SHADER, fullscreen_vs}, {GL_FRAGMENT_SHADER, glsl_header() + empties_fs}});
  glProgramUniform1ui(p, glGetUniformLocation(p, "u_n"), static_cast<GLuint>(n));
  glBindTextureUnit(0, flags.id());
  draw_rows(p, target, target.height());
}

unsigned parse_block_size(std::string_view spec, const char* fn, unsigned def) {
  detail::params p(spec, fn);
  const auto s = static_cast<unsigned>(p.number("s", def, 2, 1024, true));
  p.done("s");
  return s;
}

block_compaction::block_compaction(const session& s, const void* in, std::uint64_t n, std::size_t eb, const selection& sel,
                                   unsigned block, const char* name, const char* in_block_fs)
    : compaction(s, in, n, eb, sel), name_(name), s_(block), blocks_n_((n + block - 1) / block),
      a_(stream_texture(s, GL_R32UI, n)), b_(stream_texture(s, GL_R32UI, n)),
      blocks_(stream_texture(s, element_format(eb), n)), before_a_(stream_texture(s, GL_R32UI, blocks_n_)),
      before_b_(stream_texture(s, GL_R32UI, blocks_n_)),
      out_(stream_texture(s, element_format(eb), n, 1)) {  // a spare column: segments end past the row
  in_block_ = program(name, {{GL_VERTEX_SHADER, fullscreen_vs}, {GL_FRAGMENT_SHADER, glsl_header() + in_block_prelude + in_block_fs}});
  shift_ = program("block shift", {{GL_VERTEX_SHADER, fullscreen_vs}, {GL_FRAGMENT_SHADER, glsl_header() + shift_fs}});
  glProgramUniform1ui(in_block_, glGetUniformLocation(in_block_, "u_s"), static_cast<GLuint>(s_));
}

void block_compaction::run(const session& s) {
  if (n_ == 0) return;
  profile_mark("start");
  // Sec. III-B1: the empties before each element within its block.
  empties_pass(flags_, a_, n_);
  profile_mark("empties");
  psum_ = &hillis_steele(s, a_, b_, n_, s_);
  profile_mark("in-block-prefix-sums");
  // Sec. III-B2: each block's kept elements gathered to its front.
  glBindTextureUnit(0, psum_->id());
  glBindTextureUnit(1, flags_.id());
  glBindTextureUnit(2, elements_.id());
  draw_rows(in_block_, blocks_, blocks_.height());
  profile_mark("in-block-search");
  // Sec. III-C, Fig. 6: the displacement of every block.
  glProgramUniform1ui(shift_, glGetUniformLocation(shift_, "u_s"), static_cast<GLuint>(s_));
  glProgramUniform1ui(shift_, glGetUniformLocation(shift_, "u_blocks"), static_cast<GLuint>(blocks_n_));
  glBindTextureUnit(0, psum_->id());
  draw_rows(shift_, before_a_, before_a_.height());
  profile_mark("block-shift");
  before_ = &hillis_steele(s, before_a_, before_b_, blocks_n_, 0);
  profile_mark("block-prefix-sums");
  s.check("the in-block passes");
  // Sec. III-C, Fig. 7: the blocks concatenated by line drawing.
  concatenate(s);
  profile_mark("line-drawing");
  profile_report(name_, n_);
  s.check("the line drawing");
}

std::uint64_t block_compaction::count() {
  if (n_ == 0) return 0;
  const std::uint64_t last = blocks_n_ - 1;
  return blocks_n_ * s_ - read_u32(*before_, last) - read_u32(*psum_, last * s_ + s_ - 1);
}

void block_compaction::read(void* out, std::uint64_t k) { download(out_, out, k, stream_width); }

}  // namespace sluice::gl_backend
