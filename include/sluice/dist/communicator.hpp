// sluice::dist's communicator and the exchanges every distributed primitive shares: the gather of one value
// per rank, the agreement on a refusal before any exchange (so that no rank is left in a collective), and one
// all-to-all of elements. Included by sluice/dist.hpp.
#pragma once
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "sluice/error.hpp"
#include "sluice/options.hpp"

namespace sluice::dist {

// The caller's MPI communicator, borrowed (not freed): its rank and size read once.
class communicator {
 public:
  explicit communicator(MPI_Comm comm) : comm_(comm) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) throw error(errc::invalid_argument, "sluice::dist::communicator: MPI is not initialised (call MPI_Init first)");
    if (comm == MPI_COMM_NULL) throw error(errc::invalid_argument, "sluice::dist::communicator: the communicator is MPI_COMM_NULL");
    check(MPI_Comm_rank(comm, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(comm, &size_), "MPI_Comm_size");
  }
  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  MPI_Comm mpi() const noexcept { return comm_; }

  // An MPI return code other than MPI_SUCCESS as sluice::error(errc::comm_error).
  static void check(int rc, const char* what) {
    if (rc == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING] = {};
    int len = 0;
    MPI_Error_string(rc, text, &len);
    throw error(errc::comm_error, std::string("sluice::dist: ") + what + " failed: " + std::string(text, static_cast<std::size_t>(len)));
  }

 private:
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
};

namespace detail {

// Every rank's value of a trivially copyable T, in rank order (MPI_Allgather of its bytes).
template <class T>
std::vector<T> all_gather(const communicator& c, const T& mine) {
  static_assert(std::is_trivially_copyable_v<T>, "sluice::dist: values exchanged between ranks must be trivially copyable");
  std::vector<T> all(static_cast<std::size_t>(c.size()));
  communicator::check(MPI_Allgather(&mine, sizeof(T), MPI_BYTE, all.data(), sizeof(T), MPI_BYTE, c.mpi()), "MPI_Allgather");
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

// One MPI_Alltoallv of elements of T: send[r] elements of `from` (in rank order) to rank r, recv[r] elements
// into `to` (in rank order) from rank r. MPI counts are int: more than 2^31 - 1 elements to or from one rank,
// or in all, is refused on every rank alike (MPI 4's large-count calls are not assumed).
template <class T>
void exchange(const communicator& c, const char* fn, const T* from, const std::vector<std::uint64_t>& send, T* to,
              const std::vector<std::uint64_t>& recv) {
  const int P = c.size();
  std::vector<int> sc(static_cast<std::size_t>(P)), sd(static_cast<std::size_t>(P)), rc(static_cast<std::size_t>(P)), rd(static_cast<std::size_t>(P));
  std::uint64_t so = 0, ro = 0;
  bool too_large = false;
  for (int r = 0; r < P; ++r) {
    const auto i = static_cast<std::size_t>(r);
    sc[i] = static_cast<int>(send[i]);
    sd[i] = static_cast<int>(so);
    rc[i] = static_cast<int>(recv[i]);
    rd[i] = static_cast<int>(ro);
    so += send[i];
    ro += recv[i];
    too_large = too_large || send[i] > 0x7fffffffu || recv[i] > 0x7fffffffu || so > 0x7fffffffu || ro > 0x7fffffffu;
  }
  const auto any = all_gather(c, static_cast<int>(too_large));
  if (std::find(any.begin(), any.end(), 1) != any.end())
    throw error(errc::unsupported, std::string("sluice::dist::") + fn + ": moves more than 2^31 - 1 elements between two ranks or from one rank");
  MPI_Datatype item;
  communicator::check(MPI_Type_contiguous(static_cast<int>(sizeof(T)), MPI_BYTE, &item), "MPI_Type_contiguous");
  communicator::check(MPI_Type_commit(&item), "MPI_Type_commit");
  const int rc_all = MPI_Alltoallv(from, sc.data(), sd.data(), item, to, rc.data(), rd.data(), item, c.mpi());
  MPI_Type_free(&item);
  communicator::check(rc_all, "MPI_Alltoallv");
}

// The length of [a0, a1) and [b0, b1) in common.
inline std::uint64_t overlap(std::uint64_t a0, std::uint64_t a1, std::uint64_t b0, std::uint64_t b1) {
  const std::uint64_t x = std::max(a0, b0), y = std::min(a1, b1);
  return y > x ? y - x : 0;
}

inline void require_cpu(const char* fn, const options& opt) {
  if (opt.device != device::cpu)
    throw error(errc::unsupported, std::string("sluice::dist::") + fn + ": the ranks' local primitives run on the cpu in this version (NCCL ranks on cuda are not built yet)");
}

}  // namespace detail

}  // namespace sluice::dist
