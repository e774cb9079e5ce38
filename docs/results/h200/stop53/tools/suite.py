import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1])))
sl = {}; cb = {}
for r in rows:
    k = (r['primitive'], r['element_type'], r['valid_ratio'], int(r['n']))
    a = r['algorithm']
    if a == 'cudaMemcpy': continue
    if a == 'cub' or a == 'cub async': cb[k] = float(r['ms'])
    elif 'cub' not in a: sl[k] = float(r['ms'])
by = collections.defaultdict(list)
for k, v in sl.items():
    if k in cb: by[(k[0], k[3])].append((v / cb[k], k[1], k[2], v*1000))
prims = sorted({p for p, n in by})
ns = sorted({n for p, n in by})
print('n'.ljust(10) + ''.join(p[:14].rjust(16) for p in prims))
for n in ns:
    line = str(n).ljust(10)
    for p in prims:
        v = by.get((p, n))
        line += (f"{min(x[0] for x in v):.2f}-{max(x[0] for x in v):.2f}" if v else '-').rjust(16)
    print(line)
w = max((x for v in by.values() for x in v), key=lambda x: x[0])
print('worst', w, [k for k, v in by.items() if w in v])
for p in prims:
    v = by.get((p, 65536))
    if v: print(p, '2^16:', ' '.join(f"{t}/{r}:{x:.3f} ({us:.1f} us)" for x, t, r, us in sorted(v, key=lambda x: (x[1], x[2]))))
