# sluice bench: sort: radix_sort_pairs of u32+u32 against n, beside the peer and the copy
# Draw it with: gnuplot sort-cuda-radix_sort_pairs-u32+u32.gp   (writes sort-cuda-radix_sort_pairs-u32+u32.png)
if (!exists("out")) out = "sort-cuda-radix_sort_pairs-u32+u32.png"
set terminal pngcairo size 1280,800 enhanced font "DejaVu Sans,12"
set output out
set title "sort: radix_sort_pairs of u32+u32 against n, beside the peer and the copy\nsluice bench --suite sort, NVIDIA H100 80GB HBM3, 132 SMs" noenhanced
set xlabel "n (elements)" noenhanced
set ylabel "effective GB/s (bytes read once + written once)" noenhanced
set grid
set key below
set datafile missing "?"
set logscale x 2
set format x "2^{%L}"
$s0 << EOD
1048576 158.827023 158.827023 158.827023
4194304 299.55035 299.55035 299.55035
16777216 406.267323 406.267323 406.267323
268435456 440.638896 440.638896 440.638896
EOD
$s1 << EOD
1048576 151.791546 151.791546 151.791546
4194304 292.85743 292.85743 292.85743
16777216 411.670397 411.670397 411.670397
268435456 468.658597 468.658597 468.658597
EOD
$s2 << EOD
4194304 34.9432159 34.9432159 34.9432159
EOD
plot \
  $s0 using 1:2 with linespoints lw 2 pt 1 title "onesweep" noenhanced, \
  $s1 using 1:2 with linespoints lw 2 pt 2 title "cub" noenhanced, \
  $s2 using 1:2 with linespoints lw 2 pt 3 title "split-radix" noenhanced
