"""unique, unique_by_key, run_length_encode and non_trivial_runs against NumPy, on the CPU."""
import numpy as np
import pytest

import sluice
from test_algorithms import ref_runs, runs_array

DTYPES = [np.uint8, np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64]
SIZES = [0, 1, 2, 3, 1023, 1024, 1025, 65537, (1 << 20) + 3]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_runs(rng, dtype, n):
    x = runs_array(rng, dtype, n)
    heads, lengths = ref_runs(x)
    starts = np.flatnonzero(heads)
    got = sluice.unique(x)
    assert got.dtype == x.dtype and np.array_equal(got.view(np.uint8), x[heads].view(np.uint8))
    u, c = sluice.run_length_encode(x)
    assert np.array_equal(u.view(np.uint8), x[heads].view(np.uint8)) and np.array_equal(c, lengths)
    assert c.dtype == np.uint64
    o, l = sluice.non_trivial_runs(x)
    assert np.array_equal(o, starts[lengths > 1]) and np.array_equal(l, lengths[lengths > 1])
    values = rng.random(n)
    k, v = sluice.unique_by_key(x, values)
    assert np.array_equal(k.view(np.uint8), x[heads].view(np.uint8)) and np.array_equal(v, values[heads])


def test_all_equal_and_all_distinct():
    x = np.full(100000, 5, dtype=np.int32)
    assert list(sluice.unique(x)) == [5]
    u, c = sluice.run_length_encode(x)
    assert list(c) == [100000]
    y = np.arange(100000, dtype=np.int64)
    assert np.array_equal(sluice.unique(y), y)
    o, l = sluice.non_trivial_runs(y)
    assert o.size == 0 and l.size == 0


def test_out_given_and_too_small():
    x = np.array([1, 1, 2, 3, 3, 3], dtype=np.uint32)
    out = np.zeros(8, dtype=np.uint32)
    res = sluice.unique(x, out=out)
    assert np.shares_memory(res, out) and list(res) == [1, 2, 3]
    with pytest.raises(ValueError):
        sluice.unique(x, out=np.zeros(2, dtype=np.uint32))
    with pytest.raises(ValueError):
        sluice.run_length_encode(x, out_counts=np.zeros(6, dtype=np.float64))


def test_torch_tensors():
    torch = pytest.importorskip("torch")
    x = torch.tensor([4, 4, 5, 6, 6, 6], dtype=torch.int64)
    assert sluice.unique(x).tolist() == [4, 5, 6]
    u, c = sluice.run_length_encode(x)
    assert isinstance(c, torch.Tensor) and c.tolist() == [2, 1, 3]


def test_errors():
    with pytest.raises(TypeError):
        sluice.unique(np.zeros(4, dtype=np.int16))
    with pytest.raises(ValueError):
        sluice.unique(np.zeros((2, 2), dtype=np.int32))
    with pytest.raises(sluice.Error) as e:
        sluice.unique(np.zeros(4, dtype=np.int32), algorithm="nope")
    assert e.value.code == "invalid_argument"
