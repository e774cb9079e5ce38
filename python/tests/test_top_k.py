"""top_k: the k largest or smallest elements and their positions, against NumPy's stable argsort of the
order-preserving image (ties to the lower position), and against torch.topk's values where PyTorch is present."""
import numpy as np
import pytest

import sluice
from conftest import assert_same_bits, random_array
from test_algorithms import ref_top_k


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64])
@pytest.mark.parametrize("n", [0, 1, 1000, 65537, 300001])
def test_top_k_matches_the_stable_sort(rng, dtype, n):
    x = random_array(rng, dtype, n, kind="keys")
    for k in sorted({k for k in (0, 1, n // 2, n - 1, n) if 0 <= k <= n}):
        for largest in (True, False):
            for ordered in (True, False):
                values, idx = sluice.top_k(x, k, largest=largest, sorted=ordered)
                want = ref_top_k(x, k, largest, ordered)
                assert idx.dtype == np.int64 and idx.size == k
                assert np.array_equal(idx, want), (k, largest, ordered)
                assert_same_bits(values, x[want], "k %d largest %s sorted %s" % (k, largest, ordered))


def test_top_k_ties_go_to_the_lower_position():
    x = np.arange(100, dtype=np.uint32) % 10
    values, idx = sluice.top_k(x, 25)
    assert values.tolist() == [9] * 10 + [8] * 10 + [7] * 5
    assert idx.tolist() == list(range(9, 100, 10)) + list(range(8, 100, 10)) + list(range(7, 50, 10))
    values = sluice.top_k(x, 3, largest=False, indices=False)
    assert values.tolist() == [0, 0, 0]


def test_top_k_into_given_arrays(rng):
    x = random_array(rng, np.float64, 10000)
    out = np.zeros(120, dtype=np.float64)
    out_indices = np.zeros(120, dtype=np.uint64)
    values, idx = sluice.top_k(x, 100, out=out, out_indices=out_indices)
    assert values.base is out or values is out
    assert np.array_equal(out_indices[:100], ref_top_k(x, 100).astype(np.uint64))
    assert not out[100:].any() and not out_indices[100:].any(), "top_k wrote past k"


@pytest.mark.parametrize("args, kwargs, error", [
    ((101,), {}, ValueError), ((-1,), {}, ValueError), ((2.5,), {}, TypeError), (("3",), {}, TypeError),
    ((10,), dict(out=np.zeros(9, dtype=np.int32)), ValueError), ((10,), dict(out=np.zeros(10, dtype=np.int64)), ValueError),
    ((10,), dict(out_indices=np.zeros(9, dtype=np.int64)), ValueError),
    ((10,), dict(out_indices=np.zeros(10, dtype=np.float64)), TypeError), ((10,), dict(algorithm="nope"), ValueError)])
def test_top_k_refuses(args, kwargs, error):
    with pytest.raises(error):
        sluice.top_k(np.arange(100, dtype=np.int32), *args, **kwargs)


def test_top_k_against_torch(rng):
    torch = pytest.importorskip("torch")
    x = torch.from_numpy(rng.permutation(100000).astype(np.float32))  # distinct: torch's tie order is unspecified
    for largest in (True, False):
        values, idx = sluice.top_k(x, 500, largest=largest)
        want_values, want_idx = torch.topk(x, 500, largest=largest, sorted=True)
        assert isinstance(values, torch.Tensor) and idx.dtype == torch.int64
        assert torch.equal(values, want_values) and torch.equal(idx, want_idx)
