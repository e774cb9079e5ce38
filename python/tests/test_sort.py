"""radix_sort (keys, keys and values, bit ranges, in place) and argsort.

The reference is a stable NumPy argsort of the keys' order-preserving unsigned image
(docs/guide/api.md, "Radix sort keys"): -NaN < -inf < negatives < -0.0 < +0.0 < positives < +inf < +NaN;
descending sorts the complement, so equal keys keep input order in both directions.
"""
import numpy as np
import pytest

import sluice
from conftest import (BIG_SIZES, MOVE_DTYPES, NUMERIC_DTYPES, SMALL_SIZES, assert_same_bits, bits, dtype_id,
                      random_array, random_bytes_array, ref_sort_order, size_id)

ORDERS = [False, True]


def order_id(descending):
    return "descending" if descending else "ascending"


# Every dtype up to 65537 keys, three at 2^20 + 3, to keep the suite fast.
KEY_SIZE_CASES = ([(d, n) for d in NUMERIC_DTYPES for n in SMALL_SIZES + [65537]]
                  + [(d, (1 << 20) + 3) for d in (np.uint32, np.float32, np.int64)])
KEY_SIZE_IDS = ["%s-n=%d" % (dtype_id(d), n) for d, n in KEY_SIZE_CASES]


@pytest.mark.parametrize("descending", ORDERS, ids=order_id)
@pytest.mark.parametrize("dtype,n", KEY_SIZE_CASES, ids=KEY_SIZE_IDS)
def test_radix_sort_keys(rng, dtype, n, descending):
    keys = random_array(rng, dtype, n, kind="keys")
    before = keys.copy()
    got = sluice.radix_sort(keys, descending=descending)
    assert isinstance(got, np.ndarray), "radix_sort(keys) must return the sorted keys"
    assert_same_bits(got, keys[ref_sort_order(keys, descending)], "radix_sort")
    assert_same_bits(keys, before, "radix_sort's input (not in place)")


@pytest.mark.parametrize("descending", ORDERS, ids=order_id)
@pytest.mark.parametrize("vdtype", MOVE_DTYPES, ids=lambda d: "values=" + dtype_id(d))
@pytest.mark.parametrize("kdtype", NUMERIC_DTYPES, ids=lambda d: "keys=" + dtype_id(d))
def test_radix_sort_pairs(rng, kdtype, vdtype, descending):
    n = 1025
    keys = random_array(rng, kdtype, n, kind="keys")
    values = random_bytes_array(rng, vdtype, n)
    kbefore, vbefore = keys.copy(), values.copy()
    res = sluice.radix_sort(keys, values, descending=descending)
    assert isinstance(res, tuple) and len(res) == 2, "radix_sort(keys, values) must return (keys, values)"
    perm = ref_sort_order(keys, descending)
    assert_same_bits(res[0], keys[perm], "sorted keys")
    assert_same_bits(res[1], values[perm], "values following their keys")
    assert_same_bits(keys, kbefore, "keys (not in place)")
    assert_same_bits(values, vbefore, "values (not in place)")


@pytest.mark.parametrize("descending", ORDERS, ids=order_id)
@pytest.mark.parametrize("n", SMALL_SIZES + BIG_SIZES, ids=size_id)
@pytest.mark.parametrize("dtype", [np.int32, np.float64], ids=dtype_id)
def test_radix_sort_pairs_sizes(rng, dtype, n, descending):
    keys = random_array(rng, dtype, n, kind="keys")
    values = np.arange(n, dtype=np.uint32)
    got_k, got_v = sluice.radix_sort(keys, values, descending=descending)
    perm = ref_sort_order(keys, descending)
    assert_same_bits(got_k, keys[perm], "sorted keys")
    assert_same_bits(got_v, perm.astype(np.uint32), "values (input positions): the sort is not stable")


