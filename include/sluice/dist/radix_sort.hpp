// The radix sort across ranks, a sample sort over sluice's local primitives. The std::vector form (cpu ranks):
//   1. Splitters: every rank takes up to 32 * P keys at regular positions (their order-preserving images, as
//      radix_sort reads keys), the samples are gathered on every rank and sorted, and P - 1 of them, evenly
//      spaced, cut the key range into P buckets. Equal keys fall in one bucket.
//   2. Split: each rank splits its keys (with their values) into the P buckets, stably (sluice::split).
//   3. Exchange: bucket r goes to rank r, one all-to-all; what a rank receives lies in source-rank order.
//   4. Local sort: a stable sort of what arrived (sluice::radix_sort): since the buckets kept input order and
//      arrived in rank order, equal keys stay in the order of the concatenated input.
//   5. Balance: one more all-to-all moves whole runs between neighbours so that rank r ends with positions
//      [r * N / P, (r + 1) * N / P) of the sorted sequence (N the keys over every rank).
// The keys are read three times and moved over the network at most twice; the second exchange moves only what
// the splitters misjudged. The span form (either device) sorts each rank's keys first instead of splitting
// them: the samples are then regular positions of the sorted keys, each bucket is a range found by binary
// search, and no function of the element has to run on the device.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
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

// Every rank's vector of T, concatenated in rank order (host memory): the counts gathered, then every vector
// padded to the longest.
template <class T>
std::vector<T> all_gather_vectors(const communicator& c, const std::vector<T>& mine) {
  const auto counts = all_gather(c, static_cast<std::uint64_t>(mine.size()));
  const std::uint64_t most = *std::max_element(counts.begin(), counts.end());
  std::vector<T> padded(most), all(most * counts.size()), out;
  std::copy(mine.begin(), mine.end(), padded.begin());
  if (most) c.transport().all_gather(padded.data(), all.data(), most * sizeof(T));
  for (std::size_t r = 0; r < counts.size(); ++r) out.insert(out.end(), all.begin() + static_cast<std::ptrdiff_t>(r * most),
                                                            all.begin() + static_cast<std::ptrdiff_t>(r * most + counts[r]));
  return out;
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
    local_options(c, "radix_sort", opt);
    if (c.where() != device::cpu)
      throw error(errc::unsupported, "sluice::dist::radix_sort: std::vector keys are host memory; on cuda ranks pass spans of device memory");
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
  const even_moves mv(all_gather(c, m), c.rank());
  const std::uint64_t share = even_start(mv.total, c.rank() + 1, P) - even_start(mv.total, c.rank(), P);
  keys.resize(share);
  exchange(c, "radix_sort", k2.data(), mv.send, keys.data(), mv.recv);
  if constexpr (with_values) {
    values->resize(share);
    exchange(c, "radix_sort", v2.data(), mv.send, values->data(), mv.recv);
  }
}

