# sluice bench: Roger et al. 2007, Fig. 11: compaction of 4M u32 (60% valid) against block size s
# Draw it with: gnuplot blocksize-cuda-roger-fig11.gp   (writes blocksize-cuda-roger-fig11.png)
if (!exists("out")) out = "blocksize-cuda-roger-fig11.png"
set terminal pngcairo size 1280,800 enhanced font "DejaVu Sans,12"
set output out
set title "Roger et al. 2007, Fig. 11: compaction of 4M u32 (60% valid) against block size s\nsluice bench --suite blocksize, NVIDIA H100 80GB HBM3, 132 SMs" noenhanced
set xlabel "block size s" noenhanced
set ylabel "time (ms)" noenhanced
set grid
set key below
set datafile missing "?"
set logscale x 2
set format x "2^{%L}"
$s0 << EOD
2 0.109151997 0.109151997 0.109151997
4 0.101471998 0.101471998 0.101471998
8 0.105599999 0.105599999 0.105599999
16 0.109984003 0.109984003 0.109984003
32 0.118207999 0.118207999 0.118207999
64 0.116832003 0.116832003 0.116832003
128 0.11056 0.11056 0.11056
256 0.110816002 0.110816002 0.110816002
512 0.122496001 0.122496001 0.122496001
1024 0.137024 0.137024 0.137024
EOD
$s1 << EOD
2 0.110303998 0.110303998 0.110303998
4 0.100000001 0.100000001 0.100000001
8 0.0999680012 0.0999680012 0.0999680012
16 0.100128002 0.100128002 0.100128002
32 0.103455998 0.103455998 0.103455998
64 0.103295997 0.103295997 0.103295997
128 0.100768 0.100768 0.100768
256 0.101152003 0.101152003 0.101152003
512 0.108383998 0.108383998 0.108383998
1024 0.116991997 0.116991997 0.116991997
EOD
plot \
  $s0 using 1:2 with linespoints lw 2 pt 1 title "Blelloch in-block sum" noenhanced, \
  $s1 using 1:2 with linespoints lw 2 pt 2 title "Hillis-Steele in-block sum" noenhanced
