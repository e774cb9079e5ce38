// The dist suite: sluice::dist on MPI ranks (cpu), run under mpirun (`mpirun -np 4 sluice bench --suite dist`;
// alone it is one rank). For each number of ranks p in 1, 2, 4, ... up to the job's size (the first p ranks
// of the job; the others wait), each primitive is timed twice:
//   weak    every rank holds n elements (--n, default 2^24 u32): per-rank throughput should hold as p grows;
//   strong  the ranks share n elements: the time should fall as 1/p.
// A time is the slowest rank's, from a barrier to the end of the call; the median of 5 after a warm-up. Beside
// each: the copy yardstick of the same level (each rank's memcpy-mt of its n u32 at once, timed alike), the
// per-rank rate in GB/s (the primitive's bytes per rank over the time), the scaling efficiency against one
// rank, and the share of the time the ranks spent in communication (in MPI calls, waiting for other ranks
// included; the mean over ranks), measured by a transport that times the MPI one it wraps.
// Rank 0 prints the table and writes dist-cpu.csv and dist-cpu.md.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench.hpp"
#include "plot.hpp"
#include "sluice/dist.hpp"
#include "timer.hpp"

namespace sluice::tool {
namespace {

namespace dist = sluice::dist;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

// The MPI transport, with the seconds its exchanges took added up.
class timed_transport final : public dist::detail::transport {
 public:
  explicit timed_transport(MPI_Comm comm) : inner_(comm) {}
  int rank() const noexcept override { return inner_.rank(); }
  int size() const noexcept override { return inner_.size(); }
  device where() const noexcept override { return inner_.where(); }
  void all_gather(const void* mine, void* all, std::size_t bytes) const override {
    timed([&] { inner_.all_gather(mine, all, bytes); });
  }
  void all_to_all(const void* send, void* recv, std::size_t bytes) const override {
    timed([&] { inner_.all_to_all(send, recv, bytes); });
  }
  void exchange(const char* fn, const void* from, const u64* send, void* to, const u64* recv, std::size_t item) const override {
    timed([&] { inner_.exchange(fn, from, send, to, recv, item); });
  }
  void* allocate(std::size_t bytes) const override { return inner_.allocate(bytes); }
  void release(void* p) const noexcept override { inner_.release(p); }
  void copy(void* to, const void* from, std::size_t bytes) const override { inner_.copy(to, from, bytes); }
  void gather_to_host(void* host, const void* base, std::size_t item, const u64* at, std::size_t count) const override {
    inner_.gather_to_host(host, base, item, at, count);
  }
  mutable double seconds = 0;  // reset before each timed call

