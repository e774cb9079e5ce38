// The caller's scratch allocator (include/sluice/scratch.hpp) on the GPU: the calls it serves, every byte given
// back to the allocator it came from, scopes that nest, a refusal, and a scope on another thread.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <future>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "sluice/cuda/backend.hpp"
#include "test_support.hpp"

namespace {

using namespace sluice;
using namespace sluice_test;

// cudaMallocAsync and cudaFreeAsync underneath, counting. Each allocation's bytes and stream are kept, so that a
// deallocation with other bytes or another stream, or of a pointer it never lent, counts as a mismatch; from the
// allocation numbered refuse_from (0: the first) on it answers nullptr.
class counting_allocator {
 public:
  scratch_allocator allocator() { return {&allocate, &deallocate, this}; }
  std::uint64_t allocations() const { return read(allocations_); }
  std::uint64_t deallocations() const { return read(deallocations_); }
  std::uint64_t live_bytes() const { return read(live_bytes_); }
  std::uint64_t mismatches() const { return read(mismatches_); }
  std::uint64_t on_other_streams(cudaStream_t s) const {
    std::lock_guard lock(m_);
    return static_cast<std::uint64_t>(std::count_if(streams_.begin(), streams_.end(), [&](cudaStream_t t) { return t != s; }));
  }
  void refuse_from(std::uint64_t k) {
    std::lock_guard lock(m_);
    refuse_from_ = k;
  }

 private:
  struct lent {
    std::size_t bytes;
    cudaStream_t stream;
  };
  std::uint64_t read(const std::uint64_t& field) const {
    std::lock_guard lock(m_);
    return field;
  }
  static void* allocate(void* context, std::size_t bytes, CUstream_st* s) {
    auto& a = *static_cast<counting_allocator*>(context);
    std::lock_guard lock(a.m_);
    if (a.asked_++ >= a.refuse_from_) return nullptr;
    void* p = nullptr;
    if (cudaMallocAsync(&p, bytes, s) != cudaSuccess) return (void)cudaGetLastError(), nullptr;
    ++a.allocations_;
    a.live_bytes_ += bytes;
    a.lent_[p] = {bytes, s};
    a.streams_.push_back(s);
    return p;
  }
  static void deallocate(void* context, void* p, std::size_t bytes, CUstream_st* s) noexcept {
    auto& a = *static_cast<counting_allocator*>(context);
    std::lock_guard lock(a.m_);
    ++a.deallocations_;
    const auto it = a.lent_.find(p);
    if (it == a.lent_.end() || it->second.bytes != bytes || it->second.stream != s) {
      ++a.mismatches_;
      return;
    }
    a.lent_.erase(it);
    a.live_bytes_ -= bytes;
    (void)cudaFreeAsync(p, s);
  }

  mutable std::mutex m_;
  std::map<void*, lent> lent_;
  std::vector<cudaStream_t> streams_;
  std::uint64_t asked_ = 0, allocations_ = 0, deallocations_ = 0, live_bytes_ = 0, mismatches_ = 0;
  std::uint64_t refuse_from_ = std::numeric_limits<std::uint64_t>::max();
};

// Everything the allocator lent is back, with the bytes and stream it was lent for.
void expect_all_back(const counting_allocator& a, const std::string& after) {
  EXPECT_EQ(a.live_bytes(), 0u) << "bytes not given back after " << after;
  EXPECT_EQ(a.deallocations(), a.allocations()) << after;
  EXPECT_EQ(a.mismatches(), 0u) << "deallocations unlike their allocation after " << after;
}

std::vector<std::uint32_t> hashed(std::size_t n) {
  std::vector<std::uint32_t> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 3);
  return h;
}

// Stably sorted pairs: keys ascending, each value the index of its key in `h`, equal keys in index order.
void expect_sorted_pairs(const std::vector<std::uint32_t>& h, const device_buffer<std::uint32_t>& keys,
                         const device_buffer<std::uint32_t>& values) {
  const auto k = keys.download();
  const auto v = values.download();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < k.size(); ++i)
    wrong += h[v[i]] != k[i] || (i > 0 && (k[i - 1] > k[i] || (k[i - 1] == k[i] && v[i - 1] >= v[i])));
  EXPECT_EQ(wrong, 0u) << "elements out of place";
}

std::size_t large_n() { return sanitizing() ? std::size_t{1} << 20 : std::size_t{1} << 24; }

