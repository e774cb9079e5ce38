"""python -m sluice.bench: sluice beside PyTorch and CuPy on the GPU, the same arrays in the same run.

Each case is timed as its users call it, from Python, on the current stream: the median of CUDA-event timings of
single calls after warm-up, with a device-to-device copy of the same number of bytes timed in the same run as
the yardstick. Columns: the time in microseconds, the effective bandwidth (bytes read and written once, the
least the primitive must move), that as a fraction of the copy's, and the time against PyTorch's.

    python -m sluice.bench                 # 2^16, 2^20, 2^24, 2^28 elements
    python -m sluice.bench --sizes 2^24 --csv out.csv
"""

import argparse
import csv
import statistics
import sys


import sluice


def _size(text):
    base, _, exp = text.partition("^")
    return int(base) ** int(exp) if exp else int(text)


def _timer(torch):
    stream = torch.cuda.current_stream()

    def time(fn, repeats):
        for _ in range(2):
            fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(repeats):
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record(stream)
            fn()
            stop.record(stream)
            stop.synchronize()
            times.append(start.elapsed_time(stop) * 1000.0)
        return statistics.median(times)

    return time


def _cases(torch, cupy, n):
    """(primitive, dtype, bytes moved, check, [(implementation, callable)])."""
    g = torch.Generator(device="cuda").manual_seed(n)
    x = torch.rand(n, device="cuda", generator=g)
    mask = x < 0.5
    kept = int(mask.sum())
    xi = torch.randint(-(2**31), 2**31 - 1, (n,), device="cuda", dtype=torch.int32, generator=g)
    out = torch.empty_like(x)
    outi = torch.empty_like(xi)
    cx = cupy.from_dlpack(x) if cupy else None
    cm = cupy.from_dlpack(mask.view(torch.uint8)).view(cupy.bool_) if cupy else None
    cxi = cupy.from_dlpack(xi) if cupy else None
    cases = []

    def add(primitive, dtype, moved, impls):
        cases.append((primitive, dtype, moved, [(name, f) for name, f in impls if f is not None]))

    add("compact", "f32", 4 * n + n + 4 * kept, [
        ("sluice.compact", lambda: sluice.compact(x, mask, out=out)),
        ("torch.masked_select", lambda: torch.masked_select(x, mask)),
        ("cupy x[mask]", (lambda: cx[cm]) if cupy else None)])
    add("compact_if", "f32", 4 * n + 4 * kept, [
        ("sluice.compact_if", lambda: sluice.compact_if(x, sluice.less_than(0.5), out=out)),
        ("torch x[x < 0.5]", lambda: x[x < 0.5]),
        ("cupy x[x < 0.5]", (lambda: cx[cx < 0.5]) if cupy else None)])
    add("inclusive_scan", "f32", 8 * n, [
        ("sluice.inclusive_scan", lambda: sluice.inclusive_scan(x, out=out)),
        ("torch.cumsum", lambda: torch.cumsum(x, 0, out=out)),
        ("cupy.cumsum", (lambda: cupy.cumsum(cx, out=cupy.from_dlpack(out))) if cupy else None)])
    add("inclusive_scan", "i32", 8 * n, [
        ("sluice.inclusive_scan", lambda: sluice.inclusive_scan(xi, out=outi)),
        ("torch.cumsum", lambda: torch.cumsum(xi, 0, dtype=torch.int32, out=outi)),
        ("cupy.cumsum", (lambda: cupy.cumsum(cxi, dtype=cupy.int32, out=cupy.from_dlpack(outi))) if cupy else None)])
    add("partition", "f32", 4 * n + n + 4 * n, [
        ("sluice.partition", lambda: sluice.partition(x, mask, out=out)),
        ("torch cat(x[m], x[~m])", lambda: torch.cat((x[mask], x[~mask]))),
        ("cupy concatenate", (lambda: cupy.concatenate((cx[cm], cx[~cm]))) if cupy else None)])
    add("radix_sort", "i32", 8 * n, [
        ("sluice.radix_sort", lambda: sluice.radix_sort(xi)),
        ("torch.sort", lambda: torch.sort(xi)),
        ("cupy.sort", (lambda: cupy.sort(cxi)) if cupy else None)])
    add("radix_sort", "f32", 8 * n, [
        ("sluice.radix_sort", lambda: sluice.radix_sort(x)),
        ("torch.sort", lambda: torch.sort(x)),
        ("cupy.sort", (lambda: cupy.sort(cx)) if cupy else None)])
    add("argsort", "f32", 8 * n + 16 * n, [
        ("sluice.argsort", lambda: sluice.argsort(x)),
        ("torch.sort(stable)", lambda: torch.sort(x, stable=True)),
        ("cupy.argsort", (lambda: cupy.argsort(cx)) if cupy else None)])
    return cases


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m sluice.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2^16,2^20,2^24,2^28", help="element counts, comma-separated (2^k allowed)")
    parser.add_argument("--repeats", type=int, default=0, help="timed calls per case (default: 50 up to 2^20, 20 up to 2^24, else 10)")
    parser.add_argument("--csv", help="write the rows to this CSV file too")
    args = parser.parse_args(argv)
    try:
        import torch
    except ImportError:
        sys.exit("sluice.bench: needs PyTorch with CUDA (and CuPy, optional)")
    if not torch.cuda.is_available() or not sluice.device_available("cuda"):
        sys.exit("sluice.bench: no CUDA GPU is present (or this sluice was built without CUDA)")
    try:
        import cupy
    except ImportError:
        cupy = None
    time = _timer(torch)
    print(f"sluice {sluice.__version__}, torch {torch.__version__}, cupy {cupy.__version__ if cupy else 'absent'}, "
          f"{torch.cuda.get_device_name()}")
    rows = []
    header = f"{'primitive':<15} {'type':<4} {'n':>10} {'implementation':<24} {'us':>10} {'GB/s':>8} {'of copy':>8} {'vs torch':>9}"
    print(header)
    for n in (_size(s) for s in args.sizes.split(",")):
        repeats = args.repeats or (50 if n <= 1 << 20 else 20 if n <= 1 << 24 else 10)
        for primitive, dtype, moved, impls in _cases(torch, cupy, n):
            src = torch.empty(moved // 2, dtype=torch.uint8, device="cuda")
            dst = torch.empty_like(src)
            copy_us = time(lambda: dst.copy_(src), repeats)
            del src, dst
            timed = [(name, time(f, repeats)) for name, f in impls]
            torch_us = next(us for name, us in timed if name.startswith("torch"))
            for name, us in timed:
                gbs = moved / us / 1e3
                row = dict(primitive=primitive, dtype=dtype, n=n, implementation=name, us=round(us, 2), gbs=round(gbs, 1),
                           of_copy=round(copy_us / us, 3), vs_torch=round(us / torch_us, 3), copy_us=round(copy_us, 2))
                rows.append(row)
                print(f"{primitive:<15} {dtype:<4} {n:>10} {name:<24} {us:>10.1f} {gbs:>8.1f} {copy_us / us:>8.2f} {us / torch_us:>8.2f}x",
                      flush=True)
            torch.cuda.empty_cache()
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        print(f"wrote {args.csv} ({len(rows)} rows)")


if __name__ == "__main__":
    main()
