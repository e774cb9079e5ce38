"""compact, compact_if, compact_unordered, compact_unordered_if and their _async forms."""
import numpy as np
import pytest

import sluice
from conftest import (BIG_SIZES, MASK_PATTERNS, MOVE_DTYPES, PRED_DTYPES, PRED_NUMPY, PREDICATES, SMALL_SIZES,
                      assert_same_bits, assert_same_multiset, bits, dtype_id, edge_array, get_predicate, make_mask,
                      random_bytes_array, size_id, threshold_values)

ORDERED = ["compact", "compact_unordered"]  # both checked; the unordered one as a multiset


def check_compacted(name, got, want):
    if "unordered" in name:
        assert_same_multiset(got, want, name)
    else:
        assert_same_bits(got, want, name)


def check_async_result(name, res, x, want):
    assert isinstance(res, tuple) and len(res) == 2, "%s must return (out, count)" % name
    out, count = res
    assert isinstance(out, np.ndarray) and out.dtype == x.dtype
    assert out.shape[0] >= x.shape[0], "%s: out holds %d elements, fewer than len(x)" % (name, out.shape[0])
    assert isinstance(count, np.ndarray) and count.shape == (1,), "%s: count must be a 1-element array" % name
    assert count.dtype == np.uint64, "%s: count dtype %s, expected uint64" % (name, count.dtype)
    assert int(count[0]) == want.size, "%s: count %d, expected %d" % (name, count[0], want.size)
    check_compacted(name, out[:want.size], want)


# --------------------------------------------------------------------------------------- by mask


@pytest.mark.parametrize("n", SMALL_SIZES, ids=size_id)
@pytest.mark.parametrize("dtype", MOVE_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", ORDERED)
def test_compact_dtypes(rng, name, dtype, n):
    x = random_bytes_array(rng, dtype, n)
    mask = make_mask(rng, "random", n)
    before, mask_before = x.copy(), mask.copy()
    got = getattr(sluice, name)(x, mask)
    assert isinstance(got, np.ndarray)
    check_compacted(name, got, x[mask])
    assert_same_bits(x, before, "the input after %s" % name)
    assert_same_bits(mask, mask_before, "the mask after %s" % name)


@pytest.mark.parametrize("n", [1, 2, 129, 1025, 4097, 65537], ids=size_id)
@pytest.mark.parametrize("pattern", MASK_PATTERNS)
@pytest.mark.parametrize("mask_dtype", [np.bool_, np.uint8], ids=dtype_id)
@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float64, np.complex128], ids=dtype_id)
@pytest.mark.parametrize("name", ORDERED)
def test_compact_masks(rng, name, dtype, mask_dtype, pattern, n):
    x = random_bytes_array(rng, dtype, n)
    mask = make_mask(rng, pattern, n, mask_dtype)
    got = getattr(sluice, name)(x, mask)
    check_compacted("%s %s mask" % (name, pattern), got, x[mask != 0])


@pytest.mark.parametrize("n", BIG_SIZES, ids=size_id)
@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32, np.uint64, np.complex128], ids=dtype_id)
@pytest.mark.parametrize("name", ORDERED)
def test_compact_large(rng, name, dtype, n):
    x = random_bytes_array(rng, dtype, n)
    mask = make_mask(rng, "runs" if n % 2 else "random", n)
    check_compacted(name, getattr(sluice, name)(x, mask), x[mask])


def test_compact_keeps_every_nonzero_byte(rng):
    """Any non-zero mask byte keeps its element, 1 or 255 alike."""
    x = np.arange(256, dtype=np.int32)
    mask = np.arange(256, dtype=np.uint8)
    assert_same_bits(sluice.compact(x, mask), x[1:])


def test_compact_by_itself(rng):
    """A uint8 array can be its own mask (the mask may overlap the input, not the output)."""
    x = rng.integers(0, 3, 10000, dtype=np.uint8)
    assert_same_bits(sluice.compact(x, x), x[x != 0])


@pytest.mark.parametrize("name", ORDERED)
@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.complex128], ids=dtype_id)
def test_compact_out(rng, name, dtype):
    n = 3000
    x = random_bytes_array(rng, dtype, n)
    mask = make_mask(rng, "random", n)
    for size in (n, n + 50):
        out = np.zeros(size, dtype=dtype)
        res = getattr(sluice, name)(x, mask, out=out)
        assert np.shares_memory(res, out), "the given out= must be returned"
        assert res.shape == (mask.sum(),), "%s must return out[:count]" % name
        check_compacted(name, res, x[mask])


