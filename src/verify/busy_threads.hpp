// Load for the CPU schedule's tests and the contention benchmark: threads that keep `count` processors busy
// with arithmetic (no memory traffic) until destroyed, as other programs on a shared machine would.
#pragma once
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace sluice::verify {

class busy_threads {
 public:
  explicit busy_threads(int count) {
    for (int i = 0; i < count; ++i)
      threads_.emplace_back([this, i] {
        std::uint64_t x = static_cast<std::uint64_t>(i) + 1;
        while (!stop_.load(std::memory_order_relaxed))
          for (int k = 0; k < 4096; ++k) x = x * 6364136223846793005ull + 1442695040888963407ull;
        sink_.fetch_add(x, std::memory_order_relaxed);
      });
  }
  ~busy_threads() {
    stop_.store(true, std::memory_order_relaxed);
    for (auto& t : threads_) t.join();
  }
  busy_threads(const busy_threads&) = delete;
  busy_threads& operator=(const busy_threads&) = delete;

 private:
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> sink_{0};
  std::vector<std::thread> threads_;
};

}  // namespace sluice::verify