// Calls that need plain scratch take all of it from the caller's allocator, on the call's stream, and give it
// all back before they return: compactions whose tile counts or totals are scratch, a scan of 8-byte elements
// (whose tile states are not kept per stream) and a sort (its alternate buffers). A scan of 4-byte elements
// keeps its tile states in sluice's per-stream buffer: whatever else it takes goes back too.
TEST_F(gpu, scratch_allocator_serves_large_calls) {
  const std::size_t n = large_n();
  const auto h = hashed(n);
  std::vector<std::uint8_t> hf(n);
  for (std::size_t i = 0; i < n; ++i) hf[i] = (h[i] & 3u) == 0;
  std::vector<std::uint32_t> selected;
  for (std::size_t i = 0; i < n; ++i)
    if (hf[i]) selected.push_back(h[i]);
  const std::vector<std::uint64_t> h64(h.begin(), h.end());
  std::vector<std::uint32_t> index(n);
  std::iota(index.begin(), index.end(), 0u);
  device_buffer<std::uint32_t> in(h), out(n), keys(h), values(index), sums32(n);
  device_buffer<std::uint8_t> flags(hf);
  device_buffer<std::uint64_t> in64(h64), sums64(n);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  counting_allocator a;
  {
    const scoped_scratch_allocator scope(a.allocator());
    // The tile counts of the phased path (which the pipelined one, at this size on Hopper, would not take) and
    // scan-scatter's chunk totals.
    for (const char* algo : {"decoupled-lookback:phased=on,pipelined=off", "scan-scatter"}) {
      const std::uint64_t before = a.allocations();
      const std::uint64_t kept = sluice::compact(in, flags, out, {device::cuda, algo, s});
      EXPECT_GT(a.allocations(), before) << algo << " took no scratch from the caller's allocator";
      expect_all_back(a, algo);
      ASSERT_EQ(kept, selected.size()) << algo;
      auto got = out.download();
      got.resize(kept);
      EXPECT_TRUE(got == selected) << algo;
    }

    std::uint64_t before = a.allocations();
    sluice::inclusive_scan(in64, sums64, sum{}, {device::cuda, "best", s});
    EXPECT_GT(a.allocations(), before) << "the 8-byte scan took no scratch from the caller's allocator";
    expect_all_back(a, "the 8-byte scan");
    sluice::inclusive_scan(in, sums32, sum{}, {device::cuda, "best", s});
    expect_all_back(a, "the 4-byte scan");

    before = a.allocations();
    sluice::radix_sort(keys, values, order::ascending, {}, {device::cuda, "best", s});
    EXPECT_GT(a.allocations(), before) << "the sort took no scratch from the caller's allocator";
    expect_all_back(a, "the sort");
  }
  EXPECT_EQ(a.on_other_streams(s), 0u) << "allocations for another stream than the call's";
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  std::vector<std::uint64_t> expected64(n);
  std::inclusive_scan(h64.begin(), h64.end(), expected64.begin());
  EXPECT_TRUE(sums64.download() == expected64);
  std::vector<std::uint32_t> expected32(n);
  std::inclusive_scan(h.begin(), h.end(), expected32.begin());
  EXPECT_TRUE(sums32.download() == expected32);
  expect_sorted_pairs(h, keys, values);
  cudaStreamDestroy(s);
}

// A scope inside another serves the calls until it ends, then the outer one serves them again; past the
// outermost, sluice's pool does.
TEST_F(gpu, scratch_allocators_nest) {
  const auto h = hashed(std::size_t{1} << 20);
  device_buffer<std::uint32_t> keys(h);
  bool ascending = true;
  auto sort = [&] {
    sluice::radix_sort(keys, ascending ? order::ascending : order::descending, {}, {device::cuda});
    ascending = !ascending;
  };
  counting_allocator outer, inner;
  {
    const scoped_scratch_allocator outer_scope(outer.allocator());
    sort();
    EXPECT_GT(outer.allocations(), 0u);
    {
      const scoped_scratch_allocator inner_scope(inner.allocator());
      const std::uint64_t o = outer.allocations();
      sort();
      EXPECT_GT(inner.allocations(), 0u) << "the inner scope did not serve";
      EXPECT_EQ(outer.allocations(), o) << "the outer scope served inside the inner one";
    }
    const std::uint64_t i = inner.allocations(), o = outer.allocations();
    sort();
    EXPECT_GT(outer.allocations(), o) << "the outer scope was not restored";
    EXPECT_EQ(inner.allocations(), i) << "the inner scope served after it ended";
  }
  const std::uint64_t i = inner.allocations(), o = outer.allocations();
  sort();
  EXPECT_EQ(outer.allocations(), o) << "the outer scope served after it ended";
  EXPECT_EQ(inner.allocations(), i);
  expect_all_back(outer, "the outer scope");
  expect_all_back(inner, "the inner scope");
  const auto sorted = keys.download();  // four sorts, the last descending
  EXPECT_TRUE(std::is_sorted(sorted.rbegin(), sorted.rend()));
}

