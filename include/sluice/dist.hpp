// sluice::dist: the primitives over many processes, each holding a local span; the answer is that of the
// primitive over the ranks' spans concatenated in rank order. sluice joins the caller's job and communicator
// (it never initialises MPI or NCCL or creates a communicator) and uses sluice's local primitives on each rank's
// part. The ranks are MPI ranks on the CPU (host memory), or NCCL ranks on CUDA, one GPU each (device memory,
// every operation ordered on the communicator's stream); opt.device must name the communicator's device.
//   allreduce, reduce      the local reduce, then the ranks' totals gathered and folded in rank order;
//   inclusive_scan,        the local reduce, the ranks' totals gathered (one collective of one element per rank),
//   exclusive_scan         then the local scan started from the fold of the ranks before;
//   partition              the local stable partition, the counts gathered, then two all-to-alls (the kept
//                          elements, then the others) so that each rank holds its input's positions of the result;
//   compact_if             the local compaction, the counts gathered; with balance::even the kept elements move
//                          (one all-to-all) so that rank r holds positions [r * total / P, (r + 1) * total / P)
//                          of the concatenated result: every rank within one element of the others;
//   radix_sort             a sample sort: splitters from gathered samples, one all-to-all of the buckets, a
//                          local stable sort, and one more all-to-all to balance (sluice/dist/radix_sort.hpp).
// Every function is collective: every rank of the communicator calls it, in the same order. Sizes may differ
// between ranks; counts and positions are 64-bit. Folds over ranks run left to right in rank order, so a float
// result repeats bit for bit from run to run on the same number of ranks.
// Errors: an argument one rank refuses (an output too small, an unknown algorithm) is agreed on first, and every
// rank throws the same sluice::error (invalid_argument, naming the first refusing rank) instead of leaving the
// others waiting in a collective. An MPI or NCCL call that fails throws sluice::error(errc::comm_error) on the
// ranks where it failed; whether the others return depends on the library (MPI_ERRORS_ARE_FATAL, MPI's
// default, ends the job; a failed NCCL rank leaves the others waiting until the caller aborts the communicator).
// MPI ranks need <mpi.h> (the CMake target sluice::dist); NCCL ranks need the CUDA build and NCCL's library.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "sluice/compact.hpp"
#include "sluice/dist/communicator.hpp"
#include "sluice/dist/radix_sort.hpp"
#include "sluice/error.hpp"
#include "sluice/partition.hpp"
#include "sluice/reduce.hpp"
#include "sluice/scan.hpp"

