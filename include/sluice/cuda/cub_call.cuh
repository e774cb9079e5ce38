// Calling a CUB device-wide algorithm: ask its scratch size, take it from sluice's pool, run it.
#pragma once
#include <cuda/std/functional>

#include <climits>
#include <cstdint>
#include <type_traits>

#include "sluice/cuda/common.cuh"
#include "sluice/detail/storage.hpp"

namespace sluice::cuda_backend {

template <class F>  // F(void* temp, size_t& bytes) -> cudaError_t
void cub_call(F&& f, cudaStream_t s, const char* fn, const char* what) {
  std::size_t bytes = 0;
  check_cuda(f(nullptr, bytes), fn, what);
  scratch temp(bytes ? bytes : 1, s, fn);
  check_cuda(f(temp.as<void>(), bytes), fn, what);
}

// Calls f with the element count as CUB's callers usually pass it: an int where n fits, else std::int64_t.
// CUB picks its offset type from the count's type, and its kernels with 64-bit offsets are slower (u32
// inclusive scan at 2^28 on the H100: 0.69 of the copy against 0.81 with int, docs/design/measurement.md), so the
// peer to beat gets the faster form wherever it can run.
template <class F>
void with_cub_count(u64 n, F&& f) {
  if (n <= static_cast<u64>(INT_MAX))
    f(static_cast<int>(n));
  else
    f(static_cast<std::int64_t>(n));
}

// CUB tunes its kernels for primitive element types and for its own operators (a user-defined functor or
// struct gets the generic policies: u32 inclusive scan at 2^28 on the H100, 0.69 of the copy with
// sluice::sum against 0.81 with cuda::std::plus; flagged select of 4-byte storage words 0.49-0.60 against
// 0.67-0.75 as u32). So the peer to beat gets the same bits in its best form: the storage word of an element
// of 1, 2, 4 or 8 bytes (size = alignment) as the unsigned integer of that size, sluice::sum and
// sluice::product as cuda::std::plus and multiplies.
template <class T>
struct cub_word {
  using type = T;
};
template <std::size_t S>
  requires(S == 1 || S == 2 || S == 4 || S == 8)
struct cub_word<sluice::detail::storage<S, S>> {
  using type = std::conditional_t<S == 1, std::uint8_t, std::conditional_t<S == 2, std::uint16_t, std::conditional_t<S == 4, std::uint32_t, std::uint64_t>>>;
};
template <class T>
auto* cub_ptr(T* p) {
  using W = typename cub_word<std::remove_const_t<T>>::type;
  if constexpr (std::is_const_v<T>)
    return reinterpret_cast<const W*>(p);
  else
    return reinterpret_cast<W*>(p);
}
// (Signed integers keep sluice's operators, whose overflow wraps by definition.)
template <class T, class Op>
auto cub_op(Op op) {
  constexpr bool wraps = std::is_unsigned_v<T> || std::is_floating_point_v<T>;
  if constexpr (wraps && std::is_same_v<Op, sluice::sum>)
    return cuda::std::plus<>{};
  else if constexpr (wraps && std::is_same_v<Op, sluice::product>)
    return cuda::std::multiplies<>{};
  else
    return op;
}

}  // namespace sluice::cuda_backend
