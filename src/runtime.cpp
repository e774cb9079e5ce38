// Device detection, pointer checks, device memory, the scratch pool and the caller's scratch allocator. Built
// with or without CUDA: without it every CUDA service reports errc::no_device.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "sluice/config.hpp"
#include "sluice/cuda/backend.hpp"
#include "sluice/detail/step_recorder.hpp"
#include "sluice/device_buffer.hpp"
#include "sluice/gl/backend.hpp"
#include "sluice/error.hpp"
#include "sluice/options.hpp"
#include "sluice/scratch.hpp"

#if SLUICE_HAS_CUDA
#include <cuda.h>  // the driver's types only: its one entry point used here is asked of the runtime (no libcuda link)
#include <cuda_runtime.h>
#endif

namespace sluice {

namespace {
// This thread's scratch allocator (the innermost scoped_scratch_allocator); null: sluice's pool.
thread_local const scratch_allocator* callers_allocator = nullptr;

[[noreturn]] void no_cuda(const char* fn) {
  throw error(errc::no_device, std::string("sluice::") + fn + ": the cuda device was asked for, but this sluice was built without CUDA");
}

#if SLUICE_HAS_CUDA
// The GPUs CUDA reports, asked once, and why it reports none where it cannot count them.
struct device_census {
  int count = 0;
  cudaError_t error = cudaSuccess;
};
const device_census& census() noexcept {
  static const device_census c = [] {
    device_census d;
    d.error = cudaGetDeviceCount(&d.count);
    if (d.error != cudaSuccess) {
      (void)cudaGetLastError();
      d.count = 0;
    }
    return d;
  }();
  return c;
}
int device_count() noexcept { return census().count; }

// One message for "no GPU", whichever CUDA call meets it first: require_device's check, or a call that allocates
// before it (a synchronous count's scratch word). Without a driver CUDA says cudaErrorInsufficientDriver, which
// alone reads as if a GPU were there.
std::string no_gpu_message(const char* fn, cudaError_t e) {
  std::string m = std::string("sluice::") + fn + ": the cuda device was asked for, but no CUDA GPU is present";
  if (e == cudaErrorInsufficientDriver) m += " (cudaErrorInsufficientDriver: no CUDA driver, or one older than this CUDA runtime)";
  return m;
}

void check(cudaError_t e, const char* fn, const char* what) {
  if (e == cudaSuccess) return;
  (void)cudaGetLastError();  // clear a sticky-free error so the next call starts clean
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) throw error(errc::no_device, no_gpu_message(fn, e));
  const errc code = e == cudaErrorMemoryAllocation ? errc::out_of_memory : errc::cuda_error;
  throw error(code, std::string("sluice::") + fn + ": " + what + " failed: " + cudaGetErrorName(e) + " (" +
                        cudaGetErrorString(e) + ")");
}

// One stream-ordered pool per device: scratch is reused across calls without host synchronisation and
// can be captured in CUDA graphs. Past a synchronisation the pool keeps at most 1 / pool_keep_share of the
// device's memory in freed scratch (10 GB on an 80 GB H100: a sort's buffers for 2^30 keys and values) and
// hands the rest back; sluice's own allocations that fail trim it and try again, and release_scratch() gives
// it all back (docs/guide/cuda.md). Kept because taking a sort's buffers anew at every call costs
// it 0.7 ms at 2^28 keys, 10-12% (measured on an H100, 2026-11; docs/design/sort.md).
constexpr std::uint64_t pool_keep_share = 8;
std::mutex pools_mutex;
std::vector<cudaMemPool_t> pools;  // by device; null where sluice has not allocated yet

// This thread's stream capture mode relaxed for a scope: the first sluice call of a process may come inside
// a capture, and a global-mode capture forbids making the pool then (cudaErrorStreamCaptureUnsupported).
struct relaxed_capture_mode {
  cudaStreamCaptureMode old = cudaStreamCaptureModeRelaxed;
  relaxed_capture_mode() { (void)cudaThreadExchangeStreamCaptureMode(&old); }
  ~relaxed_capture_mode() { (void)cudaThreadExchangeStreamCaptureMode(&old); }
};

// Device dev's pool, made at its first use.
cudaMemPool_t pool_for_device(int dev, const char* fn) {
  std::lock_guard lock(pools_mutex);
  if (pools.size() <= static_cast<std::size_t>(dev)) pools.resize(dev + 1, nullptr);
  if (!pools[dev]) {
    const relaxed_capture_mode relaxed;
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    cudaMemPool_t p;
    check(cudaMemPoolCreate(&p, &props), fn, "cudaMemPoolCreate");
    std::size_t free = 0, total = 0;
    check(cudaMemGetInfo(&free, &total), fn, "cudaMemGetInfo");
    std::uint64_t keep = total / pool_keep_share;
    check(cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &keep), fn, "cudaMemPoolSetAttribute");
    pools[dev] = p;
  }
  return pools[dev];
}
cudaMemPool_t pool_for_current_device(const char* fn) {
  int dev = 0;
  check(cudaGetDevice(&dev), fn, "cudaGetDevice");
  return pool_for_device(dev, fn);
}

