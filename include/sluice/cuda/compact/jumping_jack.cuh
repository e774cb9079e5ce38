// compact_unordered "jumping-jack" (Moreira, Reis, de Sousa 2009, "Jumping Jack", Sec. 4, Algorithm 2):
// non-monotonic compaction. In a block of s elements with v valid ones, pSum[i] counts the invalid elements
// in [0, i] and MAS[i] = s - pSum[i] (Eq. 1) is the max-allowable-size: the first index that surely lies
// past the compacted block. Each position i < v = MAS[s - 1] keeps its element when it is valid, else it
// jumps idx <- MAS[idx] until it lands on a valid one; every position finds a different valid element, and
// the total work is at most s - v jumps, although one position may take up to s - 1 (a single valid element
// in the middle of the block). The blocks are concatenated as in `roger` (block_compaction.cuh; Sec. 3.4).
// Order is not kept; not in place. Parameters: s (2..1024, power of two; default 256, Sec. 6 Fig. 11),
// scan=blelloch|hillis-steele (the MAS prefix sum). Moves: as `roger`.
#pragma once
#include <span>

#include "sluice/cuda/compact/block_compaction.cuh"

namespace sluice::cuda_backend::jumping_jack {

inline constexpr unsigned default_s = 256;  // the block size of the paper's Fig. 11

// Algorithm 2 for position i of a block of s elements, with MAS[i] = s - pSum[i] (Eq. 1) computed on the
// fly; v = MAS[s - 1] positions are filled. Returns s for positions i >= v.
struct max_allowable_size_jumps {
  __device__ static unsigned find(const unsigned* pSum, const unsigned char* valid, unsigned i, unsigned s) {
    if (i >= s - pSum[s - 1]) return s;
    unsigned idx = i;
    while (!valid[idx]) idx = s - pSum[idx];
    return idx;
  }
};

template <class T, class Sel>
void compact(std::span<const T> in, std::span<T> out, Sel sel, u64* count, cudaStream_t s, const char* fn, std::string_view spec) {
  block_compaction::run<max_allowable_size_jumps>(in, out, sel, count, block_compaction::policy::parse(spec, fn, default_s), s, fn);
}

}  // namespace sluice::cuda_backend::jumping_jack
