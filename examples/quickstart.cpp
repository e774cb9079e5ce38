// The README's example as a program that runs anywhere: its GPU part where a CUDA GPU is present.
#include <sluice/sluice.hpp>

#include <iostream>
#include <vector>

int main() {
  std::vector<float> energy = {0.5f, 3.0f, 0.1f, 7.5f, 2.0f, 9.0f}, hot(6);
  auto n_hot = sluice::compact_if(energy, hot, sluice::greater_than(1.0f));    // 4: 3.0 7.5 2.0 9.0, in order
  float total = sluice::reduce(std::span<const float>(hot).first(n_hot));       // 21.5
  std::vector<std::uint32_t> ids = {0, 1, 2, 3, 4, 5};
  sluice::radix_sort(energy, ids, sluice::order::descending);                  // stable; ids follow their keys
  std::cout << "cpu: " << n_hot << " hot, total " << total << ", hottest id " << ids[0] << '\n';

  if (sluice::device_available(sluice::device::cuda)) {                        // the same on the GPU:
    sluice::device_buffer<float> d_in(energy), d_out(energy.size());
    auto n = sluice::compact_if(d_in, d_out, sluice::greater_than(1.0f), {.device = sluice::device::cuda});
    std::cout << "gpu: " << n << " hot\n";
  } else {
    std::cout << "gpu: no CUDA GPU present, skipped\n";
  }
}