// Scratch goes back to the allocator that lent it, whatever scope the freeing thread is in by then; sluice's
// own scratch, taken outside any scope, goes back to sluice inside one.
TEST_F(gpu, scratch_goes_back_where_it_came_from) {
  counting_allocator first, second;
  void* p = nullptr;
  {
    const scoped_scratch_allocator scope(first.allocator());
    p = cuda_backend::scratch_alloc(4096, nullptr, "scratch_goes_back_where_it_came_from");
  }
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(first.allocations(), 1u);
  void* own = cuda_backend::scratch_alloc(4096, nullptr, "scratch_goes_back_where_it_came_from");
  {
    const scoped_scratch_allocator scope(second.allocator());
    cuda_backend::scratch_free(own, nullptr);  // looked up among the lent pointers (p is), not found there
    cuda_backend::scratch_free(p, nullptr);
  }
  expect_all_back(first, "freeing in another scope");
  EXPECT_EQ(second.allocations(), 0u);
  EXPECT_EQ(second.deallocations(), 0u) << "memory the second allocator never lent was given to it";
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// An allocator that answers nullptr makes the call an out_of_memory, at each of the call's allocations in turn;
// what it lent before the refusal is all given back, and sluice's pool serves the call once the scope is gone.
TEST_F(gpu, scratch_allocator_refusal_is_out_of_memory) {
  const auto h = hashed(std::size_t{1} << 20);
  std::vector<std::uint32_t> index(h.size());
  std::iota(index.begin(), index.end(), 0u);
  device_buffer<std::uint32_t> keys(h), values(index);
  std::uint64_t asked = 0;
  {
    counting_allocator a;
    const scoped_scratch_allocator scope(a.allocator());
    sluice::radix_sort(keys, values, order::ascending, {}, {device::cuda});
    asked = a.allocations();
    expect_all_back(a, "the sort");
  }
  ASSERT_GT(asked, 0u);
  for (std::uint64_t refused = 0; refused < asked; ++refused) {
    counting_allocator a;
    a.refuse_from(refused);
    {
      const scoped_scratch_allocator scope(a.allocator());
      expect_error(errc::out_of_memory, {"the caller's scratch allocator returned no memory for"},
                   [&] { sluice::radix_sort(keys, values, order::ascending, {}, {device::cuda}); });
    }
    EXPECT_EQ(a.allocations(), refused);
    expect_all_back(a, "allocation " + std::to_string(refused) + " refused");
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  keys = device_buffer<std::uint32_t>(h);  // the call that failed promised nothing of them
  values = device_buffer<std::uint32_t>(index);
  sluice::radix_sort(keys, values, order::ascending, {}, {device::cuda});
  expect_sorted_pairs(h, keys, values);
}

// A scope made on another thread serves that thread's calls only.
TEST_F(gpu, scratch_allocator_is_per_thread) {
  const auto h = hashed(std::size_t{1} << 20);
  device_buffer<std::uint32_t> mine(h), theirs(h);
  counting_allocator their_allocator, my_allocator;
  std::promise<void> scoped_there, done_here;
  std::thread other([&, done = done_here.get_future()] {
    const scoped_scratch_allocator scope(their_allocator.allocator());
    scoped_there.set_value();
    done.wait();
    sluice::radix_sort(theirs, order::ascending, {}, {device::cuda});
  });
  scoped_there.get_future().wait();
  sluice::radix_sort(mine, order::descending, {}, {device::cuda});
  EXPECT_EQ(their_allocator.allocations(), 0u) << "another thread's scope served this thread";
  {
    const scoped_scratch_allocator scope(my_allocator.allocator());
    sluice::radix_sort(mine, order::ascending, {}, {device::cuda});
  }
  EXPECT_GT(my_allocator.allocations(), 0u);
  EXPECT_EQ(their_allocator.allocations(), 0u) << "another thread's scope served this thread";
  done_here.set_value();
  other.join();
  EXPECT_GT(their_allocator.allocations(), 0u) << "the scope did not serve its own thread";
  expect_all_back(their_allocator, "the other thread's sort");
  expect_all_back(my_allocator, "this thread's sort");
  for (auto* b : {&mine, &theirs}) {
    const auto sorted = b->download();
    EXPECT_TRUE(std::is_sorted(sorted.begin(), sorted.end()));
  }
}

}  // namespace
