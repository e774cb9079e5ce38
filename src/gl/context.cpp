// The gl device's context and plumbing (gl.hpp): a headless OpenGL 4.5 core context through EGL, on the
// first EGL device that gives one (the GPU's driver, or Mesa's llvmpipe), with no window and no display.
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

#include "gl/gl.hpp"

namespace sluice::gl_backend {
namespace {

struct state {
  bool ok = false;
  std::string reason;
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  std::string renderer;
  int max_texture = 0;
  GLuint empty_vao = 0;
  GLuint spare_texture = 0, spare_fbo = 0;  // a complete 1 x 1 framebuffer for draws that rasterize nothing
  std::map<std::string, GLuint> programs;
  std::mutex mutex;
};

std::string egl_error(const char* what) {
  char b[96];
  std::snprintf(b, sizeof b, "%s failed (EGL error 0x%04x)", what, static_cast<unsigned>(eglGetError()));
  return b;
}

// A 4.5 core context on `display`, or the reason there is none.
bool try_display(state& st, EGLDisplay display, std::string& why) {
  EGLint major = 0, minor = 0;
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) return why = egl_error("eglInitialize"), false;
  if (!eglBindAPI(EGL_OPENGL_API)) return why = egl_error("eglBindAPI(EGL_OPENGL_API)"), false;
  const EGLint attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5, EGL_CONTEXT_OPENGL_PROFILE_MASK,
                          EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  // No surface: every pass renders into framebuffer objects (EGL_KHR_surfaceless_context).
  EGLContext ctx = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attrs);
  if (ctx == EGL_NO_CONTEXT) {
    const EGLint cfg_attrs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig cfg;
    EGLint count = 0;
    if (eglChooseConfig(display, cfg_attrs, &cfg, 1, &count) && count > 0) ctx = eglCreateContext(display, cfg, EGL_NO_CONTEXT, attrs);
  }
  if (ctx == EGL_NO_CONTEXT) return why = egl_error("eglCreateContext (OpenGL 4.5 core)"), false;
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
    why = egl_error("eglMakeCurrent without a surface");
    eglDestroyContext(display, ctx);
    return false;
  }
  st.display = display;
  st.context = ctx;
  st.renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &st.max_texture);
  glCreateVertexArrays(1, &st.empty_vao);
  glCreateTextures(GL_TEXTURE_2D, 1, &st.spare_texture);
  glTextureStorage2D(st.spare_texture, 1, GL_R8UI, 1, 1);
  glCreateFramebuffers(1, &st.spare_fbo);
  glNamedFramebufferTexture(st.spare_fbo, GL_COLOR_ATTACHMENT0, st.spare_texture, 0);
  if (const char* d = std::getenv("SLUICE_GL_DEBUG"); d && *d == '1') {  // the driver's messages on stderr
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    glDebugMessageCallback([](GLenum, GLenum, GLuint, GLenum, GLsizei, const GLchar* m, const void*) {
      std::fprintf(stderr, "sluice gl: %s\n", m);
    }, nullptr);
  }
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  return true;
}

state& get() {
  static state* st = [] {
    auto* s = new state;  // lives as long as the process: drivers do not all survive teardown at exit
    std::string why = "no EGL device";
    auto query = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
    auto platform = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (query && platform) {
      EGLDeviceEXT devices[16];
      EGLint n = 0;
      if (query(16, devices, &n))
        for (EGLint i = 0; i < n && !s->ok; ++i) s->ok = try_display(*s, platform(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr), why);
      if (!s->ok) s->ok = try_display(*s, platform(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr), why);
    } else {
      why = "EGL lacks EGL_EXT_device_enumeration and EGL_EXT_platform_base";
    }
    if (!s->ok) s->reason = "no headless OpenGL 4.5 core context: " + why;
    return s;
  }();
  return *st;
}

// GL keeps one error flag per kind until read: clear them, so the next check sees only what follows.
void drain_errors() {
  while (glGetError() != GL_NO_ERROR) {
  }
}

}  // namespace

bool available() noexcept {
  try {
    return get().ok;
  } catch (...) {
    return false;
  }
}
std::string unavailable_reason() { return available() ? std::string() : get().reason; }
void require_device(const char* fn) {
  if (!available()) throw error(errc::no_device, std::string("sluice::") + fn + ": the gl device is not available: " + get().reason);
}
std::string renderer() { return available() ? get().renderer : std::string(); }

