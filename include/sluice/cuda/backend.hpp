// The CUDA backend as plain C++ declarations. The precompiled library instantiates these for the built-in
// element types, operators and predicates (detail/instantiations.hpp); nvcc users who include
// <sluice/cuda.cuh> get the definitions for their own operators and predicates.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "sluice/options.hpp"

namespace sluice::cuda_backend {

// Runtime services (src/runtime.cpp).
void require_device(const char* fn);  // errc::no_device unless a CUDA device can run work
void check_device_pointer(const char* fn, const char* arg, const void* p);  // host memory is an invalid_argument
void* scratch_alloc(std::size_t bytes, CUstream_st* stream, const char* fn);  // stream-ordered, from sluice's pool
// Look-back tile states kept per stream between calls: a buffer of at least `bytes` whose every word a
// look-back user wrote carries the epoch of its call in bits 2..25, zeroed when made; *epoch: this call's
// epoch (1 to kept_state_epochs - 1, never given twice between two zeroings), so that the states of earlier
// calls read as not yet published and nothing needs zeroing. Null where none can be lent (during a capture,
// more than 1 MiB, the stream's buffer lent already): take scratch_alloc's and zero it. Free with scratch_free.
inline constexpr unsigned kept_state_epochs = 1u << 24;
void* kept_states_alloc(std::size_t bytes, CUstream_st* stream, const char* fn, unsigned* epoch);
void kept_states_spoil(void* p) noexcept;  // the lent kept states at p: zero them when next lent
void set_kept_state_epoch_limit(unsigned limit) noexcept;  // tests: epochs 1 to limit - 1 only (0: kept_state_epochs)
void scratch_free(void* p, CUstream_st* stream) noexcept;
void copy_to_host(void* dst, const void* src, std::size_t bytes, CUstream_st* stream, const char* fn);  // then syncs stream
// A synchronous call's result slot: host_slot_bytes of pinned host memory mapped into every device's address space, so
// that a kernel writes the result there and the host reads it once the stream is done, with no copy. Null where
// the device cannot map host memory or the pinned allocation fails (the caller then copies). Give it back only
// after the stream has finished every kernel that writes it.
inline constexpr std::size_t host_slot_bytes = 16;
void* host_slot_take(const char* fn) noexcept;
void host_slot_give(void* slot) noexcept;
bool is_host_slot(const void* p) noexcept;  // p lies in a host slot
// Watching a slot (through_host_slot with watch::always or watch::where_permitted): arm sets its first 8 bytes to
// all ones and its permission (bytes 8 to 16) to `permitted`; permit_watch, called on the host by a call whose
// kernels store the slot's first 8 bytes last (see through_host_slot), sets it. watch is true once the first 8
// bytes differ from the pattern (read with acquire), within watch_limit_us; false at once where the watch is not
// permitted, and where the bytes do not change in that time, the stream ends first (the result may equal the
// armed pattern) or fails: the caller then waits for the stream.
inline constexpr double watch_limit_us = 100;
void arm_host_slot(void* slot, bool permitted) noexcept;
void permit_watch(void* slot) noexcept;  // slot: a host slot (is_host_slot)
bool watch_host_slot(const void* slot, CUstream_st* stream) noexcept;
// Tests: the watches of this process, permitted and ended by the slot's change; and the watch's limit (0 restores
// watch_limit_us).
struct watch_counts {
  std::uint64_t permitted = 0, changed = 0;
};
watch_counts watches() noexcept;
void set_watch_limit_us(double us) noexcept;
void synchronize(CUstream_st* stream, const char* fn);  // cudaStreamSynchronize, its error thrown
void check_cuda(int cuda_error_code, const char* fn, const char* what);  // throws unless cudaSuccess
int multiprocessor_count(const char* fn);  // of the current device, cached

// Scratch memory that lives until the end of a scope, released in stream order.
class scratch {
 public:
  scratch(std::size_t bytes, CUstream_st* s, const char* fn) : p_(bytes ? scratch_alloc(bytes, s, fn) : nullptr), s_(s) {}
  // Tile states (kept_states_alloc): the stream's kept buffer with *epoch >= 1, or pool memory with *epoch 0
  // that the caller zeroes.
  scratch(std::size_t bytes, CUstream_st* s, const char* fn, unsigned* epoch) : s_(s) {
    *epoch = 0;
    p_ = kept_states_alloc(bytes, s, fn, epoch);
    if (!p_) p_ = scratch_alloc(bytes, s, fn);
  }
  scratch() = default;
  ~scratch() { scratch_free(p_, s_); }
  scratch(scratch&& o) noexcept : p_(o.p_), s_(o.s_) { o.p_ = nullptr; }
  scratch& operator=(scratch&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(s_, o.s_);
    return *this;
  }
  template <class T>
  T* as() const { return static_cast<T*>(p_); }

