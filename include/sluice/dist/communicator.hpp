// sluice::dist's communicator and the exchanges every distributed primitive shares: the gather of one value
// per rank, the agreement on a refusal before any exchange (so that no rank is left in a collective), and one
// all-to-all of elements. Two transports, behind one interface:
//   MPI   cpu ranks: the ranks' spans are host memory; MPI_Allgather, MPI_Alltoall(v). Built where <mpi.h> is
//         on the include path (the CMake target sluice::dist).
//   NCCL  cuda ranks, one GPU per rank: the spans are device memory on the communicator's GPU, and every
//         operation is ordered on the communicator's CUDA stream; ncclAllGather and grouped ncclSend/ncclRecv.
//         Built into the library with CUDA (src/dist/nccl.cpp); NCCL's library is loaded at run time.
// Included by sluice/dist.hpp.
#pragma once
#if __has_include(<mpi.h>)
#include <mpi.h>
#define SLUICE_DIST_HAS_MPI 1
#endif

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "sluice/dist/transport.hpp"
#include "sluice/error.hpp"
#include "sluice/options.hpp"

namespace sluice::dist {

// How compact_if leaves the kept elements: where each rank kept them, or spread evenly over the ranks.
enum class balance { none, even };

// This rank's share of a compaction: its count, the position of its first element in the concatenated result,
// and the result's total over every rank.
struct placement {
  std::uint64_t count = 0, offset = 0, total = 0;
};

// The caller's communicator, borrowed (never freed or finalised by sluice): an MPI communicator (cpu ranks) or
// an NCCL communicator with the CUDA stream its work is ordered on (cuda ranks). Copies share the same
// communicator; like MPI and NCCL communicators, one is used by one thread at a time.
class communicator {
 public:
#ifdef SLUICE_DIST_HAS_MPI
  explicit communicator(MPI_Comm comm);
  // The MPI communicator; MPI_COMM_NULL for NCCL ranks.
  MPI_Comm mpi() const noexcept;
#endif
  // NCCL: `comm` an initialised ncclComm_t whose GPU is the current CUDA device; `stream` the cudaStream_t the
  // calls enqueue on (nullptr: the legacy default stream).
  communicator(ncclComm* comm, CUstream_st* stream) : t_(detail::nccl_transport(comm, stream)) {}
  explicit communicator(std::shared_ptr<const detail::transport> t) : t_(std::move(t)) {}

  int rank() const noexcept { return t_->rank(); }
  int size() const noexcept { return t_->size(); }
  // Where the ranks' spans live: device::cpu (MPI) or device::cuda (NCCL).
  device where() const noexcept { return t_->where(); }
  CUstream_st* stream() const noexcept { return t_->stream(); }
  const detail::transport& transport() const noexcept { return *t_; }