session::session(const char* fn) : fn_(fn) {
  require_device(fn);
  state& st = get();
  lock_ = std::unique_lock(st.mutex);
  if (!eglMakeCurrent(st.display, EGL_NO_SURFACE, EGL_NO_SURFACE, st.context))
    throw error(errc::gl_error, std::string("sluice::") + fn + ": " + egl_error("eglMakeCurrent"));
  drain_errors();
}
session::~session() {
  state& st = get();
  glBindVertexArray(0);
  glUseProgram(0);
  eglMakeCurrent(st.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}
int session::max_texture_size() const { return get().max_texture; }
void session::check(const char* what) const {
  const GLenum e = glGetError();
  if (e == GL_NO_ERROR) return;
  drain_errors();
  char b[32];
  std::snprintf(b, sizeof b, "0x%04x", e);
  throw error(e == GL_OUT_OF_MEMORY ? errc::out_of_memory : errc::gl_error,
              std::string("sluice::") + fn_ + ": " + what + " failed (GL error " + b + ")");
}

texture::texture(GLenum internal_format, int width, int height) : w_(width), h_(height), fmt_(internal_format) {
  glCreateTextures(GL_TEXTURE_2D, 1, &id_);
  glTextureStorage2D(id_, 1, internal_format, width, height);
  glTextureParameteri(id_, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTextureParameteri(id_, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}
texture::~texture() {
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
  if (id_) glDeleteTextures(1, &id_);
}
GLuint texture::framebuffer() {
  if (!fbo_) {
    glCreateFramebuffers(1, &fbo_);
    glNamedFramebufferTexture(fbo_, GL_COLOR_ATTACHMENT0, id_, 0);
  }
  return fbo_;
}

buffer::buffer(std::size_t bytes, GLenum usage) {
  glCreateBuffers(1, &id_);
  glNamedBufferData(id_, static_cast<GLsizeiptr>(bytes ? bytes : 16), nullptr, usage);
}
buffer::~buffer() {
  if (id_) glDeleteBuffers(1, &id_);
}

GLuint program(const char* name, std::initializer_list<std::pair<GLenum, std::string>> stages,
               std::initializer_list<const char*> feedback_varyings) {
  std::string key = name;
  for (const auto& s : stages) key += "\n--\n" + s.second;
  for (const char* v : feedback_varyings) key += std::string("\n--tf ") + v;
  auto& cache = get().programs;
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  const GLuint p = glCreateProgram();
  std::vector<GLuint> shaders;
  auto fail = [&](const std::string& what, bool is_shader, GLuint obj) {
    GLint len = 0;
    is_shader ? glGetShaderiv(obj, GL_INFO_LOG_LENGTH, &len) : glGetProgramiv(obj, GL_INFO_LOG_LENGTH, &len);
    std::string log(static_cast<std::size_t>(len > 0 ? len : 1), '\0');
    is_shader ? glGetShaderInfoLog(obj, len, nullptr, log.data()) : glGetProgramInfoLog(obj, len, nullptr, log.data());
    for (GLuint s : shaders) glDeleteShader(s);
    glDeleteProgram(p);
    throw error(errc::gl_error, std::string("sluice: the gl shader '") + name + "' " + what + ": " + log.c_str());
  };
  for (const auto& [stage, src] : stages) {
    const GLuint sh = glCreateShader(stage);
    shaders.push_back(sh);
    const char* text = src.c_str();
    glShaderSource(sh, 1, &text, nullptr);
    glCompileShader(sh);
    GLint ok = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) fail("does not compile", true, sh);
    glAttachShader(p, sh);
  }
  if (feedback_varyings.size()) {
    std::vector<const char*> v(feedback_varyings);
    glTransformFeedbackVaryings(p, static_cast<GLsizei>(v.size()), v.data(), GL_INTERLEAVED_ATTRIBS);
  }
  glLinkProgram(p);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) fail("does not link", false, p);
  for (GLuint s : shaders) glDetachShader(p, s), glDeleteShader(s);
  cache.emplace(key, p);
  return p;
}

std::string glsl_header(std::initializer_list<const char*> extensions) {
  std::string h = "#version 450 core\n";
  for (const char* e : extensions) h += std::string("#extension ") + e + " : require\n";
  h += "const uint W = " + std::to_string(stream_width) + "u;\n";
  h += R"(ivec2 at(uint i) { return ivec2(int(i % W), int(i / W)); }
#define here() (uint(gl_FragCoord.y) * W + uint(gl_FragCoord.x))
)";
  return h;
}

