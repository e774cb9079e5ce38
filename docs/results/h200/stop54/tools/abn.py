# A/B of ab_n runs: per (primitive, type, ratio, n): each build's sluice ms (median over reps), CUB's (same run),
# new/old, and each as a fraction of CUB's time.
import csv, glob, os, sys, statistics as st, collections
root = sys.argv[1]
rows = collections.defaultdict(list)  # (build, prim, type, ratio, n, kind) -> [ms]
for f in glob.glob(os.path.join(root, 'ab', '*', '*.csv')):
    d = os.path.basename(os.path.dirname(f))
    build = d.split('-')[0]
    for r in csv.DictReader(open(f)):
        if r['primitive'] == 'copy': continue
        kind = 'cub' if r['algorithm'].startswith('cub') and 'unstable' not in r['algorithm'] else ('sluice' if 'cub' not in r['algorithm'] else None)
        if kind is None: continue
        rows[(build, r['primitive'], r['element_type'], r['valid_ratio'], int(r['n']), kind)].append(float(r['ms']))
keys = sorted({k[1:5] for k in rows}, key=lambda k: (k[0], k[1], k[2], k[3]))
print(f"{'prim':24} {'type':4} {'ratio':5} {'n':>9} {'old us':>8} {'new us':>8} {'new/old':>7} {'old/cub':>7} {'new/cub':>7}")
for k in keys:
    def m(b, kind):
        v = rows.get((b,) + k + (kind,))
        return st.median(v) * 1000 if v else float('nan')
    o, n_, co, cn = m('old', 'sluice'), m('new', 'sluice'), m('old', 'cub'), m('new', 'cub')
    print(f"{k[0]:24} {k[1]:4} {k[2]:5} {k[3]:9d} {o:8.2f} {n_:8.2f} {n_/o:7.3f} {o/co:7.3f} {n_/cn:7.3f}")
