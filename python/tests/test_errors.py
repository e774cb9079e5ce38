"""Bad input: the Python layer's TypeError and ValueError, and sluice.Error from the library."""
import re

import numpy as np
import pytest

import sluice
from conftest import make_mask

# One call per primitive on a given x (and, where it takes one, a mask of x's length).
CALLS = {
    "reduce": lambda x: sluice.reduce(x),
    "reduce_async": lambda x: sluice.reduce_async(x),
    "inclusive_scan": lambda x: sluice.inclusive_scan(x),
    "exclusive_scan": lambda x: sluice.exclusive_scan(x),
    "compact": lambda x: sluice.compact(x, np.ones(len(x), bool)),
    "compact_unordered": lambda x: sluice.compact_unordered(x, np.ones(len(x), bool)),
    "compact_async": lambda x: sluice.compact_async(x, np.ones(len(x), bool)),
    "compact_if": lambda x: sluice.compact_if(x, sluice.less_than(1)),
    "compact_unordered_if": lambda x: sluice.compact_unordered_if(x, sluice.less_than(1)),
    "compact_if_async": lambda x: sluice.compact_if_async(x, sluice.less_than(1)),
    "partition_mask": lambda x: sluice.partition(x, np.ones(len(x), bool)),
    "partition_pred": lambda x: sluice.partition(x, sluice.less_than(1)),
    "partition_unordered_mask": lambda x: sluice.partition_unordered(x, np.ones(len(x), bool)),
    "partition_unordered_pred": lambda x: sluice.partition_unordered(x, sluice.less_than(1)),
    "partition_async": lambda x: sluice.partition_async(x, np.ones(len(x), bool)),
    "radix_sort": lambda x: sluice.radix_sort(x),
    "argsort": lambda x: sluice.argsort(x),
    "radix_sort_values": lambda x: sluice.radix_sort(np.arange(len(x), dtype=np.uint32), x),
}
NUMERIC_CALLS = ["reduce", "reduce_async", "inclusive_scan", "exclusive_scan", "radix_sort", "argsort"]
PRED_CALLS = ["compact_if", "compact_unordered_if", "compact_if_async", "partition_pred", "partition_unordered_pred"]
MOVE_CALLS = ["compact", "compact_unordered", "compact_async", "partition_mask", "partition_unordered_mask",
              "partition_async", "radix_sort_values"]


def mentions(message, word):
    return re.search(r"\b%s\b" % re.escape(word), message) is not None


# ------------------------------------------------------------------------------------------- dtypes


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint16, np.float16, np.bool_, np.complex64],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("call", NUMERIC_CALLS)
def test_numeric_dtype_refused(call, dtype):
    x = np.zeros(10, dtype=dtype)
    with pytest.raises(TypeError) as e:
        CALLS[call](x)
    msg = str(e.value)
    assert "int32" in msg and "float64" in msg, "the TypeError must list the accepted dtypes: %r" % msg


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.float16, np.bool_, np.complex128],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("call", PRED_CALLS)
def test_predicate_dtype_refused(call, dtype):
    with pytest.raises(TypeError):
        CALLS[call](np.zeros(10, dtype=dtype))


@pytest.mark.parametrize("dtype", ["S3", "O", "V12", "S32"])
@pytest.mark.parametrize("call", MOVE_CALLS)
def test_move_dtype_refused(call, dtype):
    """Elements of 3, 12 or 32 bytes cannot move, nor can Python objects (their reference counts would break)."""
    with pytest.raises(TypeError):
        CALLS[call](np.zeros(10, dtype=dtype))


@pytest.mark.parametrize("mask_dtype", [np.int8, np.int32, np.float32, np.uint16])
@pytest.mark.parametrize("name", ["compact", "compact_unordered", "partition", "partition_unordered",
                                  "compact_async", "partition_async"])
def test_mask_dtype_refused(name, mask_dtype):
    x = np.arange(10, dtype=np.int32)
    with pytest.raises(TypeError):
        getattr(sluice, name)(x, np.ones(10, dtype=mask_dtype))


# ------------------------------------------------------------------------------------ not an array


@pytest.mark.parametrize("obj", [[1, 2, 3], (1, 2), 5, None, "abc", b"\x00\x01"],
                         ids=["list", "tuple", "int", "None", "str", "bytes"])
@pytest.mark.parametrize("call", ["reduce", "inclusive_scan", "compact_if", "partition_pred", "radix_sort",
                                  "argsort"])
def test_not_an_array(call, obj):
    with pytest.raises(TypeError):
        CALLS[call](obj)


@pytest.mark.parametrize("name", ["compact", "partition"])
def test_mask_not_an_array(name):
    x = np.arange(3, dtype=np.int32)
    with pytest.raises(TypeError):
        getattr(sluice, name)(x, [True, False, True])


