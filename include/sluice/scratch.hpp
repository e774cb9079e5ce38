// The caller's CUDA scratch: an allocator (an RMM-style pool, a framework's caching allocator) that serves a
// thread's sluice calls on the cuda device for the life of a scope.
#pragma once
#include <cstddef>

struct CUstream_st;  // cudaStream_t without the CUDA headers

namespace sluice {

// Where a thread's CUDA scratch comes from while a scoped_scratch_allocator lives: the caller's allocator, in
// place of sluice's stream-ordered pool and each stream's kept scratch buffer. It does its own caching: sluice
// asks it at every call that needs scratch and gives the memory back before the call returns. The look-back
// tile states each stream keeps (up to 1 MiB, zeroed once) stay sluice's. sluice calls both functions on the
// calling thread, with the call's stream; during a stream capture they must be capturable (cudaMallocAsync and
// cudaFreeAsync are). Without CUDA the setting has nothing to serve.
struct scratch_allocator {
  // Memory of at least `bytes` bytes usable by work on `stream` from now on (stream ordered), or nullptr where
  // none can be had (the call then throws errc::out_of_memory). May throw: the exception reaches the caller.
  void* (*allocate)(void* context, std::size_t bytes, CUstream_st* stream) = nullptr;
  // Hands p (from allocate, with the same bytes and stream) back once the call has launched its last kernel
  // that uses it: work ordered after it on stream may reuse it.
  void (*deallocate)(void* context, void* p, std::size_t bytes, CUstream_st* stream) noexcept = nullptr;
  void* context = nullptr;  // passed to both, as it is
};

// Makes `a` this thread's scratch allocator until the scope ends; scopes nest, and each restores the one before
// (sluice's own pool after the outermost). Memory is always given back to the allocator it came from, even
// where the scope has ended since. Create and destroy it on the same thread.
class scoped_scratch_allocator {
 public:
  explicit scoped_scratch_allocator(const scratch_allocator& a);  // invalid_argument when allocate or deallocate is null
  ~scoped_scratch_allocator();                                    // restores the one before
  scoped_scratch_allocator(const scoped_scratch_allocator&) = delete;
  scoped_scratch_allocator& operator=(const scoped_scratch_allocator&) = delete;

 private:
  scratch_allocator mine_;
  const scratch_allocator* previous_;
};

}  // namespace sluice
