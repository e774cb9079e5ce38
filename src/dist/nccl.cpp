// The NCCL transport of sluice::dist: cuda ranks, one GPU each, every operation ordered on the communicator's
// stream. Gathers of host values pass through a small device buffer (ncclAllGather); the all-to-all of
// elements is one group of ncclSend/ncclRecv (a rank's own part is a device copy). NCCL's library is loaded
// at run time (the caller's program has it: it made the communicator), so that the library and its package
// need NCCL's header only, not its library, to build.
#include <cstring>
#include <memory>
#include <string>

#include "sluice/config.hpp"
#include "sluice/dist/transport.hpp"
#include "sluice/error.hpp"

#if SLUICE_HAS_CUDA && SLUICE_HAS_NCCL_HEADER
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <nccl.h>

#include <mutex>
#include <vector>

namespace sluice::dist::detail {
namespace {

// The NCCL functions sluice calls, found in the program (NCCL linked in) or in libnccl.so.2.
struct nccl_api {
  decltype(&ncclGetErrorString) error_string = nullptr;
  decltype(&ncclCommCount) count = nullptr;
  decltype(&ncclCommUserRank) user_rank = nullptr;
  decltype(&ncclCommCuDevice) cu_device = nullptr;
  decltype(&ncclAllGather) all_gather = nullptr;
  decltype(&ncclSend) send = nullptr;
  decltype(&ncclRecv) recv = nullptr;
  decltype(&ncclGroupStart) group_start = nullptr;
  decltype(&ncclGroupEnd) group_end = nullptr;
  std::string missing;  // why it could not be loaded; empty when loaded
};

template <class F>
bool find(void* lib, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  return f != nullptr;
}

const nccl_api& api() {
  static const nccl_api loaded = [] {
    nccl_api a;
    const auto all = [&a](void* lib) {
      return find(lib, "ncclGetErrorString", a.error_string) && find(lib, "ncclCommCount", a.count) &&
             find(lib, "ncclCommUserRank", a.user_rank) && find(lib, "ncclCommCuDevice", a.cu_device) &&
             find(lib, "ncclAllGather", a.all_gather) && find(lib, "ncclSend", a.send) && find(lib, "ncclRecv", a.recv) &&
             find(lib, "ncclGroupStart", a.group_start) && find(lib, "ncclGroupEnd", a.group_end);
    };
    if (all(RTLD_DEFAULT)) return a;
    for (const char* name : {"libnccl.so.2", "libnccl.so"}) {
      void* lib = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
      if (lib && all(lib)) return a;
    }
    const char* why = dlerror();
    a.missing = std::string("NCCL's library (libnccl.so.2) could not be loaded") + (why ? std::string(": ") + why : std::string());
    return a;
  }();
  return loaded;
}

void cuda_check(cudaError_t rc, const char* what) {
  if (rc != cudaSuccess) throw error(errc::comm_error, std::string("sluice::dist: ") + what + " failed: " + cudaGetErrorString(rc));
}

class nccl_transport_impl final : public transport {
 public:
  nccl_transport_impl(ncclComm_t comm, cudaStream_t stream) : comm_(comm), stream_(stream) {
    if (!comm) throw error(errc::invalid_argument, "sluice::dist::communicator: the NCCL communicator is null");
    const auto& a = api();
    if (!a.missing.empty()) throw error(errc::unsupported, "sluice::dist::communicator: " + a.missing);
    check(a.count(comm, &size_), "ncclCommCount");
    check(a.user_rank(comm, &rank_), "ncclCommUserRank");
    int gpu = -1, current = -1;
    check(a.cu_device(comm, &gpu), "ncclCommCuDevice");
    cuda_check(cudaGetDevice(&current), "cudaGetDevice");
    if (gpu != current)
      throw error(errc::invalid_argument, "sluice::dist::communicator: the NCCL communicator's GPU is device " + std::to_string(gpu) +
                                              " but the current CUDA device is " + std::to_string(current) + " (cudaSetDevice first)");
  }
  ~nccl_transport_impl() override {
    if (stage_) cudaFree(stage_);
  }
  int rank() const noexcept override { return rank_; }
  int size() const noexcept override { return size_; }
  device where() const noexcept override { return device::cuda; }
  CUstream_st* stream() const noexcept override { return stream_; }

