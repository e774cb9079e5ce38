"""reduce_by_key, the scans by key, segmented_reduce and the segmented scans against NumPy, on the CPU."""
import numpy as np
import pytest

import sluice
from conftest import check_reduce, check_scan, random_array
from test_algorithms import ref_runs, runs_array

VALUES = [np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64]
KEYS = [np.bool_, np.int8, np.uint16, np.int32, np.uint64, np.float32, np.float64]
OPS = ["sum", "product", "min", "max"]


def run_bounds(keys):
    heads, lengths = ref_runs(keys)
    starts = np.flatnonzero(heads)
    return list(zip(starts.tolist(), (starts + lengths.astype(np.int64)).tolist()))


def power_law_offsets(rng, n):
    """Offsets over n values: many empty and short segments, a few long ones, not covering the ends."""
    lo, hi = n // 7, n - n // 5
    lengths = np.floor(rng.random(n + 1) ** -1.5).astype(np.int64) - 1
    ends = np.minimum(lo + np.cumsum(lengths), hi)
    return np.r_[lo, ends[: np.searchsorted(ends, hi) + 1]].astype(np.uint64) if n else np.zeros(1, dtype=np.uint64)


def check_by_key(keys, x, op, algorithm, init=None):
    bounds = run_bounds(keys)
    k, v = sluice.reduce_by_key(keys, x, op=op, algorithm=algorithm)
    assert k.dtype == keys.dtype and v.dtype == x.dtype and len(k) == len(bounds) == len(v)
    inc = sluice.inclusive_scan_by_key(keys, x, op=op, algorithm=algorithm)
    exc = sluice.exclusive_scan_by_key(keys, x, op=op, init=init, algorithm=algorithm)
    for r, (b, e) in enumerate(bounds):
        assert k[r].tobytes() == keys[b].tobytes(), "key of run %d" % r
        check_reduce(v[r], x[b + 1:e], op, init=x[b], what="%s run %d" % (op, r))
        check_scan(inc[b:e], x[b:e], op, what="%s inclusive run %d" % (op, r))
        check_scan(exc[b:e], x[b:e], op, init=init, exclusive=True, what="%s exclusive run %d" % (op, r))


@pytest.mark.parametrize("n", [0, 1, 2, 1023, 70001])
@pytest.mark.parametrize("key_dtype", KEYS, ids=lambda d: np.dtype(d).name)
def test_by_key_key_types(rng, key_dtype, n):
    keys = runs_array(rng, np.uint8, n).astype(key_dtype) if key_dtype not in (np.float32, np.float64) else runs_array(rng, key_dtype, n)
    check_by_key(keys, random_array(rng, np.int64, n), "sum", "best")


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", VALUES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("algorithm", ["serial", "three-phase:threads=3"])
def test_by_key_values_and_ops(rng, dtype, op, algorithm):
    n = 70001
    keys = runs_array(rng, np.int32, n)
    x = random_array(rng, dtype, n, kind="product" if op == "product" else "any")
    check_by_key(keys, x, op, algorithm, init=None if op != "sum" else 3)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", VALUES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("algorithm", ["serial", "three-phase:threads=3"])
def test_segmented(rng, dtype, op, algorithm):
    n = 300007
    x = random_array(rng, dtype, n, kind="product" if op == "product" else "any")
    offsets = power_law_offsets(rng, n)
    red = sluice.segmented_reduce(x, offsets, op=op, algorithm=algorithm)
    inc = sluice.segmented_inclusive_scan(x, offsets, op=op, algorithm=algorithm)
    exc = sluice.segmented_exclusive_scan(x, offsets, op=op, algorithm=algorithm)
    assert red.dtype == x.dtype and len(red) == len(offsets) - 1
    lo, hi = int(offsets[0]), int(offsets[-1])
    assert np.array_equal(inc[:lo], x[:lo]) and np.array_equal(inc[hi:], x[hi:]), "outside the segments: a copy of x"
    assert np.array_equal(exc[:lo], x[:lo]) and np.array_equal(exc[hi:], x[hi:])
    for s in range(len(offsets) - 1):
        b, e = int(offsets[s]), int(offsets[s + 1])
        check_reduce(red[s], x[b:e], op, what="%s segment %d" % (op, s))
        check_scan(inc[b:e], x[b:e], op, what="%s inclusive segment %d" % (op, s))
        check_scan(exc[b:e], x[b:e], op, exclusive=True, what="%s exclusive segment %d" % (op, s))


