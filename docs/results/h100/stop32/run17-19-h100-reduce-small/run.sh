# run 17: ncu of sluice's single_kernel (reduce, 2^10, the production suite's calls)
ncu --metrics gpu__time_duration.sum -k regex:'single_kernel|SingleTile|DeviceReduce' -c 12 .device/sluice bench --device cuda --suite production --primitive reduce --n 2^10 --out /tmp/r
# run 18: ncu of every other kernel of the same command (CUB's DeviceReduceSingleTileKernel)
ncu --metrics gpu__time_duration.sum -k regex:'^(?!single_kernel)' -c 40 .device/sluice bench --device cuda --suite production --primitive reduce --n 2^10 --out /tmp/r
# run 19: the same command with the two algorithms in either order, twice
for k in 1 2; do for order in "best cub" "cub best"; do set -- $order; .device/sluice bench --device cuda --suite production --primitive reduce --n 2^10 --algo $1 --algo $2 --out /tmp/o; done; done