std::uint64_t drop_stream_scratch(int dev) noexcept;  // below: the streams' own buffers

// Wait for the device, then hand every freed byte of the current device's pool back; the bytes the pool
// held before less those it holds after (0 where there is no pool, or while a stream is being captured:
// waiting for the device is not allowed then).
std::uint64_t trim_pool_of_current_device() noexcept {
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return (void)cudaGetLastError(), 0;
  std::lock_guard lock(pools_mutex);
  if (pools.size() <= static_cast<std::size_t>(dev) || !pools[dev]) return 0;
  if (cudaDeviceSynchronize() != cudaSuccess) return (void)cudaGetLastError(), 0;
  (void)drop_stream_scratch(dev);
  std::uint64_t before = 0, after = 0;
  (void)cudaMemPoolGetAttribute(pools[dev], cudaMemPoolAttrReservedMemCurrent, &before);
  (void)cudaMemPoolTrimTo(pools[dev], 0);
  (void)cudaMemPoolGetAttribute(pools[dev], cudaMemPoolAttrReservedMemCurrent, &after);
  (void)cudaGetLastError();
  return before > after ? before - after : 0;
}

bool capturing(cudaStream_t s) noexcept {
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(s, &st) != cudaSuccess) return (void)cudaGetLastError(), true;
  return st != cudaStreamCaptureStatusNone;
}

// Runs `allocate` (a CUDA allocation); where it runs out of memory outside a stream capture, hands back the
// freed bytes sluice's pool holds (too small or in pieces for the request) and, if there were any, runs it once
// more. Its error, or cudaSuccess.
template <class Allocate>
cudaError_t retried_after_trim(Allocate allocate, cudaStream_t s) {
  const cudaError_t e = allocate();
  if (e != cudaErrorMemoryAllocation || capturing(s)) return e;
  (void)cudaGetLastError();
  return trim_pool_of_current_device() > 0 ? allocate() : e;
}

// A stream's own scratch, kept between calls so that small calls allocate nothing (a stream-ordered
// allocation and release cost a call 1.5-3 us on an H100, 2026-11; docs/design/lookback.md). Two buffers per
// stream, keyed by cudaStreamGetId (never reused, unlike a destroyed stream's handle), each lent to one
// scratch of one call at a time: the next call on that stream runs after this one's kernels, so they never
// share it. `plain` serves any scratch; `states` only look-back tile states, zeroed when it is made and
// handed out with a new epoch at every call (kept_states_alloc), so that no call needs to zero them.
// Not while the stream is being captured (a graph may run on another stream: those calls take the pool's).
// At most cached_streams streams per device and cached_bytes per buffer; beyond, the pool as before.
constexpr std::size_t cached_streams = 64;
constexpr std::size_t cached_bytes = std::size_t{1} << 20;
struct kept_buffer {
  void* p = nullptr;
  std::size_t bytes = 0;
  bool lent = false;
  unsigned epoch = 0;     // states: the epoch of the last call that borrowed it (0: zeroed since)
  bool spoiled = false;   // states: a call borrowed them and launched nothing (kept_states_spoil): zero first
};
struct stream_scratch {
  int dev;
  unsigned long long stream_id;
  kept_buffer plain, states;
};
std::mutex cache_mutex;
std::vector<stream_scratch> cache;
std::atomic<unsigned> epoch_limit{cuda_backend::kept_state_epochs};  // lowered by tests

