"""list_algorithms(), and every CPU algorithm run by name on each primitive that takes it."""
import threading

import numpy as np
import pytest

import sluice
from conftest import (assert_same_bits, assert_same_multiset, check_reduce, check_scan, make_mask, random_array,
                      random_bytes_array, ref_sort_order)

PRIMITIVES = ["reduce", "scan", "compact", "compact_unordered", "partition", "partition_unordered", "radix_sort", "unique",
              "run_length_encode", "reduce_by_key", "scan_by_key", "segmented_reduce", "segmented_scan", "split", "top_k",
              "segmented_radix_sort"]
# The CPU defaults, as docs/guide/cpu.md lists them.
CPU_DEFAULTS = {"reduce": "vectorized", "scan": "billeter-scan", "compact": "billeter", "compact_unordered": "billeter",
                "partition": "split", "partition_unordered": "split", "radix_sort": "msd-lsd",
                "unique": "three-phase", "run_length_encode": "three-phase", "reduce_by_key": "three-phase",
                "scan_by_key": "three-phase", "segmented_reduce": "three-phase", "segmented_scan": "three-phase",
                "split": "multisplit", "top_k": "radix-select", "segmented_radix_sort": "msd-lsd"}
KEYS = {"primitive", "name", "devices", "default_on", "stable", "summary", "params"}


def cpu_entries():
    try:
        entries = sluice.list_algorithms()
    except Exception:  # reported by test_list_algorithms; the parametrisation must not break collection
        return []
    return [e for e in entries if "cpu" in e.get("devices", ())]


def entry_id(e):
    return "%s-%s" % (e["primitive"], e["name"])


def test_list_algorithms():
    entries = sluice.list_algorithms()
    assert isinstance(entries, list) and entries
    for e in entries:
        assert isinstance(e, dict) and set(e) >= KEYS, "an entry lacks keys: %r" % e
        assert e["primitive"] in PRIMITIVES, e
        assert isinstance(e["name"], str) and e["name"]
        assert isinstance(e["summary"], str) and e["summary"]
        assert isinstance(e["stable"], bool)
        assert set(e["devices"]) <= {"cpu", "cuda", "gl"} and e["devices"], e
        assert set(e["default_on"]) <= set(e["devices"]), "default on a device it does not run on: %r" % e
    for prim in PRIMITIVES:
        cpu = [e for e in entries if e["primitive"] == prim and "cpu" in e["devices"]]
        names = sorted(e["name"] for e in cpu)
        assert len(set(names)) == len(names), "%s lists a CPU name twice: %r" % (prim, names)
        defaults = [e["name"] for e in cpu if "cpu" in e["default_on"]]
        assert defaults == [CPU_DEFAULTS[prim]], "%s: CPU default %r" % (prim, defaults)
        assert "serial" in names or "lsd-serial" in names


def test_list_algorithms_cpu_defaults_take_threads_and_simd():
    for e in sluice.list_algorithms():
        if "cpu" in e["default_on"]:
            assert "threads" in str(e["params"]) and "simd" in str(e["params"]), e


def test_list_algorithms_stability_flags():
    by_key = {(e["primitive"], e["name"]): e for e in sluice.list_algorithms() if "cpu" in e["devices"]}
    assert by_key[("partition_unordered", "split")]["stable"] is False
    assert by_key[("partition", "split")]["stable"] is True
    assert by_key[("radix_sort", "lsd-parallel")]["stable"] is True
    assert by_key[("radix_sort", "msd-lsd")]["stable"] is True


@pytest.mark.parametrize("prim", PRIMITIVES)
def test_list_algorithms_filter(prim):
    entries = sluice.list_algorithms(prim)
    assert entries and all(e["primitive"] == prim for e in entries)
    assert len(entries) == sum(1 for e in sluice.list_algorithms() if e["primitive"] == prim)


def test_list_algorithms_unknown_primitive():
    with pytest.raises(ValueError):
        sluice.list_algorithms("no-such-primitive")


# --------------------------------------------------------------------------------- every CPU algorithm


