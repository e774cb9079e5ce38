// The gl device's variants: each keeps its streams in textures, so that `sluice bench` can time the passes
// alone (construct = upload, run = the passes, then read back).
#pragma once
#include <memory>
#include <string_view>

#include "gl/gl.hpp"

namespace sluice::gl_backend {

class goddeke_multipass {
 public:
  goddeke_multipass(const session& s, scalar type, reduce_op op, const void* bits, std::uint64_t n);
  texture& run(const session& s);             // the passes; returns the 1 x 1 texture
  std::uint64_t result(texture& t) const;     // its texel's bits

 private:
  scalar type_;
  std::uint64_t n_, side_ = 1;
  texture level0_, ping_, pong_;
  GLuint prog_ = 0;
};

// A compaction whose input elements and flags are uploaded (or the flags computed) when it is made.
class compaction {
 public:
  compaction(const session& s, const void* in, std::uint64_t n, std::size_t elem_bytes, const selection& sel);
  virtual ~compaction() = default;
  virtual void run(const session& s) = 0;  // the passes, on the GPU only
  virtual std::uint64_t count() = 0;       // reads the count back
  virtual void read(void* out, std::uint64_t k) = 0;  // reads the first k kept elements back

 protected:
  std::uint64_t n_;
  std::size_t elem_bytes_;
  texture elements_, flags_;
};

// Stream-reduction passes shared by the variants (empties = 1 where an element is dropped or past n).
void empties_pass(texture& flags, texture& target, std::uint64_t n);

std::unique_ptr<compaction> make_horn(const session& s, const void* in, std::uint64_t n, std::size_t eb, const selection& sel);
std::unique_ptr<compaction> make_roger(const session& s, std::string_view spec, const void* in, std::uint64_t n, std::size_t eb, const selection& sel);
std::unique_ptr<compaction> make_jumping_jack(const session& s, std::string_view spec, const void* in, std::uint64_t n, std::size_t eb, const selection& sel);
std::unique_ptr<compaction> make_geometry_shader(const session& s, const void* in, std::uint64_t n, std::size_t eb, const selection& sel);

}  // namespace sluice::gl_backend