@pytest.mark.parametrize("descending", ORDERS, ids=order_id)
@pytest.mark.parametrize("n", [0, 1, 2, 129, 1025, 4097, 65537], ids=size_id)
@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
def test_argsort(rng, dtype, n, descending):
    keys = random_array(rng, dtype, n, kind="keys")
    got = sluice.argsort(keys, descending=descending)
    assert isinstance(got, np.ndarray) and got.dtype == np.int64, "argsort must return int64"
    assert np.array_equal(got, ref_sort_order(keys, descending)), "not the stable sorting permutation"


@pytest.mark.parametrize("dtype", [np.int32, np.uint64, np.float32], ids=dtype_id)
def test_argsort_matches_numpy_stable(rng, dtype):
    """Without zeros of both signs or NaN, the order is NumPy's stable order."""
    keys = random_array(rng, dtype, 20000)
    keys[::7] = keys[0]
    assert np.array_equal(sluice.argsort(keys), np.argsort(keys, kind="stable"))


def test_descending_is_stable():
    keys = np.array([1, 2, 1, 2, 3, 1], dtype=np.int32)
    values = np.arange(6, dtype=np.int64)
    k, v = sluice.radix_sort(keys, values, descending=True)
    assert k.tolist() == [3, 2, 2, 1, 1, 1]
    assert v.tolist() == [4, 1, 3, 0, 2, 5]
    assert sluice.argsort(keys, descending=True).tolist() == [4, 1, 3, 0, 2, 5]


@pytest.mark.parametrize("dtype", [np.int32, np.int64], ids=dtype_id)
def test_signed_keys(dtype):
    info = np.iinfo(dtype)
    keys = np.array([5, -1, info.min, 0, info.max, -7, 1, info.min + 1], dtype=dtype)
    assert sluice.radix_sort(keys).tolist() == sorted(keys.tolist())
    assert sluice.radix_sort(keys, descending=True).tolist() == sorted(keys.tolist(), reverse=True)


@pytest.mark.parametrize("descending", ORDERS, ids=order_id)
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=dtype_id)
def test_float_zeros_and_infinities(dtype, descending):
    """-0.0 sorts before +0.0; denormals and infinities in place."""
    fi = np.finfo(dtype)
    keys = np.array([0.0, -0.0, np.inf, -np.inf, fi.smallest_subnormal, -fi.smallest_subnormal, 1.0, -0.0, 0.0,
                     -fi.max, fi.max], dtype=dtype)
    got = sluice.radix_sort(keys, descending=descending)
    assert_same_bits(got, keys[ref_sort_order(keys, descending)], "float keys")
    signs = np.signbit(got[(got == 0)])
    assert signs.tolist() == ([False, False, True, True] if descending else [True, True, False, False])


@pytest.mark.parametrize("descending", ORDERS, ids=order_id)
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=dtype_id)
def test_float_nan_keys(rng, dtype, descending):
    """NaNs by sign and payload at the ends (the documented order of the image)."""
    keys = random_array(rng, dtype, 3000, kind="keys")
    nan_bits = np.array([np.nan, -np.nan], dtype=dtype).view(bits(keys).dtype)
    pos = rng.integers(0, keys.size, 40)
    keys[pos] = np.array([np.nan, -np.nan] * 20, dtype=dtype)
    # Two more payloads, so the order among NaNs is visible.
    u = keys.view(bits(keys).dtype)
    u[pos[:5]] = nan_bits[0] | u.dtype.type(3)
    u[pos[5:10]] = nan_bits[1] | u.dtype.type(5)
    got_k, got_v = sluice.radix_sort(keys, np.arange(keys.size, dtype=np.int32), descending=descending)
    perm = ref_sort_order(keys, descending)
    assert_same_bits(got_k, keys[perm], "keys with NaNs")
    assert np.array_equal(got_v, perm.astype(np.int32))


# ---------------------------------------------------------------------------------------- bit ranges

BIT_RANGES_32 = [(0, 8), (8, 16), (4, 4), (0, 32), (0, -1), (3, 29), (31, 32)]
BIT_RANGES_64 = [(0, 8), (40, 64), (0, -1), (0, 64), (17, 17), (60, 64), (5, 50)]