  void all_gather(const void* mine, void* all, std::size_t bytes) const override {
    if (!bytes) return;
    std::lock_guard<std::mutex> hold(m_);
    const std::size_t total = bytes * static_cast<std::size_t>(size_);
    if (total > staged_) {  // the staging buffer only grows
      if (stage_) cuda_check(cudaFree(stage_), "cudaFree");
      stage_ = nullptr;
      staged_ = 0;
      cuda_check(cudaMalloc(&stage_, total), "cudaMalloc");
      staged_ = total;
    }
    char* at = static_cast<char*>(stage_);
    cuda_check(cudaMemcpyAsync(at + bytes * static_cast<std::size_t>(rank_), mine, bytes, cudaMemcpyHostToDevice, stream_), "cudaMemcpyAsync");
    check(api().all_gather(at + bytes * static_cast<std::size_t>(rank_), at, bytes, ncclInt8, comm_, stream_), "ncclAllGather");
    cuda_check(cudaMemcpyAsync(all, at, total, cudaMemcpyDeviceToHost, stream_), "cudaMemcpyAsync");
    cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
  }

  // Every rank's whole row gathered, then this rank's column kept: P * P blocks, small for the counts it moves.
  void all_to_all(const void* send, void* recv, std::size_t bytes) const override {
    const auto P = static_cast<std::size_t>(size_);
    std::vector<char> rows(P * P * bytes);
    all_gather(send, rows.data(), P * bytes);
    for (std::size_t j = 0; j < P; ++j)
      std::memcpy(static_cast<char*>(recv) + j * bytes, rows.data() + (j * P + static_cast<std::size_t>(rank_)) * bytes, bytes);
  }

  void exchange(const char*, const void* from, const std::uint64_t* send, void* to, const std::uint64_t* recv, std::size_t item) const override {
    const auto& a = api();
    std::size_t so = 0, ro = 0;
    check(a.group_start(), "ncclGroupStart");
    ncclResult_t rc = ncclSuccess;
    cudaError_t copied = cudaSuccess;
    for (int r = 0; r < size_; ++r) {
      const std::size_t s = static_cast<std::size_t>(send[r]) * item, g = static_cast<std::size_t>(recv[r]) * item;
      if (r == rank_) {
        if (s && copied == cudaSuccess)
          copied = cudaMemcpyAsync(static_cast<char*>(to) + ro, static_cast<const char*>(from) + so, s, cudaMemcpyDeviceToDevice, stream_);
      } else {
        if (s && rc == ncclSuccess) rc = a.send(static_cast<const char*>(from) + so, s, ncclInt8, r, comm_, stream_);
        if (g && rc == ncclSuccess) rc = a.recv(static_cast<char*>(to) + ro, g, ncclInt8, r, comm_, stream_);
      }
      so += s;
      ro += g;
    }
    const ncclResult_t ended = a.group_end();
    check(rc, "ncclSend/ncclRecv");
    check(ended, "ncclGroupEnd");
    cuda_check(copied, "cudaMemcpyAsync");
  }

  void* allocate(std::size_t bytes) const override {
    void* p = nullptr;
    cuda_check(cudaMallocAsync(&p, bytes, stream_), "cudaMallocAsync");
    return p;
  }
  void release(void* p) const noexcept override { cudaFreeAsync(p, stream_); }
  void copy(void* to, const void* from, std::size_t bytes) const override {
    if (!bytes) return;
    cuda_check(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDefault, stream_), "cudaMemcpyAsync");
    cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
  }
  void gather_to_host(void* host, const void* base, std::size_t item, const std::uint64_t* at, std::size_t count) const override {
    for (std::size_t i = 0; i < count; ++i)
      cuda_check(cudaMemcpyAsync(static_cast<char*>(host) + i * item, static_cast<const char*>(base) + at[i] * item, item, cudaMemcpyDeviceToHost, stream_),
                 "cudaMemcpyAsync");
    cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
  }

 private:
  static void check(ncclResult_t rc, const char* what) {
    if (rc != ncclSuccess) throw error(errc::comm_error, std::string("sluice::dist: ") + what + " failed: " + api().error_string(rc));
  }

  ncclComm_t comm_;
  cudaStream_t stream_;
  int rank_ = 0, size_ = 1;
  mutable std::mutex m_;
  mutable void* stage_ = nullptr;
  mutable std::size_t staged_ = 0;
};

}  // namespace

std::shared_ptr<const transport> nccl_transport(ncclComm* comm, CUstream_st* stream) {
  return std::make_shared<nccl_transport_impl>(comm, stream);
}

}  // namespace sluice::dist::detail

#else

namespace sluice::dist::detail {
std::shared_ptr<const transport> nccl_transport(ncclComm*, CUstream_st*) {
  throw error(errc::unsupported, SLUICE_HAS_CUDA ? "sluice::dist::communicator: this build of sluice found no NCCL header (nccl.h): NCCL ranks are not built"
                                                 : "sluice::dist::communicator: NCCL ranks need sluice's CUDA build");
}
}  // namespace sluice::dist::detail

#endif