 private:
  template <class F>
  void timed(F&& f) const {
    const double t0 = MPI_Wtime();
    f();
    seconds += MPI_Wtime() - t0;
  }
  dist::detail::mpi_transport inner_;
};

struct result {
  std::string primitive, scaling;
  int ranks;
  u64 per_rank, total;
  double ms, copy_ms, bytes_per_rank, comm_share, efficiency = 0;
};

// One timed collective call: every rank from a barrier; the slowest rank's milliseconds and the mean share in
// communication, medians of `reps` after a warm-up. `setup` runs untimed before each.
std::pair<double, double> time_call(MPI_Comm comm, timed_transport& t, const std::function<void()>& f, const std::function<void()>& setup) {
  constexpr int reps = 5;
  std::vector<double> ms, share;
  int p = 1;
  MPI_Comm_size(comm, &p);
  for (int i = 0; i <= reps; ++i) {
    if (setup) setup();
    t.seconds = 0;
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    f();
    const double mine = MPI_Wtime() - t0;
    double slowest = 0, comm_sum = 0;
    const double my_share = mine > 0 ? t.seconds / mine : 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    MPI_Allreduce(&my_share, &comm_sum, 1, MPI_DOUBLE, MPI_SUM, comm);
    if (i == 0) continue;  // the warm-up
    ms.push_back(1e3 * slowest);
    share.push_back(comm_sum / p);
  }
  std::sort(ms.begin(), ms.end());
  std::sort(share.begin(), share.end());
  return {ms[reps / 2], share[reps / 2]};
}

// Every primitive at one level (p ranks, each holding `mine` elements).
void level(MPI_Comm comm, const std::string& scaling, u64 mine, u64 total, std::vector<result>& out) {
  auto tt = std::make_shared<timed_transport>(comm);
  const dist::communicator c(tt);
  std::mt19937 g(17u + static_cast<unsigned>(c.rank()));
  std::vector<u32> in(mine), o(mine), keys;
  for (auto& x : in) x = static_cast<u32>(g());
  const u32 tenth = 0x1999999a, half = 0x80000000u;  // uniform u32: 10% and 50% below
  const double b = 4.0 * static_cast<double>(mine);
  const auto copy = time_call(comm, *tt, [&] { device_copy(device::cpu, o.data(), in.data(), mine * sizeof(u32)); }, {});
  const auto add = [&](const std::string& name, double bytes, const std::pair<double, double>& t) {
    out.push_back(result{name, scaling, c.size(), mine, total, t.first, copy.first, bytes, t.second});
  };
  add("copy (memcpy-mt)", 2 * b, copy);
  add("allreduce", b, time_call(comm, *tt, [&] { (void)dist::allreduce(c, std::span<const u32>(in)); }, {}));
  add("inclusive_scan", 2 * b, time_call(comm, *tt, [&] { dist::inclusive_scan(c, std::span<const u32>(in), std::span<u32>(o)); }, {}));
  add("compact_if 10%, even", 1.1 * b,
      time_call(comm, *tt, [&] { (void)dist::compact_if(c, std::span<const u32>(in), std::span<u32>(o), less_than(tenth), dist::balance::even); }, {}));
  add("partition 50%", 2 * b, time_call(comm, *tt, [&] { (void)dist::partition(c, std::span<const u32>(in), std::span<u32>(o), less_than(half)); }, {}));
  add("radix_sort u32", 2 * b, time_call(comm, *tt, [&] { dist::radix_sort(c, keys); }, [&] { keys = in; }));
}

std::string fmt(const char* f, double v) {
  char s[64];
  std::snprintf(s, sizeof s, f, v);
  return s;
}

}  // namespace

int dist_suite(const bench_args& a) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) MPI_Init(nullptr, nullptr);
  int me = 0, P = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  const u64 n = a.n ? a.n : (u64{1} << 24);
  if (me == 0)
    std::printf("[cpu] suite dist on %d MPI rank%s (%d thread%s each), n = %llu u32%s\n", P, P == 1 ? "" : "s", cpu_threads(),
                cpu_threads() == 1 ? "" : "s", static_cast<unsigned long long>(n),
                P == 1 ? ": one rank; run it under mpirun -np P for more" : "");
  std::vector<int> levels;
  for (int p = 1; p < P; p *= 2) levels.push_back(p);
  levels.push_back(P);
  std::vector<result> rows;
  for (int p : levels) {
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, me < p ? 0 : MPI_UNDEFINED, me, &sub);
    if (sub != MPI_COMM_NULL) {
      level(sub, "weak", n, n * static_cast<u64>(p), rows);
      const u64 share = n / static_cast<u64>(p) + (static_cast<u64>(me) < n % static_cast<u64>(p) ? 1 : 0);
      level(sub, "strong", share, n, rows);
      MPI_Comm_free(&sub);
    }
    // The ranks left out of this level wait without spinning, so that they do not take the cores of the
    // ranks being timed (MPI's own barrier polls).
    MPI_Request done;
    MPI_Ibarrier(MPI_COMM_WORLD, &done);
    for (int flag = 0; !flag;) {
      MPI_Test(&done, &flag, MPI_STATUS_IGNORE);
      if (!flag) std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }
  int status = 0;
  if (me == 0) {
    // Efficiency against one rank: weak t(1) / t(p); strong t(1) / (p t(p)).
    for (auto& r : rows)
      for (const auto& one : rows)
        if (one.ranks == 1 && one.primitive == r.primitive && one.scaling == r.scaling)
          r.efficiency = r.scaling == "weak" ? one.ms / r.ms : one.ms / (r.ranks * r.ms);
    std::ostringstream md, csv;
    md << "| scaling | ranks | primitive | per rank | ms | GB/s per rank | of copy | efficiency | in communication |\n"
       << "|---|---|---|---|---|---|---|---|---|\n";
    csv << "suite,scaling,ranks,primitive,n_per_rank,n_total,median_ms,copy_ms,gbps_per_rank,fraction_of_copy,efficiency,comm_share\n";
    for (const auto& r : rows) {
      const double gbps = r.bytes_per_rank / (r.ms * 1e6);
      md << "| " << r.scaling << " | " << r.ranks << " | " << r.primitive << " | " << r.per_rank << " | " << fmt("%.2f", r.ms) << " | "
         << fmt("%.2f", gbps) << " | " << fmt("%.2f", r.copy_ms / r.ms) << " | " << fmt("%.2f", r.efficiency) << " | "
         << fmt("%.0f%%", 100 * r.comm_share) << " |\n";
      csv << "dist," << r.scaling << "," << r.ranks << "," << r.primitive << "," << r.per_rank << "," << r.total << "," << fmt("%.4f", r.ms) << ","
          << fmt("%.4f", r.copy_ms) << "," << fmt("%.3f", gbps) << "," << fmt("%.3f", r.copy_ms / r.ms) << "," << fmt("%.3f", r.efficiency) << ","
          << fmt("%.3f", r.comm_share) << "\n";
    }
    std::printf("\n%s", md.str().c_str());
    const std::filesystem::path dir(a.out_dir);
    for (const auto& [name, text] : {std::pair{"dist-cpu.csv", csv.str()}, std::pair{"dist-cpu.md", md.str()}}) {
      if (!write_text_file(dir / name, text)) {
        std::fprintf(stderr, "sluice bench: cannot write '%s'\n", (dir / name).string().c_str());
        status = 1;
      } else {
        std::printf("wrote %s\n", (dir / name).string().c_str());
      }
    }
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!initialized) MPI_Finalize();
  return status;
}

}  // namespace sluice::tool