@pytest.mark.parametrize("name", ORDERED)
def test_compact_out_of_count_elements(rng, name):
    """A compaction's out= needs room for the selected elements only, as in C++ ("any" output size)."""
    x = random_bytes_array(rng, np.int32, 3000)
    mask = make_mask(rng, "sparse", 3000)
    out = np.zeros(int(mask.sum()), dtype=np.int32)
    res = getattr(sluice, name)(x, mask, out=out)
    assert np.shares_memory(res, out)
    check_compacted(name, res, x[mask])


@pytest.mark.parametrize("name", ORDERED)
def test_compact_in_place(rng, name):
    """On the CPU a compaction may write over its input (docs/guide/api.md, "Outputs and aliasing")."""
    x = random_bytes_array(rng, np.float32, 70000)
    mask = make_mask(rng, "random", x.size)
    want = x[mask].copy()
    res = getattr(sluice, name)(x, mask, out=x)
    assert np.shares_memory(res, x)
    check_compacted(name, res, want)


@pytest.mark.parametrize("name", ORDERED)
def test_compact_readonly_input(rng, name):
    x = random_bytes_array(rng, np.int64, 1000)
    mask = make_mask(rng, "random", 1000, np.uint8)
    x.setflags(write=False)
    mask.setflags(write=False)
    check_compacted(name, getattr(sluice, name)(x, mask), x[mask != 0])


def test_compact_result_is_new(rng):
    """Without out= the result is a new array of count elements."""
    x = random_bytes_array(rng, np.int32, 1000)
    mask = make_mask(rng, "sparse", 1000)
    got = sluice.compact(x, mask)
    assert got.shape == (mask.sum(),)
    assert not np.shares_memory(got, x)


# ---------------------------------------------------------------------------------- by predicate


@pytest.mark.parametrize("pred", PREDICATES)
@pytest.mark.parametrize("dtype", PRED_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", ["compact_if", "compact_unordered_if"])
def test_compact_if_edges(rng, name, dtype, pred):
    n = 1025
    x = edge_array(rng, dtype, n)
    for v in threshold_values(dtype, x):
        keep = PRED_NUMPY[pred](x, np.dtype(dtype).type(v))
        got = getattr(sluice, name)(x, get_predicate(pred, v))
        check_compacted("%s %s(%r)" % (name, pred, v), got, x[keep])


# Every dtype at the small sizes, three at the large ones, to keep the suite fast.
PRED_SIZE_CASES = ([(d, n) for d in PRED_DTYPES for n in SMALL_SIZES]
                   + [(d, n) for d in (np.uint8, np.float32, np.int64) for n in BIG_SIZES])
PRED_SIZE_IDS = ["%s-n=%d" % (dtype_id(d), n) for d, n in PRED_SIZE_CASES]


@pytest.mark.parametrize("dtype,n", PRED_SIZE_CASES, ids=PRED_SIZE_IDS)
@pytest.mark.parametrize("name", ["compact_if", "compact_unordered_if"])
def test_compact_if_sizes(rng, name, dtype, n):
    x = edge_array(rng, dtype, n)
    v = 0 if np.dtype(dtype).kind != "u" else int(np.iinfo(dtype).max // 2)
    got = getattr(sluice, name)(x, sluice.greater_than(v))
    check_compacted(name, got, x[x > np.dtype(dtype).type(v)])


def test_compact_if_float_threshold_is_converted(rng):
    """The threshold is converted to the array's dtype: 0.1 on float32 compares with float32(0.1)."""
    x = np.array([np.float32(0.1), np.nextafter(np.float32(0.1), np.float32(1)), 0.0], dtype=np.float32)
    assert_same_bits(sluice.compact_if(x, sluice.equal_to(0.1)), x[:1])
    assert_same_bits(sluice.compact_if(x, sluice.greater_than(0.1)), x[1:2])


def test_compact_if_nan(rng):
    """NaN compares false except by not_equal_to, as in C++ and NumPy."""
    x = np.array([np.nan, 1.0, -np.nan, 0.0], dtype=np.float64)
    assert sluice.compact_if(x, sluice.less_than(np.inf)).size == 2
    assert sluice.compact_if(x, sluice.not_equal_to(1.0)).size == 3
    assert sluice.compact_if(x, sluice.equal_to(np.nan)).size == 0
    assert sluice.compact_if(x, sluice.not_equal_to(np.nan)).size == 4


@pytest.mark.parametrize("name", ["compact_if", "compact_unordered_if"])
def test_compact_if_out(rng, name):
    x = edge_array(rng, np.int32, 4000)
    out = np.zeros(4000, dtype=np.int32)
    res = getattr(sluice, name)(x, sluice.at_least(0), out=out)
    assert np.shares_memory(res, out)
    check_compacted(name, res, x[x >= 0])


# ------------------------------------------------------------------------------------- _async forms


@pytest.mark.parametrize("n", [0, 1, 129, 4097, 65537], ids=size_id)
@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int16, np.float32, np.uint64, np.complex128],
                         ids=dtype_id)
