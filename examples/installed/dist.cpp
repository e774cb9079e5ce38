// sluice::dist from the installed package: the sum of every rank's numbers (run it under mpirun).
#include <mpi.h>

#include <cstdio>
#include <sluice/dist.hpp>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const sluice::dist::communicator world(MPI_COMM_WORLD);
  const std::vector<int> mine(1000, world.rank() + 1);
  const int total = sluice::dist::allreduce(world, std::span<const int>(mine));
  if (world.rank() == 0) std::printf("%d ranks, total %d\n", world.size(), total);
  MPI_Finalize();
  return 0;
}
