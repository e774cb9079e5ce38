// The CPU backend's threads: each calling thread owns a team of worker threads, woken for a parallel call and
// asleep between calls (include/sluice/cpu/backend.hpp: run_parallel, barrier).
//
// Why not OpenMP's team: a machine is rarely ours alone. libgomp's idle threads spin up to GOMP_SPINCOUNT
// (300,000 pauses: milliseconds) at the end of every region before they sleep, and that spin takes the core a
// descheduled thread of the same call needs; its wait policy can only be set in the environment before the
// program starts. Here a waiting thread spins about 20 us when the team fits the processors it may run on, not at
// all when it does not, then sleeps on a futex (std::atomic::wait).
#include <omp.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "sluice/cpu/backend.hpp"

namespace sluice::cpu_backend {

namespace {

constexpr auto spin_time = std::chrono::microseconds(20);
// One word says which call the team runs and on how many threads, so that a worker reads both at once:
// (call number << thread_bits) | threads.
constexpr unsigned thread_bits = 13;  // threads <= 4096

inline void pause_once() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Wait until w differs from `seen`: spin a little (when `spin`), yield, then sleep.
template <class Word>
Word wait_change(const std::atomic<Word>& w, Word seen, bool spin) noexcept {
  Word now = w.load(std::memory_order_acquire);
  if (now != seen) return now;
  if (spin) {
    const auto until = std::chrono::steady_clock::now() + spin_time;
    do {
      for (int i = 0; i < 64; ++i) {
        pause_once();
        if ((now = w.load(std::memory_order_acquire)) != seen) return now;
      }
    } while (std::chrono::steady_clock::now() < until);
  }
  std::this_thread::yield();
  while ((now = w.load(std::memory_order_acquire)) == seen) w.wait(seen, std::memory_order_acquire);
  return now;
}

struct team {
  pid_t pid = getpid();
  std::vector<std::thread> workers;
  std::atomic<bool> spin{true};  // the current call's threads fit the processors
  // The call: written before `call` announces it; read by its workers after they see it.
  void (*body)(void*, int, int) = nullptr;
  void* ctx = nullptr;
  std::atomic<std::uint32_t> call{0};
  std::atomic<std::uint32_t> remaining{0};  // workers still in the call
  std::atomic<bool> quit{false};
  // The barrier of the call's threads (sense by generation).
  std::atomic<std::uint32_t> arrived{0}, generation{0};
  std::uint32_t threads = 1;

  ~team() {
    quit.store(true, std::memory_order_relaxed);
    call.fetch_add(1u << thread_bits, std::memory_order_release);
    call.notify_all();
    for (auto& w : workers) w.join();
  }
  void grow(int want);  // at least `want` workers
};

thread_local team* current = nullptr;  // the team whose call this thread runs now

void worker_loop(team* t, int index) {
  std::uint32_t seen = 0;
  for (;;) {
    seen = wait_change(t->call, seen, t->spin.load(std::memory_order_relaxed));
    if (t->quit.load(std::memory_order_relaxed)) return;
    const int threads = static_cast<int>(seen & ((1u << thread_bits) - 1));
    if (index + 1 >= threads) continue;  // not in this call
    current = t;
    t->body(t->ctx, index + 1, threads);
    current = nullptr;
    if (t->remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) t->remaining.notify_one();
  }
}

void team::grow(int want) {
  while (static_cast<int>(workers.size()) < want) {
    const int index = static_cast<int>(workers.size());
    workers.emplace_back(worker_loop, this, index);
  }
}

// The calling thread's team. After a fork the child has the parent's team but not its threads: it leaves that
// team alone (it cannot be joined) and makes a new one.
team& my_team() {
  thread_local std::unique_ptr<team> mine;
  if (mine && mine->pid != getpid()) (void)mine.release();
  if (!mine) mine = std::make_unique<team>();
  return *mine;
}

}  // namespace

int processors() noexcept {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
  const unsigned h = std::thread::hardware_concurrency();
  return h > 0 ? static_cast<int>(h) : 1;
}

void run_parallel(int threads, void (*body)(void*, int, int), void* ctx) {
  // One thread; or nested in a call of ours, or in the caller's OpenMP region: that thread alone.
  if (threads <= 1 || current != nullptr || omp_in_parallel()) {
    body(ctx, 0, 1);
    return;
  }
  team& t = my_team();
  t.grow(threads - 1);
  const bool spin = threads <= processors();
  t.spin.store(spin, std::memory_order_relaxed);
  t.body = body;
  t.ctx = ctx;
  t.threads = static_cast<std::uint32_t>(threads);
  t.arrived.store(0, std::memory_order_relaxed);
  t.remaining.store(static_cast<std::uint32_t>(threads - 1), std::memory_order_relaxed);
  const std::uint32_t number = (t.call.load(std::memory_order_relaxed) >> thread_bits) + 1;
  t.call.store((number << thread_bits) | static_cast<std::uint32_t>(threads), std::memory_order_release);
  t.call.notify_all();
  current = &t;
  body(ctx, 0, threads);
  current = nullptr;
  for (std::uint32_t left = t.remaining.load(std::memory_order_acquire); left != 0; left = t.remaining.load(std::memory_order_acquire))
    wait_change(t.remaining, left, spin);
}

void barrier() {
  team* t = current;
  if (t == nullptr) return;  // one thread
  const std::uint32_t g = t->generation.load(std::memory_order_acquire);
  if (t->arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == t->threads) {
    t->arrived.store(0, std::memory_order_relaxed);
    t->generation.store(g + 1, std::memory_order_release);
    t->generation.notify_all();
    return;
  }
  wait_change(t->generation, g, t->spin.load(std::memory_order_relaxed));
}

}  // namespace sluice::cpu_backend
