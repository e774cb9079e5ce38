# sluice bench: production: compact_if of u32 (valid ratio 0.50) against n, beside the peer and the copy
# Drawn from stop 44's run 4 log (stop44/run4-production-async/w/bench-async-compact_if.log: GB/s as printed, to 0.1;
# the run was stopped in its 64-bit rows, before the bench wrote this script). Draw it with: gnuplot production-cuda-async-compact_if-u32.gp   (writes production-cuda-async-compact_if-u32.png)
if (!exists("out")) out = "production-cuda-async-compact_if-u32.png"
set terminal pngcairo size 1280,800 enhanced font "DejaVu Sans,12"
set output out
set title "production: compact_if of u32 (valid ratio 0.50) against n, beside the peer and the copy\nsluice bench --suite production --async (the _async forms: counts and sums left in device memory), NVIDIA H100 80GB HBM3, 132 SMs" noenhanced
set xlabel "n (elements)" noenhanced
set ylabel "effective GB/s (bytes read once + written once)" noenhanced
set grid
set key below
set datafile missing "?"
set logscale x 2
set format x "2^{%L}"
$s0 << EOD
1024 0.6 0.6 0.6
2048 1.3 1.3 1.3
4096 2.5 2.5 2.5
8192 5.2 5.2 5.2
16384 9.2 9.2 9.2
32768 17.7 17.7 17.7
65536 35.4 35.4 35.4
131072 70.6 70.6 70.6
262144 143.3 143.3 143.3
524288 270.8 270.8 270.8
1048576 489.1 489.1 489.1
2097152 799.2 799.2 799.2
4194304 1475.5 1475.5 1475.5
8388608 1543.5 1543.5 1543.5
16777216 1994.8 1994.8 1994.8
33554432 2488.7 2488.7 2488.7
67108864 2735.4 2735.4 2735.4
134217728 2782.9 2782.9 2782.9
268435456 2911.4 2911.4 2911.4
536870912 2963.2 2963.2 2963.2
1073741824 3013.2 3013.2 3013.2
EOD
$s1 << EOD
1024 0.4 0.4 0.4
2048 0.9 0.9 0.9
4096 1.8 1.8 1.8
8192 3.3 3.3 3.3
16384 6.7 6.7 6.7
32768 13.5 13.5 13.5
65536 26.5 26.5 26.5
131072 52.4 52.4 52.4
262144 114.3 114.3 114.3
524288 209.2 209.2 209.2
1048576 356.8 356.8 356.8
2097152 664.2 664.2 664.2
4194304 1156.5 1156.5 1156.5
8388608 1366.5 1366.5 1366.5
16777216 1649.6 1649.6 1649.6
33554432 1993.5 1993.5 1993.5
67108864 2094.0 2094.0 2094.0
134217728 2161.8 2161.8 2161.8
268435456 2236.5 2236.5 2236.5
536870912 2256.5 2256.5 2256.5
1073741824 2298.3 2298.3 2298.3
EOD
$s2 << EOD
1024 1.3 1.3 1.3
2048 2.5 2.5 2.5
4096 5.0 5.0 5.0
8192 9.9 9.9 9.9
16384 20.7 20.7 20.7
32768 41.0 41.0 41.0
65536 80.7 80.7 80.7
131072 155.3 155.3 155.3
262144 312.1 312.1 312.1
524288 593.1 593.1 593.1
1048576 1110.8 1110.8 1110.8
2097152 1826.8 1826.8 1826.8
4194304 2388.6 2388.6 2388.6
8388608 2209.9 2209.9 2209.9
16777216 2642.9 2642.9 2642.9
33554432 2820.6 2820.6 2820.6
67108864 2924.9 2924.9 2924.9
134217728 2951.7 2951.7 2951.7
268435456 2983.1 2983.1 2983.1
536870912 3009.6 3009.6 3009.6
1073741824 3007.3 3007.3 3007.3
EOD
plot \
  $s0 using 1:2 with linespoints lw 2 pt 1 title "decoupled-lookback async" noenhanced, \
  $s1 using 1:2 with linespoints lw 2 pt 2 title "cub async" noenhanced, \
  $s2 using 1:2 with linespoints lw 2 pt 3 title "cudaMemcpy (yardstick)" noenhanced