// The stream's plain or states buffer, at least `bytes` long, lent to the caller; null where the pool is to
// serve. For states, *epoch: this call's epoch, 1 to kept_state_epochs - 1, never handed out twice between
// two zeroings of the buffer.
void* borrow_stream_scratch(bool states, std::size_t bytes, cudaStream_t s, const char* fn, unsigned* epoch) {
  if (bytes > cached_bytes || capturing(s)) return nullptr;
  int dev = 0;
  unsigned long long id = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaStreamGetId(s, &id) != cudaSuccess) return (void)cudaGetLastError(), nullptr;
  cudaMemPool_t pool = pool_for_device(dev, fn);  // before cache_mutex: the trim takes pools_mutex, then it
  std::lock_guard lock(cache_mutex);
  stream_scratch* e = nullptr;
  std::size_t on_device = 0;
  for (auto& c : cache) {
    on_device += c.dev == dev;
    if (c.dev == dev && c.stream_id == id) e = &c;
  }
  if (!e) {
    if (on_device >= cached_streams) return nullptr;
    e = &cache.emplace_back(stream_scratch{dev, id, {}, {}});
  }
  kept_buffer& b = states ? e->states : e->plain;
  if (b.lent) return nullptr;  // another scratch of this call, or another thread's call on this stream
  bool zero = states && (b.epoch + 1 >= epoch_limit.load() || b.spoiled);  // every epoch used, or left unused
  if (b.bytes < bytes) {  // grow: the old buffer goes back after this stream's earlier calls
    const std::size_t grown = std::max(bytes, std::min(cached_bytes, 2 * b.bytes));
    void* p = nullptr;
    if (cudaMallocFromPoolAsync(&p, grown, pool, s) != cudaSuccess) return (void)cudaGetLastError(), nullptr;
    if (b.p) (void)cudaFreeAsync(b.p, s);
    b.p = p, b.bytes = grown, zero = states;
  }
  if (zero) {
    if (cudaMemsetAsync(b.p, 0, b.bytes, s) != cudaSuccess) {  // keep nothing unzeroed: drop the buffer
      (void)cudaGetLastError();
      (void)cudaFreeAsync(b.p, s);
      b = kept_buffer{};
      return nullptr;
    }
    b.epoch = 0, b.spoiled = false;
  }
  if (states) *epoch = ++b.epoch;
  b.lent = true;
  return b.p;
}

// True where p was a stream's buffer (now free for its next call).
bool give_back_stream_scratch(void* p) noexcept {
  std::lock_guard lock(cache_mutex);
  for (auto& c : cache)
    for (kept_buffer* b : {&c.plain, &c.states})
      if (b->p == p && b->lent) return b->lent = false, true;
  return false;
}

// Every buffer not lent, of the current device, back to the pool (after the device is idle: the caller
// synchronised it); their bytes.
std::uint64_t drop_stream_scratch(int dev) noexcept {
  std::lock_guard lock(cache_mutex);
  std::uint64_t bytes = 0;
  for (auto& c : cache) {
    if (c.dev != dev) continue;
    for (kept_buffer* b : {&c.plain, &c.states}) {
      if (b->lent || !b->p) continue;
      (void)cudaFreeAsync(b->p, cudaStreamLegacy);
      bytes += b->bytes;
      *b = kept_buffer{};
    }
  }
  std::erase_if(cache, [&](const stream_scratch& c) { return c.dev == dev && !c.plain.p && !c.states.p; });
  (void)cudaStreamSynchronize(cudaStreamLegacy);
  (void)cudaGetLastError();
  return bytes;
}

// Scratch that callers' allocators lent, with the allocator each came from: scratch_free gives it back there
// whichever allocator the freeing thread has by then. lent_count lets scratch_free skip the mutex while none is.
struct lent_scratch {
  void* p;
  std::size_t bytes;
  CUstream_st* stream;
  scratch_allocator from;
};
std::mutex lent_mutex;
std::vector<lent_scratch> lent;
std::atomic<std::size_t> lent_count{0};

