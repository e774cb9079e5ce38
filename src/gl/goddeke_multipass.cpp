// reduce "goddeke-multipass" on the gl device (Göddeke, GPGPU::Reduction Tutorial, "Basic idea" and
// "Solution 2: on-the-fly texcoord manipulation"): the stream fills an M x M texture row by row (M the
// smallest power of two with M x M >= n); each pass renders an M/2 x M/2 viewport whose fragment (x, y)
// fetches the 2x2 group at topleft = 2 (x, y), +(1,0), +(1,1), +(0,1), coordinates computed from its own
// position, and writes op(val1, op(val2, op(val3, val4))) into the other texture of a ping-pong pair, until
// one texel is left: log2(M) passes. As the CUDA namesake (include/sluice/cuda/reduce/goddeke_multipass.cuh),
// texels past n are absent and a group combines only those present, so the op must be commutative.
#include "gl/variants.hpp"

namespace sluice::gl_backend {
namespace {

// Each element type as the shader combines it: A, the type of its sum and product (the signed integers
// add and multiply as unsigned, wrapping as sluice::sum and sluice::product do); C, the type its order is
// compared in; LOAD and STORE between A and the texel's bits.
const char* const op_glsl = R"(
#if defined(S_U32) || defined(S_I32)
#define A uint
#define LOAD(v) v.x
#define STORE(r) uvec4(r, 0u, 0u, 0u)
#elif defined(S_U64) || defined(S_I64)
#define A uint64_t
#define LOAD(v) packUint2x32(v.xy)
#define STORE(r) uvec4(unpackUint2x32(r), 0u, 0u)
#elif defined(S_F32)
#define A float
#define LOAD(v) uintBitsToFloat(v.x)
#define STORE(r) uvec4(floatBitsToUint(r), 0u, 0u, 0u)
#else
#define A double
#define LOAD(v) packDouble2x32(v.xy)
#define STORE(r) uvec4(unpackDouble2x32(r), 0u, 0u)
#endif
#if defined(S_I32)
#define C int
#elif defined(S_I64)
#define C int64_t
#else
#define C A
#endif
uvec4 op(uvec4 a, uvec4 b) {
#if defined(OP_MIN)
  return C(LOAD(b)) < C(LOAD(a)) ? b : a;  // sluice::minimum: b < a ? b : a
#elif defined(OP_MAX)
  return C(LOAD(a)) < C(LOAD(b)) ? b : a;  // sluice::maximum: a < b ? b : a
#elif defined(OP_SUM)
  precise A r = LOAD(a) + LOAD(b);
  return STORE(r);
#else
  precise A r = LOAD(a) * LOAD(b);
  return STORE(r);
#endif
}
)";

const char* const pass_fs = R"(
layout(binding = 0) uniform usampler2D u_in;
uniform int u_level;    // the input's level: its texel (x, y) stands for a 2^level square of the stream
uniform uint u_side0;   // M
uniform uint u_n;
layout(location = 0) out uvec4 o_value;
bool present(uvec2 t) { return ((t.y << uint(u_level)) * u_side0 + (t.x << uint(u_level))) < u_n; }
void main() {
  uvec2 topleft = 2u * uvec2(gl_FragCoord.xy);  // topleft = ((coords - 0.5) * 2.0) + 0.5, as texel indices
  if (!present(topleft)) { o_value = uvec4(0u); return; }
  uvec2 g[4] = uvec2[4](topleft, topleft + uvec2(1u, 0u), topleft + uvec2(1u, 1u), topleft + uvec2(0u, 1u));
  uvec4 acc = uvec4(0u);
  bool have = false;
  for (int k = 3; k >= 0; --k) {  // result = op(val1, op(val2, op(val3, val4))) over the present ones
    if (!present(g[k])) continue;
    uvec4 v = texelFetch(u_in, ivec2(g[k]), 0);
    acc = have ? op(v, acc) : v;
    have = true;
  }
  o_value = acc;
}
)";

const char* op_define(reduce_op op) {
  switch (op) {
    case reduce_op::sum: return "#define OP_SUM 1\n";
    case reduce_op::product: return "#define OP_PRODUCT 1\n";
    case reduce_op::min: return "#define OP_MIN 1\n";
    case reduce_op::max: return "#define OP_MAX 1\n";
  }
  return "";
}

bool wide(scalar t) { return t == scalar::i64 || t == scalar::u64 || t == scalar::f64; }

}  // namespace

goddeke_multipass::goddeke_multipass(const session& s, scalar type, reduce_op op, const void* bits, std::uint64_t n)
    : type_(type), n_(n) {
  while (side_ * side_ < n) side_ *= 2;
  if (side_ > static_cast<std::uint64_t>(s.max_texture_size()))
    throw error(errc::unsupported, std::string("sluice::") + s.fn() + ": " + std::to_string(n) +
                                       " elements do not fit one square texture of the gl device");
  const GLenum fmt = wide(type) ? GL_RG32UI : GL_R32UI;
  const int side = static_cast<int>(side_);
  level0_ = texture(fmt, side, side);
  upload(level0_, bits, n);
  if (side_ > 1) ping_ = texture(fmt, side / 2, side / 2), pong_ = texture(fmt, side / 2, side / 2);
  std::string fs = glsl_header(type == scalar::f64 ? std::initializer_list<const char*>{"GL_ARB_gpu_shader_fp64"}
                               : wide(type)        ? std::initializer_list<const char*>{"GL_ARB_gpu_shader_int64"}
                                                   : std::initializer_list<const char*>{});
  fs += std::string(scalar_define(type)) + op_define(op) + op_glsl + pass_fs;
  prog_ = program("goddeke-multipass", {{GL_VERTEX_SHADER, fullscreen_vs}, {GL_FRAGMENT_SHADER, fs}});
  s.check("uploading the reduction's texture");
}

texture& goddeke_multipass::run(const session& s) {
  texture* in = &level0_;
  texture* out = &ping_;
  glProgramUniform1ui(prog_, glGetUniformLocation(prog_, "u_side0"), static_cast<GLuint>(side_));
  glProgramUniform1ui(prog_, glGetUniformLocation(prog_, "u_n"), static_cast<GLuint>(n_));
  profile_mark("start");
  int level = 0;
  for (std::uint64_t out_side = side_ / 2; out_side >= 1; out_side /= 2, ++level) {  // ping-pong down to 1 x 1
    glProgramUniform1i(prog_, glGetUniformLocation(prog_, "u_level"), level);
    glBindTextureUnit(0, in->id());
    draw_rows(prog_, *out, static_cast<int>(out_side), static_cast<int>(out_side));
    in = out;
    out = (out == &ping_) ? &pong_ : &ping_;
    profile_mark(level == 0 ? "first-pass" : "pass");
  }
  profile_report("goddeke-multipass", n_);
  s.check("a reduction pass");
  return *in;
}

std::uint64_t goddeke_multipass::result(texture& t) const {
  std::uint32_t w[2] = {0, 0};
  download(t, w, 1);
  return w[0] | (static_cast<std::uint64_t>(w[1]) << 32);
}

}  // namespace sluice::gl_backend
