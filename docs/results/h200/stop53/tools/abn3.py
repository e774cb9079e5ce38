# A/B/C of ab_n runs: per (primitive, type, ratio, n): each build's sluice us (median over reps) and over CUB's.
import csv, glob, os, sys, statistics as st, collections
root = sys.argv[1]; builds = sys.argv[2].split(',')
rows = collections.defaultdict(list)
for f in glob.glob(os.path.join(root, '*', '*.csv')):
    build = os.path.basename(os.path.dirname(f)).split('-')[0]
    for r in csv.DictReader(open(f)):
        a = r['algorithm']
        if r['primitive'] == 'copy' or 'unstable' in a: continue
        kind = 'cub' if a.startswith('cub') else 'sluice'
        rows[(build, r['primitive'], r['element_type'], r['valid_ratio'], int(r['n']), kind)].append(float(r['ms']) * 1000)
keys = sorted({k[1:5] for k in rows})
print(f"{'prim':14} {'n':>8} " + ' '.join(f"{b+' us':>9} {b+'/cub':>8}" for b in builds) + '  ' + ' '.join(f"{b}/{builds[0]}" for b in builds[1:]))
for k in keys:
    m = {b: st.median(rows[(b,) + k + ('sluice',)]) for b in builds}
    c = {b: st.median(rows[(b,) + k + ('cub',)]) for b in builds}
    print(f"{k[0]:14} {k[3]:8d} " + ' '.join(f"{m[b]:9.2f} {m[b]/c[b]:8.3f}" for b in builds) + '  ' + ' '.join(f"{m[b]/m[builds[0]]:7.3f}" for b in builds[1:]))