// One triangle that covers the viewport.
const char* const fullscreen_vs = R"(#version 450 core
void main() {
  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
)";

void draw_rows(GLuint prog, texture& target, int rows, int width) {
  if (rows <= 0) return;
  glBindFramebuffer(GL_FRAMEBUFFER, target.framebuffer());
  glViewport(0, 0, width > 0 ? width : target.width(), rows);
  glUseProgram(prog);
  glBindVertexArray(get().empty_vao);
  glDrawArrays(GL_TRIANGLES, 0, 3);
}

void draw_points(GLuint prog, texture& target, GLsizei count) {
  if (count <= 0) return;
  glBindFramebuffer(GL_FRAMEBUFFER, target.framebuffer());
  glViewport(0, 0, target.width(), target.height());
  glUseProgram(prog);
  glBindVertexArray(get().empty_vao);
  glDrawArrays(GL_POINTS, 0, count);
}
GLuint empty_vertex_array() { return get().empty_vao; }
void bind_spare_framebuffer() { glBindFramebuffer(GL_FRAMEBUFFER, get().spare_fbo); }

GLenum element_format(std::size_t bytes) {
  switch (bytes) {
    case 1: return GL_R8UI;
    case 4: return GL_R32UI;
    case 8: return GL_RG32UI;
    case 16: return GL_RGBA32UI;
  }
  throw error(errc::unsupported, "sluice: the gl device moves elements of 1, 4, 8 or 16 bytes, not " + std::to_string(bytes));
}
GLenum pixel_format(GLenum f) {
  switch (f) {
    case GL_R8UI: case GL_R32UI: return GL_RED_INTEGER;
    case GL_RG32UI: return GL_RG_INTEGER;
    case GL_RGBA32UI: return GL_RGBA_INTEGER;
    case GL_RGBA32F: return GL_RGBA;
  }
  return GL_RED_INTEGER;
}
GLenum pixel_type(GLenum f) { return f == GL_R8UI ? GL_UNSIGNED_BYTE : f == GL_RGBA32F ? GL_FLOAT : GL_UNSIGNED_INT; }
std::size_t texel_bytes(GLenum f) {
  switch (f) {
    case GL_R8UI: return 1;
    case GL_R32UI: return 4;
    case GL_RG32UI: return 8;
    default: return 16;
  }
}

texture stream_texture(const session& s, GLenum internal_format, std::uint64_t n, int spare_columns) {
  const int width = stream_width;
  const std::uint64_t rows = n ? (n + width - 1) / width : 1;
  if (rows > static_cast<std::uint64_t>(s.max_texture_size()))
    throw error(errc::unsupported, std::string("sluice::") + s.fn() + ": " + std::to_string(n) +
                                       " elements do not fit one texture of the gl device (at most " +
                                       std::to_string(static_cast<std::uint64_t>(width) * s.max_texture_size()) + ")");
  texture t(internal_format, width + spare_columns, static_cast<int>(rows));
  s.check("allocating a stream texture");
  return t;
}

void upload(texture& t, const void* data, std::uint64_t n) {
  const std::uint64_t w = static_cast<std::uint64_t>(t.width()), full = n / w, rest = n % w;
  const auto* p = static_cast<const unsigned char*>(data);
  const GLenum f = pixel_format(t.format()), ty = pixel_type(t.format());
  if (full) glTextureSubImage2D(t.id(), 0, 0, 0, t.width(), static_cast<int>(full), f, ty, p);
  if (rest) glTextureSubImage2D(t.id(), 0, 0, static_cast<int>(full), static_cast<int>(rest), 1, f, ty, p + full * w * texel_bytes(t.format()));
}

void download(texture& t, void* data, std::uint64_t n, int width) {
  const std::uint64_t w = static_cast<std::uint64_t>(width > 0 ? width : t.width()), full = n / w, rest = n % w, tb = texel_bytes(t.format());
  auto* p = static_cast<unsigned char*>(data);
  const GLenum f = pixel_format(t.format()), ty = pixel_type(t.format());
  if (full) glGetTextureSubImage(t.id(), 0, 0, 0, 0, static_cast<int>(w), static_cast<int>(full), 1, f, ty, static_cast<GLsizei>(full * w * tb), p);
  if (rest) glGetTextureSubImage(t.id(), 0, 0, static_cast<int>(full), 0, static_cast<int>(rest), 1, 1, f, ty, static_cast<GLsizei>(rest * tb), p + full * w * tb);
}

