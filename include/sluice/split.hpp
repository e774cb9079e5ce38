// The k-way split ("multisplit"): Billeter's stream split from two buckets to k. Each element x goes to bucket
// bucket_of(x) in [0, k), 1 <= k <= 256; out holds bucket 0's elements, then bucket 1's, ..., each bucket in input
// order (stable), and bucket_offsets (k + 1 entries) where each bucket starts, bucket_offsets[k] being the
// elements written. The building block of a radix partition pass, a hash join's partitioning and a distributed
// sort's exchange.
//   split: an id outside [0, k) is invalid_argument, thrown before anything is written on the cpu; on cuda the
//   call then waits for the split and throws after it (out holds the elements in range, then the others);
//   split_async: such elements are left out of the buckets and bucket_offsets[k] < in.size() says so; on cuda
//   bucket_offsets is device memory and the host is never waited for.
// Built-in bucket function: sluice::radix_digit (types.hpp; a digit of the key's order-preserving image, as
// radix_sort reads it); on the cpu any callable of the element returning an integer; on cuda the precompiled
// kernels take radix_digit over u32, i32, f32, u64, i64 and f64, and <sluice/cuda.cuh> (nvcc) any
// __host__ __device__ bucket function over elements of 4 or 8 bytes, with k <= 255 (256 only for
// radix_digit{shift, 8}). gl has no split (unsupported).
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

#include "sluice/cpu/backend.hpp"
#include "sluice/cpu/multisplit.hpp"
#include "sluice/detail/api.hpp"

namespace sluice {

// The most buckets a split takes.
inline constexpr std::uint32_t max_split_buckets = 256;

namespace detail {
template <class T, class Bucket>
void split_run(const char* fn, std::span<const T> in, Bucket bucket_of, std::uint32_t k, std::span<T> out,
               std::span<std::uint64_t> offsets, bool strict, const options& opt) {
  static_assert(std::is_integral_v<std::invoke_result_t<Bucket&, const T&>>, "sluice::split: bucket_of(x) must return an integer");
  const auto& algo = prepare(fn, primitive::split, opt, std::pair{"in", in}, std::pair{"out", out}, std::pair{"bucket_offsets", offsets});
  if (k == 0 || k > max_split_buckets)
    throw error(errc::invalid_argument, arg_error(fn, "k", "is " + std::to_string(k) + " but must be in [1, " +
                                                              std::to_string(max_split_buckets) + "]"));
  if constexpr (std::is_same_v<Bucket, radix_digit>)
    if (bucket_of.bits < 1 || bucket_of.bits > 8 || bucket_of.shift < 0 || bucket_of.shift >= static_cast<int>(8 * sizeof(T)))
      throw error(errc::invalid_argument, arg_error(fn, "bucket_of", "is radix_digit{shift = " + std::to_string(bucket_of.shift) + ", bits = " +
                                                                         std::to_string(bucket_of.bits) + "}: bits must be in [1, 8] and shift in [0, " +
                                                                         std::to_string(8 * sizeof(T)) + ")"));
  check_capacity(fn, "out", out.size(), in.size());
  check_capacity(fn, "bucket_offsets", offsets.size(), std::uint64_t{k} + 1);
  check_overlap(fn, "in", in, "out", out, /*in_place_ok=*/false);
  check_disjoint(fn, "in", in, "bucket_offsets", offsets);
  check_disjoint(fn, "out", out, "bucket_offsets", offsets);
  if (opt.device == device::cpu) {
    if (algo.name == "serial") {
      cpu::split_serial(in, bucket_of, k, out, offsets, strict, fn);
    } else {
      const auto p = cpu_backend::make_plan(spec_of(algo, opt), fn);
      cpu::multisplit(p.threads, in, bucket_of, k, out, offsets, strict, fn);
    }
    return;
  }
  if constexpr (config::has_cuda) {
    if constexpr (!cuda_split_v<T, Bucket>) {
      no_cuda_kernels(fn, "element type and bucket function");
    } else {
      // Ids outside [0, k) take a bucket of their own on the GPU, after the k others: 256 digits in all.
      const bool all_in_range = std::is_same_v<Bucket, radix_digit> && [&] {
        if constexpr (std::is_same_v<Bucket, radix_digit>) return (std::uint64_t{1} << bucket_of.bits) <= k;
        return false;
      }();
      if (k == max_split_buckets && !all_in_range)
        throw error(errc::unsupported, arg_error(fn, "k", "is 256, which on cuda only radix_digit{shift, 8} takes (ids outside [0, k) need a bucket "
                                                          "of their own there); use k <= 255"));
      cuda_backend::split(spec_of(algo, opt), in, bucket_of, k, out, offsets, opt.stream);
      if (strict && !all_in_range) {  // the count of the ids in range, brought back to check
        std::uint64_t kept = 0;
        cuda_backend::copy_to_host(&kept, offsets.data() + k, sizeof kept, opt.stream, fn);
        if (kept != in.size())
          throw error(errc::invalid_argument, std::string("sluice::") + fn + ": bucket_of gave " + std::to_string(in.size() - kept) +
                                                  " elements an id outside [0, k = " + std::to_string(k) +
                                                  ") (on cuda found after the split: out holds the others first, then them)");
      }
    }
  }
}
}  // namespace detail

// Split in into k buckets by bucket_of, stably; bucket_offsets[b] is where bucket b starts in out.
template <detail::span_like In, class Bucket, detail::span_like Out, detail::span_like Offsets>
void split(const In& in, Bucket bucket_of, std::uint32_t k, Out&& out, Offsets&& bucket_offsets, const options& opt = {}) {
  static_assert(std::is_same_v<detail::element_t<Offsets>, std::uint64_t>, "sluice::split: bucket_offsets are std::uint64_t");
  detail::split_run("split", detail::as_const_span(in), bucket_of, k, detail::as_span(out), detail::as_span(bucket_offsets), true, opt);
}
// As split, elements whose id is outside [0, k) left out (bucket_offsets[k] < in.size() then).
template <detail::span_like In, class Bucket, detail::span_like Out, detail::span_like Offsets>
void split_async(const In& in, Bucket bucket_of, std::uint32_t k, Out&& out, Offsets&& bucket_offsets, const options& opt = {}) {
  static_assert(std::is_same_v<detail::element_t<Offsets>, std::uint64_t>, "sluice::split_async: bucket_offsets are std::uint64_t");
  detail::split_run("split_async", detail::as_const_span(in), bucket_of, k, detail::as_span(out), detail::as_span(bucket_offsets), false, opt);
}

}  // namespace sluice
