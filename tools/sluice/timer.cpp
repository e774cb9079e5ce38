#include "timer.hpp"

#include "sluice/gl/backend.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <omp.h>
#include <unistd.h>

#include "sluice/config.hpp"
#include "sluice/cpu/backend.hpp"
#include "sluice/cuda/backend.hpp"
#include "sluice/detail/step_recorder.hpp"
#if SLUICE_HAS_CUDA
#include <cuda_runtime.h>
#endif

namespace sluice::tool {

namespace {
// Times one call at a time, on the devices the timings here serve: CUDA events on the GPU (made once, the
// device idle first), a steady clock on the CPU.
class call_timer {
 public:
  explicit call_timer(device d) : d_(d) {
#if SLUICE_HAS_CUDA
    if (d_ == device::cuda) {
      cuda_backend::check_cuda(cudaEventCreate(&a_), "bench", "cudaEventCreate");
      cuda_backend::check_cuda(cudaEventCreate(&b_), "bench", "cudaEventCreate");
      cuda_backend::check_cuda(cudaDeviceSynchronize(), "bench", "cudaDeviceSynchronize");
    }
#endif
  }
  call_timer(const call_timer&) = delete;
  call_timer& operator=(const call_timer&) = delete;
  ~call_timer() {
#if SLUICE_HAS_CUDA
    if (d_ == device::cuda) cudaEventDestroy(a_), cudaEventDestroy(b_);
#endif
  }
  // Whether this device is timed here (cuda, cpu); elsewhere nothing is run.
  bool times() const { return d_ == device::cuda || d_ == device::cpu; }
  // Milliseconds of one call of f.
  double ms(const std::function<void()>& f) {
#if SLUICE_HAS_CUDA
    if (d_ == device::cuda) {
      cudaEventRecord(a_);
      f();
      cudaEventRecord(b_);
      cuda_backend::check_cuda(cudaEventSynchronize(b_), "bench", "cudaEventSynchronize");
      float t = 0;
      cudaEventElapsedTime(&t, a_, b_);
      return t;
    }
#endif
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }

 private:
  device d_;
#if SLUICE_HAS_CUDA
  cudaEvent_t a_ = nullptr, b_ = nullptr;
#endif
};

timing median_of(std::vector<double>& ms, int reps) {
  std::sort(ms.begin(), ms.end());
  return {ms.empty() ? 0.0 : ms[ms.size() / 2], reps};
}
}  // namespace

std::vector<timing> time_interleaved(device d, int reps, const std::vector<std::function<void()>>& fs) {
  const std::size_t k = fs.size();
  std::vector<std::vector<double>> ms(k);
  for (const auto& f : fs) f();  // warm-up: module load, scratch pool growth
  call_timer timer(d);
  if (timer.times())
    for (int r = 0; r < reps; ++r)
      for (std::size_t j = 0; j < k; ++j) {
        const std::size_t c = (static_cast<std::size_t>(r) + j) % k;
        ms[c].push_back(timer.ms(fs[c]));
      }
  std::vector<timing> out;
  for (auto& v : ms) out.push_back(median_of(v, reps));
  return out;
}

timing time_median(device d, int reps, const std::function<void()>& f, const std::function<void()>& setup) {
  std::vector<double> ms;
  if (setup) setup();
  f();  // warm-up: module load, scratch pool growth
  call_timer timer(d);
  if (timer.times())
    for (int r = 0; r < reps; ++r) {
      if (setup) setup();
      ms.push_back(timer.ms(f));
    }
  return median_of(ms, reps);
}

#if SLUICE_HAS_CUDA
namespace {
// Records an event after each marked step on the step's stream; events are reused from one run to the next.
class event_steps final : public detail::step_recorder {
 public:
  ~event_steps() {
    for (auto e : events_) cudaEventDestroy(e);
  }
  void start() {
    names_.clear();
    record(nullptr);
  }
  void after(const char* step, void* stream) override {
    names_.emplace_back(step);
    record(static_cast<cudaStream_t>(stream));
  }
  // Milliseconds of each step of the last run (synchronizes).
  std::vector<std::pair<std::string, double>> times() {
    cuda_backend::check_cuda(cudaDeviceSynchronize(), "bench", "cudaDeviceSynchronize");
    std::vector<std::pair<std::string, double>> t;
    for (std::size_t i = 0; i < names_.size(); ++i) {
      float ms = 0;
      cuda_backend::check_cuda(cudaEventElapsedTime(&ms, events_[i], events_[i + 1]), "bench", "cudaEventElapsedTime");
      t.emplace_back(names_[i], ms);
    }
    return t;
  }

