import csv, glob, os, sys, statistics as st, collections
root = sys.argv[1]
rows = collections.defaultdict(list)
for f in glob.glob(os.path.join(root, 'ab', '*', '*.csv')):
    b = os.path.basename(os.path.dirname(f)).split('-')[0]
    for r in csv.DictReader(open(f)):
        if r['primitive'] == 'copy' or 'cub' in r['algorithm']: continue
        rows[(r['primitive'], r['element_type'], r['valid_ratio'], b)].append(float(r['fraction_of_memcpy']))
for k in sorted({k[:3] for k in rows}):
    o, n = rows.get(k + ('old',), []), rows.get(k + ('new',), [])
    print(f"{k[0]:11} {k[1]:5} {float(k[2]):.1f}  old {' '.join(f'{x:.3f}' for x in o):14}  new {' '.join(f'{x:.3f}' for x in n)}")
