// Top-k on the GPU at sizes past the verification matrix's, against the CPU's answer (the same contract: ties
// to the lower position, floats by their image), for every key width, both orders and both arrangements; and
// stream order: a call on a stream, then the stream's own copy, with no host wait between them.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "sluice/device_buffer.hpp"
#include "sluice/top_k.hpp"
#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;
using u64 = std::uint64_t;

template <class K>
std::vector<K> keys(u64 n, u64 distinct, u64 seed) {
  std::mt19937_64 g(seed);
  std::vector<K> v(n);
  for (auto& x : v) {
    const u64 r = distinct ? g() % distinct : g();
    if constexpr (std::is_floating_point_v<K>) x = static_cast<K>(static_cast<double>(static_cast<std::int64_t>(r)) / 7.0 - (distinct ? distinct / 14.0 : 1e18));
    else x = static_cast<K>(r);
  }
  return v;
}

template <class K>
void check(const std::vector<K>& h, u64 k, order ord, output_order arrange) {
  SCOPED_TRACE("n = " + std::to_string(h.size()) + ", k = " + std::to_string(k) + (ord == order::descending ? ", largest" : ", smallest") +
               (arrange == output_order::sorted ? ", sorted" : ", input order"));
  std::vector<K> want(k);
  std::vector<u64> want_idx(k);
  sluice::top_k(h, k, want, want_idx, ord, arrange);
  device_buffer<K> in(h), out(k + 1);
  device_buffer<u64> idx(k + 1);
  out.fill_bytes(0xab);
  idx.fill_bytes(0xab);
  sluice::top_k(in, k, std::span<K>(out.data(), k), std::span<u64>(idx.data(), k), ord, arrange, options{device::cuda});
  const auto got = out.download();
  const auto got_idx = idx.download();
  ASSERT_EQ(std::memcmp(got.data(), want.data(), k * sizeof(K)), 0);
  ASSERT_TRUE(std::equal(want_idx.begin(), want_idx.end(), got_idx.begin()));
  EXPECT_EQ(got_idx[k], 0xababababababababull) << "wrote past indices[k - 1]";
  // Keys alone.
  device_buffer<K> alone(k);
  sluice::top_k(in, k, std::span<K>(alone.data(), k), ord, arrange, options{device::cuda});
  const auto a = alone.download();
  ASSERT_EQ(std::memcmp(a.data(), want.data(), k * sizeof(K)), 0);
}

TEST_F(gpu, top_k_matches_the_cpu_past_the_matrix) {
  const u64 n = sanitizing() ? (u64{1} << 16) + 3 : (u64{1} << 24) + 3;
  for (const u64 k : {u64{1}, u64{1000}, n / 2, n}) {
    for (const auto ord : {order::descending, order::ascending}) {
      check(keys<std::uint32_t>(n, 0, 1), k, ord, output_order::sorted);
      check(keys<float>(n, 1000, 2), k, ord, output_order::input);  // many ties
      if (k <= 1000) {
        check(keys<std::int64_t>(n, 0, 3), k, ord, output_order::sorted);
        check(keys<double>(n, 50, 4), k, ord, output_order::input);
      }
    }
  }
}

TEST_F(gpu, top_k_is_stream_ordered) {
  const u64 n = u64{1} << 20;
  const auto h = keys<std::uint32_t>(n, 0, 5);
  std::vector<std::uint32_t> want(100);
  sluice::top_k(h, 100, want);
  device_buffer<std::uint32_t> in(h), out(100);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  std::vector<std::uint32_t> got(100);
  sluice::top_k(in, 100, std::span<std::uint32_t>(out.data(), 100), order::descending, output_order::sorted, options{device::cuda, "best", s});
  ASSERT_EQ(cudaMemcpyAsync(got.data(), out.data(), 100 * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, s), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  EXPECT_EQ(got, want);
  cudaStreamDestroy(s);
}

}  // namespace
