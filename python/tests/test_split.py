"""split: the stable k-way split by a radix digit, against NumPy's stable argsort of the digit."""
import numpy as np
import pytest

import sluice
from conftest import assert_same_bits, random_array
from test_algorithms import ref_digits


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64])
@pytest.mark.parametrize("n", [0, 1, 1000, 65537, 300001])
def test_split_by_each_digit(rng, dtype, n):
    x = random_array(rng, dtype, n, kind="keys")
    width = np.dtype(dtype).itemsize * 8
    for shift, bits in ((0, 8), (width - 8, 8), (width - 1, 1), (5, 3)):
        out, offsets = sluice.split(x, shift=shift, bits=bits)
        digit = ref_digits(x, shift, bits)
        assert_same_bits(out, x[np.argsort(digit, kind="stable")], "shift %d bits %d" % (shift, bits))
        assert offsets.dtype == np.uint64 and offsets.size == (1 << bits) + 1
        assert np.array_equal(offsets, np.r_[0, np.cumsum(np.bincount(digit, minlength=1 << bits))])


def test_split_into_given_arrays(rng):
    x = random_array(rng, np.uint32, 10000)
    out = np.zeros(12000, dtype=np.uint32)
    offsets = np.zeros(17, dtype=np.int64)
    got, got_offsets = sluice.split(x, shift=28, bits=4, out=out, offsets=offsets)
    assert got is out and got_offsets is offsets
    assert np.array_equal(out[:10000], x[np.argsort(x >> 28, kind="stable")])
    assert not out[10000:].any(), "split wrote past len(x)"
    assert offsets[-1] == 10000


@pytest.mark.parametrize("kwargs, error", [
    (dict(bits=0), ValueError), (dict(bits=9), ValueError), (dict(shift=32, bits=4), ValueError), (dict(shift=-1), ValueError),
    (dict(out=np.zeros(99, dtype=np.int32)), ValueError), (dict(out=np.zeros(100, dtype=np.int64)), ValueError),
    (dict(offsets=np.zeros(16, dtype=np.uint64), bits=4), ValueError), (dict(offsets=np.zeros(17, dtype=np.float64), bits=4), TypeError),
    (dict(algorithm="nope"), ValueError)])
def test_split_refuses(kwargs, error):
    with pytest.raises(error):
        sluice.split(np.arange(100, dtype=np.int32), **kwargs)


def test_split_torch_cpu(rng):
    torch = pytest.importorskip("torch")
    x = torch.from_numpy(random_array(rng, np.float32, 5000, kind="keys"))
    out, offsets = sluice.split(x, shift=24, bits=8)
    assert isinstance(out, torch.Tensor) and isinstance(offsets, torch.Tensor)
    digit = ref_digits(x.numpy(), 24, 8)
    assert_same_bits(out.numpy(), x.numpy()[np.argsort(digit, kind="stable")], "torch")