void* callers_scratch(const scratch_allocator& a, std::size_t bytes, CUstream_st* stream, const char* fn) {
  if (bytes == 0) return nullptr;
  void* const p = a.allocate(a.context, bytes, stream);
  if (!p)
    throw error(errc::out_of_memory, std::string("sluice::") + fn + ": the caller's scratch allocator returned no memory for " +
                                         std::to_string(bytes) + " bytes");
  try {
    std::lock_guard lock(lent_mutex);
    lent.push_back({p, bytes, stream, a});
    lent_count.fetch_add(1, std::memory_order_release);
  } catch (...) {
    a.deallocate(a.context, p, bytes, stream);
    throw;
  }
  return p;
}

// True where p was lent by a caller's allocator, now given back to it (outside the mutex: it may take its own locks).
bool give_back_callers_scratch(void* p) noexcept {
  if (lent_count.load(std::memory_order_acquire) == 0) return false;
  lent_scratch found{};
  {
    std::lock_guard lock(lent_mutex);
    const auto at = std::find_if(lent.begin(), lent.end(), [&](const lent_scratch& l) { return l.p == p; });
    if (at == lent.end()) return false;
    found = *at;
    *at = lent.back();
    lent.pop_back();
    lent_count.fetch_sub(1, std::memory_order_release);
  }
  found.from.deallocate(found.from.context, found.p, found.bytes, found.stream);
  return true;
}
#endif
}  // namespace

scoped_scratch_allocator::scoped_scratch_allocator(const scratch_allocator& a) : mine_(a), previous_(callers_allocator) {
  if (!a.allocate || !a.deallocate)
    throw error(errc::invalid_argument, std::string("sluice::scoped_scratch_allocator: the allocator's '") +
                                            (a.allocate ? "deallocate" : "allocate") + "' is null");
  callers_allocator = &mine_;
}

scoped_scratch_allocator::~scoped_scratch_allocator() { callers_allocator = previous_; }

std::uint64_t release_scratch() noexcept {
#if SLUICE_HAS_CUDA
  if (device_count() == 0) return 0;
  return trim_pool_of_current_device();
#else
  return 0;
#endif
}

bool device_available(device d) noexcept {
  if (d == device::cpu) return true;
  if (d == device::gl) return gl_backend::available();
#if SLUICE_HAS_CUDA
  return device_count() > 0;
#else
  return false;
#endif
}

namespace cuda_backend {

#if SLUICE_HAS_CUDA
void require_device(const char* fn) {
  if (device_count() == 0) throw error(errc::no_device, no_gpu_message(fn, census().error));
}

// The driver's cuPointerGetAttributes, asked for one attribute: 0.07-0.08 us a call on the H100's host, where
// cudaPointerGetAttributes, which asks the driver for several, takes 0.12-0.14 (measured on the H100, 2026-11).
// Unlike cuPointerGetAttribute it answers memory CUDA does not know with success and a zero type, not an
// error (which compute-sanitizer would report). Null where the driver has no such entry point.
using pointer_attributes_fn = CUresult (*)(unsigned, CUpointer_attribute*, void**, CUdeviceptr);
pointer_attributes_fn driver_pointer_attributes() noexcept {
  static const pointer_attributes_fn f = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuPointerGetAttributes", &p, 12000, cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      (void)cudaGetLastError();
      return pointer_attributes_fn{};
    }
    return reinterpret_cast<pointer_attributes_fn>(p);
  }();
  return f;
}

void check_device_pointer(const char* fn, const char* arg, const void* p) {
  if (p == nullptr) return;  // null with size 0 is fine; null with size > 0 was refused before
  // Device memory answers the driver's one question; anything else (managed, mapped host memory, memory CUDA
  // does not know, a driver without the entry point) takes the runtime's full answer below, as it always did.
  if (const auto attributes = driver_pointer_attributes()) {
    CUpointer_attribute asked = CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
    unsigned type = 0;
    void* answer = &type;
    if (attributes(1, &asked, &answer, reinterpret_cast<CUdeviceptr>(p)) == CUDA_SUCCESS && type == CU_MEMORYTYPE_DEVICE) return;
  }
  cudaPointerAttributes a{};
  check(cudaPointerGetAttributes(&a, p), fn, "cudaPointerGetAttributes");
  if (a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged) return;
  if (is_host_slot(p)) return;  // a synchronous call's own count or result, mapped into the device (host_slot_take)
  throw error(errc::invalid_argument, std::string("sluice::") + fn + ": '" + arg +
                                          "' points to host memory, but the cuda device needs device or managed memory");
}

