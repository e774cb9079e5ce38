"""partition and partition_unordered by mask and by predicate, and their _async forms."""
import numpy as np
import pytest

import sluice
from conftest import (BIG_SIZES, MASK_PATTERNS, MOVE_DTYPES, PRED_DTYPES, PRED_NUMPY, PREDICATES, SMALL_SIZES,
                      assert_same_bits, assert_same_multiset, dtype_id, edge_array, get_predicate, make_mask,
                      random_bytes_array, size_id, threshold_values)

NAMES = ["partition", "partition_unordered"]


def check_partitioned(name, out, split, x, keep):
    """Kept elements first in input order (both forms); the others in input order (partition) or as a
    multiset (partition_unordered)."""
    n = x.shape[0]
    assert isinstance(out, np.ndarray) and out.dtype == x.dtype
    assert out.shape[0] >= n, "%s: out holds %d elements, fewer than len(x) = %d" % (name, out.shape[0], n)
    want_split = int(np.count_nonzero(keep))
    assert int(split) == want_split, "%s: split %d, expected %d" % (name, split, want_split)
    assert_same_bits(out[:want_split], x[keep], name + " (kept part)")
    if "unordered" in name:
        assert_same_multiset(out[want_split:n], x[~keep], name + " (rejected part)")
    else:
        assert_same_bits(out[want_split:n], x[~keep], name + " (rejected part)")


def check_sync(name, res, x, keep):
    assert isinstance(res, tuple) and len(res) == 2, "%s must return (out, split)" % name
    out, split = res
    assert isinstance(split, (int, np.integer)), "%s: split must be an integer, got %r" % (name, type(split))
    check_partitioned(name, out, split, x, keep)


def check_async(name, res, x, keep):
    assert isinstance(res, tuple) and len(res) == 2, "%s must return (out, count)" % name
    out, count = res
    assert isinstance(count, np.ndarray) and count.shape == (1,) and count.dtype == np.uint64, repr(count)
    check_partitioned(name, out, count[0], x, keep)


# ------------------------------------------------------------------------------------------ by mask


