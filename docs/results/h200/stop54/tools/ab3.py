# A/B/C of ab_n runs with or without CUB beside them: per (primitive, type, ratio, n), each build's sluice us (median
# over the reps, and the reps' range) and its time over the first build's. usage: ab3.py DIR/ab build,build,...
import csv, glob, os, sys, statistics as st, collections
root, builds = sys.argv[1], sys.argv[2].split(',')
rows = collections.defaultdict(list)
for f in glob.glob(os.path.join(root, '*', '*.csv')):
    build = os.path.basename(os.path.dirname(f)).split('-')[0]
    for r in csv.DictReader(open(f)):
        if r['primitive'] == 'copy' or 'cub' in r['algorithm']: continue
        rows[(build, r['primitive'], r['element_type'], r['valid_ratio'], int(r['n']))].append(float(r['ms']) * 1000)
keys = sorted({k[1:] for k in rows})
print(f"{'prim':24} {'type':4} {'n':>8} " + ' '.join(f"{b + ' us (range)':>22}" for b in builds) + '  ' + ' '.join(f"{b}/{builds[0]}" for b in builds[1:]))
for k in keys:
    v = {b: rows.get((b,) + k, []) for b in builds}
    if not all(v.values()): continue
    m = {b: st.median(v[b]) for b in builds}
    print(f"{k[0]:24} {k[1]:4} {k[3]:8d} " + ' '.join(f"{m[b]:8.2f} ({min(v[b]):5.2f}-{max(v[b]):5.2f})" for b in builds) + '  ' +
          ' '.join(f"{m[b] / m[builds[0]]:9.3f}" for b in builds[1:]))