// The caller's allocator, where the thread has one, serves plain scratch in place of the stream's kept buffer
// and the pool: it caches on its own terms.
void* scratch_alloc(std::size_t bytes, CUstream_st* stream, const char* fn) {
  if (const scratch_allocator* a = callers_allocator) {
    require_device(fn);  // a synchronous count's word comes before the call's own check: no GPU is no_device
    return callers_scratch(*a, bytes, stream, fn);
  }
  if (void* own = borrow_stream_scratch(false, bytes, stream, fn, nullptr)) return own;
  void* p = nullptr;
  cudaMemPool_t pool = pool_for_current_device(fn);
  check(retried_after_trim([&] { return cudaMallocFromPoolAsync(&p, bytes, pool, stream); }, stream), fn, "scratch allocation");
  return p;
}

void* kept_states_alloc(std::size_t bytes, CUstream_st* stream, const char* fn, unsigned* epoch) {
  return borrow_stream_scratch(true, bytes, stream, fn, epoch);
}

void kept_states_spoil(void* p) noexcept {
  std::lock_guard lock(cache_mutex);
  for (auto& c : cache)
    if (c.states.p == p && c.states.lent) c.states.spoiled = true;
}

void set_kept_state_epoch_limit(unsigned limit) noexcept {
  epoch_limit = limit == 0 || limit > kept_state_epochs ? kept_state_epochs : limit < 2 ? 2 : limit;
}

void scratch_free(void* p, CUstream_st* stream) noexcept {
  if (p && !give_back_callers_scratch(p) && !give_back_stream_scratch(p)) (void)cudaFreeAsync(p, stream);
}

// Result slots of synchronous calls (host_slot_take): pages of pinned, mapped, portable host memory cut into
// 16-byte slots, kept for the process's life (a page serves 256 calls at once); a free list under a mutex.
namespace {
constexpr std::size_t host_slot_page = 4096;
std::mutex host_slots_mutex;
std::vector<void*> free_host_slots;
std::vector<int> host_slots_mappable;  // per device: 0 not asked, 1 yes, 2 no
std::vector<const char*> host_slot_pages;
}  // namespace

bool is_host_slot(const void* p) noexcept {
  const char* c = static_cast<const char*>(p);
  std::lock_guard lock(host_slots_mutex);
  for (const char* page : host_slot_pages)
    if (c >= page && c < page + host_slot_page) return true;
  return false;
}

void* host_slot_take(const char*) noexcept {
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return (void)cudaGetLastError(), nullptr;
  std::lock_guard lock(host_slots_mutex);
  if (host_slots_mappable.size() <= static_cast<std::size_t>(dev)) host_slots_mappable.resize(dev + 1, 0);
  int& mappable = host_slots_mappable[dev];
  if (mappable == 0) {
    int can = 0, unified = 0;
    const bool asked = cudaDeviceGetAttribute(&can, cudaDevAttrCanMapHostMemory, dev) == cudaSuccess &&
                       cudaDeviceGetAttribute(&unified, cudaDevAttrUnifiedAddressing, dev) == cudaSuccess;
    if (!asked) (void)cudaGetLastError();
    mappable = asked && can && unified ? 1 : 2;  // unified addressing: the host pointer is the device's too
  }
  if (mappable != 1) return nullptr;
  if (free_host_slots.empty()) {
    void* page = nullptr;
    if (cudaHostAlloc(&page, host_slot_page, cudaHostAllocMapped | cudaHostAllocPortable) != cudaSuccess)
      return (void)cudaGetLastError(), nullptr;
    host_slot_pages.push_back(static_cast<const char*>(page));
    for (std::size_t at = host_slot_page; at > 0; at -= host_slot_bytes) free_host_slots.push_back(static_cast<char*>(page) + at - host_slot_bytes);
  }
  void* slot = free_host_slots.back();
  free_host_slots.pop_back();
  return slot;
}