std::uint32_t read_u32(texture& t, std::uint64_t index) {
  std::uint32_t v = 0;
  const std::uint64_t w = static_cast<std::uint64_t>(t.width());
  glGetTextureSubImage(t.id(), 0, static_cast<int>(index % w), static_cast<int>(index / w), 0, 1, 1, 1, GL_RED_INTEGER, GL_UNSIGNED_INT, sizeof v, &v);
  return v;
}

const char* scalar_define(scalar t) {
  switch (t) {
    case scalar::u8: return "#define S_U8 1\n";
    case scalar::i32: return "#define S_I32 1\n";
    case scalar::u32: return "#define S_U32 1\n";
    case scalar::i64: return "#define S_I64 1\n";
    case scalar::u64: return "#define S_U64 1\n";
    case scalar::f32: return "#define S_F32 1\n";
    case scalar::f64: return "#define S_F64 1\n";
  }
  return "";
}

namespace {
// The threshold predicate x op value on an element's bits, as sluice::threshold evaluates it in C++
// (an unordered float comparison holds only for not_equal).
const char* const select_fs = R"(
layout(binding = 0) uniform usampler2D u_elements;
uniform uint u_n;
uniform int u_op;       // sluice::compare: less, less_equal, greater, greater_equal, equal, not_equal
uniform uvec2 u_value;  // the threshold's bits, low word first
layout(location = 0) out uint o_flag;
int order_of(uvec4 x, uvec2 v) {  // -1, 0, 1, or 2 when unordered
#if defined(S_U8) || defined(S_U32)
  return x.x < v.x ? -1 : (x.x > v.x ? 1 : 0);
#elif defined(S_I32)
  int a = int(x.x), b = int(v.x);
  return a < b ? -1 : (a > b ? 1 : 0);
#elif defined(S_U64) || defined(S_I64)
  if (x.y != v.y) {
#if defined(S_I64)
    return int(x.y) < int(v.y) ? -1 : 1;
#else
    return x.y < v.y ? -1 : 1;
#endif
  }
  return x.x < v.x ? -1 : (x.x > v.x ? 1 : 0);
#elif defined(S_F32)
  float a = uintBitsToFloat(x.x), b = uintBitsToFloat(v.x);
  return a < b ? -1 : (a > b ? 1 : (a == b ? 0 : 2));
#else
  double a = packDouble2x32(x.xy), b = packDouble2x32(v);
  return a < b ? -1 : (a > b ? 1 : (a == b ? 0 : 2));
#endif
}
bool holds(int c) {
  if (c == 2) return u_op == 5;
  switch (u_op) {
    case 0: return c < 0;
    case 1: return c <= 0;
    case 2: return c > 0;
    case 3: return c >= 0;
    case 4: return c == 0;
  }
  return c != 0;
}
void main() {
  uint i = here();
  o_flag = (i < u_n && holds(order_of(texelFetch(u_elements, ivec2(gl_FragCoord.xy), 0), u_value))) ? 1u : 0u;
}
)";

const char* const hillis_steele_fs = R"(
layout(binding = 0) uniform usampler2D u_a;
uniform uint u_offset;
uniform uint u_segment;  // 0: the whole stream
layout(location = 0) out uint o_sum;
void main() {
  uint i = here();
  uint v = texelFetch(u_a, ivec2(gl_FragCoord.xy), 0).x;
  uint pos = u_segment == 0u ? i : (i & (u_segment - 1u));
  if (pos >= u_offset) v += texelFetch(u_a, at(i - u_offset), 0).x;
  o_sum = v;
}
)";
}  // namespace

texture make_flags(const session& s, const selection& sel, texture* elements, std::uint64_t n) {
  texture f = stream_texture(s, GL_R8UI, n);
  if (sel.flags) {
    const std::uint8_t zero = 0;
    glClearTexImage(f.id(), 0, GL_RED_INTEGER, GL_UNSIGNED_BYTE, &zero);
    upload(f, sel.flags, n);  // a non-zero byte keeps its element: the shaders test != 0
  } else {
    const GLuint p = program("select", {{GL_VERTEX_SHADER, fullscreen_vs},
                                        {GL_FRAGMENT_SHADER, glsl_header(sel.type == scalar::f64 ? std::initializer_list<const char*>{"GL_ARB_gpu_shader_fp64"} : std::initializer_list<const char*>{}) + scalar_define(sel.type) + select_fs}});
    glBindTextureUnit(0, elements->id());
    glProgramUniform1ui(p, glGetUniformLocation(p, "u_n"), static_cast<GLuint>(n));
    glProgramUniform1i(p, glGetUniformLocation(p, "u_op"), static_cast<int>(sel.op));
    glProgramUniform2ui(p, glGetUniformLocation(p, "u_value"), static_cast<GLuint>(sel.value_bits), static_cast<GLuint>(sel.value_bits >> 32));
    draw_rows(p, f, f.height());
  }
  s.check("making the flags stream");
  return f;
}

