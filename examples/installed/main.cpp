// Filter, sum and sort particles' energies with sluice, on the GPU when there is one.
#include <sluice/sluice.hpp>

#include <cstdio>
#include <vector>

int main() {
  std::vector<float> energy = {0.5f, 3.0f, 0.1f, 7.5f, 2.0f, 9.0f};
  std::vector<float> hot(energy.size());
  const auto n_hot = sluice::compact_if(energy, hot, sluice::greater_than(1.0f));   // 3.0 7.5 2.0 9.0
  const float total = sluice::reduce(std::span<const float>(hot).first(n_hot));     // 21.5
  std::vector<std::uint32_t> ids = {0, 1, 2, 3, 4, 5};
  sluice::radix_sort(energy, ids, sluice::order::descending);                        // ids: 5 3 1 4 0 2
  std::printf("%llu hot, total %.1f, hottest id %u\n", static_cast<unsigned long long>(n_hot), total, ids[0]);
  bool ok = n_hot == 4 && total == 21.5f && ids[0] == 5 && ids[5] == 2;

  if (sluice::device_available(sluice::device::cuda)) {  // the same on the GPU, data in device memory
    const sluice::options gpu{sluice::device::cuda};
    std::vector<float> e2 = {0.5f, 3.0f, 0.1f, 7.5f, 2.0f, 9.0f};
    sluice::device_buffer<float> d_energy(e2), d_hot(e2.size());
    const auto g_hot = sluice::compact_if(d_energy, d_hot, sluice::greater_than(1.0f), gpu);
    const float g_total = sluice::reduce(std::span<const float>(d_hot.data(), g_hot), 0.0f, sluice::sum{}, gpu);
    std::printf("gpu: %llu hot, total %.1f\n", static_cast<unsigned long long>(g_hot), g_total);
    ok = ok && g_hot == 4 && g_total == 21.5f;
  } else {
    std::printf("gpu: none present, skipped\n");
  }
  std::printf(ok ? "example: ok\n" : "example: WRONG\n");
  return ok ? 0 : 1;
}
