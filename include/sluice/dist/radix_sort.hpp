// The radix sort across MPI ranks, a sample sort over sluice's local primitives:
//   1. Splitters: every rank takes up to 32 * P keys at regular positions (their order-preserving images, as
//      radix_sort reads keys), the samples are gathered on every rank and sorted, and P - 1 of them, evenly
//      spaced, cut the key range into P buckets. Equal keys fall in one bucket.
//   2. Split: each rank splits its keys (with their values) into the P buckets, stably (sluice::split).
//   3. Exchange: bucket r goes to rank r, one MPI_Alltoallv; what a rank receives lies in source-rank order.
//   4. Local sort: a stable sort of what arrived (sluice::radix_sort): since the buckets kept input order and
//      arrived in rank order, equal keys stay in the order of the concatenated input.
//   5. Balance: one more MPI_Alltoallv moves whole runs between neighbours so that rank r ends with positions
//      [r * N / P, (r + 1) * N / P) of the sorted sequence (N the keys over every rank).
// The keys are read three times and moved over the network at most twice; the second exchange moves only what
// the splitters misjudged.
#pragma once
#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "sluice/detail/radix_key.hpp"
#include "sluice/dist/communicator.hpp"
#include "sluice/sort.hpp"
#include "sluice/split.hpp"

