# sluice bench: sluice bench quick: every algorithm as a fraction of the same run's copy
# Draw it with: gnuplot quick-cuda-fraction.gp   (writes quick-cuda-fraction.png)
if (!exists("out")) out = "quick-cuda-fraction.png"
set terminal pngcairo size 1280,800 enhanced font "DejaVu Sans,12"
set output out
set title "sluice bench quick: every algorithm as a fraction of the same run's copy\nsluice bench --suite quick, NVIDIA H100 80GB HBM3, 132 SMs" noenhanced
set xlabel "" noenhanced
set ylabel "effective GB/s / cudaMemcpy" noenhanced
set grid
set key below
set datafile missing "?"
set style fill solid 0.8 border -1
set boxwidth 0.7
set xtics rotate by -50 left scale 0 noenhanced
set yrange [0:*]
unset key
set format x "%g"
unset logscale x
$bars << EOD
"reduce vectorized u32 n=67108864" 0.758863391
"reduce vectorized f32 n=67108864" 0.762441087
"reduce two-pass u32 n=67108864" 0.713305555
"reduce two-pass f32 n=67108864" 0.707068279
"reduce cub u32 n=67108864" 0.749099339
"reduce cub f32 n=67108864" 0.749099339
"reduce goddeke-multipass u32 n=67108864" 0.435974257
"reduce goddeke-multipass f32 n=67108864" 0.438007841
"reduce tree-interleaved u32 n=67108864" 0.305584709
"reduce tree-interleaved f32 n=67108864" 0.306163244
"reduce tree-contiguous u32 n=67108864" 0.344986951
"reduce tree-contiguous f32 n=67108864" 0.350427369
"reduce partition-summarize u32 n=67108864" 0.471416995
"reduce partition-summarize f32 n=67108864" 0.455341786
"inclusive_scan reduce-then-scan u32 n=67108864" 0.592148076
"inclusive_scan decoupled-lookback u32 n=67108864" 0.746984852
"inclusive_scan cub u32 n=67108864" 0.676662003
"inclusive_scan kogge-stone u32 n=67108864" 0.194813457
"inclusive_scan brent-kung u32 n=67108864" 0.198189
"inclusive_scan three-phase-coarsened u32 n=67108864" 0.280551281
"inclusive_scan billeter-scan u32 n=67108864" 0.47483891
"inclusive_scan streaming u32 n=67108864" 0.00637600497
"compact decoupled-lookback u32 n=67108864" 0.77094363
"compact scan-scatter u32 n=67108864" 0.298005011
"compact cub u32 n=67108864" 0.545263348
"compact horn u32 n=67108864" 0.104280099
"compact roger u32 n=67108864" 0.126214495
"compact billeter u32 n=67108864" 0.521272429
"compact billeter-staged u32 n=67108864" 0.52095262
"compact billeter-scattered u32 n=67108864" 0.509949494
"compact billeter-buffered u32 n=67108864" 0.556338917
"compact sort-compact u32 n=67108864" 0.153955747
"compact_unordered tile-atomic u32 n=67108864" 0.923566976
"compact_unordered decoupled-lookback u32 n=67108864" 0.775520712
"compact_unordered scan-scatter u32 n=67108864" 0.296910805
"compact_unordered warp-atomic u32 n=67108864" 0.0909258841
"compact_unordered jumping-jack u32 n=67108864" 0.138963323
"partition decoupled-lookback u32 n=67108864" 0.795065576
"partition scan-scatter u32 n=67108864" 0.371385257
"partition split u32 n=67108864" 0.483626219
"partition cub u32 n=67108864" 0.476172302
"radix_sort onesweep u32 n=67108864" 0.122128756
"radix_sort cub u32 n=67108864" 0.128990811
"radix_sort split-radix u32 n=67108864" 0.0131204436
EOD
plot $bars using 0:2:xtic(1) with boxes lc rgb "#3b75af" notitle