@pytest.mark.parametrize("n", SMALL_SIZES, ids=size_id)
@pytest.mark.parametrize("dtype", MOVE_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", NAMES)
def test_partition_mask_dtypes(rng, name, dtype, n):
    x = random_bytes_array(rng, dtype, n)
    mask = make_mask(rng, "random", n)
    before = x.copy()
    check_sync(name, getattr(sluice, name)(x, mask), x, mask)
    assert_same_bits(x, before, "the input after %s" % name)


@pytest.mark.parametrize("n", [1, 2, 129, 1025, 4097, 65537], ids=size_id)
@pytest.mark.parametrize("pattern", MASK_PATTERNS)
@pytest.mark.parametrize("mask_dtype", [np.bool_, np.uint8], ids=dtype_id)
@pytest.mark.parametrize("dtype", [np.uint8, np.float32, np.complex128], ids=dtype_id)
@pytest.mark.parametrize("name", NAMES)
def test_partition_masks(rng, name, dtype, mask_dtype, pattern, n):
    x = random_bytes_array(rng, dtype, n)
    mask = make_mask(rng, pattern, n, mask_dtype)
    check_sync("%s %s mask" % (name, pattern), getattr(sluice, name)(x, mask), x, mask != 0)


@pytest.mark.parametrize("n", BIG_SIZES, ids=size_id)
@pytest.mark.parametrize("dtype", [np.uint8, np.float32, np.uint64], ids=dtype_id)
@pytest.mark.parametrize("name", NAMES)
def test_partition_mask_large(rng, name, dtype, n):
    x = random_bytes_array(rng, dtype, n)
    mask = make_mask(rng, "runs" if n % 2 else "random", n)
    check_sync(name, getattr(sluice, name)(x, mask), x, mask)


# ------------------------------------------------------------------------------------- by predicate


@pytest.mark.parametrize("pred", PREDICATES)
@pytest.mark.parametrize("dtype", PRED_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", NAMES)
def test_partition_predicate_edges(rng, name, dtype, pred):
    x = edge_array(rng, dtype, 1025)
    for v in threshold_values(dtype, x):
        keep = PRED_NUMPY[pred](x, np.dtype(dtype).type(v))
        check_sync("%s %s(%r)" % (name, pred, v), getattr(sluice, name)(x, get_predicate(pred, v)), x, keep)


# Every dtype at the small sizes, three at the large ones, to keep the suite fast.
PRED_SIZE_CASES = ([(d, n) for d in PRED_DTYPES for n in SMALL_SIZES]
                   + [(d, n) for d in (np.uint8, np.float32, np.int64) for n in BIG_SIZES])
PRED_SIZE_IDS = ["%s-n=%d" % (dtype_id(d), n) for d, n in PRED_SIZE_CASES]


@pytest.mark.parametrize("dtype,n", PRED_SIZE_CASES, ids=PRED_SIZE_IDS)
@pytest.mark.parametrize("name", NAMES)
def test_partition_predicate_sizes(rng, name, dtype, n):
    x = edge_array(rng, dtype, n)
    check_sync(name, getattr(sluice, name)(x, sluice.less_than(1)), x, x < np.dtype(dtype).type(1))


@pytest.mark.parametrize("name", NAMES)
def test_partition_unordered_kept_part_keeps_order_on_runs(rng, name):
    """Long kept and rejected runs across many CPU blocks: the kept part stays in input order."""
    n = (1 << 20) + 3
    x = np.arange(n, dtype=np.uint32)
    keep = make_mask(rng, "runs", n)
    check_sync(name, getattr(sluice, name)(x, keep), x, keep)


# ------------------------------------------------------------------------------------------- out=


@pytest.mark.parametrize("by", ["mask", "predicate"])
@pytest.mark.parametrize("extra", [0, 33])
@pytest.mark.parametrize("name", NAMES)
def test_partition_out(rng, name, extra, by):
    n = 4097
    x = edge_array(rng, np.int64, n)
    if by == "mask":
        keep = make_mask(rng, "random", n)
        arg = keep
    else:
        keep = x > 0
        arg = sluice.greater_than(0)
    out = np.zeros(n + extra, dtype=np.int64)
    res_out, split = getattr(sluice, name)(x, arg, out=out)
    assert np.shares_memory(res_out, out), "the given out= must be returned"
    check_partitioned(name, out, split, x, keep)


@pytest.mark.parametrize("name", NAMES)
def test_partition_readonly_input(rng, name):
    x = random_bytes_array(rng, np.float64, 3000)
    mask = make_mask(rng, "random", 3000)
    x.setflags(write=False)
    mask.setflags(write=False)
    check_sync(name, getattr(sluice, name)(x, mask), x, mask)


# ------------------------------------------------------------------------------------- _async forms


@pytest.mark.parametrize("n", [0, 1, 129, 4097, 65537], ids=size_id)
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float16, np.int32, np.float64, np.complex128],
                         ids=dtype_id)
@pytest.mark.parametrize("name", NAMES)
def test_partition_async_mask(rng, name, dtype, n):
    x = random_bytes_array(rng, dtype, n)
    mask = make_mask(rng, "random", n, np.uint8)
    check_async(name + "_async", getattr(sluice, name + "_async")(x, mask), x, mask != 0)


@pytest.mark.parametrize("n", [0, 1, 129, 4097, 65537], ids=size_id)
@pytest.mark.parametrize("dtype", PRED_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", NAMES)
def test_partition_async_predicate(rng, name, dtype, n):
    x = edge_array(rng, dtype, n)
    res = getattr(sluice, name + "_async")(x, sluice.equal_to(1))
    check_async(name + "_async", res, x, x == np.dtype(dtype).type(1))


@pytest.mark.parametrize("name", NAMES)
def test_partition_async_given_out_and_count(rng, name):
    n = 5000
    x = random_bytes_array(rng, np.uint16, n)
    mask = make_mask(rng, "alternating", n)
    out = np.zeros(n, dtype=np.uint16)
    count = np.zeros(1, dtype=np.uint64)
    res_out, res_count = getattr(sluice, name + "_async")(x, mask, out=out, count=count)
    assert np.shares_memory(res_out, out) and np.shares_memory(res_count, count)
    check_partitioned(name, out, count[0], x, mask)
