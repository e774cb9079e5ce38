"""PyTorch CPU tensors in and out (through DLPack): results are tensors of the same dtype, no copy of out=."""
import numpy as np
import pytest

import sluice
from conftest import (assert_same_bits, assert_same_multiset, check_reduce, check_scan, make_mask, random_array,
                      ref_sort_order, size_id)

torch = pytest.importorskip("torch", reason="PyTorch is not installed")

# PyTorch 1.x has no uint32 or uint64 tensors.
NUMERIC = [torch.int32, torch.int64, torch.float32, torch.float64]
PRED = [torch.uint8] + NUMERIC
MOVE = [torch.bool, torch.int8, torch.uint8, torch.int16, torch.float16, torch.int32, torch.int64, torch.float32,
        torch.float64, torch.complex64, torch.complex128]
SIZES = [0, 1, 129, 4097, 65537]


def tid(dt):
    return str(dt).replace("torch.", "")


def np_dtype(dt):
    return torch.empty(0, dtype=dt).numpy().dtype


def tensor(rng, dt, n, kind="any"):
    return torch.from_numpy(random_array(rng, np_dtype(dt), n, kind=kind))


def assert_tensor(t, dtype, what):
    assert isinstance(t, torch.Tensor), "%s: expected a torch.Tensor, got %r" % (what, type(t))
    assert t.device.type == "cpu" and t.dtype == dtype, "%s: %s on %s" % (what, t.dtype, t.device)


@pytest.mark.parametrize("n", SIZES, ids=size_id)
@pytest.mark.parametrize("dt", NUMERIC, ids=tid)
@pytest.mark.parametrize("op", ["sum", "product", "min", "max"])
def test_reduce(rng, op, dt, n):
    t = tensor(rng, dt, n, "product" if op == "product" else "any")
    got = sluice.reduce(t, op=op)
    assert isinstance(got, np.generic) and got.dtype == np_dtype(dt), "reduce returns a NumPy scalar: %r" % got
    check_reduce(got, t.numpy(), op, what="reduce %s" % op)
    res = sluice.reduce_async(t, op=op)
    assert_tensor(res, dt, "reduce_async")
    assert res.shape == (1,)
    check_reduce(res.numpy()[0], t.numpy(), op, what="reduce_async %s" % op)


@pytest.mark.parametrize("n", SIZES, ids=size_id)
@pytest.mark.parametrize("dt", NUMERIC, ids=tid)
@pytest.mark.parametrize("op", ["sum", "min"])
def test_scans(rng, op, dt, n):
    t = tensor(rng, dt, n)
    inc = sluice.inclusive_scan(t, op=op)
    exc = sluice.exclusive_scan(t, op=op)
    assert_tensor(inc, dt, "inclusive_scan")
    assert_tensor(exc, dt, "exclusive_scan")
    check_scan(inc.numpy(), t.numpy(), op, what="inclusive_scan")
    check_scan(exc.numpy(), t.numpy(), op, exclusive=True, what="exclusive_scan")


@pytest.mark.parametrize("dt", NUMERIC, ids=tid)
def test_scan_out_and_in_place(rng, dt):
    t = tensor(rng, dt, 5000)
    ref = t.clone()
    out = torch.zeros(5000, dtype=dt)
    res = sluice.inclusive_scan(t, out=out)
    assert res.data_ptr() == out.data_ptr(), "the given out= must be returned"
    check_scan(out.numpy(), ref.numpy(), "sum", what="inclusive_scan out=")
    res = sluice.inclusive_scan(t, out=t)
    assert res.data_ptr() == t.data_ptr()
    check_scan(t.numpy(), ref.numpy(), "sum", what="inclusive_scan in place")


@pytest.mark.parametrize("n", SIZES, ids=size_id)
@pytest.mark.parametrize("mask_dt", [torch.bool, torch.uint8], ids=tid)
@pytest.mark.parametrize("dt", MOVE, ids=tid)
def test_compact(rng, dt, mask_dt, n):
    x = torch.from_numpy(random_array(rng, np_dtype(dt), n))
    m = torch.from_numpy(make_mask(rng, "random", n, np.uint8 if mask_dt == torch.uint8 else np.bool_))
    keep = m.numpy() != 0
    for name in ("compact", "compact_unordered"):
        got = getattr(sluice, name)(x, m)
        assert_tensor(got, dt, name)
        check = assert_same_multiset if "unordered" in name else assert_same_bits
        check(got.numpy(), x.numpy()[keep], name)
        out, count = getattr(sluice, name + "_async")(x, m)
        assert_tensor(out, dt, name + "_async out")
        assert_tensor(count, torch.int64, name + "_async count")
        assert count.shape == (1,) and int(count[0]) == keep.sum()
        check(out.numpy()[:keep.sum()], x.numpy()[keep], name + "_async")


@pytest.mark.parametrize("n", SIZES, ids=size_id)
@pytest.mark.parametrize("dt", PRED, ids=tid)
def test_compact_if(rng, dt, n):
    x = tensor(rng, dt, n)
    xn = x.numpy()
    got = sluice.compact_if(x, sluice.greater_than(1))
    assert_tensor(got, dt, "compact_if")
    assert_same_bits(got.numpy(), xn[xn > np_dtype(dt).type(1)], "compact_if")
    out, count = sluice.compact_unordered_if_async(x, sluice.at_most(0))
    assert_tensor(count, torch.int64, "count")
    assert_same_multiset(out.numpy()[:int(count[0])], xn[xn <= 0], "compact_unordered_if_async")