def bits_id(r):
    return "bits=%d-%d" % r


@pytest.mark.parametrize("descending", ORDERS, ids=order_id)
@pytest.mark.parametrize("dtype,bit_range",
                         [(d, r) for d in (np.int32, np.uint32, np.float32) for r in BIT_RANGES_32]
                         + [(d, r) for d in (np.int64, np.uint64, np.float64) for r in BIT_RANGES_64],
                         ids=lambda v: bits_id(v) if isinstance(v, tuple) else dtype_id(v))
def test_bit_ranges(rng, dtype, bit_range, descending):
    keys = random_array(rng, dtype, 5000, kind="keys")
    values = np.arange(keys.size, dtype=np.int64)
    perm = ref_sort_order(keys, descending, bit_range)
    got_k, got_v = sluice.radix_sort(keys, values, descending=descending, bits=bit_range)
    assert_same_bits(got_k, keys[perm], "keys sorted by %r" % (bit_range,))
    assert np.array_equal(got_v, perm)
    assert np.array_equal(sluice.argsort(keys, descending=descending, bits=bit_range), perm)
    if bit_range[0] == bit_range[1]:
        assert_same_bits(got_k, keys, "an empty bit range leaves the keys as they are")


@pytest.mark.parametrize("dtype,bit_range", [
    (np.uint32, (0, 33)), (np.int32, (9, 8)), (np.float32, (-1, 8)), (np.uint64, (0, 65)), (np.int64, (-2, -1)),
], ids=lambda v: bits_id(v) if isinstance(v, tuple) else dtype_id(v))
def test_bit_range_out_of_range(dtype, bit_range):
    keys = np.arange(10, dtype=dtype)
    with pytest.raises(ValueError):
        sluice.radix_sort(keys, bits=bit_range)
    with pytest.raises(ValueError):
        sluice.argsort(keys, bits=bit_range)


# ------------------------------------------------------------------------------------------- in place


@pytest.mark.parametrize("descending", ORDERS, ids=order_id)
@pytest.mark.parametrize("n", [0, 1, 1025, 65537], ids=size_id)
@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
def test_radix_sort_inplace(rng, dtype, n, descending):
    keys = random_array(rng, dtype, n, kind="keys")
    values = random_bytes_array(rng, np.complex128, n)
    perm = ref_sort_order(keys, descending)
    want_k, want_v = keys[perm], values[perm]
    res = sluice.radix_sort(keys, values, descending=descending, inplace=True)
    assert_same_bits(keys, want_k, "keys sorted in place")
    assert_same_bits(values, want_v, "values sorted in place")
    if res is not None:
        assert np.shares_memory(res[0], keys) or n == 0
        assert np.shares_memory(res[1], values) or n == 0


@pytest.mark.parametrize("dtype", [np.uint32, np.float64], ids=dtype_id)
def test_radix_sort_inplace_keys_only(rng, dtype):
    keys = random_array(rng, dtype, 70000, kind="keys")
    want = keys[ref_sort_order(keys)]
    sluice.radix_sort(keys, inplace=True)
    assert_same_bits(keys, want, "keys sorted in place")


def test_radix_sort_readonly_input(rng):
    keys = random_array(rng, np.int64, 3000, kind="keys")
    values = np.arange(3000, dtype=np.int16)
    keys.setflags(write=False)
    values.setflags(write=False)
    k, v = sluice.radix_sort(keys, values)
    perm = ref_sort_order(keys)
    assert_same_bits(k, keys[perm], "keys")
    assert_same_bits(v, values[perm], "values")
    assert np.array_equal(sluice.argsort(keys), perm)


def test_radix_sort_inplace_readonly_is_refused(rng):
    keys = random_array(rng, np.int32, 100)
    keys.setflags(write=False)
    with pytest.raises((ValueError, TypeError)):
        sluice.radix_sort(keys, inplace=True)


