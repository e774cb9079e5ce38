// The gl device's plumbing: one headless EGL context per process, GL objects with owners, passes rendered
// into framebuffer objects, streams laid out row by row in 2D textures. Shared by the variants in src/gl.
#pragma once
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <string>
#include <utility>

#include "sluice/error.hpp"
#include "sluice/gl/backend.hpp"

namespace sluice::gl_backend {

// Streams live in textures `stream_width` texels wide, element i at (i % width, i / width), as in the
// papers. A power of two, so that every block of s <= 1024 elements lies in one row (Moreira Sec. 3.4).
inline constexpr int stream_width = 4096;

// The context, made current on the calling thread for the lifetime of the lock (one GL call at a time).
class session {
 public:
  explicit session(const char* fn);  // errc::no_device when no context can be made
  ~session();
  session(const session&) = delete;
  session& operator=(const session&) = delete;
  const char* fn() const { return fn_; }
  int max_texture_size() const;
  void check(const char* what) const;  // glGetError: out_of_memory or gl_error naming `what`

 private:
  std::unique_lock<std::mutex> lock_;
  const char* fn_;
};

// Owners of GL names.
class texture {
 public:
  texture() = default;
  texture(GLenum internal_format, int width, int height);
  ~texture();
  texture(texture&& o) noexcept { *this = std::move(o); }
  texture& operator=(texture&& o) noexcept {
    std::swap(id_, o.id_), std::swap(fbo_, o.fbo_), std::swap(w_, o.w_), std::swap(h_, o.h_), std::swap(fmt_, o.fmt_);
    return *this;
  }
  GLuint id() const { return id_; }
  int width() const { return w_; }
  int height() const { return h_; }
  GLenum format() const { return fmt_; }
  GLuint framebuffer();  // made on first use, the texture as colour attachment 0

 private:
  GLuint id_ = 0, fbo_ = 0;
  int w_ = 0, h_ = 0;
  GLenum fmt_ = 0;
};

class buffer {
 public:
  buffer() = default;
  explicit buffer(std::size_t bytes, GLenum usage = GL_DYNAMIC_COPY);
  ~buffer();
  buffer(buffer&& o) noexcept { std::swap(id_, o.id_); }
  buffer& operator=(buffer&& o) noexcept { std::swap(id_, o.id_); return *this; }
  GLuint id() const { return id_; }

 private:
  GLuint id_ = 0;
};

// A linked program; `name` appears in compile errors. Programs are cached by their sources.
GLuint program(const char* name, std::initializer_list<std::pair<GLenum, std::string>> stages,
               std::initializer_list<const char*> feedback_varyings = {});

// The GLSL every stream pass starts with: version, the stream's width and 2D <-> linear addressing.
std::string glsl_header(std::initializer_list<const char*> extensions = {});

// The vertex shader of every full-screen pass: one triangle that covers the viewport.
extern const char* const fullscreen_vs;

// Draw the first `rows` rows (of `width` texels, default all) of `target` with `prog`, one fragment per
// texel; the caller binds the inputs.
void draw_rows(GLuint prog, texture& target, int rows, int width = 0);

// Draw `count` points (no vertex data: the shaders use gl_VertexID) into all of `target`.
void draw_points(GLuint prog, texture& target, GLsizei count);
GLuint empty_vertex_array();  // a vertex array with no attributes
void bind_spare_framebuffer();  // a complete 1 x 1 framebuffer, for draws with the rasterizer off

// The texture formats that hold an element of 1, 4, 8 or 16 bytes as unsigned integers.
GLenum element_format(std::size_t bytes);
GLenum pixel_format(GLenum internal_format);  // GL_RED_INTEGER, ...
GLenum pixel_type(GLenum internal_format);    // GL_UNSIGNED_BYTE or GL_UNSIGNED_INT
std::size_t texel_bytes(GLenum internal_format);

inline int rows_for(std::uint64_t n, int width = stream_width) { return static_cast<int>((n + width - 1) / width); }

// Upload n elements into a stream texture (rows of its width), and read the first n back.
void upload(texture& t, const void* data, std::uint64_t n);
void download(texture& t, void* data, std::uint64_t n, int width = 0);  // rows of `width` texels (default: all)
std::uint32_t read_u32(texture& t, std::uint64_t index);  // one texel of an R32UI stream

// A stream texture of n elements in rows of stream_width (at least one texel), refusing what no texture can
// hold; `spare_columns` widens each row past the stream (line drawing ends its segments there).
texture stream_texture(const session& s, GLenum internal_format, std::uint64_t n, int spare_columns = 0);

// The flags stream (R8UI, 1 = keep), from the caller's bytes or from the threshold predicate in a fragment
// shader; texels past n are 0.
texture make_flags(const session& s, const selection& sel, texture* elements, std::uint64_t n);

// The GLSL type and predicate helpers for the elements (bits in a uvec4).
const char* scalar_define(scalar t);

// Hillis-Steele (Horn 2005; Roger Sec. IV) in fragment shaders on R32UI streams: `a` holds one value per
// element; after the passes the inclusive sums over segments of `segment` elements (0: the whole stream of
// n) are in the returned texture, which is `a` or `b`.
texture& hillis_steele(const session& s, texture& a, texture& b, std::uint64_t n, std::uint64_t segment);

// SLUICE_GL_PROFILE=1: GL_TIMESTAMP queries between the passes of a run; profile_report prints the time of
// each pass on stderr. Off, both cost one branch.
void profile_mark(const char* pass_done);
void profile_report(const char* variant, std::uint64_t n);

// The time of what runs between begin and end: the GL_TIME_ELAPSED query (the GPU's own clock, as Moreira
// Sec. 6 timed with GL_EXT_timer_query); on a software renderer the host's clock from glFinish to glFinish
// where that is longer (llvmpipe runs the vertex and geometry stages on the calling thread, outside its query).
bool software_renderer();
class timer {
 public:
  timer();
  ~timer();
  void begin();
  double end_ms();  // waits for the result

 private:
  GLuint q_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace sluice::gl_backend
