"""reduce, reduce_async, inclusive_scan and exclusive_scan against NumPy references."""
import numpy as np
import pytest

import sluice
from conftest import (BIG_SIZES, NUMERIC_DTYPES, OPS, SMALL_SIZES, bits, check_reduce, check_scan, dtype_id,
                      identity, random_array, size_id)


def data_for(rng, dtype, n, op):
    return random_array(rng, dtype, n, kind="product" if op == "product" else "any")


def init_for(op, dtype):
    """An init that changes the result: a value inside the data's range for min and max."""
    dt = np.dtype(dtype)
    if op == "sum":
        return 7
    if op == "product":
        return 3
    if dt.kind == "u":
        return 1000 if op == "max" else 12345
    return -5 if op == "max" else 5


# ------------------------------------------------------------------------------------------ reduce


@pytest.mark.parametrize("n", SMALL_SIZES, ids=size_id)
@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("op", OPS)
def test_reduce(rng, op, dtype, n):
    x = data_for(rng, dtype, n, op)
    got = sluice.reduce(x, op=op)
    assert isinstance(got, np.generic), "reduce must return a NumPy scalar, got %r" % type(got)
    assert got.dtype == x.dtype
    check_reduce(got, x, op, what="reduce %s" % op)


@pytest.mark.parametrize("n", BIG_SIZES, ids=size_id)
@pytest.mark.parametrize("dtype", [np.int32, np.uint64, np.float32, np.float64], ids=dtype_id)
@pytest.mark.parametrize("op", OPS)
def test_reduce_large(rng, op, dtype, n):
    x = data_for(rng, dtype, n, op)
    check_reduce(sluice.reduce(x, op=op), x, op, what="reduce %s" % op)


@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("op", OPS)
def test_reduce_empty_is_identity(op, dtype):
    got = sluice.reduce(np.empty(0, dtype=dtype), op=op)
    assert got.dtype == np.dtype(dtype)
    assert got == identity(op, dtype), "reduce(empty, op=%s) = %r, expected the identity" % (op, got)


@pytest.mark.parametrize("n", [0, 1, 1000], ids=size_id)
@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("op", OPS)
def test_reduce_init(rng, op, dtype, n):
    x = data_for(rng, dtype, n, op)
    init = init_for(op, dtype)
    got = sluice.reduce(x, op=op, init=init)
    check_reduce(got, x, op, init=init, what="reduce %s init=%r" % (op, init))


@pytest.mark.parametrize("dtype,values,want", [
    (np.int32, [2**31 - 1, 1], -2**31),
    (np.uint32, [2**32 - 1, 2], 1),
    (np.int64, [2**63 - 1, 1], -2**63),
    (np.uint64, [2**64 - 1, 1], 0),
], ids=["int32", "uint32", "int64", "uint64"])
def test_reduce_integer_sum_wraps(dtype, values, want):
    assert sluice.reduce(np.array(values, dtype=dtype)) == np.array(want, dtype=dtype)


@pytest.mark.parametrize("dtype", [np.int32, np.uint64], ids=dtype_id)
def test_reduce_integer_product_wraps(rng, dtype):
    x = random_array(rng, dtype, 5000, kind="product")
    got = sluice.reduce(x, op="product")
    with np.errstate(over="ignore"):
        assert got == np.prod(x, dtype=x.dtype)


@pytest.mark.parametrize("n", [0, 1, 129, 4097, 65537], ids=size_id)
@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("op", OPS)
def test_reduce_async(rng, op, dtype, n):
    x = data_for(rng, dtype, n, op)
    res = sluice.reduce_async(x, op=op)
    assert isinstance(res, np.ndarray) and res.shape == (1,) and res.dtype == x.dtype, repr(res)
    check_reduce(res[0], x, op, what="reduce_async %s" % op)


@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
def test_reduce_async_out(rng, dtype):
    x = random_array(rng, dtype, 3000)
    out = np.zeros(1, dtype=dtype)
    res = sluice.reduce_async(x, op="max", init=None, out=out)
    assert np.shares_memory(res, out)
    assert out[0] == x.max()
    res = sluice.reduce_async(x, op="min", out=out)
    assert out[0] == x.min()


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=dtype_id)
def test_reduce_float_repeats(rng, dtype):
    """Float sums repeat bit for bit run to run and, on the CPU, do not depend on the thread count."""
    x = random_array(rng, dtype, (1 << 20) + 3)
    first = sluice.reduce(x)
    again = sluice.reduce(x)
    one = sluice.reduce(x, algorithm="vectorized:threads=1")
    two = sluice.reduce(x, algorithm="vectorized:threads=2")
    assert bits(np.array([first])) == bits(np.array([again]))
    assert bits(np.array([one])) == bits(np.array([two])), "the float sum depends on the thread count"
    assert bits(np.array([first])) == bits(np.array([two]))


@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
def test_reduce_readonly_input(rng, dtype):
    x = random_array(rng, dtype, 1000)
    x.setflags(write=False)
    check_reduce(sluice.reduce(x, op="max"), x, "max")


# -------------------------------------------------------------------------------------------- scans


@pytest.mark.parametrize("n", SMALL_SIZES, ids=size_id)
@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("op", OPS)
def test_inclusive_scan(rng, op, dtype, n):
    x = data_for(rng, dtype, n, op)
    before = x.copy()
    got = sluice.inclusive_scan(x, op=op)
    assert isinstance(got, np.ndarray)
    assert not np.shares_memory(got, x) or n == 0
    check_scan(got, x, op, what="inclusive_scan %s" % op)
    assert np.array_equal(bits(x), bits(before)), "the input was modified"


