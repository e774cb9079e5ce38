# sluice bench: sort: radix_sort of u32 against n, beside the peer and the copy
# Draw it with: gnuplot sort-cuda-radix_sort-u32.gp   (writes sort-cuda-radix_sort-u32.png)
if (!exists("out")) out = "sort-cuda-radix_sort-u32.png"
set terminal pngcairo size 1280,800 enhanced font "DejaVu Sans,12"
set output out
set title "sort: radix_sort of u32 against n, beside the peer and the copy\nsluice bench --suite sort, NVIDIA H100 80GB HBM3, 132 SMs" noenhanced
set xlabel "n (elements)" noenhanced
set ylabel "effective GB/s (bytes read once + written once)" noenhanced
set grid
set key below
set datafile missing "?"
set logscale x 2
set format x "2^{%L}"
$s0 << EOD
1048576 48.2325652 48.2325652 48.2325652
4194304 198.256003 198.256003 198.256003
16777216 303.144259 303.144259 303.144259
268435456 363.292603 363.292603 363.292603
EOD
$s1 << EOD
1048576 55.2813184 55.2813184 55.2813184
4194304 195.739405 195.739405 195.739405
16777216 309.656995 309.656995 309.656995
268435456 388.725914 388.725914 388.725914
EOD
$s2 << EOD
4194304 29.7544335 29.7544335 29.7544335
EOD
$s3 << EOD
1048576 1074.36068 1074.36068 1074.36068
4194304 2621.44007 2621.44007 2621.44007
16777216 2628.00995 2628.00995 2628.00995
268435456 2996.73418 2996.73418 2996.73418
EOD
plot \
  $s0 using 1:2 with linespoints lw 2 pt 1 title "onesweep" noenhanced, \
  $s1 using 1:2 with linespoints lw 2 pt 2 title "cub" noenhanced, \
  $s2 using 1:2 with linespoints lw 2 pt 3 title "split-radix" noenhanced, \
  $s3 using 1:2 with linespoints lw 2 pt 4 title "cudaMemcpy (yardstick)" noenhanced