 private:
  void record(cudaStream_t s) {
    const std::size_t k = names_.size();  // event k follows step k (event 0: the start)
    if (events_.size() <= k) {
      cudaEvent_t e;
      cuda_backend::check_cuda(cudaEventCreate(&e), "bench", "cudaEventCreate");
      events_.push_back(e);
    }
    cuda_backend::check_cuda(cudaEventRecord(events_[k], s), "bench", "cudaEventRecord");
  }
  std::vector<cudaEvent_t> events_;
  std::vector<std::string> names_;
};
}  // namespace

std::vector<std::pair<std::string, double>> time_steps_median(int reps, const std::function<void()>& f) {
  f();  // warm-up
  event_steps rec;
  struct installed {
    explicit installed(detail::step_recorder* r) { detail::set_step_recorder(r); }
    ~installed() { detail::set_step_recorder(nullptr); }
  } guard(&rec);
  std::vector<std::vector<std::pair<std::string, double>>> runs;
  for (int r = 0; r < reps; ++r) {
    rec.start();
    f();
    runs.push_back(rec.times());
  }
  std::vector<std::pair<std::string, double>> med = runs.empty() ? decltype(med){} : runs[0];
  for (std::size_t i = 0; i < med.size(); ++i) {
    std::vector<double> v;
    for (const auto& run : runs)
      if (i < run.size()) v.push_back(run[i].second);
    std::sort(v.begin(), v.end());
    med[i].second = v[v.size() / 2];
  }
  return med;
}
#else
std::vector<std::pair<std::string, double>> time_steps_median(int, const std::function<void()>&) { return {}; }
#endif

std::string machine_name(device d) {
#if SLUICE_HAS_CUDA
  if (d == device::cuda) {
    int dev = 0;
    cudaDeviceProp p{};
    if (cudaGetDevice(&dev) == cudaSuccess && cudaGetDeviceProperties(&p, dev) == cudaSuccess)
      return std::string(p.name) + ", " + std::to_string(p.multiProcessorCount) + " SMs";
    return "cuda";
  }
#endif
  if (d == device::gl) return "OpenGL: " + gl_backend::renderer();
  std::string model = "CPU";
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  return model + ", " + std::to_string(cpu_threads()) + " threads";
}

int cpu_threads() {
  static const int threads = cpu_backend::default_threads();  // the CPU backend's own default, the same threads
  return threads;
}

namespace {

// Each thread copies or reads at least this much: below it the fork and join of a parallel region (about 1.5 us
// on the 2-core Xeon this was written on, where one thread copies 64 KiB in 2 us) cost more than a thread saves.
constexpr std::size_t min_slice_bytes = std::size_t{64} << 10;

int threads_for(std::size_t bytes) {
  return static_cast<int>(std::clamp<std::size_t>(bytes / min_slice_bytes, 1, static_cast<std::size_t>(cpu_threads())));
}

// Where slice k of m over [base, base + bytes) starts: an even share, moved up to a 64-byte aligned address so
// that no two threads touch one cache line.
std::size_t slice_start(const void* base, std::size_t bytes, int k, int m) {
  if (k <= 0) return 0;
  if (k >= m) return bytes;
  const auto a = reinterpret_cast<std::uintptr_t>(base);
  const std::uintptr_t start = (a + bytes / static_cast<std::size_t>(m) * static_cast<std::size_t>(k) + 63) & ~std::uintptr_t{63};
  return std::min(static_cast<std::size_t>(start - a), bytes);
}

// How far ahead sum_u32 prefetches, in u32: 4 KiB. On the 2-core Xeon this was written on, two threads read
// 2^26 u32 in 13 to 14 ms with it (512 to 4096 u32 ahead alike) and in 16.5 ms without.
constexpr std::size_t prefetch_ahead = 1024;

// Whether a slice of `bytes` streams from beyond the L2, where prefetching pays; within it (2 MiB here) the
// prefetches cost a third of the rate. Unknown L2 size: prefetch.
bool prefetch_pays(std::size_t bytes) {
#ifdef _SC_LEVEL2_CACHE_SIZE
  static const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  return l2 <= 0 || bytes > static_cast<std::size_t>(l2);
#else
  return true;
#endif
}

// Sixteen lanes (four independent accumulators of four u32) so the adds keep up with the loads; with
// `prefetch`, one prefetch per 64-byte line, as the hardware prefetcher alone leaves a core short of its share
// of the bandwidth.
template <bool prefetch>
std::uint32_t sum_u32(const std::uint32_t* p, std::size_t n) {
  std::uint32_t acc[16] = {};
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    if (prefetch && i + prefetch_ahead < n) __builtin_prefetch(p + i + prefetch_ahead);
    for (int j = 0; j < 16; ++j) acc[j] += p[i + j];
  }
  std::uint32_t s = 0;
  for (; i < n; ++i) s += p[i];
  for (std::uint32_t a : acc) s += a;
  return s;
}

}  // namespace

std::uint32_t cpu_read(const std::uint32_t* p, std::size_t n) {
  const std::size_t bytes = n * sizeof(std::uint32_t);
  const int t = threads_for(bytes);
  auto sum = [](const std::uint32_t* q, std::size_t m) {
    return prefetch_pays(m * sizeof(std::uint32_t)) ? sum_u32<true>(q, m) : sum_u32<false>(q, m);
  };
  if (t == 1) return sum(p, n);  // no parallel region: even an inactive one costs as much as 4 KiB takes
  std::uint32_t total = 0;
#pragma omp parallel num_threads(t) reduction(+ : total)
  {
    const int k = omp_get_thread_num(), m = omp_get_num_threads();
    const std::size_t lo = slice_start(p, bytes, k, m) / sizeof(std::uint32_t);
    const std::size_t hi = slice_start(p, bytes, k + 1, m) / sizeof(std::uint32_t);
    total += sum(p + lo, hi - lo);
  }
  return total;
}

void device_copy(device d, void* dst, const void* src, std::size_t bytes) {
  if (d == device::cpu) {
    const int t = threads_for(bytes);
    if (t == 1) {
      std::memcpy(dst, src, bytes);
      return;
    }
#pragma omp parallel num_threads(t)
    {
      const int k = omp_get_thread_num(), m = omp_get_num_threads();
      const std::size_t lo = slice_start(src, bytes, k, m), hi = slice_start(src, bytes, k + 1, m);
      if (hi > lo) std::memcpy(static_cast<char*>(dst) + lo, static_cast<const char*>(src) + lo, hi - lo);
    }
    return;
  }
#if SLUICE_HAS_CUDA
  cuda_backend::check_cuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice), "bench", "cudaMemcpyAsync");
#endif
}

}  // namespace sluice::tool