// The sort of spans, on any device: each rank sorts its keys first, so that its buckets are ranges of the
// sorted keys found by binary search (no function of the element runs on the device), then the buckets move,
// and a second local sort orders what arrived. `values` null for keys alone.
template <class K, class V>
placement dist_radix_sort_spans(const communicator& c, std::span<const K> keys, const V* values, std::span<K> out, V* out_values,
                                std::uint64_t out_values_size, std::uint64_t values_size, order ord, const options& opt) {
  constexpr bool with_values = !std::is_same_v<V, std::nullptr_t>;
  using image_t = typename ::sluice::detail::radix_key<K>::bits_t;
  const int P = c.size();
  const bool desc = ord == order::descending;
  const auto image = [desc](const K& k) { return ::sluice::detail::radix_key<K>::to_bits(k, desc); };
  const std::uint64_t n = keys.size();
  options lo;
  agreed(c, "radix_sort", [&] {
    lo = local_options(c, "radix_sort", opt);
    if constexpr (with_values)
      if (values_size != n)
        throw error(errc::invalid_argument, "sluice::dist::radix_sort: 'values' holds " + std::to_string(values_size) + " elements but 'keys' " +
                                                std::to_string(n));
  });
  // Every rank's size and room: the shares, checked on every rank alike before anything moves.
  struct share {
    std::uint64_t size, room;
  };
  const std::uint64_t room = with_values ? std::min<std::uint64_t>(out.size(), out_values_size) : out.size();
  const auto shares = all_gather(c, share{n, room});
  std::uint64_t N = 0;
  for (const auto& x : shares) N += x.size;
  const auto even = [&](int r) { return even_start(N, r, P); };
  for (int r = 0; r < P; ++r)
    if (shares[static_cast<std::size_t>(r)].room < even(r + 1) - even(r))
      throw error(errc::invalid_argument, "sluice::dist::radix_sort: rank " + std::to_string(r) + "'s output holds " +
                                              std::to_string(shares[static_cast<std::size_t>(r)].room) + " elements but its share is " +
                                              std::to_string(even(r + 1) - even(r)) + " of " + std::to_string(N));
  // 1. The local sort, of a copy.
  std::optional<buffer<K>> kb(std::in_place, c, n);
  std::optional<buffer<std::conditional_t<with_values, V, char>>> vb(std::in_place, c, with_values ? n : 0);
  if (n) c.transport().copy(kb->data(), keys.data(), n * sizeof(K));
  if constexpr (with_values) {
    if (n) c.transport().copy(vb->data(), values, n * sizeof(V));
    ::sluice::radix_sort(kb->span(), vb->span(), ord, {}, lo);
  } else {
    ::sluice::radix_sort(kb->span(), ord, {}, lo);
  }
  // 2. Splitters from regular samples of the sorted keys.
  const std::uint64_t per_rank = std::min<std::uint64_t>(n, 32u * static_cast<unsigned>(P));
  std::vector<std::uint64_t> at(per_rank);
  for (std::uint64_t j = 0; j < per_rank; ++j) at[j] = (j * n) / per_rank;
  std::vector<K> picked(per_rank);
  if (per_rank) c.transport().gather_to_host(picked.data(), kb->data(), sizeof(K), at.data(), per_rank);
  std::vector<image_t> samples(per_rank);
  for (std::uint64_t j = 0; j < per_rank; ++j) samples[j] = image(picked[j]);
  auto all = all_gather_vectors(c, samples);
  std::sort(all.begin(), all.end());
  std::vector<image_t> splitters;
  for (int r = 1; r < P && !all.empty(); ++r) splitters.push_back(all[(all.size() * static_cast<std::size_t>(r)) / static_cast<std::size_t>(P)]);
  // 3. Bucket b is [bound[b], bound[b + 1]) of the sorted keys: the first key not below each splitter, every
  // splitter's binary search a step at a time together (one gather of probes per step).
  const std::size_t S = splitters.size();
  std::vector<std::uint64_t> low(S, 0), high(S, n), probe;
  std::vector<std::size_t> which;
  for (;;) {
    probe.clear();
    which.clear();
    for (std::size_t i = 0; i < S; ++i)
      if (low[i] < high[i]) {
        probe.push_back(low[i] + (high[i] - low[i]) / 2);
        which.push_back(i);
      }
    if (probe.empty()) break;
    std::vector<K> seen(probe.size());
    c.transport().gather_to_host(seen.data(), kb->data(), sizeof(K), probe.data(), probe.size());
    for (std::size_t j = 0; j < probe.size(); ++j) {
      if (image(seen[j]) < splitters[which[j]]) low[which[j]] = probe[j] + 1;
      else high[which[j]] = probe[j];
    }
  }
  std::vector<std::uint64_t> send(static_cast<std::size_t>(P), 0);
  for (int b = 0; b < P; ++b) {
    const std::uint64_t from = b == 0 ? 0 : (static_cast<std::size_t>(b) - 1 < S ? low[static_cast<std::size_t>(b) - 1] : n);
    const std::uint64_t to = static_cast<std::size_t>(b) < S ? low[static_cast<std::size_t>(b)] : n;
    send[static_cast<std::size_t>(b)] = to - from;
  }
  // 4. The exchange of the buckets, then the local sort of what arrived (in rank order, each part sorted).
  const auto recv = all_to_all_counts(c, send);
  std::uint64_t m = 0;
  for (auto x : recv) m += x;
  buffer<K> k2(c, m);
  buffer<std::conditional_t<with_values, V, char>> v2(c, with_values ? m : 0);
  exchange(c, "radix_sort", kb->data(), send, k2.data(), recv);
  kb.reset();
  if constexpr (with_values) {
    exchange(c, "radix_sort", vb->data(), send, v2.data(), recv);
    vb.reset();
    ::sluice::radix_sort(k2.span(), v2.span(), ord, {}, lo);
  } else {
    ::sluice::radix_sort(k2.span(), ord, {}, lo);
  }
  // 5. Balance: rank r keeps [r * N / P, (r + 1) * N / P) of the sorted sequence.
  const even_moves mv(all_gather(c, m), c.rank());
  exchange(c, "radix_sort", k2.data(), mv.send, out.data(), mv.recv);
  if constexpr (with_values) exchange(c, "radix_sort", v2.data(), mv.send, out_values, mv.recv);
  return placement{even(c.rank() + 1) - even(c.rank()), even(c.rank()), N};
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

// The sort of spans, on either device (device memory on NCCL ranks): rank r receives positions
// [r * N / P, (r + 1) * N / P) of the sorted sequence in `out` (which needs that many: every rank's room is
// checked on every rank before anything moves); returns count (that share), offset (r * N / P) and total (N).
// Stable across ranks, as above. Each rank sorts its keys, cuts them at the splitters by binary search, and
// sorts again what arrives: one local sort more than the std::vector form, which splits first.
template <class K>
placement radix_sort(const communicator& c, std::span<const K> keys, std::span<K> out, order ord = order::ascending, const options& opt = {}) {
  return detail::dist_radix_sort_spans<K, std::nullptr_t>(c, keys, nullptr, out, nullptr, 0, 0, ord, opt);
}

// As above, the values moved with their keys (values.size() == keys.size(); out_values as out_keys).
template <class K, class V>
placement radix_sort(const communicator& c, std::span<const K> keys, std::span<const V> values, std::span<K> out_keys, std::span<V> out_values,
                     order ord = order::ascending, const options& opt = {}) {
  static_assert(std::is_trivially_copyable_v<V>, "sluice::dist::radix_sort: values must be trivially copyable");
  return detail::dist_radix_sort_spans<K, V>(c, keys, values.data(), out_keys, out_values.data(), out_values.size(), values.size(), ord, opt);
}

}  // namespace sluice::dist
