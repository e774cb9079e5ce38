"""The same checks on CUDA arrays: PyTorch CUDA tensors and CuPy arrays.

Skipped, with the reason shown, where sluice has no CUDA device or the library is missing;
SLUICE_TEST_GPU=1 turns those skips into failures, so a GPU machine cannot pass by skipping.
"""
import os

import numpy as np
import pytest

import sluice
from conftest import (assert_same_bits, assert_same_multiset, check_reduce, check_scan, make_mask, random_array,
                      random_bytes_array, ref_sort_order)

GPU_REQUIRED = os.environ.get("SLUICE_TEST_GPU") == "1"


def require(ok, reason):
    if ok:
        return
    if GPU_REQUIRED:
        pytest.fail("%s (SLUICE_TEST_GPU=1 requires the GPU tests to run)" % reason, pytrace=False)
    pytest.skip(reason)


def cuda_available():
    try:
        return bool(sluice.device_available("cuda"))
    except Exception:
        return False


class TorchBackend:
    name = "torch"
    count_dtype = np.int64  # PyTorch has no uint64 tensors

    def __init__(self):
        import torch
        self.torch = torch

    def supports(self, dtype):
        return np.dtype(dtype) not in (np.dtype(np.uint32), np.dtype(np.uint64), np.dtype(np.uint16))

    def to_device(self, a):
        return self.torch.from_numpy(np.ascontiguousarray(a)).cuda()

    def to_host(self, a):
        assert isinstance(a, self.torch.Tensor), "expected a torch.Tensor, got %r" % type(a)
        assert a.is_cuda, "the result is not on the GPU"
        return a.cpu().numpy()

    def zeros(self, n, dtype):
        return self.torch.zeros(n, dtype=self.torch.from_numpy(np.zeros(0, dtype)).dtype, device="cuda")

    def same_memory(self, a, b):
        return a.data_ptr() == b.data_ptr()

    def synchronize(self):
        self.torch.cuda.synchronize()


class CupyBackend:
    name = "cupy"
    count_dtype = np.uint64

    def __init__(self):
        import cupy
        self.cupy = cupy

    def supports(self, dtype):
        return True

    def to_device(self, a):
        return self.cupy.asarray(np.ascontiguousarray(a))

    def to_host(self, a):
        assert isinstance(a, self.cupy.ndarray), "expected a cupy.ndarray, got %r" % type(a)
        return self.cupy.asnumpy(a)

    def zeros(self, n, dtype):
        return self.cupy.zeros(n, dtype=dtype)

    def same_memory(self, a, b):
        return a.data.ptr == b.data.ptr

    def synchronize(self):
        self.cupy.cuda.runtime.deviceSynchronize()


def make_backend(name):
    require(cuda_available(), "sluice.device_available('cuda') is false: no CUDA build or no GPU")
    if name == "torch":
        try:
            import torch
        except ImportError:
            require(False, "PyTorch is not installed")
        require(torch.cuda.is_available(), "torch.cuda.is_available() is false")
        return TorchBackend()
    try:
        import cupy  # noqa: F401
    except ImportError:
        require(False, "CuPy is not importable")
    return CupyBackend()


@pytest.fixture(params=["torch", "cupy"])
def be(request):
    return make_backend(request.param)


@pytest.fixture
def torch_be():
    return make_backend("torch")


NUMERIC = [np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64]
PRED = [np.uint8] + NUMERIC
MOVE = [np.bool_, np.int8, np.int16, np.float16, np.int32, np.int64, np.float32, np.float64, np.complex128]
SIZES = [0, 1, 129, 4097, 65537, 300007]


def dtypes_of(be, dtypes):
    return [d for d in dtypes if be.supports(d)]