@pytest.mark.parametrize("name", ["compact_if", "partition", "partition_unordered"])
def test_callable_is_not_a_predicate(name):
    x = np.arange(3, dtype=np.int32)
    with pytest.raises(TypeError):
        getattr(sluice, name)(x, lambda v: v > 0)


# ------------------------------------------------------------------------------- shape and stride


@pytest.mark.parametrize("call", sorted(CALLS))
def test_two_dimensional(call):
    x = np.zeros((4, 8), dtype=np.float32 if call not in MOVE_CALLS else np.int32)
    with pytest.raises(ValueError):
        CALLS[call](x)


@pytest.mark.parametrize("step", [2, -1], ids=["step2", "reversed"])
@pytest.mark.parametrize("call", sorted(CALLS))
def test_not_contiguous(call, step):
    x = np.arange(64, dtype=np.int32)[::step]
    with pytest.raises(ValueError) as e:
        CALLS[call](x)
    name = {"radix_sort": "keys", "argsort": "keys", "radix_sort_values": "values"}.get(call, "x")
    assert mentions(str(e.value), name), "the ValueError must name the argument: %r" % str(e.value)


def test_zero_dimensional():
    with pytest.raises(ValueError):
        sluice.reduce(np.array(3, dtype=np.int32))


@pytest.mark.parametrize("name", ["compact", "compact_unordered", "partition", "partition_unordered"])
def test_mask_not_contiguous(name):
    x = np.arange(10, dtype=np.int32)
    mask = np.ones(20, bool)[::2]
    with pytest.raises(ValueError) as e:
        getattr(sluice, name)(x, mask)
    assert mentions(str(e.value), "mask"), "the ValueError must name the mask: %r" % str(e.value)


@pytest.mark.parametrize("mask_len", [0, 9, 11])
@pytest.mark.parametrize("name", ["compact", "compact_unordered", "partition", "partition_unordered",
                                  "compact_async", "compact_unordered_async", "partition_async",
                                  "partition_unordered_async"])
def test_mask_length(name, mask_len):
    x = np.arange(10, dtype=np.int32)
    with pytest.raises(ValueError):
        getattr(sluice, name)(x, np.ones(mask_len, bool))


@pytest.mark.parametrize("vlen", [9, 11])
def test_values_length(vlen):
    keys = np.arange(10, dtype=np.uint32)
    with pytest.raises(ValueError):
        sluice.radix_sort(keys, np.zeros(vlen, dtype=np.int64))
    with pytest.raises(ValueError):
        sluice.radix_sort(keys, np.zeros(vlen, dtype=np.int64), inplace=True)


# ---------------------------------------------------------------------------------------------- out=


@pytest.mark.parametrize("name", ["inclusive_scan", "exclusive_scan"])
def test_scan_out_too_small(name):
    x = np.arange(100, dtype=np.int64)
    out = np.full(99, 5, dtype=np.int64)
    with pytest.raises(ValueError):
        getattr(sluice, name)(x, out=out)
    assert np.all(out == 5), "a refused call must not write"


@pytest.mark.parametrize("name", ["partition", "partition_unordered", "partition_async", "partition_unordered_async"])
def test_partition_out_too_small(name):
    x = np.arange(100, dtype=np.int32)
    with pytest.raises(ValueError):
        getattr(sluice, name)(x, x % 3 == 0, out=np.zeros(99, dtype=np.int32))


@pytest.mark.parametrize("name", ["compact", "compact_unordered"])
def test_compact_out_too_small_for_count(name):
    x = np.arange(100, dtype=np.int32)
    mask = np.ones(100, bool)
    with pytest.raises(ValueError):
        getattr(sluice, name)(x, mask, out=np.zeros(50, dtype=np.int32))


@pytest.mark.parametrize("name", ["compact_if", "compact_unordered_if"])
def test_compact_if_out_too_small_for_count(name):
    x = np.arange(100, dtype=np.float32)
    with pytest.raises(ValueError):
        getattr(sluice, name)(x, sluice.at_least(10), out=np.zeros(89, dtype=np.float32))


def test_reduce_async_out_too_small():
    with pytest.raises(ValueError):
        sluice.reduce_async(np.arange(10, dtype=np.int32), out=np.zeros(0, dtype=np.int32))


