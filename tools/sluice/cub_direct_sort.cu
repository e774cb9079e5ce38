// CUB's radix sort called directly, for the sort suite's split rows (cub_direct.hpp).
#include <cub/device/device_radix_sort.cuh>

#include "cub_direct.cuh"

namespace sluice::tool::cub_direct {

template <class K>
call sort_keys_bits(const K* in, K* out, std::uint64_t n, int begin_bit, int end_bit) {
  return make(n, "cub::DeviceRadixSort::SortKeys", [=](void* t, std::size_t& b, auto items) {
    return cub::DeviceRadixSort::SortKeys(t, b, in, out, items, begin_bit, end_bit);
  });
}

template call sort_keys_bits<std::uint32_t>(const std::uint32_t*, std::uint32_t*, std::uint64_t, int, int);

}  // namespace sluice::tool::cub_direct