def test_reduce_and_scans(be, rng):
    for dtype in dtypes_of(be, NUMERIC):
        for n in SIZES:
            for op in ("sum", "product", "min", "max"):
                x = random_array(rng, dtype, n, kind="product" if op == "product" else "any")
                d = be.to_device(x)
                check_reduce(sluice.reduce(d, op=op), x, op, what="reduce %s %s n=%d" % (op, x.dtype, n))
                res = sluice.reduce_async(d, op=op)
                check_reduce(be.to_host(res)[0], x, op, what="reduce_async %s" % op)
                if op in ("sum", "max"):
                    check_scan(be.to_host(sluice.inclusive_scan(d, op=op)), x, op, what="inclusive_scan")
                    check_scan(be.to_host(sluice.exclusive_scan(d, op=op)), x, op, exclusive=True,
                               what="exclusive_scan")


def test_scan_out_in_place_and_repeat(be, rng):
    x = random_array(rng, np.float32, 3000001)
    d = be.to_device(x)
    a = be.to_host(sluice.inclusive_scan(d))
    b = be.to_host(sluice.inclusive_scan(d))
    assert np.array_equal(a.view(np.uint32), b.view(np.uint32)), "float scan results differ run to run"
    out = be.zeros(x.size, np.float32)
    res = sluice.inclusive_scan(d, out=out)
    assert be.same_memory(res, out)
    res = sluice.inclusive_scan(d, out=d)
    assert be.same_memory(res, d)
    check_scan(be.to_host(d), x, "sum", what="inclusive_scan in place on the GPU")


def test_compact_and_partition(be, rng):
    for dtype in dtypes_of(be, MOVE):
        for n in SIZES:
            x = random_bytes_array(rng, dtype, n)
            mask = make_mask(rng, "runs" if n % 2 else "random", n, np.uint8)
            keep = mask != 0
            dx, dm = be.to_device(x), be.to_device(mask)
            assert_same_bits(be.to_host(sluice.compact(dx, dm)), x[keep], "compact")
            assert_same_multiset(be.to_host(sluice.compact_unordered(dx, dm)), x[keep], "compact_unordered")
            for name in ("partition", "partition_unordered"):
                out, split = getattr(sluice, name)(dx, dm)
                out = be.to_host(out)
                assert int(split) == keep.sum()
                assert_same_bits(out[:split], x[keep], name + " kept")
                rest = assert_same_multiset if "unordered" in name else assert_same_bits
                rest(out[split:n], x[~keep], name + " rejected")


def test_predicates(be, rng):
    for dtype in dtypes_of(be, PRED):
        for n in (0, 1, 4097, 300007):
            x = random_array(rng, dtype, n)
            d = be.to_device(x)
            for pred, ref in (("less_than", np.less), ("at_least", np.greater_equal), ("not_equal_to", np.not_equal)):
                v = 100 if np.dtype(dtype).kind == "u" else 0
                keep = ref(x, np.dtype(dtype).type(v))
                p = getattr(sluice, pred)(v)
                assert_same_bits(be.to_host(sluice.compact_if(d, p)), x[keep], "compact_if " + pred)
                assert_same_multiset(be.to_host(sluice.compact_unordered_if(d, p)), x[keep], "unordered_if")
                out, split = sluice.partition_unordered(d, p)
                out = be.to_host(out)
                assert int(split) == keep.sum()
                assert_same_bits(out[:split], x[keep], "partition_unordered kept (in input order)")
                assert_same_multiset(out[split:], x[~keep], "partition_unordered rejected")


def test_async_forms_return_device_counts(be, rng):
    n = 100003
    x = random_bytes_array(rng, np.int32, n)
    mask = make_mask(rng, "random", n)
    dx, dm = be.to_device(x), be.to_device(mask)
    for name, arg, keep in (("compact_async", dm, mask), ("compact_unordered_async", dm, mask),
                            ("compact_if_async", sluice.greater_than(0), x > 0),
                            ("compact_unordered_if_async", sluice.greater_than(0), x > 0),
                            ("partition_async", dm, mask), ("partition_unordered_async", sluice.less_than(0), x < 0)):
        out, count = getattr(sluice, name)(dx, arg)
        be.synchronize()
        c = be.to_host(count)
        assert c.shape == (1,) and c.dtype == be.count_dtype, "%s: count %r" % (name, c.dtype)
        assert int(c[0]) == keep.sum(), name
        got = be.to_host(out)
        assert got.shape[0] >= n
        check = assert_same_multiset if "unordered" in name and "partition" not in name else assert_same_bits
        check(got[:int(c[0])], x[keep], name)
    res = sluice.reduce_async(dx, op="max")
    be.synchronize()
    assert be.to_host(res)[0] == x.max()