@pytest.mark.parametrize("call", [
    lambda out: sluice.inclusive_scan(np.arange(10, dtype=np.int32), out=out),
    lambda out: sluice.exclusive_scan(np.arange(10, dtype=np.int32), out=out),
    lambda out: sluice.reduce_async(np.arange(10, dtype=np.int32), out=out),
    lambda out: sluice.compact(np.arange(10, dtype=np.int32), np.ones(10, bool), out=out),
    lambda out: sluice.compact_if(np.arange(10, dtype=np.int32), sluice.less_than(5), out=out),
    lambda out: sluice.partition(np.arange(10, dtype=np.int32), np.ones(10, bool), out=out),
], ids=["inclusive_scan", "exclusive_scan", "reduce_async", "compact", "compact_if", "partition"])
@pytest.mark.parametrize("out_dtype", [np.uint32, np.int64, np.float32], ids=lambda d: np.dtype(d).name)
def test_out_wrong_dtype(call, out_dtype):
    with pytest.raises(ValueError) as e:
        call(np.zeros(20, dtype=out_dtype))
    assert mentions(str(e.value), "out"), "the ValueError must name out: %r" % str(e.value)


def test_out_not_contiguous():
    out = np.zeros(40, dtype=np.int32)[::2]
    with pytest.raises(ValueError):
        sluice.inclusive_scan(np.arange(20, dtype=np.int32), out=out)


def test_out_not_an_array():
    with pytest.raises(TypeError):
        sluice.inclusive_scan(np.arange(3, dtype=np.int32), out=[0, 0, 0])


def test_out_readonly_is_refused():
    out = np.zeros(10, dtype=np.int32)
    out.setflags(write=False)
    with pytest.raises((ValueError, TypeError)):
        sluice.inclusive_scan(np.arange(10, dtype=np.int32), out=out)
    assert np.all(out == 0)


def test_async_count_wrong_dtype():
    x = np.arange(10, dtype=np.int32)
    with pytest.raises((ValueError, TypeError)):
        sluice.compact_async(x, np.ones(10, bool), count=np.zeros(1, dtype=np.float32))


# -------------------------------------------------------------------------------------- overlapping


def test_mask_sharing_bytes_with_out():
    """A mask must not share a byte with out: invalid_argument, before anything is written."""
    x = np.arange(1, 101, dtype=np.uint8)
    mask = np.ones(100, dtype=np.uint8)
    with pytest.raises(sluice.Error) as e:
        sluice.compact(x, mask, out=mask)
    assert e.value.code == "invalid_argument"
    assert isinstance(e.value, ValueError)
    assert np.all(mask == 1)


def test_scan_partial_overlap():
    buf = np.arange(200, dtype=np.int32)
    with pytest.raises(sluice.Error) as e:
        sluice.inclusive_scan(buf[:100], out=buf[50:150])
    assert e.value.code == "invalid_argument"


@pytest.mark.parametrize("name", ["partition", "partition_unordered"])
def test_partition_in_place_is_refused(name):
    x = np.arange(100, dtype=np.int32)
    with pytest.raises(sluice.Error) as e:
        getattr(sluice, name)(x, x % 2 == 0, out=x)
    assert e.value.code in ("unsupported", "invalid_argument")
    assert isinstance(e.value, ValueError) == (e.value.code == "invalid_argument"), \
        "sluice.Error is a ValueError exactly where its code is invalid_argument"


def test_inplace_sort_keys_as_values():
    """The same array as keys and values cannot be sorted in place."""
    keys = np.arange(100, 0, -1, dtype=np.uint32)
    with pytest.raises(sluice.Error) as e:
        sluice.radix_sort(keys, keys, inplace=True)
    assert e.value.code in ("unsupported", "invalid_argument")
    assert keys.tolist() == list(range(100, 0, -1)), "a refused sort must not write"


def test_inplace_sort_keys_and_values_overlap():
    buf = np.arange(200, 0, -1, dtype=np.uint32)
    with pytest.raises(sluice.Error) as e:
        sluice.radix_sort(buf[:100], buf[50:150], inplace=True)
    assert e.value.code == "invalid_argument"
    assert isinstance(e.value, ValueError)


# ------------------------------------------------------------------------------- algorithm and ops


@pytest.mark.parametrize("call", [
    lambda a: sluice.reduce(np.arange(10, dtype=np.int32), algorithm=a),
    lambda a: sluice.inclusive_scan(np.arange(10, dtype=np.int32), algorithm=a),
    lambda a: sluice.compact(np.arange(10, dtype=np.int32), np.ones(10, bool), algorithm=a),
    lambda a: sluice.partition(np.arange(10, dtype=np.int32), sluice.less_than(3), algorithm=a),
    lambda a: sluice.radix_sort(np.arange(10, dtype=np.int32), algorithm=a),
    lambda a: sluice.argsort(np.arange(10, dtype=np.int32), algorithm=a),
], ids=["reduce", "inclusive_scan", "compact", "partition", "radix_sort", "argsort"])
@pytest.mark.parametrize("algo", ["no-such-algorithm", "cub", "tile-atomic", "best:threads=2"],
                         ids=["unknown", "cuda-only-cub", "cuda-only-tile-atomic", "best-with-params"])
def test_unknown_algorithm(call, algo):
    with pytest.raises(sluice.Error) as e:
        call(algo)
    assert e.value.code == "invalid_argument"
    assert isinstance(e.value, ValueError) and isinstance(e.value, RuntimeError)


