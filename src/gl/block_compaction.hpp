// The block-based compaction of Roger et al. 2007 (Sec. III) as Moreira et al. 2009 adopt it (Sec. 3.4,
// Fig. 8), on the gl device: the stream, in rows of a 2D texture, is split into blocks of s elements (s
// divides the row, so a block never wraps); a Hillis-Steele pass per power of two up to s counts the empty
// elements in each block (pSum, inclusive); an in-block pass (roger: Fig. 5's dichotomic search; jumping-
// jack: Algorithm 2's jumps) gathers every block's kept elements to its front; the blocks' empties are
// scanned into each block's displacement (Roger Fig. 6); and the blocks are concatenated by drawing one
// textured line segment per block, split in two where it wraps to the next row (Roger Fig. 7). The two
// variants draw their lines as their papers do: roger splits in a geometry shader, jumping-jack computes the
// endpoints in a fragment pass and draws them from a buffer (render to vertex array).
#pragma once
#include "gl/variants.hpp"

namespace sluice::gl_backend {

// The block size parameter "s" of both variants: a power of two in [2, 1024].
unsigned parse_block_size(std::string_view spec, const char* fn, unsigned def);

class block_compaction : public compaction {
 public:
  // in_block_fs: the in-block pass's fragment shader after glsl_header() and in_block_prelude (its inputs
  // u_psum, u_flags, u_elements, u_s, its output o_value, and `base`, the block's first index, to set).
  block_compaction(const session& s, const void* in, std::uint64_t n, std::size_t eb, const selection& sel, unsigned block,
                   const char* name, const char* in_block_fs);
  void run(const session& s) override;
  std::uint64_t count() override;
  void read(void* out, std::uint64_t k) override;

 protected:
  virtual void concatenate(const session& s) = 0;  // draws the blocks_ segments into out_
  const char* name_;
  std::uint64_t s_, blocks_n_;
  texture a_, b_, blocks_, before_a_, before_b_, out_;
  texture* psum_ = nullptr;    // inclusive empties within each block
  texture* before_ = nullptr;  // empties before each block
  GLuint in_block_ = 0, shift_ = 0;
};

// What every in-block pass declares: the block's pSum, flags and elements, its size, its output.
extern const char* const in_block_prelude;

// The fragment shader of both variants' line segments: the texel of the compacted blocks at the
// interpolated (u, v).
extern const char* const segment_fs;

// The GLSL that turns a block into its line segments' endpoints, in pixels of out_ (x, y) and of blocks_
// (u, v): segment(k) for k = 0, 1 (first part) and 2, 3 (wrapped part); kept == 0 or no wrap gives points
// off the viewport.
extern const char* const segment_glsl;

}  // namespace sluice::gl_backend