def test_sort(be, rng):
    for dtype in dtypes_of(be, NUMERIC):
        for n in (0, 1, 4097, 300007):
            keys = random_array(rng, dtype, n, kind="keys")
            values = np.arange(n, dtype=np.int64)
            dk, dv = be.to_device(keys), be.to_device(values)
            for desc in (False, True):
                perm = ref_sort_order(keys, desc)
                k, v = sluice.radix_sort(dk, dv, descending=desc)
                assert_same_bits(be.to_host(k), keys[perm], "radix_sort keys")
                assert np.array_equal(be.to_host(v), perm)
                idx = be.to_host(sluice.argsort(dk, descending=desc))
                assert idx.dtype == np.int64 and np.array_equal(idx, perm)
            sluice.radix_sort(dk, dv, inplace=True)
            perm = ref_sort_order(keys)
            assert_same_bits(be.to_host(dk), keys[perm], "radix_sort in place")


def test_segmented_sort(be, rng):
    for dtype in dtypes_of(be, NUMERIC):
        n = 300007
        keys = random_array(rng, dtype, n, kind="keys")
        for longest in (100, 3000, 100000):  # the warp and block tiers; many long segments; a few long ones
            cuts = [0]
            while cuts[-1] < n:
                cuts.append(min(n, cuts[-1] + int(rng.integers(0, longest + 1))))
            offsets = np.array(cuts, dtype=np.int64)
            perm = np.arange(n)
            for a, b in zip(offsets[:-1], offsets[1:]):
                perm[a:b] = a + ref_sort_order(keys[a:b], False)
            dk, dv, do = be.to_device(keys), be.to_device(np.arange(n, dtype=np.int64)), be.to_device(offsets)
            k, v = sluice.segmented_radix_sort(dk, do, dv)
            assert_same_bits(be.to_host(k), keys[perm], "segmented_radix_sort keys")
            assert np.array_equal(be.to_host(v), perm)


def test_large_once(rng):
    """Each primitive once past 2^24 elements, on one library (PyTorch where it runs, else CuPy); integer
    data keep the host references cheap."""
    try:
        be = make_backend("torch")
    except pytest.skip.Exception:
        be = make_backend("cupy")
    n = (1 << 24) + 5
    x = random_array(rng, np.int32, n)
    d = be.to_device(x)
    assert np.array_equal(be.to_host(sluice.inclusive_scan(d)), np.cumsum(x, dtype=np.int32)), "scan 2^24+5"
    assert sluice.reduce(d) == np.sum(x, dtype=np.int32)
    mask = make_mask(rng, "random", n)
    assert_same_bits(be.to_host(sluice.compact(d, be.to_device(mask))), x[mask], "compact 2^24+5")
    keep = x > 0
    out, split = sluice.partition(d, sluice.greater_than(0))
    assert int(split) == np.count_nonzero(keep)
    assert_same_bits(be.to_host(out), np.concatenate([x[keep], x[~keep]]), "partition 2^24+5")
    assert np.array_equal(be.to_host(sluice.radix_sort(d)), np.sort(x)), "radix_sort 2^24+5"


