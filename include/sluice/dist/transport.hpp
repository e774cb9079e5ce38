// What sluice::dist's primitives need of a transport (MPI in sluice/dist/communicator.hpp, NCCL in
// src/dist/nccl.cpp), without either library's header.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "sluice/options.hpp"

struct ncclComm;  // ncclComm_t without NCCL's header

namespace sluice::dist {

namespace detail {

// What the primitives need of a transport. "Rank memory" is where the ranks' spans live: host memory for MPI,
// the communicator's GPU for NCCL.
class transport {
 public:
  virtual ~transport() = default;
  virtual int rank() const noexcept = 0;
  virtual int size() const noexcept = 0;
  virtual device where() const noexcept = 0;
  virtual CUstream_st* stream() const noexcept { return nullptr; }
  // Every rank's `bytes` bytes at `mine` (host memory) into `all` (host memory, size() * bytes), in rank order.
  virtual void all_gather(const void* mine, void* all, std::size_t bytes) const = 0;
  // Block j of `send` (host memory, size() blocks of `bytes`) goes to rank j, which finds it at block rank()
  // of its `recv`.
  virtual void all_to_all(const void* send, void* recv, std::size_t bytes) const = 0;
  // send[r] items of `item` bytes from `from` (rank memory, in rank order) to rank r; recv[r] items from rank r
  // into `to` (rank memory, in rank order).
  virtual void exchange(const char* fn, const void* from, const std::uint64_t* send, void* to, const std::uint64_t* recv,
                        std::size_t item) const = 0;
  // Rank memory, and copies between it and the host, finished on return.
  virtual void* allocate(std::size_t bytes) const = 0;
  virtual void release(void* p) const noexcept = 0;
  virtual void copy(void* to, const void* from, std::size_t bytes) const = 0;
  // The items of `item` bytes at base[at[i]] (rank memory) into host memory, in order.
  virtual void gather_to_host(void* host, const void* base, std::size_t item, const std::uint64_t* at, std::size_t count) const = 0;
};

// The NCCL transport (src/dist/nccl.cpp): throws errc::unsupported in a build without CUDA or without NCCL's
// header, or where NCCL's library cannot be loaded.
std::shared_ptr<const transport> nccl_transport(ncclComm* comm, CUstream_st* stream);

}  // namespace detail

}  // namespace sluice::dist