 private:
  std::shared_ptr<const detail::transport> t_;
};

namespace detail {

// Every rank's value of a trivially copyable T, in rank order.
template <class T>
std::vector<T> all_gather(const communicator& c, const T& mine) {
  static_assert(std::is_trivially_copyable_v<T>, "sluice::dist: values exchanged between ranks must be trivially copyable");
  std::vector<T> all(static_cast<std::size_t>(c.size()));
  c.transport().all_gather(&mine, all.data(), sizeof(T));
  return all;
}

// Run `local` (the checks and the rank's own work before any exchange) and agree: if any rank threw a
// sluice::error, every rank throws one, naming the first such rank and its message.
template <class F>
void agreed(const communicator& c, const char* fn, F&& local) {
  struct status {
    int code;  // -1: fine; else the errc
    char what[240];
  } mine{-1, {}};
  try {
    local();
  } catch (const error& e) {
    mine.code = static_cast<int>(e.code());
    std::strncpy(mine.what, e.what(), sizeof mine.what - 1);
  }
  const auto all = all_gather(c, mine);
  for (int r = 0; r < c.size(); ++r)
    if (all[static_cast<std::size_t>(r)].code != -1)
      throw error(static_cast<errc>(all[static_cast<std::size_t>(r)].code),
                  std::string("sluice::dist::") + fn + ": rank " + std::to_string(r) + " refused: " + all[static_cast<std::size_t>(r)].what);
}

// One all-to-all of elements of T: send[r] elements of `from` (in rank order) to rank r, recv[r] elements into
// `to` (in rank order) from rank r; both in rank memory.
template <class T>
void exchange(const communicator& c, const char* fn, const T* from, const std::vector<std::uint64_t>& send, T* to,
              const std::vector<std::uint64_t>& recv) {
  static_assert(std::is_trivially_copyable_v<T>, "sluice::dist: elements exchanged between ranks must be trivially copyable");
  c.transport().exchange(fn, from, send.data(), to, recv.data(), sizeof(T));
}

// How many elements each rank sends each rank: the receive counts.
inline std::vector<std::uint64_t> all_to_all_counts(const communicator& c, const std::vector<std::uint64_t>& send) {
  std::vector<std::uint64_t> recv(send.size());
  c.transport().all_to_all(send.data(), recv.data(), sizeof(std::uint64_t));
  return recv;
}

// n elements of T in rank memory, released on destruction.
template <class T>
class buffer {
 public:
  buffer(const communicator& c, std::uint64_t n) : t_(&c.transport()), n_(n) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (n) p_ = static_cast<T*>(t_->allocate(n * sizeof(T)));
  }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  ~buffer() {
    if (p_) t_->release(p_);
  }
  T* data() const noexcept { return p_; }
  std::uint64_t size() const noexcept { return n_; }
  std::span<T> span() const noexcept { return {p_, n_}; }

 private:
  const transport* t_;
  T* p_ = nullptr;
  std::uint64_t n_;
};

// One element of rank memory, read on the host.
template <class T>
T read(const communicator& c, const T* at) {
  T v;
  c.transport().copy(&v, at, sizeof(T));
  return v;
}

// The length of [a0, a1) and [b0, b1) in common.
inline std::uint64_t overlap(std::uint64_t a0, std::uint64_t a1, std::uint64_t b0, std::uint64_t b1) {
  const std::uint64_t x = std::max(a0, b0), y = std::min(a1, b1);
  return y > x ? y - x : 0;
}

// Where rank r's share starts when n elements are spread evenly over P ranks: rank r holds positions
// [even_start(n, r, P), even_start(n, r + 1, P)), every rank within one element of the others.
inline std::uint64_t even_start(std::uint64_t n, int r, int P) {
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(n) * static_cast<unsigned>(r)) / static_cast<unsigned>(P));
}

// The all-to-all that spreads elements evenly: rank r holds held[r] consecutive elements of a sequence laid
// out in rank order; this rank (me) sends send[r] of its own to rank r and receives recv[r] from rank r so that
// every rank ends with its even share of the total.
struct even_moves {
  std::vector<std::uint64_t> send, recv;
  std::uint64_t total = 0;
  even_moves(const std::vector<std::uint64_t>& held, int me) : send(held.size()), recv(held.size()) {
    const int P = static_cast<int>(held.size());
    std::vector<std::uint64_t> at(held.size() + 1, 0);
    for (std::size_t r = 0; r < held.size(); ++r) at[r + 1] = at[r] + held[r];
    total = at.back();
    const auto m = static_cast<std::size_t>(me);
    for (int r = 0; r < P; ++r) {
      const auto i = static_cast<std::size_t>(r);
      send[i] = overlap(at[m], at[m + 1], even_start(total, r, P), even_start(total, r + 1, P));
      recv[i] = overlap(at[i], at[i + 1], even_start(total, me, P), even_start(total, me + 1, P));
    }
  }
};