void host_slot_give(void* slot) noexcept {
  if (!slot) return;
  std::lock_guard lock(host_slots_mutex);
  free_host_slots.push_back(slot);
}

// The slot's words: [0] the result, armed with all ones; [1] the permission to watch it (one host thread writes
// and reads it: no kernel touches it).
void arm_host_slot(void* slot, bool permitted) noexcept {
  auto* const words = static_cast<std::uint64_t*>(slot);
  std::atomic_ref<std::uint64_t>(words[0]).store(~std::uint64_t{0}, std::memory_order_relaxed);
  words[1] = permitted;
}

void permit_watch(void* slot) noexcept { static_cast<std::uint64_t*>(slot)[1] = 1; }

namespace {
std::atomic<std::uint64_t> watches_permitted{0}, watches_changed{0};
std::atomic<double> watch_limit{watch_limit_us};
bool changed() noexcept { return watches_changed.fetch_add(1, std::memory_order_relaxed), true; }
}  // namespace
watch_counts watches() noexcept {
  return {watches_permitted.load(std::memory_order_relaxed), watches_changed.load(std::memory_order_relaxed)};
}
void set_watch_limit_us(double us) noexcept { watch_limit.store(us > 0 ? us : watch_limit_us, std::memory_order_relaxed); }

// Reads the slot until it changes; every 256 reads the clock, and the stream (a result equal to the armed pattern
// leaves the slot as it was: the stream's end then ends the watch; so does a failure, which the caller's
// synchronize reports).
bool watch_host_slot(const void* slot, CUstream_st* stream) noexcept {
  if (static_cast<const std::uint64_t*>(slot)[1] != 1) return false;  // not permitted
  watches_permitted.fetch_add(1, std::memory_order_relaxed);
  const std::atomic_ref<std::uint64_t> word(*static_cast<std::uint64_t*>(const_cast<void*>(slot)));
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double, std::micro>(watch_limit.load(std::memory_order_relaxed));
  for (unsigned i = 1;; ++i) {
    if (word.load(std::memory_order_acquire) != ~std::uint64_t{0}) return changed();
    if (i % 256 == 0) {
      if (std::chrono::steady_clock::now() > until) return false;
      const cudaError_t e = cudaStreamQuery(stream);
      // "Not ready" is an answer, not an error: where a runtime keeps it as the thread's last error, the next
      // launch's check (cudaGetLastError) would read it; take it back only if it is exactly that.
      if (e == cudaErrorNotReady && cudaPeekAtLastError() == cudaErrorNotReady) (void)cudaGetLastError();
      if (e != cudaErrorNotReady) {
        if (e != cudaSuccess) return false;  // left for the caller's synchronize to report
        return word.load(std::memory_order_acquire) != ~std::uint64_t{0} && changed();
      }
    }
  }
}

// Up to 16 bytes (a count, a result): copied into a pinned host slot, then the stream synced, where a copy to the
// caller's (pageable) memory took 2-3 us more a call (measured on an H100, 2026-11; one thread's copy into the
// mapped slot took 3.5 us more than this after a one-block kernel, 4-5 us less after a many-block one). Else, or
// where no slot can be had, straight to dst. Where the copy or the sync fails the slot is not given back.
void copy_to_host(void* dst, const void* src, std::size_t bytes, CUstream_st* stream, const char* fn) {
  if (bytes <= host_slot_bytes) {
    using slot_bytes = std::array<unsigned char, host_slot_bytes>;  // the slot read whole, its first `bytes` kept
    if (const auto got = through_host_slot<slot_bytes>(stream, fn, [&](slot_bytes* p) {
          check(cudaMemcpyAsync(p, src, bytes, cudaMemcpyDeviceToHost, stream), fn, "cudaMemcpyAsync to host");
        })) {
      std::memcpy(dst, got->data(), bytes);
      return;
    }
  }
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream), fn, "cudaMemcpyAsync to host");
  synchronize(stream, fn);
}

