"""Shared data generators and NumPy references for the sluice Python tests.

Run with the system interpreter and the built package on the path:
    PYTHONPATH=<build>/python python3 -m pytest python/tests -q
"""
import zlib

import numpy as np
import pytest

import sluice

# Element types per primitive, as docs/guide/python.md lists them.
NUMERIC_DTYPES = [np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64]  # reduce, scans, sort keys
PRED_DTYPES = [np.uint8] + NUMERIC_DTYPES  # compact_if and the predicate partitions
# Mask-driven moves and sort values take any element of 1, 2, 4, 8 or 16 bytes.
MOVE_DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.float16, np.int32, np.uint32, np.int64, np.uint64,
               np.float32, np.float64, np.complex64, np.complex128]

# Sizes around the CPU's SIMD widths and small tiles, for the full dtype cross product.
SMALL_SIZES = [0, 1, 2, 3, 31, 33, 127, 128, 129, 1023, 1024, 1025, 4095, 4096, 4097]
# Sizes around the CPU blocks (256 KiB of 4- and 8-byte elements) and many blocks, for the main paths.
BIG_SIZES = [32767, 32769, 65535, 65536, 65537, (1 << 20) + 3]

OPS = ["sum", "product", "min", "max"]
PREDICATES = ["less_than", "at_most", "greater_than", "at_least", "equal_to", "not_equal_to"]
PRED_NUMPY = {
    "less_than": np.less,
    "at_most": np.less_equal,
    "greater_than": np.greater,
    "at_least": np.greater_equal,
    "equal_to": np.equal,
    "not_equal_to": np.not_equal,
}
MASK_PATTERNS = ["random", "all", "none", "alternating", "one", "first", "last", "runs", "sparse", "dense"]


def dtype_id(dt):
    return np.dtype(dt).name


def size_id(n):
    return "n=%d" % n


@pytest.fixture
def rng(request):
    """A generator seeded from the test's id: every failure reproduces."""
    return np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))


# ---------------------------------------------------------------------------------------------- data


def random_array(rng, dtype, n, kind="any"):
    """n random elements of dtype.

    kind "any": integers over the whole range (sums and products wrap), floats normal * 100.
    kind "product": odd integers (a wrapping product then never collapses to 0), floats in [0.99, 1.01].
    kind "keys": integers where about half the elements repeat a few values (stability shows), floats
    with duplicates, both zeros and both infinities.
    """
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.random(n) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        x = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
        if kind == "product":
            x |= dt.type(1)
        elif kind == "keys" and n > 0:
            few = rng.integers(info.min, info.max, 8, dtype=dt, endpoint=True)
            pick = rng.random(n) < 0.5
            x[pick] = few[rng.integers(0, 8, int(pick.sum()))]
        return x
    if dt.kind == "f":
        if kind == "product":
            return rng.uniform(0.99, 1.01, n).astype(dt)
        x = (rng.standard_normal(n) * 100).astype(dt)
        if kind == "keys" and n > 0:
            few = np.array([0.0, -0.0, np.inf, -np.inf, 1.5, -1.5, 1e-30, -1e-30], dtype=dt)
            pick = rng.random(n) < 0.5
            x[pick] = few[rng.integers(0, len(few), int(pick.sum()))]
        return x
    if dt.kind == "c":
        return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dt)
    raise AssertionError("no generator for %s" % dt)


def random_bytes_array(rng, dtype, n):
    """n elements of dtype made of random bytes (floats then include NaNs with payloads): data
    movement must carry every bit. bool stays 0/1, the only valid bools."""
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.random(n) < 0.5
    return rng.integers(0, 256, n * dt.itemsize, dtype=np.uint8).view(dt)