def test_small_by_hand():
    keys = np.array([1, 1, 2, 2, 2, 3, 1, 1], dtype=np.int32)
    x = np.arange(1, 9, dtype=np.float64)
    k, v = sluice.reduce_by_key(keys, x)
    assert k.tolist() == [1, 2, 3, 1] and v.tolist() == [3, 12, 6, 15]
    assert sluice.inclusive_scan_by_key(keys, x).tolist() == [1, 3, 3, 7, 12, 6, 7, 15]
    assert sluice.exclusive_scan_by_key(keys, x, init=10).tolist() == [10, 11, 10, 13, 17, 10, 10, 17]
    offsets = np.array([1, 1, 4, 7, 7], dtype=np.uint64)
    assert sluice.segmented_reduce(x, offsets, init=0.5).tolist() == [0.5, 9.5, 18.5, 0.5]
    out = np.full(8, -1.0)
    sluice.segmented_inclusive_scan(x, offsets, out=out)
    assert out.tolist() == [-1, 2, 5, 9, 5, 11, 18, -1]
    assert sluice.segmented_exclusive_scan(x, offsets, op="max").tolist() == [1, -np.inf, 2, 3, -np.inf, 5, 6, 8]


def test_in_place_and_int64_offsets():
    x = np.arange(10, dtype=np.int64)
    sluice.segmented_inclusive_scan(x, np.array([0, 5, 10], dtype=np.int64), out=x)
    assert x.tolist() == [0, 1, 3, 6, 10, 5, 11, 18, 26, 35]
    keys = np.array([0, 0, 1, 1, 1], dtype=np.uint8)
    y = np.ones(5, dtype=np.float32)
    sluice.exclusive_scan_by_key(keys, y, out=y)
    assert y.tolist() == [0, 1, 0, 1, 2]


def test_errors():
    x = np.ones(100, dtype=np.float32)
    with pytest.raises(ValueError, match="decreases"):
        sluice.segmented_reduce(x, np.array([0, 50, 40], dtype=np.uint64))
    with pytest.raises(ValueError, match="past the 100 values"):
        sluice.segmented_inclusive_scan(x, np.array([0, 101], dtype=np.uint64))
    with pytest.raises(ValueError, match="is empty"):
        sluice.segmented_reduce(x, np.zeros(0, dtype=np.uint64))
    with pytest.raises(TypeError):
        sluice.segmented_reduce(x, np.array([0, 10], dtype=np.int32))
    with pytest.raises(ValueError):
        sluice.reduce_by_key(np.arange(100), x, out_keys=np.zeros(5, dtype=np.int64), out_values=np.zeros(5, dtype=np.float32))
    with pytest.raises(ValueError, match="must match"):
        sluice.inclusive_scan_by_key(np.arange(100), x, out=np.zeros(100, dtype=np.float64))
    with pytest.raises(ValueError):
        sluice.inclusive_scan_by_key(np.arange(99), x)
    with pytest.raises(ValueError, match="op="):
        sluice.segmented_reduce(x, np.array([0, 100], dtype=np.uint64), op="mean")
    with pytest.raises(sluice.Error):
        sluice.reduce_by_key(np.arange(100), x, algorithm="nope")


def test_torch_tensors():
    torch = pytest.importorskip("torch")
    keys = torch.tensor([4, 4, 5, 6, 6, 6], dtype=torch.int64)
    x = torch.arange(6, dtype=torch.float32)
    k, v = sluice.reduce_by_key(keys, x)
    assert isinstance(v, torch.Tensor) and k.tolist() == [4, 5, 6] and v.tolist() == [1, 2, 12]
    assert sluice.segmented_reduce(x, torch.tensor([0, 2, 6], dtype=torch.int64)).tolist() == [1, 14]