@pytest.mark.parametrize("offset", [1, 3, 7])
@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
def test_offset_views(rng, dtype, offset):
    n = 4097
    kb = random_array(rng, dtype, n + 16, kind="keys")
    vb = np.arange(n + 16, dtype=np.int16)
    keys, values = kb[offset:offset + n], vb[offset + 1:offset + 1 + n]
    kb_before, vb_before = kb.copy(), vb.copy()
    perm = ref_sort_order(keys)
    want_k, want_v = keys[perm].copy(), values[perm].copy()
    assert np.array_equal(sluice.argsort(keys), perm)
    sluice.radix_sort(keys, values, inplace=True)
    assert_same_bits(keys, want_k, "keys of an offset view sorted in place")
    assert_same_bits(values, want_v, "values of an offset view sorted in place")
    assert_same_bits(kb[:offset], kb_before[:offset], "keys before the view")
    assert_same_bits(kb[offset + n:], kb_before[offset + n:], "keys after the view")
    assert np.array_equal(vb[:offset + 1], vb_before[:offset + 1]) and np.array_equal(vb[offset + 1 + n:],
                                                                                      vb_before[offset + 1 + n:])


def ref_segmented_order(keys, offsets, descending=False, bits_range=None):
    """The stable sorting permutation of each segment, positions outside every segment unmoved."""
    perm = np.arange(len(keys))
    for a, b in zip(offsets[:-1], offsets[1:]):
        perm[a:b] = a + ref_sort_order(keys[a:b], descending, bits_range)
    return perm


def random_offsets(rng, n, longest):
    cuts = [0]
    while cuts[-1] < n:
        cuts.append(min(n, cuts[-1] + int(rng.integers(0, longest + 1))))
    return np.array(cuts, dtype=np.uint64)


@pytest.mark.parametrize("descending", ORDERS, ids=order_id)
@pytest.mark.parametrize("dtype", NUMERIC_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("longest", [3, 300, 70000])
def test_segmented_radix_sort(rng, dtype, longest, descending):
    n = 100003
    keys = random_array(rng, dtype, n, kind="keys")
    offsets = random_offsets(rng, n, longest)
    perm = ref_segmented_order(keys, offsets, descending)
    got = sluice.segmented_radix_sort(keys, offsets, descending=descending)
    assert_same_bits(got, keys[perm], "segmented_radix_sort keys")
    k, v = sluice.segmented_radix_sort(keys, offsets.astype(np.int64), np.arange(n, dtype=np.int64), descending=descending)
    assert_same_bits(k, keys[perm], "segmented_radix_sort pairs")
    assert np.array_equal(v, perm), "segmented_radix_sort values (unstable or lost)"


def test_segmented_radix_sort_inner_segments_and_bits(rng):
    keys = random_array(rng, np.uint32, 5000, kind="keys")
    offsets = np.array([1000, 1000, 1700, 4000], dtype=np.uint64)  # keys before 1000 and from 4000 stay put
    before = keys.copy()
    got = sluice.segmented_radix_sort(keys, offsets, bits=(4, 20))
    assert_same_bits(got, keys[ref_segmented_order(keys, offsets, False, (4, 20))], "segmented_radix_sort bits (4, 20)")
    assert_same_bits(keys, before, "segmented_radix_sort's input (not in place)")
    sluice.segmented_radix_sort(keys, offsets, inplace=True)
    assert_same_bits(keys, before[ref_segmented_order(before, offsets)], "segmented_radix_sort in place")


def test_segmented_radix_sort_bad_offsets(rng):
    keys = random_array(rng, np.uint32, 100, kind="keys")
    with pytest.raises(sluice.InvalidArgument):
        sluice.segmented_radix_sort(keys, np.array([0, 60, 50, 100], dtype=np.uint64))
    with pytest.raises(sluice.InvalidArgument):
        sluice.segmented_radix_sort(keys, np.array([0, 101], dtype=np.uint64))
    with pytest.raises(TypeError):
        sluice.segmented_radix_sort(keys, np.array([0, 100], dtype=np.float32))