def make_mask(rng, pattern, n, dtype=np.bool_):
    if pattern == "random":
        m = rng.random(n) < 0.5
    elif pattern == "all":
        m = np.ones(n, bool)
    elif pattern == "none":
        m = np.zeros(n, bool)
    elif pattern == "alternating":
        m = np.arange(n) % 2 == 0
    elif pattern in ("one", "first", "last"):
        m = np.zeros(n, bool)
        if n:
            m[{"one": n // 2, "first": 0, "last": n - 1}[pattern]] = True
    elif pattern == "runs":
        m = np.zeros(n, bool)
        i, on = 0, bool(rng.integers(0, 2))
        while i < n:
            run = int(rng.integers(1, 3000))
            m[i:i + run] = on
            i, on = i + run, not on
    elif pattern == "sparse":
        m = rng.random(n) < 0.01
    elif pattern == "dense":
        m = rng.random(n) < 0.99
    else:
        raise AssertionError(pattern)
    if np.dtype(dtype) == np.uint8:
        # Any non-zero byte keeps its element, not just 1.
        return np.where(m, rng.integers(1, 256, n), 0).astype(np.uint8)
    return m


def edge_array(rng, dtype, n):
    """Random elements mixed with the dtype's extremes (and for floats: both zeros, infinities, NaN,
    denormals), for predicates."""
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        edges = np.array([info.min, info.min + 1, info.max - 1, info.max, 0, 1], dtype=dt)
        if dt.kind == "i":
            edges = np.concatenate([edges, np.array([-1], dtype=dt)])
    else:
        fi = np.finfo(dt)
        edges = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, fi.max, -fi.max, fi.tiny, -fi.tiny,
                          fi.smallest_subnormal, 1.0, -1.0], dtype=dt)
    x = random_array(rng, dt, n)
    if n:
        pick = rng.random(n) < 0.3
        x[pick] = edges[rng.integers(0, len(edges), int(pick.sum()))]
    return x