// The options of the ranks' local primitives: on the communicator's device and stream. opt.device must name
// where the ranks' spans live.
inline options local_options(const communicator& c, const char* fn, const options& opt) {
  if (opt.device != c.where())
    throw error(errc::unsupported, std::string("sluice::dist::") + fn + ": the communicator's ranks hold " + std::string(to_string(c.where())) +
                                       " memory (" + (c.where() == device::cpu ? "MPI" : "NCCL") + ") but opt.device is " +
                                       std::string(to_string(opt.device)));
  return options{c.where(), opt.algorithm, c.stream()};
}

#ifdef SLUICE_DIST_HAS_MPI
// The MPI transport: host memory.
class mpi_transport final : public transport {
 public:
  explicit mpi_transport(MPI_Comm comm) : comm_(comm) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) throw error(errc::invalid_argument, "sluice::dist::communicator: MPI is not initialised (call MPI_Init first)");
    if (comm == MPI_COMM_NULL) throw error(errc::invalid_argument, "sluice::dist::communicator: the communicator is MPI_COMM_NULL");
    check(MPI_Comm_rank(comm, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(comm, &size_), "MPI_Comm_size");
  }
  int rank() const noexcept override { return rank_; }
  int size() const noexcept override { return size_; }
  device where() const noexcept override { return device::cpu; }
  MPI_Comm comm() const noexcept { return comm_; }
  void all_gather(const void* mine, void* all, std::size_t bytes) const override {
    check(MPI_Allgather(mine, static_cast<int>(bytes), MPI_BYTE, all, static_cast<int>(bytes), MPI_BYTE, comm_), "MPI_Allgather");
  }
  void all_to_all(const void* send, void* recv, std::size_t bytes) const override {
    check(MPI_Alltoall(send, static_cast<int>(bytes), MPI_BYTE, recv, static_cast<int>(bytes), MPI_BYTE, comm_), "MPI_Alltoall");
  }
  // A rank's own part is a memcpy; the rest one MPI_Alltoallv, in bytes where every count and offset fits an
  // int, else in items (a contiguous type). MPI counts are int: more than 2^31 - 1 items to or from one rank,
  // or in all, is refused on every rank alike (MPI 4's large-count calls are not assumed).
  void exchange(const char* fn, const void* from, const std::uint64_t* send, void* to, const std::uint64_t* recv, std::size_t item) const override {
    const auto P = static_cast<std::size_t>(size_), me = static_cast<std::size_t>(rank_);
    std::uint64_t so = 0, ro = 0, own_from = 0, own_to = 0;
    int too_large = 0;
    for (std::size_t i = 0; i < P; ++i) {
      if (i == me) own_from = so, own_to = ro;
      so += send[i];
      ro += recv[i];
      too_large |= send[i] > 0x7fffffffu || recv[i] > 0x7fffffffu || so > 0x7fffffffu || ro > 0x7fffffffu;
    }
    const int in_bytes = so * item <= 0x7fffffffu && ro * item <= 0x7fffffffu;
    const int mine[2] = {too_large, in_bytes};
    std::vector<int> all(2 * P);
    all_gather(mine, all.data(), sizeof mine);
    bool bytes = true;
    for (std::size_t i = 0; i < P; ++i) {
      if (all[2 * i]) throw error(errc::unsupported, std::string("sluice::dist::") + fn + ": moves more than 2^31 - 1 elements between two ranks or from one rank");
      bytes = bytes && all[2 * i + 1];
    }
    copy(static_cast<char*>(to) + own_to * item, static_cast<const char*>(from) + own_from * item, send[me] * item);
    const std::size_t unit = bytes ? item : 1;  // counts in bytes (MPI_BYTE) or in items
    std::vector<int> sc(P), sd(P), rc(P), rd(P);
    so = ro = 0;
    for (std::size_t i = 0; i < P; ++i) {
      sc[i] = i == me ? 0 : static_cast<int>(send[i] * unit);
      sd[i] = static_cast<int>(so * unit);
      rc[i] = i == me ? 0 : static_cast<int>(recv[i] * unit);
      rd[i] = static_cast<int>(ro * unit);
      so += send[i];
      ro += recv[i];
    }
    if (P == 1) return;
    MPI_Datatype type = MPI_BYTE;
    if (!bytes) {
      check(MPI_Type_contiguous(static_cast<int>(item), MPI_BYTE, &type), "MPI_Type_contiguous");
      check(MPI_Type_commit(&type), "MPI_Type_commit");
    }
    const int rc_all = MPI_Alltoallv(from, sc.data(), sd.data(), type, to, rc.data(), rd.data(), type, comm_);
    if (!bytes) MPI_Type_free(&type);
    check(rc_all, "MPI_Alltoallv");
  }
  // Temporaries: the blocks a call frees are kept (up to `kept_blocks`, freed with the communicator) and reused
  // by the next calls, so that a call does not fault in fresh pages for every temporary (on a 2-core VM a
  // partition of 2^24 u32 on one rank spent more time faulting than partitioning).
  static constexpr std::size_t kept_blocks = 4;
  void* allocate(std::size_t bytes) const override {
    for (auto it = kept_.begin(); it != kept_.end(); ++it)
      if (it->bytes >= bytes) {
        void* p = it->p;
        sizes_.push_back(*it);
        kept_.erase(it);
        return p;
      }
    void* p = ::operator new(bytes, std::align_val_t{64});
    sizes_.push_back(block{p, bytes});
    return p;
  }
  void release(void* p) const noexcept override {
    const auto it = std::find_if(sizes_.begin(), sizes_.end(), [p](const block& b) { return b.p == p; });
    if (it == sizes_.end()) return;
    const block b = *it;
    sizes_.erase(it);
    if (kept_.size() == kept_blocks) {  // the smallest kept block goes
      const auto least = std::min_element(kept_.begin(), kept_.end(), [](const block& x, const block& y) { return x.bytes < y.bytes; });
      if (least->bytes >= b.bytes) return ::operator delete(b.p, std::align_val_t{64});
      ::operator delete(least->p, std::align_val_t{64});
      kept_.erase(least);
    }
    kept_.push_back(b);
  }
  ~mpi_transport() override {
    for (const auto& b : kept_) ::operator delete(b.p, std::align_val_t{64});
    for (const auto& b : sizes_) ::operator delete(b.p, std::align_val_t{64});
  }
  void copy(void* to, const void* from, std::size_t bytes) const override {
    if (bytes) std::memmove(to, from, bytes);
  }
  void gather_to_host(void* host, const void* base, std::size_t item, const std::uint64_t* at, std::size_t count) const override {
    for (std::size_t i = 0; i < count; ++i) std::memcpy(static_cast<char*>(host) + i * item, static_cast<const char*>(base) + at[i] * item, item);
  }

  // An MPI return code other than MPI_SUCCESS as sluice::error(errc::comm_error).
  static void check(int rc, const char* what) {
    if (rc == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING] = {};
    int len = 0;
    MPI_Error_string(rc, text, &len);
    throw error(errc::comm_error, std::string("sluice::dist: ") + what + " failed: " + std::string(text, static_cast<std::size_t>(len)));
  }

 private:
  struct block {
    void* p;
    std::size_t bytes;
  };
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  mutable std::vector<block> kept_, sizes_;  // freed and kept; handed out
};
#endif

}  // namespace detail

#ifdef SLUICE_DIST_HAS_MPI
inline communicator::communicator(MPI_Comm comm) : t_(std::make_shared<detail::mpi_transport>(comm)) {}
inline MPI_Comm communicator::mpi() const noexcept {
  const auto* m = dynamic_cast<const detail::mpi_transport*>(t_.get());
  return m ? m->comm() : MPI_COMM_NULL;
}
#endif

}  // namespace sluice::dist