 private:
  void* p_ = nullptr;
  CUstream_st* s_ = nullptr;
};

// A host slot (host_slot_take) for the scope of one synchronous call: null where none can be had; kept, never
// given back, unless done() marks the stream finished with it (an error may leave a kernel that writes it).
class host_slot {
 public:
  explicit host_slot(const char* fn) : p_(host_slot_take(fn)) {}
  ~host_slot() {
    if (done_) host_slot_give(p_);
  }
  host_slot(const host_slot&) = delete;
  host_slot& operator=(const host_slot&) = delete;
  template <class T>
  T* as() const { return static_cast<T*>(p_); }
  void done() { done_ = true; }

 private:
  void* p_ = nullptr;
  bool done_ = false;
};

// A synchronous call whose kernels store its result once, plainly: write(slot) launches them with a host slot
// as the result, then the stream is waited for and the result read there, with no copy. Nullopt where no slot
// can be had: the caller then takes its copying path.
// Watched (watch::always, or watch::where_permitted where the call's host code called permit_watch on the slot):
// the result is read as soon as it lands in the slot, before the stream has signalled that it is done
// (measured 1.8-2.2 us sooner on an H200, 2026-11; docs/design/sync.md), for a call whose kernels store
// it last: one store of at most 8 bytes, after every other store of the call and every load of its input, by its
// last kernel (vectorized reduce's single kernel or its last block; the compactions' single pass and resident grid
// by their last block to finish). When the slot changes, all the call's work that anyone can see is
// done and everything before it in the stream finished before it began; the kernel may still be ending, in stream
// order before any later work. Past watch_limit_us the stream is waited for.
enum class watch { none, always, where_permitted };
template <class T, watch Watch = watch::none, class Write>
std::optional<T> through_host_slot(CUstream_st* stream, const char* fn, Write write) {
  static_assert(sizeof(T) <= host_slot_bytes && std::is_trivially_copyable_v<T>, "a result that fits a slot");
  static_assert(Watch == watch::none || sizeof(T) <= 8, "a watched result: one store the host sees whole");
  host_slot slot(fn);
  T* const p = slot.as<T>();
  if (p == nullptr) return std::nullopt;
  if constexpr (Watch != watch::none) arm_host_slot(p, Watch == watch::always);
  write(p);
  if (Watch == watch::none || !watch_host_slot(p, stream)) synchronize(stream, fn);
  slot.done();
  T result;
  std::memcpy(&result, p, sizeof result);
  return result;
}

// Primitives. `algo` is a resolved registry name; counts and results go to device memory; nothing syncs the host.
template <class T, class Op>
void reduce(std::string_view algo, std::span<const T> in, T* result, T init, Op op, CUstream_st* stream);

template <class T, class Op>
void scan(std::string_view algo, std::span<const T> in, std::span<T> out, bool inclusive, T init, Op op,
          CUstream_st* stream);

// Writes min(selected, out.size()) elements and *count = selected. Covers compact and compact_unordered.
template <class T, class Sel>
void compact(std::string_view algo, std::span<const T> in, std::span<T> out, Sel sel, std::uint64_t* count,
             CUstream_st* stream);

// out.size() >= in.size(); *count = number kept.
template <class T, class Sel>
void partition(std::string_view algo, std::span<const T> in, std::span<T> out, Sel sel, std::uint64_t* count,
               CUstream_st* stream);

// The same, the rejected elements in an order not promised (after the kept ones, which keep input order).
template <class T, class Sel>
void partition_unordered(std::string_view algo, std::span<const T> in, std::span<T> out, Sel sel, std::uint64_t* count,
                         CUstream_st* stream);

// The runs family (runs.hpp): min(runs, capacity) of each output written, *count = the runs. V = std::nullptr_t
// for keys only; non_trivial_runs: the runs longer than one element.
template <class K, class V>
void unique(std::string_view algo, std::span<const K> keys, std::span<const V> values, std::span<K> out_keys, std::span<V> out_values,
            std::uint64_t* count, CUstream_st* stream);
template <class K>
void run_length_encode(std::string_view algo, std::span<const K> in, std::span<K> out_unique, std::span<std::uint64_t> out_counts,
                       std::uint64_t* count, CUstream_st* stream);
template <class K>
void non_trivial_runs(std::string_view algo, std::span<const K> in, std::span<std::uint64_t> out_offsets,
                      std::span<std::uint64_t> out_lengths, std::uint64_t* count, CUstream_st* stream);

// By key and segmented (segmented.hpp). reduce_by_key: min(runs, capacity) of each output written, *count = the
// runs. The segmented forms check the offsets on the device first and wait for that check.
template <class K, class V, class Op>
void reduce_by_key(std::string_view algo, std::span<const K> keys, std::span<const V> values, std::span<K> out_keys, std::span<V> out_values,
                   std::uint64_t* count, Op op, CUstream_st* stream);
template <class K, class V, class Op>
void scan_by_key(std::string_view algo, std::span<const K> keys, std::span<const V> values, std::span<V> out, bool inclusive, V init, Op op,
                 CUstream_st* stream);
template <class T, class Op>
void segmented_reduce(std::string_view algo, std::span<const T> values, std::span<const std::uint64_t> offsets, std::span<T> out, T init, Op op,
                      CUstream_st* stream);
template <class T, class Op>
void segmented_scan(std::string_view algo, std::span<const T> values, std::span<const std::uint64_t> offsets, std::span<T> out, bool inclusive,
                    T init, Op op, CUstream_st* stream);

// The k-way split (split.hpp): out.size() >= in.size(), offsets.size() >= k + 1; ids outside [0, k) in a last
// bucket of their own (k <= 255 then), offsets[k] the elements before it.
template <class T, class Bucket>
void split(std::string_view algo, std::span<const T> in, Bucket bucket_of, std::uint32_t k, std::span<T> out, std::span<std::uint64_t> offsets,
           CUstream_st* stream);

// Top-k (top_k.hpp): 1 <= k <= in.size(); indices null for keys alone.
template <class K>
void top_k(std::string_view algo, std::span<const K> in, std::uint64_t k, K* out, std::uint64_t* indices, bool largest, bool sorted,
           CUstream_st* stream);

// V = std::nullptr_t for keys only.
template <class K, class V>
void radix_sort(std::string_view algo, std::span<K> keys, std::span<V> values, bool descending, int begin_bit,
                int end_bit, CUstream_st* stream);

// Each segment [offsets[s], offsets[s + 1]) sorted on its own (sort.hpp); offsets in device memory, checked here.
template <class K, class V>
void segmented_radix_sort(std::string_view algo, std::span<K> keys, std::span<V> values, std::span<const std::uint64_t> offsets, bool descending,
                          int begin_bit, int end_bit, CUstream_st* stream);

}  // namespace sluice::cuda_backend