@pytest.mark.parametrize("dt", [torch.uint8, torch.int32, torch.float64], ids=tid)
def test_compact_out(rng, dt):
    x = tensor(rng, dt, 3000)
    m = torch.from_numpy(make_mask(rng, "runs", 3000))
    out = torch.zeros(3000, dtype=dt)
    res = sluice.compact(x, m, out=out)
    assert res.data_ptr() == out.data_ptr() or res.numel() == 0
    assert_same_bits(res.numpy(), x.numpy()[m.numpy()], "compact out=")


@pytest.mark.parametrize("n", SIZES, ids=size_id)
@pytest.mark.parametrize("dt", [torch.uint8, torch.int32, torch.float32, torch.int64, torch.float64], ids=tid)
@pytest.mark.parametrize("name", ["partition", "partition_unordered"])
def test_partition(rng, name, dt, n):
    x = tensor(rng, dt, n)
    xn = x.numpy()
    m = torch.from_numpy(make_mask(rng, "random", n))
    for arg, keep in ((m, m.numpy()), (sluice.less_than(0), xn < 0)):
        out, split = getattr(sluice, name)(x, arg)
        assert_tensor(out, dt, name)
        assert int(split) == keep.sum()
        assert_same_bits(out.numpy()[:split], xn[keep], name + " kept")
        rest = assert_same_multiset if "unordered" in name else assert_same_bits
        rest(out.numpy()[split:n], xn[~keep], name + " rejected")
        out, count = getattr(sluice, name + "_async")(x, arg)
        assert_tensor(count, torch.int64, name + "_async count")
        assert int(count[0]) == keep.sum()
        assert_same_bits(out.numpy()[:int(count[0])], xn[keep], name + "_async kept")


@pytest.mark.parametrize("n", SIZES, ids=size_id)
@pytest.mark.parametrize("dt", NUMERIC, ids=tid)
@pytest.mark.parametrize("descending", [False, True], ids=["ascending", "descending"])
def test_sort(rng, dt, n, descending):
    keys = tensor(rng, dt, n, "keys")
    values = torch.arange(n, dtype=torch.int16 if n < 32768 else torch.int32)
    perm = ref_sort_order(keys.numpy(), descending)
    k = sluice.radix_sort(keys, descending=descending)
    assert_tensor(k, dt, "radix_sort")
    assert_same_bits(k.numpy(), keys.numpy()[perm], "radix_sort keys")
    k, v = sluice.radix_sort(keys, values, descending=descending)
    assert_tensor(v, values.dtype, "radix_sort values")
    assert_same_bits(v.numpy(), values.numpy()[perm], "radix_sort values")
    idx = sluice.argsort(keys, descending=descending)
    assert_tensor(idx, torch.int64, "argsort")
    assert np.array_equal(idx.numpy(), perm)


def test_sort_inplace(rng):
    keys = tensor(rng, torch.float32, 10000, "keys")
    values = torch.arange(10000, dtype=torch.int64)
    perm = ref_sort_order(keys.numpy())
    want = keys.numpy()[perm].copy()
    sluice.radix_sort(keys, values, inplace=True)
    assert_same_bits(keys.numpy(), want, "keys sorted in place")
    assert np.array_equal(values.numpy(), perm)


def test_offset_views(rng):
    """Tensors that start inside their storage (a DLPack byte offset) are read and written where they are."""
    base = tensor(rng, torch.int32, 1000)
    x = base[3:]
    m = torch.from_numpy(make_mask(rng, "random", 1000))[3:]
    assert_same_bits(sluice.compact(x, m).numpy(), x.numpy()[m.numpy()], "compact of offset views")
    out = torch.zeros(1010, dtype=torch.int32)[7:1004]
    res = sluice.inclusive_scan(x, out=out)
    assert res.data_ptr() == out.data_ptr()
    assert np.array_equal(out.numpy(), np.cumsum(x.numpy(), dtype=np.int32))
    assert sluice.reduce(x) == np.sum(x.numpy(), dtype=np.int32)


def test_bad_tensors():
    t = torch.arange(20, dtype=torch.int32)
    with pytest.raises(ValueError):
        sluice.reduce(t[::2])
    with pytest.raises(ValueError):
        sluice.reduce(t.reshape(4, 5))
    with pytest.raises(ValueError):
        sluice.compact(t, torch.ones(19, dtype=torch.bool))
    with pytest.raises(TypeError):
        sluice.reduce(t.to(torch.int16))
    with pytest.raises(TypeError):
        sluice.compact(t, torch.ones(20, dtype=torch.int32))
    with pytest.raises(ValueError):
        sluice.inclusive_scan(t, out=torch.zeros(19, dtype=torch.int32))
    with pytest.raises(ValueError):
        sluice.inclusive_scan(t, out=torch.zeros(20, dtype=torch.int64))
    with pytest.raises(ValueError):
        sluice.compact_if(t.to(torch.uint8), sluice.less_than(300))


def test_bool_tensor_values(rng):
    x = torch.from_numpy(make_mask(rng, "random", 999))
    m = torch.from_numpy(make_mask(rng, "random", 999))
    got = sluice.compact(x, m)
    assert_tensor(got, torch.bool, "compact of bools")
    assert np.array_equal(got.numpy(), x.numpy()[m.numpy()])