@pytest.mark.parametrize("n", SMALL_SIZES, ids=size_id)
@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("op", OPS)
def test_exclusive_scan(rng, op, dtype, n):
    x = data_for(rng, dtype, n, op)
    got = sluice.exclusive_scan(x, op=op)
    assert isinstance(got, np.ndarray)
    check_scan(got, x, op, exclusive=True, what="exclusive_scan %s" % op)
    if n:
        assert got[0] == identity(op, dtype), "exclusive_scan's first element must be the op's identity"


@pytest.mark.parametrize("n", BIG_SIZES, ids=size_id)
@pytest.mark.parametrize("dtype", [np.int32, np.uint64, np.float32, np.float64], ids=dtype_id)
@pytest.mark.parametrize("op", ["sum", "max"])
def test_scans_large(rng, op, dtype, n):
    x = data_for(rng, dtype, n, op)
    check_scan(sluice.inclusive_scan(x, op=op), x, op, what="inclusive_scan %s" % op)
    check_scan(sluice.exclusive_scan(x, op=op), x, op, exclusive=True, what="exclusive_scan %s" % op)


@pytest.mark.parametrize("n", [1, 1000, 65537], ids=size_id)
@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("op", OPS)
def test_exclusive_scan_init(rng, op, dtype, n):
    x = data_for(rng, dtype, n, op)
    init = init_for(op, dtype)
    got = sluice.exclusive_scan(x, op=op, init=init)
    assert got[0] == np.dtype(dtype).type(init)
    check_scan(got, x, op, init=init, exclusive=True, what="exclusive_scan %s init=%r" % (op, init))


@pytest.mark.parametrize("scan", ["inclusive_scan", "exclusive_scan"])
@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
def test_scan_out(rng, scan, dtype):
    n = 5000
    x = random_array(rng, dtype, n)
    out = np.zeros(n, dtype=dtype)
    res = getattr(sluice, scan)(x, out=out)
    assert np.shares_memory(res, out), "the given out= must be returned"
    check_scan(out, x, "sum", exclusive=scan == "exclusive_scan", what=scan)


@pytest.mark.parametrize("scan", ["inclusive_scan", "exclusive_scan"])
@pytest.mark.parametrize("dtype", [np.int32, np.float64], ids=dtype_id)
def test_scan_out_longer(rng, scan, dtype):
    """out= may be longer than x: the first len(x) elements are written, the rest is left alone."""
    n = 1025
    x = random_array(rng, dtype, n)
    out = np.full(n + 100, 77, dtype=dtype)
    res = getattr(sluice, scan)(x, out=out)
    assert np.shares_memory(res, out)
    check_scan(out[:n], x, "sum", exclusive=scan == "exclusive_scan", what=scan)
    assert np.all(out[n:] == 77), "%s wrote past len(x)" % scan
    assert np.array_equal(np.asarray(res)[:n], out[:n])


# The largest in-place case for sum only, to keep the suite fast.
IN_PLACE_CASES = [(op, n) for op in OPS for n in (1, 129, 4097, 65537)] + [("sum", (1 << 20) + 3)]


@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("op,n", IN_PLACE_CASES, ids=["%s-n=%d" % c for c in IN_PLACE_CASES])
def test_inclusive_scan_in_place(rng, op, dtype, n):
    x = data_for(rng, dtype, n, op)
    original = x.copy()
    res = sluice.inclusive_scan(x, op=op, out=x)
    assert np.shares_memory(res, x)
    check_scan(x, original, op, what="inclusive_scan %s in place" % op)


@pytest.mark.parametrize("scan,algo", [("inclusive_scan", "billeter-scan"), ("exclusive_scan", "billeter-scan")])
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=dtype_id)
def test_float_scan_repeats(rng, scan, algo, dtype):
    """Float scans repeat bit for bit and, on the CPU, do not depend on the thread count."""
    x = random_array(rng, dtype, (1 << 20) + 3)
    f = getattr(sluice, scan)
    a = f(x)
    b = f(x)
    one = f(x, algorithm=algo + ":threads=1")
    two = f(x, algorithm=algo + ":threads=2")
    assert np.array_equal(bits(a), bits(b))
    assert np.array_equal(bits(one), bits(two)), "the float scan depends on the thread count"
    assert np.array_equal(bits(a), bits(two))


@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
def test_scan_readonly_input(rng, dtype):
    x = random_array(rng, dtype, 2000)
    x.setflags(write=False)
    check_scan(sluice.inclusive_scan(x), x, "sum", what="inclusive_scan of a read-only array")
    check_scan(sluice.exclusive_scan(x, op="min"), x, "min", exclusive=True, what="exclusive_scan read-only")


@pytest.mark.parametrize("offset", [1, 3, 5, 15])
@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
def test_offset_views(rng, dtype, offset):
    """Arrays that start inside a larger buffer, off any vector alignment; the scan writes only its out= view."""
    n = 70001
    base = random_array(rng, dtype, n + 40)
    x = base[offset:offset + n]
    check_reduce(sluice.reduce(x, op="max"), x, "max", what="reduce of an offset view")
    out_base = np.full(n + 40, 9, dtype=dtype)
    out = out_base[offset + 2:offset + 2 + n]
    sluice.inclusive_scan(x, out=out)
    check_scan(out, x, "sum", what="inclusive_scan into an offset view")
    assert np.all(out_base[:offset + 2] == 9) and np.all(out_base[offset + 2 + n:] == 9), "wrote outside out="
