# sluice bench: sluice bench quick: every algorithm as a fraction of the same run's copy (n = 67108864)
# Draw it with: gnuplot quick-cuda-fraction.gp   (writes quick-cuda-fraction.png)
if (!exists("out")) out = "quick-cuda-fraction.png"
set terminal pngcairo size 1280,1128 enhanced font "DejaVu Sans,12"
set output out
set title "sluice bench quick: every algorithm as a fraction of the same run's copy (n = 67108864)\nsluice bench --suite quick, NVIDIA H100 80GB HBM3, 132 SMs" noenhanced
set xlabel "effective GB/s / cudaMemcpy" noenhanced
set ylabel "" noenhanced
set grid
set key below
set datafile missing "?"
set style fill solid 0.8 border -1
set ytics scale 0 noenhanced
set xrange [0:*]
unset key
set yrange [44:-1]
unset grid
set grid xtics
$bars << EOD
"reduce vectorized u32" 0.758863391
"reduce vectorized f32" 0.762441087
"reduce two-pass u32" 0.713305555
"reduce two-pass f32" 0.707068279
"reduce cub u32" 0.749099339
"reduce cub f32" 0.749099339
"reduce goddeke-multipass u32" 0.435974257
"reduce goddeke-multipass f32" 0.438007841
"reduce tree-interleaved u32" 0.305584709
"reduce tree-interleaved f32" 0.306163244
"reduce tree-contiguous u32" 0.344986951
"reduce tree-contiguous f32" 0.350427369
"reduce partition-summarize u32" 0.471416995
"reduce partition-summarize f32" 0.455341786
"inclusive_scan reduce-then-scan u32" 0.592148076
"inclusive_scan decoupled-lookback u32" 0.746984852
"inclusive_scan cub u32" 0.676662003
"inclusive_scan kogge-stone u32" 0.194813457
"inclusive_scan brent-kung u32" 0.198189
"inclusive_scan three-phase-coarsened u32" 0.280551281
"inclusive_scan billeter-scan u32" 0.47483891
"inclusive_scan streaming u32" 0.00637600497
"compact decoupled-lookback u32" 0.77094363
"compact scan-scatter u32" 0.298005011
"compact cub u32" 0.545263348
"compact horn u32" 0.104280099
"compact roger u32" 0.126214495
"compact billeter u32" 0.521272429
"compact billeter-staged u32" 0.52095262
"compact billeter-scattered u32" 0.509949494
"compact billeter-buffered u32" 0.556338917
"compact sort-compact u32" 0.153955747
"compact_unordered tile-atomic u32" 0.923566976
"compact_unordered decoupled-lookback u32" 0.775520712
"compact_unordered scan-scatter u32" 0.296910805
"compact_unordered warp-atomic u32" 0.0909258841
"compact_unordered jumping-jack u32" 0.138963323
"partition decoupled-lookback u32" 0.795065576
"partition scan-scatter u32" 0.371385257
"partition split u32" 0.483626219
"partition cub u32" 0.476172302
"radix_sort onesweep u32" 0.122128756
"radix_sort cub u32" 0.128990811
"radix_sort split-radix u32" 0.0131204436
EOD
plot $bars using (0):0:(0):2:($0-0.35):($0+0.35):ytic(1) with boxxyerror lc rgb "#3b75af" notitle
