// sluice::dist on MPI ranks (run under mpirun on 1, 2 and 4 ranks): allreduce, reduce, the scans, partition,
// compact_if and radix_sort. Every rank builds the whole input from a
// seed, keeps its own part, and checks its answer against the serial reference of the concatenation. Parts of
// unequal sizes, empty ranks, and sizes across the CPU blocks; arguments one rank refuses must make every
// rank throw, not hang.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "sluice/dist.hpp"
#include "dist_inputs.hpp"

namespace {

using sluice::errc;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
namespace dist = sluice::dist;

dist::communicator world() { return dist::communicator(MPI_COMM_WORLD); }

// The whole input (every rank's part, concatenated) and where each rank's part starts: sizes drawn from a seed
// the ranks share, so that each can compute the reference. Layouts: random sizes, one rank holding all, empty
// ranks between full ones, and parts across the CPU blocks.
struct layout {
  std::vector<u64> starts;  // size() + 1 entries
  u64 begin(int r) const { return starts[static_cast<std::size_t>(r)]; }
  u64 size(int r) const { return starts[static_cast<std::size_t>(r) + 1] - starts[static_cast<std::size_t>(r)]; }
  u64 total() const { return starts.back(); }
};

layout make_layout(int P, int kind, u64 seed) {
  std::mt19937_64 g(seed);
  layout l{{0}};
  for (int r = 0; r < P; ++r) {
    u64 n = 0;
    switch (kind) {
      case 0: n = g() % 5000; break;                       // small, unequal
      case 1: n = r == P - 1 ? 300001 : 0; break;          // one rank holds everything
      case 2: n = r % 2 == 0 ? 70001 + g() % 1000 : 0; break;  // empty ranks between full ones
      default: n = 65536 * (r + 1) + 1; break;             // across the CPU blocks, growing
    }
    l.starts.push_back(l.starts.back() + n);
  }
  return l;
}

using sluice_test::values;

template <class T>
std::vector<T> mine(const std::vector<T>& all, const layout& l, int r) {
  return {all.begin() + static_cast<std::ptrdiff_t>(l.begin(r)), all.begin() + static_cast<std::ptrdiff_t>(l.begin(r) + l.size(r))};
}

TEST(dist, communicator_reads_rank_and_size) {
  const auto c = world();
  int r = -1, p = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  EXPECT_EQ(c.rank(), r);
  EXPECT_EQ(c.size(), p);
  EXPECT_EQ(c.mpi(), MPI_COMM_WORLD);
  EXPECT_EQ(c.where(), sluice::device::cpu);
  EXPECT_THROW(dist::communicator(MPI_COMM_NULL), sluice::error);
}

TEST(dist, allreduce_and_reduce_fold_every_rank) {
  const auto c = world();
  for (int kind = 0; kind < 4; ++kind) {
    SCOPED_TRACE("layout " + std::to_string(kind));
    const auto l = make_layout(c.size(), kind, 100 + kind);
    const auto all = values<u64>(l.total(), 7);
    const auto part = mine(all, l, c.rank());
    const u64 want = std::accumulate(all.begin(), all.end(), u64{5});
    EXPECT_EQ(dist::allreduce(c, std::span<const u64>(part), u64{5}), want);
    const auto at_root = dist::reduce(c, std::span<const u64>(part), c.size() - 1, u64{5});
    EXPECT_EQ(at_root.has_value(), c.rank() == c.size() - 1);
    if (at_root) {
      EXPECT_EQ(*at_root, want);
    }
    const u64 biggest = all.empty() ? 0 : *std::max_element(all.begin(), all.end());
    EXPECT_EQ(dist::allreduce(c, std::span<const u64>(part), u64{0}, sluice::maximum{}), biggest);
  }
}

TEST(dist, float_allreduce_repeats_bit_for_bit) {
  const auto c = world();
  const auto l = make_layout(c.size(), 3, 9);
  const auto all = values<float>(l.total(), 11);
  const auto part = mine(all, l, c.rank());
  const float first = dist::allreduce(c, std::span<const float>(part));
  for (int i = 0; i < 5; ++i) {
    const float again = dist::allreduce(c, std::span<const float>(part));
    EXPECT_EQ(std::memcmp(&first, &again, sizeof first), 0);
  }
  double exact = 0;  // eighths of integers: the float sum is exact while it stays below 2^24
  for (float x : all) exact += x;
  EXPECT_EQ(static_cast<double>(first), exact);
}

TEST(dist, scans_continue_across_ranks) {
  const auto c = world();
  for (int kind = 0; kind < 4; ++kind) {
    SCOPED_TRACE("layout " + std::to_string(kind));
    const auto l = make_layout(c.size(), kind, 200 + kind);
    const auto all = values<u32>(l.total(), 13);
    std::vector<u32> inc(all.size()), exc(all.size());
    std::inclusive_scan(all.begin(), all.end(), inc.begin());
    std::exclusive_scan(all.begin(), all.end(), exc.begin(), u32{3});
    const auto part = mine(all, l, c.rank());
    std::vector<u32> out(part.size() + 1, 0xdeadbeef);
    dist::inclusive_scan(c, std::span<const u32>(part), std::span<u32>(out));
    EXPECT_EQ(std::vector<u32>(out.begin(), out.end() - 1), mine(inc, l, c.rank()));
    EXPECT_EQ(out.back(), 0xdeadbeefu) << "wrote past this rank's part";
    dist::exclusive_scan(c, std::span<const u32>(part), std::span<u32>(out), u32{3});
    EXPECT_EQ(std::vector<u32>(out.begin(), out.end() - 1), mine(exc, l, c.rank()));
    // In place, the maximum: the running maximum across ranks.
    std::vector<u32> run = part;
    dist::inclusive_scan(c, std::span<const u32>(run), std::span<u32>(run), sluice::maximum{});
    std::vector<u32> want(all.size());
    std::inclusive_scan(all.begin(), all.end(), want.begin(), [](u32 a, u32 b) { return std::max(a, b); });
    EXPECT_EQ(run, mine(want, l, c.rank()));
  }
}

TEST(dist, compact_if_keeps_rank_order_and_balances) {
  const auto c = world();
  const auto small = [](u32 x) { return x < 300; };
  for (int kind = 0; kind < 4; ++kind) {
    SCOPED_TRACE("layout " + std::to_string(kind));
    const auto l = make_layout(c.size(), kind, 300 + kind);
    const auto all = values<u32>(l.total(), 17);
    std::vector<u32> kept;
    std::copy_if(all.begin(), all.end(), std::back_inserter(kept), small);
    const auto part = mine(all, l, c.rank());
    // Where each rank kept them.
    std::vector<u32> out(part.size());
    const auto p = dist::compact_if(c, std::span<const u32>(part), std::span<u32>(out), small);
    EXPECT_EQ(p.total, kept.size());
    ASSERT_LE(p.offset + p.count, kept.size());
    EXPECT_TRUE(std::equal(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(p.count), kept.begin() + static_cast<std::ptrdiff_t>(p.offset)));
    // Evenly: rank r holds [r * total / P, (r + 1) * total / P).
    const u64 lo = kept.size() * static_cast<u64>(c.rank()) / static_cast<u64>(c.size());
    const u64 hi = kept.size() * static_cast<u64>(c.rank() + 1) / static_cast<u64>(c.size());
    std::vector<u32> even(hi - lo + 2, 0xdeadbeef);
    const auto q = dist::compact_if(c, std::span<const u32>(part), std::span<u32>(even), small, dist::balance::even);
    EXPECT_EQ(q.total, kept.size());
    EXPECT_EQ(q.offset, lo);
    EXPECT_EQ(q.count, hi - lo);
    EXPECT_TRUE(std::equal(even.begin(), even.begin() + static_cast<std::ptrdiff_t>(hi - lo), kept.begin() + static_cast<std::ptrdiff_t>(lo)));
    EXPECT_EQ(even[hi - lo], 0xdeadbeefu) << "wrote past this rank's share";
  }
}

TEST(dist, partition_is_the_stable_partition_of_the_concatenation) {
  const auto c = world();
  const auto odd = [](u32 x) { return x % 2 == 1; };
  for (int kind = 0; kind < 4; ++kind) {
    SCOPED_TRACE("layout " + std::to_string(kind));
    const auto l = make_layout(c.size(), kind, 400 + kind);
    const auto all = values<u32>(l.total(), 19);
    std::vector<u32> want = all;
    const u64 K = static_cast<u64>(std::stable_partition(want.begin(), want.end(), odd) - want.begin());
    const u64 b = l.begin(c.rank()), e = b + l.size(c.rank());
    auto part = mine(all, l, c.rank());
    std::vector<u32> out(part.size() + 1, 0xdeadbeef);
    const auto p = dist::partition(c, std::span<const u32>(part), std::span<u32>(out).first(part.size()), odd);
    EXPECT_EQ(p.total, K);
    EXPECT_EQ(p.offset, b);
    EXPECT_EQ(p.count, std::min(e, std::max(b, K)) - b);
    EXPECT_EQ(std::vector<u32>(out.begin(), out.end() - 1), mine(want, l, c.rank()));
    EXPECT_EQ(out.back(), 0xdeadbeefu) << "wrote past this rank's part";
    // In place.
    dist::partition(c, std::span<const u32>(part), std::span<u32>(part), odd);
    EXPECT_EQ(part, mine(want, l, c.rank()));
  }
}

// The sort of the concatenation, stable (values: the global positions), balanced over the ranks.
template <class K>
void check_sort(const dist::communicator& c, int kind, sluice::order ord) {
  const auto l = make_layout(c.size(), kind, 500 + kind);
  std::vector<K> all(l.total());
  std::mt19937_64 g(23 + kind);
  for (auto& x : all) {  // few distinct keys (ties) in half the layouts, the whole range in the others
    if constexpr (std::is_floating_point_v<K>) x = static_cast<K>(static_cast<std::int64_t>(g() % (kind % 2 ? 50 : 1000000)) - 500) / K(4);
    else x = static_cast<K>(kind % 2 ? g() % 50 : g());
  }
  std::vector<u64> pos(all.size());
  std::iota(pos.begin(), pos.end(), u64{0});
  std::stable_sort(pos.begin(), pos.end(), [&](u64 a, u64 b) {
    using rk = sluice::detail::radix_key<K>;
    return rk::to_bits(all[a], ord == sluice::order::descending) < rk::to_bits(all[b], ord == sluice::order::descending);
  });
  auto keys = mine(all, l, c.rank());
  std::vector<u64> values(keys.size());
  std::iota(values.begin(), values.end(), l.begin(c.rank()));
  dist::radix_sort(c, keys, values, ord);
  const u64 N = l.total(), lo = N * static_cast<u64>(c.rank()) / static_cast<u64>(c.size()),
            hi = N * static_cast<u64>(c.rank() + 1) / static_cast<u64>(c.size());
  ASSERT_EQ(keys.size(), hi - lo);
  ASSERT_EQ(values.size(), hi - lo);
  for (u64 i = 0; i < hi - lo; ++i) {
    ASSERT_EQ(values[i], pos[lo + i]) << "position " << lo + i;
    ASSERT_EQ(std::memcmp(&keys[i], &all[pos[lo + i]], sizeof(K)), 0) << "position " << lo + i;
  }
  auto only = mine(all, l, c.rank());  // keys alone
  dist::radix_sort(c, only, ord);
  ASSERT_EQ(only.size(), hi - lo);
  for (u64 i = 0; i < hi - lo; ++i) ASSERT_EQ(std::memcmp(&only[i], &all[pos[lo + i]], sizeof(K)), 0) << "keys alone, position " << lo + i;
  // The span form (sorted first, cut by binary search), into outputs one larger than the share.
  const auto in = mine(all, l, c.rank());
  std::vector<u64> in_values(in.size());
  std::iota(in_values.begin(), in_values.end(), l.begin(c.rank()));
  std::vector<K> out_keys(hi - lo + 1);
  std::vector<u64> out_values(hi - lo + 1, 0xdeadbeef);
  const auto p = dist::radix_sort(c, std::span<const K>(in), std::span<const u64>(in_values), std::span<K>(out_keys), std::span<u64>(out_values), ord);
  EXPECT_EQ(p.count, hi - lo);
  EXPECT_EQ(p.offset, lo);
  EXPECT_EQ(p.total, N);
  for (u64 i = 0; i < hi - lo; ++i) {
    ASSERT_EQ(out_values[i], pos[lo + i]) << "spans, position " << lo + i;
    ASSERT_EQ(std::memcmp(&out_keys[i], &all[pos[lo + i]], sizeof(K)), 0) << "spans, position " << lo + i;
  }
  EXPECT_EQ(out_values[hi - lo], 0xdeadbeefu) << "wrote past this rank's share";
  std::vector<K> sorted(hi - lo);
  dist::radix_sort(c, std::span<const K>(in), std::span<K>(sorted), ord);
  for (u64 i = 0; i < hi - lo; ++i) ASSERT_EQ(std::memcmp(&sorted[i], &all[pos[lo + i]], sizeof(K)), 0) << "spans, keys alone, position " << lo + i;
}

TEST(dist, radix_sort_is_stable_and_balanced) {
  const auto c = world();
  for (int kind = 0; kind < 4; ++kind) {
    SCOPED_TRACE("layout " + std::to_string(kind));
    check_sort<u32>(c, kind, sluice::order::ascending);
    check_sort<std::int64_t>(c, kind, sluice::order::descending);
    check_sort<float>(c, kind, sluice::order::ascending);
  }
}

// An argument that one rank refuses: every rank throws the same error (nobody is left in a collective).
TEST(dist, a_refusal_on_one_rank_is_every_ranks_error) {
  const auto c = world();
  const int last = c.size() - 1;
  std::vector<u32> part(1000, 1), out(1000);
  const auto short_on_last = std::span<u32>(out).first(c.rank() == last ? 999 : 1000);
  try {
    dist::inclusive_scan(c, std::span<const u32>(part), short_on_last);
    ADD_FAILURE() << "a too-small out on rank " << last << " was accepted";
  } catch (const sluice::error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("rank " + std::to_string(last) + " refused"), std::string::npos) << e.what();
  }
  // balance::even: a share larger than a rank's out, known to every rank from the gathered capacities.
  try {
    dist::compact_if(c, std::span<const u32>(part), std::span<u32>(out).first(c.rank() == last ? 10 : 1000), [](u32) { return true; },
                     dist::balance::even);
    ADD_FAILURE() << "a too-small out for balance::even was accepted";
  } catch (const sluice::error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("rank " + std::to_string(last) + "'s 'out' holds 10"), std::string::npos) << e.what();
  }
  // The sort's output smaller than a rank's share (1000 of each rank's 1000 keys on every rank).
  try {
    dist::radix_sort(c, std::span<const u32>(part), std::span<u32>(out).first(c.rank() == last ? 999 : 1000));
    ADD_FAILURE() << "a sort output smaller than the share was accepted";
  } catch (const sluice::error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("rank " + std::to_string(last) + "'s output holds 999"), std::string::npos) << e.what();
  }
  try {
    (void)dist::allreduce(c, std::span<const u32>(part), u32{0}, sluice::sum{}, sluice::options{sluice::device::cuda});
    ADD_FAILURE() << "device::cuda was accepted";
  } catch (const sluice::error& e) {
    EXPECT_EQ(e.code(), errc::unsupported) << e.what();
  }
  EXPECT_THROW((void)dist::reduce(c, std::span<const u32>(part), c.size()), sluice::error);
  // Still in step: a collective after the refusals agrees.
  EXPECT_EQ(dist::allreduce(c, std::span<const u32>(part)), 1000u * static_cast<u32>(c.size()));
}

}  // namespace

// MPI around GoogleTest: every rank runs every test and prints its results; the exit status is any rank's
// failure.
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int failed = RUN_ALL_TESTS() != 0, any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && any && !failed) std::fprintf(stderr, "sluice_dist_tests: a test failed on another rank\n");
  MPI_Finalize();
  return any;
}