@pytest.mark.parametrize("name", ORDERED)
def test_compact_async(rng, name, dtype, n):
    x = random_bytes_array(rng, dtype, n)
    mask = make_mask(rng, "random", n, np.uint8)
    res = getattr(sluice, name + "_async")(x, mask)
    check_async_result(name + "_async", res, x, x[mask != 0])


@pytest.mark.parametrize("n", [0, 1, 129, 4097, 65537], ids=size_id)
@pytest.mark.parametrize("dtype", PRED_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", ["compact_if", "compact_unordered_if"])
def test_compact_if_async(rng, name, dtype, n):
    x = edge_array(rng, dtype, n)
    res = getattr(sluice, name + "_async")(x, sluice.at_most(1))
    check_async_result(name + "_async", res, x, x[x <= np.dtype(dtype).type(1)])


@pytest.mark.parametrize("name", ["compact", "compact_unordered"])
def test_compact_async_given_out_and_count(rng, name):
    n = 5000
    x = random_bytes_array(rng, np.float64, n)
    mask = make_mask(rng, "runs", n)
    out = np.zeros(n, dtype=np.float64)
    count = np.zeros(1, dtype=np.uint64)
    res_out, res_count = getattr(sluice, name + "_async")(x, mask, out=out, count=count)
    assert np.shares_memory(res_out, out), "the given out= must be returned"
    assert np.shares_memory(res_count, count), "the given count= must be returned"
    assert int(count[0]) == mask.sum()
    check_compacted(name, out[:int(count[0])], x[mask])


@pytest.mark.parametrize("name", ["compact_if", "compact_unordered_if"])
def test_compact_if_async_given_out_and_count(rng, name):
    n = 5000
    x = edge_array(rng, np.uint32, n)
    out = np.zeros(n, dtype=np.uint32)
    count = np.zeros(1, dtype=np.uint64)
    res_out, res_count = getattr(sluice, name + "_async")(x, sluice.not_equal_to(0), out=out, count=count)
    assert np.shares_memory(res_out, out) and np.shares_memory(res_count, count)
    want = x[x != 0]
    assert int(count[0]) == want.size
    check_compacted(name, out[:want.size], want)


@pytest.mark.parametrize("offset", [1, 3, 7, 15])
@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32, np.float64, np.complex128], ids=dtype_id)
def test_offset_views(rng, dtype, offset):
    """Arrays that start inside a larger buffer, off any vector alignment, read and write only their own
    elements."""
    n = 5000
    base = random_bytes_array(rng, dtype, n + 32)
    x = base[offset:offset + n]
    mask_base = make_mask(rng, "random", n + 32)
    mask = mask_base[offset + 1:offset + 1 + n]
    assert_same_bits(sluice.compact(x, mask), x[mask], "compact of offset views")
    out_base = np.zeros(n + 32, dtype=dtype)
    res = sluice.compact(x, mask, out=out_base[offset:offset + n])
    assert_same_bits(res, x[mask], "compact into an offset view")
    assert np.all(bits(out_base[:offset]) == 0), "compact wrote before its out= view"
    if dtype != np.complex128:
        out_base = np.zeros(n + 32, dtype=dtype)
        split = sluice.partition(x, mask, out=out_base[offset:offset + n])[1]
        assert_same_bits(out_base[offset:offset + split], x[mask], "partition into an offset view")
        assert np.all(bits(out_base[:offset]) == 0) and np.all(bits(out_base[offset + n:]) == 0), \
            "partition wrote outside its out= view"
