# sluice bench: Moreira et al. 2009, Fig. 10: block concatenation of a 4M stream (50% valid) against block size (jumping-jack)
# Draw it with: gnuplot blocksize-cuda-moreira-fig10.gp   (writes blocksize-cuda-moreira-fig10.png)
if (!exists("out")) out = "blocksize-cuda-moreira-fig10.png"
set terminal pngcairo size 1280,800 enhanced font "DejaVu Sans,12"
set output out
set title "Moreira et al. 2009, Fig. 10: block concatenation of a 4M stream (50% valid) against block size (jumping-jack)\nsluice bench --suite blocksize, NVIDIA H100 80GB HBM3, 132 SMs" noenhanced
set xlabel "block size" noenhanced
set ylabel "time (ms)" noenhanced
set grid
set key below
set datafile missing "?"
set logscale x 2
set format x "2^{%L}"
$s0 << EOD
16 0.0135679999 0.0135679999 0.0135679999
32 0.0128960004 0.0128960004 0.0128960004
64 0.0124479998 0.0124479998 0.0124479998
128 0.0124479998 0.0124479998 0.0124479998
256 0.0123840002 0.0123840002 0.0123840002
512 0.0122560002 0.0122560002 0.0122560002
1024 0.0124479998 0.0124479998 0.0124479998
EOD
$s1 << EOD
16 0.0204799995 0.0204799995 0.0204799995
32 0.0196800008 0.0196800008 0.0196800008
64 0.0175679997 0.0175679997 0.0175679997
128 0.01664 0.01664 0.01664
256 0.0158399995 0.0158399995 0.0158399995
512 0.0152000003 0.0152000003 0.0152000003
1024 0.0147519996 0.0147519996 0.0147519996
EOD
$s2 << EOD
16 0.0340479994 0.0340479994 0.0340479994
32 0.0325760012 0.0325760012 0.0325760012
64 0.0300159995 0.0300159995 0.0300159995
128 0.0290879998 0.0290879998 0.0290879998
256 0.0282239998 0.0282239998 0.0282239998
512 0.0274560004 0.0274560004 0.0274560004
1024 0.0271999994 0.0271999994 0.0271999994
EOD
plot \
  $s0 using 1:2 with linespoints lw 2 pt 1 title "inter-block prefix sum" noenhanced, \
  $s1 using 1:2 with linespoints lw 2 pt 2 title "block move" noenhanced, \
  $s2 using 1:2 with linespoints lw 2 pt 3 title "concatenation (both)" noenhanced