def test_every_cuda_algorithm(be, rng):
    """Every CUDA algorithm by name, on one input of each primitive."""
    n = 100003
    xi = random_array(rng, np.int32, n)
    xf = random_array(rng, np.float32, n)
    mask = make_mask(rng, "random", n)
    di, df, dm = be.to_device(xi), be.to_device(xf), be.to_device(mask)
    for e in sluice.list_algorithms():
        if "cuda" not in e["devices"]:
            continue
        prim, algo = e["primitive"], e["name"]
        what = "%s %s" % (prim, algo)
        if prim == "reduce":
            check_reduce(sluice.reduce(df, algorithm=algo), xf, "sum", what=what)
            assert sluice.reduce(di, op="max", algorithm=algo) == xi.max(), what
        elif prim == "scan":
            check_scan(be.to_host(sluice.inclusive_scan(df, algorithm=algo)), xf, "sum", what=what)
            check_scan(be.to_host(sluice.exclusive_scan(di, algorithm=algo)), xi, "sum", exclusive=True, what=what)
        elif prim in ("compact", "compact_unordered"):
            check = assert_same_bits if e["stable"] else assert_same_multiset
            check(be.to_host(getattr(sluice, prim)(di, dm, algorithm=algo)), xi[mask], what)
            check(be.to_host(getattr(sluice, prim + "_if")(df, sluice.less_than(0), algorithm=algo)), xf[xf < 0], what)
        elif prim in ("partition", "partition_unordered"):
            for arg, keep in ((dm, mask), (sluice.less_than(0), xf < 0)):
                src = di if arg is dm else df
                ref = xi if arg is dm else xf
                out, split = getattr(sluice, prim)(src, arg, algorithm=algo)
                out = be.to_host(out)
                assert int(split) == keep.sum(), what
                assert_same_bits(out[:split], ref[keep], what + " kept")
                rest = assert_same_bits if e["stable"] else assert_same_multiset
                rest(out[split:], ref[~keep], what + " rejected")
        elif prim == "radix_sort":
            perm = ref_sort_order(xf)
            k, v = sluice.radix_sort(df, di, algorithm=algo)
            assert_same_bits(be.to_host(k), xf[perm], what)
            assert np.array_equal(be.to_host(v), xi[perm]), what


def test_torch_streams(torch_be, rng):
    torch = torch_be.torch
    n = 1 << 20
    x = random_array(rng, np.int64, n)
    mask = make_mask(rng, "random", n)
    s = torch.cuda.Stream()
    # The current stream of the arrays' library is the default.
    with torch.cuda.stream(s):
        d = torch.from_numpy(x).cuda()
        dm = torch.from_numpy(mask).cuda()
        res = sluice.inclusive_scan(d)
        out, count = sluice.compact_async(d, dm)
    s.synchronize()
    assert np.array_equal(res.cpu().numpy(), np.cumsum(x))
    assert int(count.cpu()[0]) == mask.sum()
    assert np.array_equal(out.cpu().numpy()[:mask.sum()], x[mask])
    # An explicit stream, as a torch.cuda.Stream and as a cudaStream_t int.
    d = torch.from_numpy(x).cuda()
    s.wait_stream(torch.cuda.current_stream())
    for stream in (s, s.cuda_stream):
        res = sluice.exclusive_scan(d, stream=stream)
        k = sluice.radix_sort(d, stream=stream)
        out, split = sluice.partition(d, sluice.less_than(0), stream=stream)
        s.synchronize()
        check_scan(res.cpu().numpy(), x, "sum", exclusive=True, what="exclusive_scan on a side stream")
        assert np.array_equal(k.cpu().numpy(), np.sort(x))
        assert int(split) == np.count_nonzero(x < 0)


def test_cupy_stream(rng):
    be = make_backend("cupy")
    cupy = be.cupy
    x = random_array(rng, np.uint32, 1 << 20)
    d = cupy.asarray(x)
    s = cupy.cuda.Stream(non_blocking=True)
    cupy.cuda.runtime.deviceSynchronize()
    with s:
        res = sluice.inclusive_scan(d)
    res2 = sluice.inclusive_scan(d, stream=s)
    s.synchronize()
    assert np.array_equal(cupy.asnumpy(res), np.cumsum(x, dtype=np.uint32))
    assert np.array_equal(cupy.asnumpy(res2), np.cumsum(x, dtype=np.uint32))