void synchronize(CUstream_st* stream, const char* fn) { check(cudaStreamSynchronize(stream), fn, "cudaStreamSynchronize"); }

void check_cuda(int code, const char* fn, const char* what) { check(static_cast<cudaError_t>(code), fn, what); }

int multiprocessor_count(const char* fn) {
  static std::mutex m;
  static std::vector<int> counts;
  int dev = 0;
  check(cudaGetDevice(&dev), fn, "cudaGetDevice");
  std::lock_guard lock(m);
  if (counts.size() <= static_cast<std::size_t>(dev)) counts.resize(dev + 1, 0);
  if (counts[dev] == 0) check(cudaDeviceGetAttribute(&counts[dev], cudaDevAttrMultiProcessorCount, dev), fn, "cudaDeviceGetAttribute");
  return counts[dev];
}
#else
void check_cuda(int, const char* fn, const char*) { no_cuda(fn); }
int multiprocessor_count(const char* fn) { no_cuda(fn); }
void require_device(const char* fn) { no_cuda(fn); }
void check_device_pointer(const char* fn, const char*, const void*) { no_cuda(fn); }
void* scratch_alloc(std::size_t, CUstream_st*, const char* fn) { no_cuda(fn); }
void* kept_states_alloc(std::size_t, CUstream_st*, const char* fn, unsigned*) { no_cuda(fn); }
void kept_states_spoil(void*) noexcept {}
void set_kept_state_epoch_limit(unsigned) noexcept {}
void scratch_free(void*, CUstream_st*) noexcept {}
void copy_to_host(void*, const void*, std::size_t, CUstream_st*, const char* fn) { no_cuda(fn); }
void synchronize(CUstream_st*, const char* fn) { no_cuda(fn); }
void* host_slot_take(const char*) noexcept { return nullptr; }
void host_slot_give(void*) noexcept {}
bool is_host_slot(const void*) noexcept { return false; }
void arm_host_slot(void*, bool) noexcept {}
void permit_watch(void*) noexcept {}
watch_counts watches() noexcept { return {}; }
void set_watch_limit_us(double) noexcept {}
bool watch_host_slot(const void*, CUstream_st*) noexcept { return false; }
#endif

}  // namespace cuda_backend

namespace detail {
#if SLUICE_HAS_CUDA
void* device_malloc(std::size_t bytes) {
  cuda_backend::require_device("device_buffer");
  void* p = nullptr;
  check(retried_after_trim([&] { return cudaMalloc(&p, bytes); }, nullptr), "device_buffer",
        ("cudaMalloc of " + std::to_string(bytes) + " bytes").c_str());
  return p;
}
void device_free(void* p) noexcept {
  if (p) (void)cudaFree(p);
}
void memcpy_to_device(void* dst, const void* src, std::size_t bytes) {
  if (bytes) check(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "device_buffer", "cudaMemcpy to device");
}
void memcpy_to_host(void* dst, const void* src, std::size_t bytes) {
  if (bytes) check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "device_buffer", "cudaMemcpy to host");
}
void memset_device(void* dst, int byte, std::size_t bytes) {
  if (bytes == 0) return;
  check(cudaMemset(dst, byte, bytes), "device_buffer", "cudaMemset");
  // cudaMemset may return before the bytes are set; a caller's non-blocking stream would not wait for it.
  check(cudaStreamSynchronize(nullptr), "device_buffer", "cudaStreamSynchronize");
}
#else
void* device_malloc(std::size_t) { no_cuda("device_buffer"); }
void device_free(void*) noexcept {}
void memcpy_to_device(void*, const void*, std::size_t) { no_cuda("device_buffer"); }
void memcpy_to_host(void*, const void*, std::size_t) { no_cuda("device_buffer"); }
void memset_device(void*, int, std::size_t) { no_cuda("device_buffer"); }
#endif

namespace {
std::atomic<step_recorder*> installed_recorder{nullptr};
}
void set_step_recorder(step_recorder* r) noexcept { installed_recorder.store(r, std::memory_order_release); }
step_recorder* current_step_recorder() noexcept { return installed_recorder.load(std::memory_order_acquire); }
}  // namespace detail

}  // namespace sluice