def threshold_values(dtype, x):
    """Thresholds at the edges of the dtype and inside the data."""
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        vals = [int(info.min), int(info.max), 0, 1]
    else:
        vals = [float("-inf"), float("inf"), 0.0, -0.0, 1.0, float(np.finfo(dt).max)]
    finite = x[np.isfinite(x)] if dt.kind == "f" else x
    if finite.size:
        vals.append(finite[finite.size // 2].item())
    return vals


# ----------------------------------------------------------------------------------------- compare


def bits(a):
    """The array's bytes as unsigned integers of its element size (16-byte elements as pairs of u8):
    comparisons then see every bit (NaN payloads, -0.0)."""
    a = np.ascontiguousarray(np.asarray(a))
    size = a.dtype.itemsize
    if size == 16:
        return a.view(np.uint64)
    return a.view("u%d" % size)


def assert_same_bits(got, want, what=""):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, "%s: dtype %s, expected %s" % (what, got.dtype, want.dtype)
    assert got.shape == want.shape, "%s: shape %s, expected %s" % (what, got.shape, want.shape)
    g, w = bits(got), bits(want)
    if not np.array_equal(g, w):
        bad = np.flatnonzero(g != w)
        i = bad[0] * max(got.size, 1) // g.size
        raise AssertionError("%s: %d words differ, first in element %d: got %r, expected %r"
                             % (what, bad.size, i, got.reshape(-1)[i], want.reshape(-1)[i]))


def assert_same_multiset(got, want, what=""):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, "%s: dtype %s, expected %s" % (what, got.dtype, want.dtype)
    assert got.shape == want.shape, "%s: shape %s, expected %s" % (what, got.shape, want.shape)
    g, w = bits(got), bits(want)
    if g.ndim == 1 and got.dtype.itemsize == 16:
        g, w = g.reshape(-1, 2), w.reshape(-1, 2)
    if g.ndim == 2:
        g = g[np.lexsort(g.T[::-1])]
        w = w[np.lexsort(w.T[::-1])]
    else:
        g, w = np.sort(g), np.sort(w)
    assert np.array_equal(g, w), "%s: not the same multiset of elements" % what


def is_float(dtype):
    return np.dtype(dtype).kind == "f"


# ---------------------------------------------------------------------------------------- references

def identity(op, dtype):
    """The op's identity, the default init of reduce and exclusive_scan."""
    dt = np.dtype(dtype)
    if op == "sum":
        return dt.type(0)
    if op == "product":
        return dt.type(1)
    if dt.kind == "f":
        return dt.type(np.inf if op == "min" else -np.inf)
    info = np.iinfo(dt)
    return dt.type(info.max if op == "min" else info.min)


def ref_inclusive(x, op):
    """The inclusive scan in x's dtype (integers wrap)."""
    dt = x.dtype
    with np.errstate(over="ignore", invalid="ignore"):
        if op == "sum":
            return np.cumsum(x, dtype=dt)
        if op == "product":
            return np.cumprod(x, dtype=dt)
        if op == "min":
            return np.minimum.accumulate(x) if x.size else x.copy()
        return np.maximum.accumulate(x) if x.size else x.copy()


def exact_inclusive(x, op):
    """For float sums and products: the scan in long double, and the bound on its error the library
    documents (docs/guide/api.md, "Operators and floating point")."""
    wide = x.astype(np.longdouble)
    f32 = x.dtype == np.float32
    if op == "sum":
        exact = np.cumsum(wide)
        scale = np.cumsum(np.abs(wide))
        return exact, (1e-3 if f32 else 1e-11) * scale
    k = np.arange(1, x.size + 1, dtype=np.longdouble)
    exact = np.cumprod(wide)
    rel = np.maximum(1e-3, k * 2.0 ** -24) if f32 else np.maximum(1e-11, k * 2.0 ** -53)
    return exact, rel * np.abs(exact)


def check_scan(got, x, op, init=None, exclusive=False, what=""):
    """got must be the (in/ex)clusive scan of x; exact for integers, min and max; within the documented
    tolerance for float sums and products."""
    got = np.asarray(got)
    assert got.dtype == x.dtype, "%s: dtype %s, expected %s" % (what, got.dtype, x.dtype)
    assert got.shape == x.shape, "%s: shape %s, expected %s" % (what, got.shape, x.shape)
    if exclusive or init is not None:
        first = identity(op, x.dtype) if init is None else x.dtype.type(init)
        seq = np.concatenate([np.array([first], dtype=x.dtype), x])
        want_full_len = True
    else:
        seq = x
        want_full_len = False
    if is_float(x.dtype) and op in ("sum", "product"):
        exact, tol = exact_inclusive(seq, op)
        if want_full_len:
            exact, tol = exact[:-1], tol[:-1]
        err = np.abs(got.astype(np.longdouble) - exact)
        bad = np.flatnonzero(~(err <= tol))
        assert bad.size == 0, "%s: %d elements outside the tolerance, first at %d: got %r, exact %r" % (
            what, bad.size, bad[0], got[bad[0]], exact[bad[0]])
    else:
        want = ref_inclusive(seq, op)
        if want_full_len:
            want = want[:-1]
        if not np.array_equal(got, want):
            bad = np.flatnonzero(got != want)
            raise AssertionError("%s: %d elements differ, first at %d: got %r, expected %r"
                                 % (what, bad.size, bad[0], got[bad[0]], want[bad[0]]))


def check_reduce(got, x, op, init=None, what=""):
    dt = x.dtype
    first = identity(op, dt) if init is None else dt.type(init)
    seq = np.concatenate([np.array([first], dtype=dt), x])
    if is_float(dt) and op in ("sum", "product"):
        exact, tol = exact_inclusive(seq, op)
        err = abs(np.longdouble(got) - exact[-1])
        assert err <= tol[-1], "%s: got %r, exact %r (tolerance %r)" % (what, got, exact[-1], tol[-1])
    else:
        want = ref_inclusive(seq, op)[-1]
        assert got == want, "%s: got %r, expected %r" % (what, got, want)


def key_image(keys):
    """The order-preserving unsigned image sluice sorts by (docs/guide/api.md, "Radix sort keys"):
    signed integers flip the sign bit; floats flip the sign bit of non-negatives and every bit of
    negatives."""
    dt = keys.dtype
    u = keys.view("u%d" % dt.itemsize).copy()
    sign = np.array(1 << (8 * dt.itemsize - 1), dtype=u.dtype)
    if dt.kind == "i":
        return u ^ sign
    if dt.kind == "f":
        neg = (u & sign) != 0
        return np.where(neg, ~u, u | sign)
    return u


def ref_sort_order(keys, descending=False, bits_range=None):
    """The stable sorting permutation by the key image (or the bits [begin, end) of it)."""
    img = key_image(keys)
    width = 8 * keys.dtype.itemsize
    begin, end = (0, width) if bits_range is None else bits_range
    if end == -1:
        end = width
    if end - begin < width:
        field_mask = np.array((1 << (end - begin)) - 1, dtype=img.dtype)
        img = (img >> np.array(begin, dtype=img.dtype)) & field_mask
    else:
        field_mask = np.array((1 << width) - 1, dtype=img.dtype)
    if descending:
        img = ~img & field_mask
    return np.argsort(img, kind="stable")


def get_predicate(name, value):
    return getattr(sluice, name)(value)