def gpu_matches_cpu(be, got, want, float_values):
    got = be.to_host(got)
    if float_values:
        np.testing.assert_array_equal(got, want)
    else:
        assert_same_bits(got, want)


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64, np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_runs_by_key_and_segmented(be, rng, dtype):
    """The runs, by-key and segmented families on the GPU against the same calls on the CPU."""
    from test_algorithms import runs_array
    from test_segmented import power_law_offsets
    if not be.supports(dtype):
        pytest.skip("%s has no %s arrays" % (be.name, np.dtype(dtype).name))
    floats = np.dtype(dtype).kind == "f"
    for n in (0, 1, 4097, 300007):
        x = runs_array(rng, dtype, n)
        d = be.to_device(x)
        assert_same_bits(be.to_host(sluice.unique(d)), sluice.unique(x))
        u, c = sluice.run_length_encode(d)
        want_u, want_c = sluice.run_length_encode(x)
        assert_same_bits(be.to_host(u), want_u)
        assert np.array_equal(be.to_host(c).astype(np.uint64), want_c)
        keys = runs_array(rng, np.int32 if be.name == "torch" else np.uint32, n)
        dk = be.to_device(keys)
        # Small integers as floats: every sum exact, whatever the order of combination.
        vals = rng.integers(-8, 8, n).astype(dtype) if floats else random_array(rng, dtype, n)
        dv = be.to_device(vals)
        k, v = sluice.reduce_by_key(dk, dv, op="max")
        want_k, want_v = sluice.reduce_by_key(keys, vals, op="max")
        assert_same_bits(be.to_host(k), want_k)
        gpu_matches_cpu(be, v, want_v, floats)
        gpu_matches_cpu(be, sluice.inclusive_scan_by_key(dk, dv), sluice.inclusive_scan_by_key(keys, vals, algorithm="serial"), floats)
        gpu_matches_cpu(be, sluice.exclusive_scan_by_key(dk, dv, init=1),
                        sluice.exclusive_scan_by_key(keys, vals, init=1, algorithm="serial"), floats)
        offsets = power_law_offsets(rng, n)
        doff = be.to_device(offsets.astype(np.int64) if be.name == "torch" else offsets)
        gpu_matches_cpu(be, sluice.segmented_reduce(dv, doff), sluice.segmented_reduce(vals, offsets, algorithm="serial"), floats)
        gpu_matches_cpu(be, sluice.segmented_inclusive_scan(dv, doff),
                        sluice.segmented_inclusive_scan(vals, offsets, algorithm="serial"), floats)
        gpu_matches_cpu(be, sluice.segmented_exclusive_scan(dv, doff, op="min"),
                        sluice.segmented_exclusive_scan(vals, offsets, op="min", algorithm="serial"), floats)


def test_gpu_errors(be, rng):
    x = random_array(rng, np.int32, 1000)
    d = be.to_device(x)
    with pytest.raises(ValueError):
        sluice.compact(d, make_mask(rng, "random", 1000))  # mask in host memory
    with pytest.raises(ValueError):
        sluice.inclusive_scan(d, out=np.zeros(1000, dtype=np.int32))  # out in host memory
    with pytest.raises(ValueError):
        sluice.reduce(d[::2])
    with pytest.raises(TypeError):
        sluice.reduce(be.to_device(np.zeros(10, dtype=np.int16)))
    with pytest.raises(sluice.Error) as e:
        sluice.compact(d, be.to_device(make_mask(rng, "random", 1000)), out=d)
    assert e.value.code == "unsupported", "a compaction in place on CUDA is unsupported"
    with pytest.raises(sluice.Error) as e:
        sluice.reduce(d, algorithm="no-such-algorithm")
    assert e.value.code == "invalid_argument"


def test_release_scratch_on_gpu(be, rng):
    d = be.to_device(random_array(rng, np.float32, 1 << 20))
    sluice.inclusive_scan(d)
    be.synchronize()
    assert sluice.release_scratch() >= 0
    check_scan(be.to_host(sluice.inclusive_scan(d)), be.to_host(d), "sum", what="scan after release_scratch")
