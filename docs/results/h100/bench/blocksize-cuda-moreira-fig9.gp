# sluice bench: Moreira et al. 2009, Fig. 9: the in-block pass (prefix sum and jumps) of a 4M stream (50% valid) against block size
# Draw it with: gnuplot blocksize-cuda-moreira-fig9.gp   (writes blocksize-cuda-moreira-fig9.png)
if (!exists("out")) out = "blocksize-cuda-moreira-fig9.png"
set terminal pngcairo size 1280,800 enhanced font "DejaVu Sans,12"
set output out
set title "Moreira et al. 2009, Fig. 9: the in-block pass (prefix sum and jumps) of a 4M stream (50% valid) against block size\nsluice bench --suite blocksize, NVIDIA H100 80GB HBM3, 132 SMs" noenhanced
set xlabel "block size" noenhanced
set ylabel "time (ms)" noenhanced
set grid
set key below
set datafile missing "?"
set logscale x 2
set format x "2^{%L}"
$s0 << EOD
16 0.0514240004 0.0514240004 0.0514240004
32 0.0539200008 0.0539200008 0.0539200008
64 0.053952001 0.053952001 0.053952001
128 0.0547839999 0.0547839999 0.0547839999
256 0.056256 0.056256 0.056256
512 0.0612480007 0.0612480007 0.0612480007
1024 0.0690559968 0.0690559968 0.0690559968
EOD
$s1 << EOD
16 0.0590079986 0.0590079986 0.0590079986
32 0.0639040023 0.0639040023 0.0639040023
64 0.0613440014 0.0613440014 0.0613440014
128 0.0624639988 0.0624639988 0.0624639988
256 0.0641919971 0.0641919971 0.0641919971
512 0.0718080029 0.0718080029 0.0718080029
1024 0.0840959996 0.0840959996 0.0840959996
EOD
plot \
  $s0 using 1:2 with linespoints lw 2 pt 1 title "recursive doubling (Hillis-Steele)" noenhanced, \
  $s1 using 1:2 with linespoints lw 2 pt 2 title "balanced tree (Blelloch)" noenhanced