texture& hillis_steele(const session& s, texture& a, texture& b, std::uint64_t n, std::uint64_t segment) {
  const GLuint p = program("hillis-steele", {{GL_VERTEX_SHADER, fullscreen_vs}, {GL_FRAGMENT_SHADER, glsl_header() + hillis_steele_fs}});
  const std::uint64_t span = segment ? segment : n;
  texture* src = &a;
  texture* dst = &b;
  glProgramUniform1ui(p, glGetUniformLocation(p, "u_segment"), static_cast<GLuint>(segment));
  for (std::uint64_t d = 1; d < span; d *= 2) {  // Hillis-Steele: log2(span) passes, each adds the value d back
    glProgramUniform1ui(p, glGetUniformLocation(p, "u_offset"), static_cast<GLuint>(d));
    glBindTextureUnit(0, src->id());
    draw_rows(p, *dst, rows_for(n));
    std::swap(src, dst);
  }
  s.check("a Hillis-Steele prefix sum");
  return *src;
}

timer::timer() { glCreateQueries(GL_TIME_ELAPSED, 1, &q_); }
timer::~timer() { glDeleteQueries(1, &q_); }
void timer::begin() {
  glFinish();
  start_ = std::chrono::steady_clock::now();
  glBeginQuery(GL_TIME_ELAPSED, q_);
}
double timer::end_ms() {
  glEndQuery(GL_TIME_ELAPSED);
  glFinish();
  const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  GLuint64 ns = 0;
  glGetQueryObjectui64v(q_, GL_QUERY_RESULT, &ns);
  return software_renderer() ? std::max(static_cast<double>(ns) * 1e-6, wall) : static_cast<double>(ns) * 1e-6;
}

namespace {
struct profile_state {
  bool on = [] {
    const char* p = std::getenv("SLUICE_GL_PROFILE");
    return p && *p == '1';
  }();
  bool capture = false;  // profile_capture: keep the last run's pass times for the bench
  std::vector<std::pair<const char*, GLuint>> marks;
  std::vector<std::pair<std::string, double>> last;
};
profile_state& profiler() {
  static profile_state p;  // used under the session's lock
  return p;
}
}  // namespace

void profile_capture(bool on) { profiler().capture = on; }
std::vector<std::pair<std::string, double>> profile_last() { return profiler().last; }

void profile_mark(const char* pass_done) {
  auto& p = profiler();
  if (!p.on && !p.capture) return;
  GLuint q = 0;
  glGenQueries(1, &q);
  glQueryCounter(q, GL_TIMESTAMP);
  p.marks.emplace_back(pass_done, q);
}

void profile_report(const char* variant, std::uint64_t n) {
  auto& p = profiler();
  if ((!p.on && !p.capture) || p.marks.empty()) return;
  p.last.clear();
  std::string line = std::string("gl profile ") + variant + " n=" + std::to_string(n) + ":";
  GLuint64 prev = 0, first = 0;
  for (std::size_t i = 0; i < p.marks.size(); ++i) {
    GLuint64 t = 0;
    glGetQueryObjectui64v(p.marks[i].second, GL_QUERY_RESULT, &t);
    if (i == 0) first = t;
    else {
      line += std::string(" ") + p.marks[i].first + " " + std::to_string((t - prev) * 1e-6).substr(0, 6) + " ms;";
      p.last.emplace_back(p.marks[i].first, static_cast<double>(t - prev) * 1e-6);
    }
    prev = t;
    glDeleteQueries(1, &p.marks[i].second);
  }
  line += " total " + std::to_string((prev - first) * 1e-6).substr(0, 6) + " ms";
  if (p.on) std::fprintf(stderr, "%s\n", line.c_str());
  p.marks.clear();
}

bool software_renderer() {
  const std::string& r = get().renderer;
  return r.find("llvmpipe") != std::string::npos || r.find("softpipe") != std::string::npos || r.find("swrast") != std::string::npos;
}

}  // namespace sluice::gl_backend