namespace sluice::dist {

namespace detail {
// The reduce of this rank's part, from its first element (init enters once, at the left end); nullopt when empty.
template <class T, class Op>
std::optional<T> local_reduce(const communicator& c, const char* fn, std::span<const T> local, Op op, const options& opt) {
  const options lo = local_options(c, fn, opt);
  if (local.empty()) return std::nullopt;
  return ::sluice::reduce(local.subspan(1), read(c, local.data()), op, lo);
}

}  // namespace detail

// init op (every element of every rank, in rank order), on every rank.
template <class T, class Op = sum>
T allreduce(const communicator& c, std::span<const T> local, T init = T{}, Op op = {}, const options& opt = {}) {
  std::optional<T> mine;
  detail::agreed(c, "allreduce", [&] { mine = detail::local_reduce(c, "allreduce", local, op, opt); });
  struct part {
    T value;
    int present;
  };
  const auto parts = detail::all_gather(c, part{mine.value_or(init), mine.has_value()});
  T all = init;
  for (const auto& p : parts)
    if (p.present) all = op(all, p.value);
  return all;
}

// As allreduce, the result on `root` alone (std::nullopt elsewhere).
template <class T, class Op = sum>
std::optional<T> reduce(const communicator& c, std::span<const T> local, int root = 0, T init = T{}, Op op = {}, const options& opt = {}) {
  if (root < 0 || root >= c.size())
    throw error(errc::invalid_argument, "sluice::dist::reduce: root " + std::to_string(root) + " is not a rank of a communicator of " + std::to_string(c.size()));
  const T all = allreduce(c, local, init, op, opt);
  return c.rank() == root ? std::optional<T>(all) : std::nullopt;
}

namespace detail {
template <class T, class Op>
void dist_scan(const char* fn, const communicator& c, std::span<const T> local, std::span<T> out, bool inclusive, T init, Op op, const options& opt) {
  std::optional<T> mine;
  agreed(c, fn, [&] {
    ::sluice::detail::check_capacity(fn, "out", out.size(), local.size());
    mine = local_reduce(c, fn, local, op, opt);
  });
  const options lo = local_options(c, fn, opt);
  struct part {
    T value;
    int present;
  };
  const auto parts = all_gather(c, part{mine.value_or(init), mine.has_value()});
  // The fold of the ranks before this one (from init for the exclusive scan); a rank holding nothing adds nothing.
  std::optional<T> before;
  if (!inclusive) before = init;
  for (int r = 0; r < c.rank(); ++r)
    if (parts[static_cast<std::size_t>(r)].present) {
      const T v = parts[static_cast<std::size_t>(r)].value;
      before = before ? op(*before, v) : v;
    }
  if (local.empty()) return;
  const auto o = out.first(local.size());
  if (!inclusive) return ::sluice::exclusive_scan(local, o, *before, op, lo);
  if (!before) return ::sluice::inclusive_scan(local, o, op, lo);
  // The fold of the ranks before goes on the left of the first element, and the local scan runs from there in
  // place: (before op local[0]) op local[1] op ... The same association whether out is local or not.
  const T first = op(*before, read(c, local.data()));
  if (o.data() != local.data()) c.transport().copy(o.data(), local.data(), local.size_bytes());
  c.transport().copy(o.data(), &first, sizeof(T));
  ::sluice::inclusive_scan(std::span<const T>(o), o, op, lo);
}
}  // namespace detail

// out[i] = (every element of the ranks before) op local[0] op ... op local[i]: the inclusive scan of the
// concatenation, this rank's part of it. out may be local's memory.
template <class T, class Op = sum>
void inclusive_scan(const communicator& c, std::span<const T> local, std::span<T> out, Op op = {}, const options& opt = {}) {
  detail::dist_scan("inclusive_scan", c, local, out, true, T{}, op, opt);
}

// out[i] = init op (every element of the ranks before) op local[0] op ... op local[i - 1].
template <class T, class Op = sum>
void exclusive_scan(const communicator& c, std::span<const T> local, std::span<T> out, T init = T{}, Op op = {}, const options& opt = {}) {
  detail::dist_scan("exclusive_scan", c, local, out, false, init, op, opt);
}

// The stable partition of the concatenation: every rank's elements x with pred(x), in rank order, then every
// rank's others, in rank order; each rank receives the result's positions [offset, offset + local.size()), the
// layout of its input. Returns count = how many of those are kept elements (the first ones), offset, and total
// = the kept elements over every rank (the split point). out needs local.size() and may be local's memory.
// Two MPI_Alltoallv: the kept elements, then the others.
template <class T, class Pred>
placement partition(const communicator& c, std::span<const T> local, std::span<T> out, Pred pred, const options& opt = {}) {
  static_assert(std::is_trivially_copyable_v<T>, "sluice::dist::partition: elements must be trivially copyable");
  const int P = c.size(), me = c.rank();
  std::optional<detail::buffer<T>> parted;
  std::uint64_t kept = 0;
  detail::agreed(c, "partition", [&] {
    const options lo = detail::local_options(c, "partition", opt);
    ::sluice::detail::check_capacity("partition", "out", out.size(), local.size());
    parted.emplace(c, local.size());
    kept = ::sluice::partition(local, parted->span(), pred, lo);
  });
  struct share {
    std::uint64_t kept, size;
  };
  const auto shares = detail::all_gather(c, share{kept, static_cast<std::uint64_t>(local.size())});
  // Rank r's input positions [in_at[r], in_at[r + 1]); its kept elements go to [kept_at[r], ...) of the result
  // and its others to [K + rest_at[r], ...).
  std::vector<std::uint64_t> in_at(static_cast<std::size_t>(P) + 1, 0), kept_at(static_cast<std::size_t>(P) + 1, 0),
      rest_at(static_cast<std::size_t>(P) + 1, 0);
  for (int r = 0; r < P; ++r) {
    const auto i = static_cast<std::size_t>(r);
    in_at[i + 1] = in_at[i] + shares[i].size;
    kept_at[i + 1] = kept_at[i] + shares[i].kept;
    rest_at[i + 1] = rest_at[i] + (shares[i].size - shares[i].kept);
  }
  const std::uint64_t K = kept_at[static_cast<std::size_t>(P)];
  const auto mine = static_cast<std::size_t>(me);
  using detail::overlap;
  std::vector<std::uint64_t> send(static_cast<std::size_t>(P)), recv(static_cast<std::size_t>(P));
  for (int pass = 0; pass < 2; ++pass) {  // 0: the kept elements, 1: the others
    for (int r = 0; r < P; ++r) {
      const auto i = static_cast<std::size_t>(r);
      const std::uint64_t my0 = pass == 0 ? kept_at[mine] : K + rest_at[mine];
      const std::uint64_t my1 = my0 + (pass == 0 ? kept : local.size() - kept);
      const std::uint64_t its0 = pass == 0 ? kept_at[i] : K + rest_at[i];
      const std::uint64_t its1 = its0 + (pass == 0 ? shares[i].kept : shares[i].size - shares[i].kept);
      send[i] = overlap(my0, my1, in_at[i], in_at[i + 1]);     // mine that land in rank r's range
      recv[i] = overlap(its0, its1, in_at[mine], in_at[mine + 1]);  // rank r's that land in mine
    }
    // The kept elements arrive first in this rank's range, the others after them: the result's order.
    const std::uint64_t at = pass == 0 ? 0 : overlap(0, K, in_at[mine], in_at[mine + 1]);
    detail::exchange(c, "partition", parted->data() + (pass == 0 ? 0 : kept), send, out.data() + at, recv);
  }
  return placement{overlap(0, K, in_at[mine], in_at[mine + 1]), in_at[mine], K};
}

// The elements x with pred(x), in rank order then input order. balance::none: each rank's kept elements stay on
// it (out needs local.size()); balance::even: rank r ends holding the result's positions [r * total / P,
// (r + 1) * total / P) (out needs that many, checked on every rank before anything moves).
template <class T, class Pred>
placement compact_if(const communicator& c, std::span<const T> local, std::span<T> out, Pred pred, balance b = balance::none, const options& opt = {}) {
  static_assert(std::is_trivially_copyable_v<T>, "sluice::dist::compact_if: elements must be trivially copyable");
  const int P = c.size(), me = c.rank();
  std::optional<detail::buffer<T>> kept;
  std::uint64_t count = 0;
  detail::agreed(c, "compact_if", [&] {
    const options lo = detail::local_options(c, "compact_if", opt);
    if (b == balance::none) {
      ::sluice::detail::check_capacity("compact_if", "out", out.size(), local.size());
      count = ::sluice::compact_if(local, out.first(local.size()), pred, lo);
    } else {
      kept.emplace(c, local.size());
      count = ::sluice::compact_if(local, kept->span(), pred, lo);
    }
  });
  struct share {
    std::uint64_t count, capacity;
  };
  const auto shares = detail::all_gather(c, share{count, static_cast<std::uint64_t>(out.size())});
  placement p;
  for (int r = 0; r < P; ++r) {
    if (r == me) p.offset = p.total;
    p.total += shares[static_cast<std::size_t>(r)].count;
  }
  if (b == balance::none) {
    p.count = count;
    return p;
  }
  // balance::even: rank r owns [lo(r), lo(r + 1)) of the result; every rank checks every rank's capacity alike.
  const auto lo = [&](int r) { return detail::even_start(p.total, r, P); };
  for (int r = 0; r < P; ++r)
    if (shares[static_cast<std::size_t>(r)].capacity < lo(r + 1) - lo(r))
      throw error(errc::invalid_argument, "sluice::dist::compact_if: rank " + std::to_string(r) + "'s 'out' holds " +
                                              std::to_string(shares[static_cast<std::size_t>(r)].capacity) + " elements but balance::even gives it " +
                                              std::to_string(lo(r + 1) - lo(r)) + " of " + std::to_string(p.total));
  // Each rank's kept elements, laid out in rank order, spread evenly.
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(P));
  for (int r = 0; r < P; ++r) counts[static_cast<std::size_t>(r)] = shares[static_cast<std::size_t>(r)].count;
  const detail::even_moves mv(counts, me);
  detail::exchange(c, "compact_if", kept->data(), mv.send, out.data(), mv.recv);
  p.count = lo(me + 1) - lo(me);
  p.offset = lo(me);
  return p;
}

}  // namespace sluice::dist
