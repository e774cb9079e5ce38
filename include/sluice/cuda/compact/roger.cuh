// compact "roger" (Roger, Assarsson, Holzschuch 2007, "Efficient stream reduction on the GPU", Sec. III):
// hierarchical stream reduction. The stream is split into blocks of s elements (default 64, Sec. V-A);
// in each block a prefix sum counts the empty elements before each element (Sec. III-B1, Hillis-Steele or
// Blelloch), and every output position i finds its input element by the improved dichotomic search of
// Fig. 5 (conditional loop, bounds tightened by the contraction |j - j_i| >= |j - pSum[j] - i|). The
// compacted blocks are then concatenated (block_compaction.cuh): a prefix sum over the blocks' counts and a
// block-wise move in place of the paper's line drawing (Sec. III-C).
// Stable; not in place. Parameters: s (2..1024, power of two), scan=blelloch|hillis-steele.
// Moves: reads the input once (+ flags), writes n staged elements, reads and writes the kept ones again.
#pragma once
#include <span>

#include "sluice/cuda/compact/block_compaction.cuh"

namespace sluice::cuda_backend::roger {

inline constexpr unsigned default_s = 64;  // Sec. V-A: "the best block size was 64 in all our experiments"

// Sec. III-B2, Fig. 5: the input index j_i of output position i in a block of s elements; pSum[j] counts
// the empty elements in [0, j]. Returns s when the block has no element for position i.
struct dichotomic_search {
  __device__ static unsigned find(const unsigned* pSum, const unsigned char* wanted, unsigned i, unsigned s) {
    int lower = static_cast<int>(i + pSum[i]);
    int upper = static_cast<int>(i + pSum[s - 1]);
    if (upper > static_cast<int>(s) - 1) return s;  // no element at position i
    int j = (lower + upper) / 2;
    int found = j - static_cast<int>(pSum[j]) - static_cast<int>(i);
    while (found != 0 || !wanted[j]) {
      if (found < 0) lower = j - found;
      else upper = j - (found > 1 ? found : 1);
      j = (lower + upper) / 2;
      found = j - static_cast<int>(pSum[j]) - static_cast<int>(i);
    }
    return static_cast<unsigned>(j);
  }
};

template <class T, class Sel>
void compact(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn, std::string_view spec) {
  block_compaction::run<dichotomic_search>(in, out, sel, count, block_compaction::policy::parse(spec, fn, default_s), s, fn);
}

}  // namespace sluice::cuda_backend::roger