namespace sluice::dist {

namespace detail {

// Every rank's vector of T, concatenated in rank order (MPI_Allgatherv of bytes).
template <class T>
std::vector<T> all_gather_vectors(const communicator& c, const std::vector<T>& mine) {
  const auto counts = all_gather(c, static_cast<int>(mine.size() * sizeof(T)));
  std::vector<int> displs(counts.size());
  long long total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    displs[r] = static_cast<int>(total);
    total += counts[r];
  }
  std::vector<T> all(static_cast<std::size_t>(total) / sizeof(T));
  communicator::check(MPI_Allgatherv(mine.data(), static_cast<int>(mine.size() * sizeof(T)), MPI_BYTE, all.data(), counts.data(),
                                     displs.data(), MPI_BYTE, c.mpi()),
                      "MPI_Allgatherv");
  return all;
}

// How many elements each rank sends each rank (MPI_Alltoall of one count per pair): the receive counts.
inline std::vector<std::uint64_t> all_to_all_counts(const communicator& c, const std::vector<std::uint64_t>& send) {
  std::vector<std::uint64_t> recv(send.size());
  communicator::check(MPI_Alltoall(send.data(), sizeof(std::uint64_t), MPI_BYTE, recv.data(), sizeof(std::uint64_t), MPI_BYTE, c.mpi()),
                      "MPI_Alltoall");
  return recv;
}

template <class K, class V>
struct keyed {
  K key;
  V value;
};

template <class K, class V>
void dist_radix_sort(const communicator& c, std::vector<K>& keys, std::vector<V>* values, order ord, const options& opt) {
  constexpr bool with_values = !std::is_same_v<V, std::nullptr_t>;
  using image_t = typename ::sluice::detail::radix_key<K>::bits_t;
  const int P = c.size();
  const bool desc = ord == order::descending;
  const auto image = [desc](const K& k) { return ::sluice::detail::radix_key<K>::to_bits(k, desc); };
  agreed(c, "radix_sort", [&] {
    require_cpu("radix_sort", opt);
    if (P > static_cast<int>(max_split_buckets))
      throw error(errc::unsupported, "sluice::dist::radix_sort: " + std::to_string(P) + " ranks; this version splits into at most " +
                                         std::to_string(max_split_buckets));
    if constexpr (with_values)
      if (values->size() != keys.size())
        throw error(errc::invalid_argument, "sluice::dist::radix_sort: 'values' holds " + std::to_string(values->size()) + " elements but 'keys' " +
                                                std::to_string(keys.size()));
  });
  const std::uint64_t n = keys.size();
  // 1. Splitters from regular samples of every rank.
  const std::uint64_t per_rank = std::min<std::uint64_t>(n, 32u * static_cast<unsigned>(P));
  std::vector<image_t> samples(per_rank);
  for (std::uint64_t j = 0; j < per_rank; ++j) samples[j] = image(keys[(j * n) / per_rank]);
  auto all = all_gather_vectors(c, samples);
  std::sort(all.begin(), all.end());
  std::vector<image_t> splitters;
  for (int r = 1; r < P && !all.empty(); ++r) splitters.push_back(all[(all.size() * static_cast<std::size_t>(r)) / static_cast<std::size_t>(P)]);
  const auto bucket = [&](const K& k) {
    return static_cast<std::uint32_t>(std::upper_bound(splitters.begin(), splitters.end(), image(k)) - splitters.begin());
  };
  // 2-3. Split by bucket (keys with their values as records), then the exchange.
  using rec = std::conditional_t<with_values, keyed<K, V>, K>;
  std::vector<rec> mine(n), parted(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    if constexpr (with_values) mine[i] = rec{keys[i], (*values)[i]};
    else mine[i] = keys[i];
  }
  std::vector<std::uint64_t> offsets(static_cast<std::size_t>(P) + 1);
  const auto bucket_of = [&](const rec& x) {
    if constexpr (with_values) return bucket(x.key);
    else return bucket(x);
  };
  ::sluice::split(std::span<const rec>(mine), bucket_of, static_cast<std::uint32_t>(P), std::span<rec>(parted), std::span<std::uint64_t>(offsets),
                  options{device::cpu, "best", nullptr});
  mine = {};
  std::vector<std::uint64_t> send(static_cast<std::size_t>(P));
  for (int r = 0; r < P; ++r) send[static_cast<std::size_t>(r)] = offsets[static_cast<std::size_t>(r) + 1] - offsets[static_cast<std::size_t>(r)];
  const auto recv = all_to_all_counts(c, send);
  std::uint64_t m = 0;
  for (auto x : recv) m += x;
  std::vector<rec> arrived(m);
  exchange(c, "radix_sort", parted.data(), send, arrived.data(), recv);
  parted = {};
  // 4. The local stable sort of what arrived.
  std::vector<K> k2(m);
  std::vector<std::conditional_t<with_values, V, char>> v2(with_values ? m : 0);
  for (std::uint64_t i = 0; i < m; ++i) {
    if constexpr (with_values) {
      k2[i] = arrived[i].key;
      v2[i] = arrived[i].value;
    } else {
      k2[i] = arrived[i];
    }
  }
  arrived = {};
  if constexpr (with_values) ::sluice::radix_sort(k2, v2, ord, {}, opt);
  else ::sluice::radix_sort(k2, ord, {}, opt);
  // 5. Balance: rank r keeps [r * N / P, (r + 1) * N / P) of the sorted sequence.
  const auto sizes = all_gather(c, m);
  std::vector<std::uint64_t> at(static_cast<std::size_t>(P) + 1, 0);
  for (int r = 0; r < P; ++r) at[static_cast<std::size_t>(r) + 1] = at[static_cast<std::size_t>(r)] + sizes[static_cast<std::size_t>(r)];
  const std::uint64_t N = at.back();
  const auto lo = [&](int r) { return static_cast<std::uint64_t>((static_cast<unsigned __int128>(N) * static_cast<unsigned>(r)) / static_cast<unsigned>(P)); };
  const auto me = static_cast<std::size_t>(c.rank());
  std::vector<std::uint64_t> send2(static_cast<std::size_t>(P)), recv2(static_cast<std::size_t>(P));
  for (int r = 0; r < P; ++r) {
    const auto i = static_cast<std::size_t>(r);
    send2[i] = overlap(at[me], at[me + 1], lo(r), lo(r + 1));
    recv2[i] = overlap(at[i], at[i + 1], lo(c.rank()), lo(c.rank() + 1));
  }
  const std::uint64_t share = lo(c.rank() + 1) - lo(c.rank());
  keys.resize(share);
  exchange(c, "radix_sort", k2.data(), send2, keys.data(), recv2);
  if constexpr (with_values) {
    values->resize(share);
    exchange(c, "radix_sort", v2.data(), send2, values->data(), recv2);
  }
}

}  // namespace detail

// Sort the keys of every rank as one sequence, stably (equal keys keep the order of the ranks' keys
// concatenated in rank order), by radix_sort's order; afterwards rank r holds positions [r * N / P,
// (r + 1) * N / P) of the sorted sequence (keys resized to that), N the keys over every rank: every rank within
// one key of the others. Keys: u32, i32, f32, u64, i64, f64. At most 256 ranks in this version.
template <class K>
void radix_sort(const communicator& c, std::vector<K>& keys, order ord = order::ascending, const options& opt = {}) {
  detail::dist_radix_sort<K, std::nullptr_t>(c, keys, nullptr, ord, opt);
}

// As radix_sort, the values moved with their keys (values.size() == keys.size() on each rank).
template <class K, class V>
void radix_sort(const communicator& c, std::vector<K>& keys, std::vector<V>& values, order ord = order::ascending, const options& opt = {}) {
  static_assert(std::is_trivially_copyable_v<V>, "sluice::dist::radix_sort: values must be trivially copyable");
  detail::dist_radix_sort<K, V>(c, keys, &values, ord, opt);
}

}  // namespace sluice::dist