@pytest.mark.parametrize("algo", [
    "billeter-scan:simd=bogus", "billeter-scan:nope=1", "billeter-scan:threads=-1", "billeter-scan:threads=x",
    "billeter-scan:threads=1,threads=2", "serial:threads=2", "billeter-scan:threads",
])
def test_bad_algorithm_parameter(algo):
    with pytest.raises(sluice.Error) as e:
        sluice.inclusive_scan(np.arange(10, dtype=np.int32), algorithm=algo)
    assert e.value.code == "invalid_argument"
    assert isinstance(e.value, ValueError)


def test_error_message_lists_valid_names():
    with pytest.raises(sluice.Error) as e:
        sluice.compact(np.arange(10, dtype=np.int32), np.ones(10, bool), algorithm="no-such-algorithm")
    assert "billeter" in str(e.value), "the message must list the valid names: %r" % str(e.value)
    assert "compact" in str(e.value), "the message must name the function: %r" % str(e.value)


def test_algorithm_not_a_string():
    with pytest.raises(TypeError):
        sluice.reduce(np.arange(10, dtype=np.int32), algorithm=5)


@pytest.mark.parametrize("name", ["reduce", "reduce_async", "inclusive_scan", "exclusive_scan"])
@pytest.mark.parametrize("op", ["mean", "Sum", ""])
def test_unknown_op(name, op):
    with pytest.raises(ValueError):
        getattr(sluice, name)(np.arange(10, dtype=np.int32), op=op)


def test_error_class():
    assert issubclass(sluice.Error, RuntimeError)


# --------------------------------------------------------------------------------- predicate values


@pytest.mark.parametrize("dtype,value", [
    (np.uint8, 300), (np.uint8, -1), (np.uint8, 256), (np.int32, 2**31), (np.int32, -2**31 - 1),
    (np.uint32, 2**32), (np.uint32, -1), (np.int64, 2**63), (np.uint64, 2**64), (np.uint64, -1),
], ids=lambda v: str(v) if isinstance(v, int) else np.dtype(v).name)
@pytest.mark.parametrize("pred", ["less_than", "equal_to", "at_least"])
@pytest.mark.parametrize("name", ["compact_if", "compact_unordered_if", "partition", "partition_unordered",
                                  "compact_if_async", "partition_async"])
def test_predicate_value_does_not_fit(name, pred, dtype, value):
    x = np.arange(10, dtype=dtype)
    with pytest.raises(ValueError):
        getattr(sluice, name)(x, getattr(sluice, pred)(value))


@pytest.mark.parametrize("dtype,value", [(np.uint8, 255), (np.uint8, 0), (np.int32, -2**31), (np.uint64, 2**64 - 1),
                                         (np.int64, -2**63)],
                         ids=lambda v: str(v) if isinstance(v, int) else np.dtype(v).name)
def test_predicate_value_at_the_limit_fits(dtype, value):
    info = np.iinfo(dtype)
    x = np.array([info.min, 0, info.max], dtype=dtype)
    got = sluice.compact_if(x, sluice.equal_to(value))
    assert got.tolist() == [value] * int(np.sum(x == np.dtype(dtype).type(value)))


# --------------------------------------------------------------------------------------- misc calls


def test_device_available():
    assert sluice.device_available("cpu") is True
    assert isinstance(sluice.device_available("cuda"), bool)
    assert isinstance(sluice.device_available("gl"), bool)
    with pytest.raises(ValueError):
        sluice.device_available("tpu")


def test_release_scratch():
    freed = sluice.release_scratch()
    assert isinstance(freed, int) and freed >= 0
    assert sluice.release_scratch() >= 0


def test_library_usable_after_errors(rng):
    """A call that raised leaves the library ready for the next call."""
    x = rng.integers(0, 100, 10000, dtype=np.int32)
    for bad in ("no-such-algorithm", "billeter:simd=bogus"):
        with pytest.raises(sluice.Error):
            sluice.compact(x, x > 50, algorithm=bad)
    mask = make_mask(rng, "random", x.size)
    assert np.array_equal(sluice.compact(x, mask), x[mask])


def test_async_count_wrong_length():
    x = np.arange(10, dtype=np.int32)
    with pytest.raises(ValueError):
        sluice.compact_async(x, np.ones(10, bool), count=np.zeros(0, dtype=np.uint64))


@pytest.mark.parametrize("value", [np.float32(0.5), np.int64(3), np.uint8(2), 2.0], ids=repr)
def test_predicate_numpy_scalar_values(value):
    x = np.arange(10, dtype=np.float64)
    got = sluice.compact_if(x, sluice.less_than(value))
    assert got.tolist() == [v for v in range(10) if v < float(value)]