def run_primitive(rng, prim, algo, n):
    """Run every Python function of the primitive with algorithm=algo and check each result."""
    if prim == "reduce":
        for dtype in (np.int32, np.uint64, np.float32, np.float64):
            for op in ("sum", "product", "min", "max"):
                x = random_array(rng, dtype, n, kind="product" if op == "product" else "any")
                check_reduce(sluice.reduce(x, op=op, algorithm=algo), x, op, what="%s %s" % (algo, op))
                check_reduce(sluice.reduce_async(x, op=op, algorithm=algo)[0], x, op, what="async " + algo)
    elif prim == "scan":
        for dtype in (np.int32, np.uint64, np.float32, np.float64):
            for op in ("sum", "max"):
                x = random_array(rng, dtype, n)
                check_scan(sluice.inclusive_scan(x, op=op, algorithm=algo), x, op, what=algo)
                check_scan(sluice.exclusive_scan(x, op=op, algorithm=algo), x, op, exclusive=True, what=algo)
    elif prim in ("compact", "compact_unordered"):
        check = assert_same_multiset if prim == "compact_unordered" else assert_same_bits
        for dtype in (np.uint8, np.int16, np.float32, np.float64, np.complex128):
            x = random_bytes_array(rng, dtype, n)
            mask = make_mask(rng, "random", n)
            check(getattr(sluice, prim)(x, mask, algorithm=algo), x[mask], algo)
            out, count = getattr(sluice, prim + "_async")(x, mask, algorithm=algo)
            check(out[:int(count[0])], x[mask], algo + " async")
        for dtype in (np.uint8, np.int32, np.float64):
            x = random_array(rng, dtype, n)
            check(getattr(sluice, prim + "_if")(x, sluice.greater_than(0), algorithm=algo), x[x > 0], algo)
    elif prim in ("partition", "partition_unordered"):
        rest_check = assert_same_multiset if prim == "partition_unordered" else assert_same_bits
        for dtype in (np.uint8, np.float32, np.uint64, np.complex128):
            x = random_bytes_array(rng, dtype, n)
            mask = make_mask(rng, "random", n)
            cases = [(mask, mask)]
            if dtype != np.complex128:
                cases.append((sluice.less_than(100), x < np.dtype(dtype).type(100)))
            for arg, keep in cases:
                out, split = getattr(sluice, prim)(x, arg, algorithm=algo)
                assert int(split) == keep.sum(), algo
                assert_same_bits(out[:split], x[keep], algo + " kept")
                rest_check(out[split:n], x[~keep], algo + " rejected")
    elif prim == "radix_sort":
        for dtype in (np.int32, np.uint64, np.float32, np.float64):
            keys = random_array(rng, dtype, n, kind="keys")
            values = np.arange(n, dtype=np.uint32)
            for desc in (False, True):
                perm = ref_sort_order(keys, desc)
                k, v = sluice.radix_sort(keys, values, descending=desc, algorithm=algo)
                assert_same_bits(k, keys[perm], algo)
                assert np.array_equal(v, perm.astype(np.uint32)), algo
                assert np.array_equal(sluice.argsort(keys, descending=desc, algorithm=algo), perm), algo
    elif prim in ("unique", "run_length_encode"):
        for dtype in (np.uint8, np.int32, np.uint64, np.float32, np.float64):
            x = runs_array(rng, dtype, n)
            heads, lengths = ref_runs(x)
            if prim == "unique":
                assert_same_bits(sluice.unique(x, algorithm=algo), x[heads], algo)
                values = np.arange(n, dtype=np.uint32)
                k, v = sluice.unique_by_key(x, values, algorithm=algo)
                assert_same_bits(k, x[heads], algo + " by key")
                assert np.array_equal(v, values[heads]), algo + " by key"
            else:
                u, c = sluice.run_length_encode(x, algorithm=algo)
                assert_same_bits(u, x[heads], algo)
                assert np.array_equal(c, lengths), algo
                o, l = sluice.non_trivial_runs(x, algorithm=algo)
                starts = np.flatnonzero(heads)
                assert np.array_equal(o, starts[lengths > 1]), algo + " non-trivial offsets"
                assert np.array_equal(l, lengths[lengths > 1]), algo + " non-trivial lengths"
    elif prim in ("reduce_by_key", "scan_by_key"):
        keys = runs_array(rng, np.int32, n)
        heads, lengths = ref_runs(keys)
        starts = np.flatnonzero(heads)
        for dtype in (np.int64, np.float64):
            x = random_array(rng, dtype, n)
            if prim == "reduce_by_key":
                k, v = sluice.reduce_by_key(keys, x, op="max", algorithm=algo)
                assert np.array_equal(k, keys[starts]), algo
                assert np.array_equal(v, np.maximum.reduceat(x, starts) if n else x[:0]), algo
            else:
                got = sluice.inclusive_scan_by_key(keys, x, op="max", algorithm=algo)
                ex = sluice.exclusive_scan_by_key(keys, x, op="max", algorithm=algo)
                for b, e in zip(starts.tolist(), (starts + lengths.astype(np.int64)).tolist()):
                    check_scan(got[b:e], x[b:e], "max", what=algo)
                    check_scan(ex[b:e], x[b:e], "max", exclusive=True, what=algo)
    elif prim in ("segmented_reduce", "segmented_scan"):
        offsets = np.unique(np.r_[0, rng.integers(0, n + 1, 64), n]).astype(np.uint64)
        for dtype in (np.int64, np.float64):
            x = random_array(rng, dtype, n)
            bounds = list(zip(offsets[:-1].astype(int).tolist(), offsets[1:].astype(int).tolist()))
            if prim == "segmented_reduce":
                got = sluice.segmented_reduce(x, offsets, op="min", algorithm=algo)
                for s, (b, e) in enumerate(bounds):
                    check_reduce(got[s], x[b:e], "min", what=algo)
            else:
                got = sluice.segmented_inclusive_scan(x, offsets, op="min", algorithm=algo)
                for b, e in bounds:
                    check_scan(got[b:e], x[b:e], "min", what=algo)
    elif prim == "split":
        for dtype in (np.int32, np.uint64, np.float32):
            x = random_array(rng, dtype, n, kind="keys")
            out, offsets = sluice.split(x, shift=np.dtype(dtype).itemsize * 8 - 4, bits=4, algorithm=algo)
            digit = ref_digits(x, np.dtype(dtype).itemsize * 8 - 4, 4)
            order = np.argsort(digit, kind="stable")
            assert_same_bits(out, x[order], algo)
            assert np.array_equal(offsets, np.r_[0, np.cumsum(np.bincount(digit, minlength=16))].astype(np.uint64)), algo
    elif prim == "top_k":
        for dtype in (np.int32, np.uint64, np.float32, np.float64):
            x = random_array(rng, dtype, n, kind="keys")
            for k, largest, ordered in ((n // 3, True, True), (min(n, 5), False, False), (n, True, False)):
                values, idx = sluice.top_k(x, k, largest=largest, sorted=ordered, algorithm=algo)
                want = ref_top_k(x, k, largest, ordered)
                assert np.array_equal(idx, want), (algo, k, largest, ordered)
                assert_same_bits(values, x[want], algo)
    elif prim == "segmented_radix_sort":
        for dtype in (np.int32, np.uint64, np.float32):
            x = random_array(rng, dtype, n, kind="keys")
            cuts = np.unique(np.r_[0, rng.integers(0, n + 1, size=n // 50 + 1), n]).astype(np.uint64)
            perm = np.arange(n)
            for a, b in zip(cuts[:-1], cuts[1:]):
                perm[a:b] = a + ref_sort_order(x[a:b], False)
            k, v = sluice.segmented_radix_sort(x, cuts, np.arange(n, dtype=np.uint32), algorithm=algo)
            assert_same_bits(k, x[perm], algo)
            assert np.array_equal(v, perm.astype(np.uint32)), algo
    else:
        raise AssertionError("no runner for primitive %r" % prim)


def ref_digits(x, shift, bits):
    """Bits [shift, shift + bits) of radix_sort's order-preserving image of x."""
    width = x.dtype.itemsize * 8
    u = x.view(np.uint32 if width == 32 else np.uint64).astype(np.uint64)
    sign = np.uint64(1) << np.uint64(width - 1)
    full = (np.uint64(1) << np.uint64(width)) - np.uint64(1) if width < 64 else np.uint64(0xFFFFFFFFFFFFFFFF)
    if x.dtype.kind == "f":
        u = np.where(u & sign, ~u & full, u | sign)
    elif x.dtype.kind == "i":
        u = u ^ sign
    return ((u >> np.uint64(shift)) & np.uint64((1 << bits) - 1)).astype(np.int64)


def ref_image(x):
    """radix_sort's order-preserving image of x, as uint64."""
    width = x.dtype.itemsize * 8
    u = x.view(np.uint32 if width == 32 else np.uint64).astype(np.uint64)
    sign = np.uint64(1) << np.uint64(width - 1)
    full = np.uint64((1 << width) - 1)
    if x.dtype.kind == "f":
        u = np.where(u & sign, ~u & full, u | sign)
    elif x.dtype.kind == "i":
        u = u ^ sign
    return u


def ref_top_k(x, k, largest=True, ordered=True):
    """The positions of the k largest (smallest) by image, ties to the lower position; sorted or increasing."""
    img = ref_image(x)
    pos = np.argsort(~img if largest else img, kind="stable")[:k]
    return pos if ordered else np.sort(pos)


def runs_array(rng, dtype, n):
    """Runs of random lengths (1 to 9) of a few values, with NaN and both zeros among float ones."""
    pool = np.array([0, 1, 2, 7], dtype=dtype) if np.dtype(dtype).kind != "f" else np.array([0.0, -0.0, 1.5, np.nan], dtype=dtype)
    values = pool[rng.integers(0, len(pool), n)]
    return np.repeat(values, rng.integers(1, 10, n))[:n].copy()


def ref_runs(x):
    """Run heads (==: NaN is a run of its own; -0.0 == 0.0) and each run's length."""
    with np.errstate(invalid="ignore"):
        heads = np.r_[True, x[1:] != x[:-1]] if x.size else np.zeros(0, dtype=bool)
    starts = np.flatnonzero(heads)
    return heads, np.diff(np.r_[starts, x.size]).astype(np.uint64)


@pytest.mark.parametrize("entry", cpu_entries(), ids=entry_id)
def test_cpu_algorithm_by_name(rng, entry):
    for n in (0, 1, 1000, 300001):
        run_primitive(rng, entry["primitive"], entry["name"], n)


def test_every_primitive_has_cpu_entries():
    assert {e["primitive"] for e in cpu_entries()} == set(PRIMITIVES)


@pytest.mark.parametrize("params", ["threads=1", "threads=2", "threads=3", "simd=scalar", "simd=avx2", "simd=avx512",
                                    "simd=auto,threads=2"])
@pytest.mark.parametrize("prim", PRIMITIVES)
def test_cpu_default_parameters(rng, prim, params):
    algo = "%s:%s" % (CPU_DEFAULTS[prim], params)
    try:
        run_primitive(rng, prim, algo, 70001)
    except sluice.Error as e:
        # A SIMD level the processor lacks is 'unsupported'; anything else is a failure.
        if e.code == "unsupported" and "simd=avx" in params:
            pytest.skip("this processor lacks %s: %s" % (params, e))
        raise


# ------------------------------------------------------------------------------------------- threads


def test_concurrent_calls(rng):
    """The GIL is released while a call runs: calls from several Python threads at once all succeed."""
    n = 1 << 18
    xs = [random_bytes_array(rng, np.int32, n) for _ in range(4)]
    masks = [make_mask(rng, "random", n) for _ in range(4)]
    results = [None] * 4
    errors = []

    def work(i):
        try:
            for _ in range(5):
                results[i] = (sluice.compact(xs[i], masks[i]), sluice.inclusive_scan(xs[i]),
                              sluice.radix_sort(xs[i]))
        except Exception as e:  # re-raised below, in the test's thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for i in range(4):
        c, s, k = results[i]
        assert_same_bits(c, xs[i][masks[i]], "compact")
        assert np.array_equal(s, np.cumsum(xs[i], dtype=np.int32))
        assert np.array_equal(k, np.sort(xs[i]))
