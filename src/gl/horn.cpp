// compact "horn" on the gl device (Horn 2005, "Stream reduction operations for GPGPU applications", as
// Roger Sec. II and Moreira Sec. 3 recount it): a Hillis-Steele prefix sum of the discards over the whole
// stream in log2(n) fragment passes (ping-pong), then, for every output position j, a binary search in a
// fragment shader for the input element that lands there (gathering, since fragments cannot scatter):
// the first i whose count of kept elements in [0, i], i + 1 - D[i], reaches j + 1. Stable.
#include "gl/variants.hpp"

namespace sluice::gl_backend {
namespace {

const char* const gather_fs = R"(
layout(binding = 0) uniform usampler2D u_discards;  // D[i]: dropped elements in [0, i]
layout(binding = 1) uniform usampler2D u_elements;
uniform uint u_n;
layout(location = 0) out uvec4 o_value;
uint kept_through(uint i) { return i + 1u - texelFetch(u_discards, at(i), 0).x; }
void main() {
  uint j = here();
  if (j >= kept_through(u_n - 1u)) { o_value = uvec4(0u); return; }
  uint lo = j, hi = u_n - 1u;  // the element for output j lies at j or later
  while (lo < hi) {
    uint mid = (lo + hi) / 2u;
    if (kept_through(mid) >= j + 1u) hi = mid; else lo = mid + 1u;
  }
  o_value = texelFetch(u_elements, at(lo), 0);
}
)";

class horn final : public compaction {
 public:
  horn(const session& s, const void* in, std::uint64_t n, std::size_t eb, const selection& sel)
      : compaction(s, in, n, eb, sel), a_(stream_texture(s, GL_R32UI, n)), b_(stream_texture(s, GL_R32UI, n)),
        out_(stream_texture(s, element_format(eb), n)) {
    gather_ = program("horn gather", {{GL_VERTEX_SHADER, fullscreen_vs}, {GL_FRAGMENT_SHADER, glsl_header() + gather_fs}});
  }
  void run(const session& s) override {
    if (n_ == 0) return;
    profile_mark("start");
    empties_pass(flags_, a_, n_);
    profile_mark("discards");
    discards_ = &hillis_steele(s, a_, b_, n_, 0);
    profile_mark("prefix-sum");
    glProgramUniform1ui(gather_, glGetUniformLocation(gather_, "u_n"), static_cast<GLuint>(n_));
    glBindTextureUnit(0, discards_->id());
    glBindTextureUnit(1, elements_.id());
    draw_rows(gather_, out_, rows_for(n_));
    profile_mark("gather");
    profile_report("horn", n_);
    s.check("horn's gather");
  }
  std::uint64_t count() override { return n_ ? n_ - read_u32(*discards_, n_ - 1) : 0; }
  void read(void* out, std::uint64_t k) override { download(out_, out, k); }

 private:
  texture a_, b_, out_;
  texture* discards_ = nullptr;
  GLuint gather_ = 0;
};

}  // namespace

std::unique_ptr<compaction> make_horn(const session& s, const void* in, std::uint64_t n, std::size_t eb, const selection& sel) {
  return std::make_unique<horn>(s, in, n, eb, sel);
}

}  // namespace sluice::gl_backend
