"""sluice: reduction, scan, stream compaction, partition and radix sort on NumPy arrays (CPU), PyTorch tensors
and CuPy arrays (CPU or CUDA) and any array with __dlpack__ or __cuda_array_interface__, read and written where
they are.

    import numpy as np, sluice
    x = np.random.rand(1 << 20).astype(np.float32)
    hot = sluice.compact_if(x, sluice.greater_than(0.9))   # the elements above 0.9, in order
    total = sluice.reduce(hot)                             # their sum

Every function takes ``algorithm="best"`` (a name of ``list_algorithms()``) and ``stream=None`` (CUDA: the
arrays' library's current stream). docs/guide/python.md has the whole contract.
"""

import operator as _operator

from . import _arrays, _sluice
from ._errors import Error, InvalidArgument

__version__ = _sluice.version
__all__ = [
    "Error", "Predicate", "argsort", "at_least", "at_most", "compact", "compact_async", "compact_if", "compact_if_async",
    "compact_unordered", "compact_unordered_async", "compact_unordered_if", "compact_unordered_if_async",
    "device_available", "equal_to", "exclusive_scan", "exclusive_scan_by_key", "inclusive_scan_by_key", "non_trivial_runs", "run_length_encode", "unique", "unique_by_key", "greater_than", "inclusive_scan", "less_than", "list_algorithms",
    "not_equal_to", "partition", "partition_async", "partition_unordered", "partition_unordered_async", "radix_sort",
    "reduce", "reduce_async", "reduce_by_key", "release_scratch", "segmented_exclusive_scan", "segmented_inclusive_scan",
    "segmented_radix_sort", "segmented_reduce", "split", "top_k",
]

device_available = _sluice.device_available
release_scratch = _sluice.release_scratch


class Predicate:
    """Compares each element with a value: made by less_than, at_most, greater_than, at_least, equal_to,
    not_equal_to. The value is converted to the array's dtype when the predicate is used."""

    __slots__ = ("op", "value")

    def __init__(self, op, value):
        self.op = op
        self.value = value

    def __repr__(self):
        return f"sluice.{_PREDICATE_NAMES[self.op]}({self.value!r})"


_PREDICATE_NAMES = {"less": "less_than", "less_equal": "at_most", "greater": "greater_than",
                    "greater_equal": "at_least", "equal": "equal_to", "not_equal": "not_equal_to"}


def less_than(value):
    """x < value"""
    return Predicate("less", value)


def at_most(value):
    """x <= value"""
    return Predicate("less_equal", value)


def greater_than(value):
    """x > value"""
    return Predicate("greater", value)


def at_least(value):
    """x >= value"""
    return Predicate("greater_equal", value)


def equal_to(value):
    """x == value"""
    return Predicate("equal", value)


def not_equal_to(value):
    """x != value"""
    return Predicate("not_equal", value)


def _setting(x, stream):
    """x's library, the stream the call runs on, the caller's scratch allocator and the stream the library
    orders its own work on (the call waits for that one where it differs)."""
    lib = _arrays.library(x)
    producer = _arrays.current_stream(x, lib)
    s = producer if stream is None else _arrays.stream_of(x, lib, stream)
    return lib, s, (_arrays.scratch_for(x, lib, s) if lib in ("torch", "cupy") else None), producer


def _raw(a, producer):
    return None if a is None else _arrays.raw(a, _arrays.library(a), producer)


# reduce and scan ---------------------------------------------------------------------------------------------

def reduce(x, *, op="sum", init=None, algorithm="best", stream=None):
    """init op x[0] op ... op x[n-1] as a NumPy scalar of x's dtype. op: "sum", "product", "min" or "max";
    init: the op's identity by default. On the GPU this waits for the result."""
    lib, s, scratch, producer = _setting(x, stream)
    return _sluice._reduce("reduce", _raw(x, producer), None, op, init, algorithm, s, scratch)


def reduce_async(x, *, op="sum", init=None, out=None, algorithm="best", stream=None):
    """The same, written to a 1-element array on x's device (out=, or a new one), which is returned; on the
    GPU in stream order, without waiting."""
    lib, s, scratch, producer = _setting(x, stream)
    if out is None:
        _arrays.length(x, lib, "reduce_async")
        out = _arrays.empty(x, lib, 1)
    _sluice._reduce("reduce_async", _raw(x, producer), _raw(out, producer), op, init, algorithm, s, scratch)
    return out


def inclusive_scan(x, *, op="sum", out=None, algorithm="best", stream=None):
    """out[i] = x[0] op ... op x[i]; out may be x (in place). Returns out."""
    lib, s, scratch, producer = _setting(x, stream)
    if out is None:
        out = _arrays.empty(x, lib, _arrays.length(x, lib, "inclusive_scan"))
    _sluice._scan("inclusive_scan", _raw(x, producer), _raw(out, producer), True, op, None, algorithm, s, scratch)
    return out


def exclusive_scan(x, *, op="sum", init=None, out=None, algorithm="best", stream=None):
    """out[i] = init op x[0] op ... op x[i-1], init the op's identity by default; out may be x. Returns out."""
    lib, s, scratch, producer = _setting(x, stream)
    if out is None:
        out = _arrays.empty(x, lib, _arrays.length(x, lib, "exclusive_scan"))
    _sluice._scan("exclusive_scan", _raw(x, producer), _raw(out, producer), False, op, init, algorithm, s, scratch)
    return out


# compaction and partition ------------------------------------------------------------------------------------

def _select(fn, run, x, mask, pred, out, unordered, count, asynchronous, algorithm, stream):
    lib, s, scratch, producer = _setting(x, stream)
    if out is None:
        out = _arrays.empty(x, lib, _arrays.length(x, lib, fn))
    if asynchronous and count is None:
        count = _arrays.empty(x, lib, 1, _arrays._COUNT)
    pred_arg = None if pred is None else _predicate(fn, pred)
    n = run(fn, _raw(x, producer), _raw(mask, producer), pred_arg, _raw(out, producer), unordered,
            _raw(count, producer) if asynchronous else None, algorithm, s, scratch)
    return out, (count if asynchronous else n)


def _predicate(fn, pred):
    if not isinstance(pred, Predicate):
        raise TypeError(f"sluice.{fn}: the predicate is a {type(pred).__name__}; make one with sluice.less_than(v), "
                        "at_most, greater_than, at_least, equal_to or not_equal_to")
    return (pred.op, pred.value)


def _compacted(out, n):
    return out[:n]


def compact(x, mask, *, out=None, algorithm="best", stream=None):
    """The elements of x whose mask (bool or uint8) is non-zero, in input order: out[:count]."""
    out, n = _select("compact", _sluice._compact, x, mask, None, out, False, None, False, algorithm, stream)
    return _compacted(out, n)


def compact_if(x, pred, *, out=None, algorithm="best", stream=None):
    """The elements of x with pred(x) true (sluice.greater_than(0.5), ...), in input order."""
    out, n = _select("compact_if", _sluice._compact, x, None, pred, out, False, None, False, algorithm, stream)
    return _compacted(out, n)


def compact_unordered(x, mask, *, out=None, algorithm="best", stream=None):
    """As compact, the kept elements in any order (faster on the GPU)."""
    out, n = _select("compact_unordered", _sluice._compact, x, mask, None, out, True, None, False, algorithm, stream)
    return _compacted(out, n)


def compact_unordered_if(x, pred, *, out=None, algorithm="best", stream=None):
    """As compact_if, the kept elements in any order (faster on the GPU)."""
    out, n = _select("compact_unordered_if", _sluice._compact, x, None, pred, out, True, None, False, algorithm, stream)
    return _compacted(out, n)


def compact_async(x, mask, *, out=None, count=None, algorithm="best", stream=None):
    """(out, count): out (len(x) elements) holds the kept elements first; count, a 1-element array on x's
    device, how many, written in stream order: the host does not wait."""
    return _select("compact_async", _sluice._compact, x, mask, None, out, False, count, True, algorithm, stream)


def compact_if_async(x, pred, *, out=None, count=None, algorithm="best", stream=None):
    """compact_if without waiting: (out, count) as compact_async."""
    return _select("compact_if_async", _sluice._compact, x, None, pred, out, False, count, True, algorithm, stream)


def compact_unordered_async(x, mask, *, out=None, count=None, algorithm="best", stream=None):
    """compact_unordered without waiting: (out, count) as compact_async."""
    return _select("compact_unordered_async", _sluice._compact, x, mask, None, out, True, count, True, algorithm, stream)


def compact_unordered_if_async(x, pred, *, out=None, count=None, algorithm="best", stream=None):
    """compact_unordered_if without waiting: (out, count) as compact_async."""
    return _select("compact_unordered_if_async", _sluice._compact, x, None, pred, out, True, count, True, algorithm, stream)


def _mask_or_pred(how):
    return (None, how) if isinstance(how, Predicate) else (how, None)


def partition(x, mask_or_pred, *, out=None, algorithm="best", stream=None):
    """(out, split): the kept elements (mask non-zero, or pred true) first, then the others, both in input
    order; out has len(x) elements."""
    mask, pred = _mask_or_pred(mask_or_pred)
    return _select("partition", _sluice._partition, x, mask, pred, out, False, None, False, algorithm, stream)


def partition_unordered(x, mask_or_pred, *, out=None, algorithm="best", stream=None):
    """As partition; the kept elements keep input order, the others come in any order."""
    mask, pred = _mask_or_pred(mask_or_pred)
    return _select("partition_unordered", _sluice._partition, x, mask, pred, out, True, None, False, algorithm, stream)


def partition_async(x, mask_or_pred, *, out=None, count=None, algorithm="best", stream=None):
    """partition without waiting: (out, count), count a 1-element array on x's device."""
    mask, pred = _mask_or_pred(mask_or_pred)
    return _select("partition_async", _sluice._partition, x, mask, pred, out, False, count, True, algorithm, stream)


def partition_unordered_async(x, mask_or_pred, *, out=None, count=None, algorithm="best", stream=None):
    """partition_unordered without waiting: (out, count), count a 1-element array on x's device."""
    mask, pred = _mask_or_pred(mask_or_pred)
    return _select("partition_unordered_async", _sluice._partition, x, mask, pred, out, True, count, True, algorithm, stream)


# sorting -----------------------------------------------------------------------------------------------------

def _bits(fn, bits):
    if bits is None:
        return 0, -1
    try:
        begin, end = bits
        return int(begin), int(end)
    except (TypeError, ValueError):
        raise ValueError(f"sluice.{fn}: bits={bits!r}: expected (begin, end)") from None


def radix_sort(keys, values=None, *, descending=False, bits=None, inplace=False, algorithm="best", stream=None):
    """Sorted keys, or (keys, values) with the values following their keys; stable. bits=(begin, end) sorts
    by those bits of the key's order-preserving image. inplace=True sorts the given arrays, else copies."""
    begin, end = _bits("radix_sort", bits)
    lib, s, scratch, producer = _setting(keys, stream)
    if not inplace:  # the arrays as given are checked, not their copies
        _sluice._describe(_raw(keys, producer), "radix_sort", "keys")
        keys = _arrays.copy(keys, lib)
        if values is not None:
            _sluice._describe(_raw(values, producer), "radix_sort", "values")
            values = _arrays.copy(values, _arrays.library(values))
    _sluice._radix_sort("radix_sort", _raw(keys, producer), _raw(values, producer), None, bool(descending), begin, end, algorithm, s, scratch)
    return keys if values is None else (keys, values)


def segmented_radix_sort(keys, offsets, values=None, *, descending=False, bits=None, inplace=False, algorithm="best", stream=None):
    """Each segment [offsets[s], offsets[s+1]) of keys sorted on its own, stably, or (keys, values) with the values
    following their keys (offsets: uint64 or int64, non-decreasing, at most len(keys)); keys outside every segment
    stay where they are. bits and inplace as radix_sort's."""
    begin, end = _bits("segmented_radix_sort", bits)
    lib, s, scratch, producer = _setting(keys, stream)
    if not inplace:
        _sluice._describe(_raw(keys, producer), "segmented_radix_sort", "keys")
        keys = _arrays.copy(keys, lib)
        if values is not None:
            _sluice._describe(_raw(values, producer), "segmented_radix_sort", "values")
            values = _arrays.copy(values, _arrays.library(values))
    _sluice._radix_sort("segmented_radix_sort", _raw(keys, producer), _raw(values, producer), _raw(offsets, producer), bool(descending), begin,
                        end, algorithm, s, scratch)
    return keys if values is None else (keys, values)


def argsort(keys, *, descending=False, bits=None, algorithm="best", stream=None):
    """The stable sorting permutation of keys, int64, on keys' device."""
    begin, end = _bits("argsort", bits)
    lib, s, scratch, producer = _setting(keys, stream)
    n = _sluice._describe(_raw(keys, producer), "argsort", "keys")[0]
    k = _arrays.copy(keys, lib)
    order = _arrays.arange(keys, lib, n)
    _sluice._radix_sort("argsort", _raw(k, producer), _raw(order, producer), None, bool(descending), begin, end, algorithm, s, scratch)
    return order


# runs of equal elements (CPU) ----------------------------------------------------------------------------------

def unique(x, *, out=None, algorithm="best", stream=None):
    """The first element of each run of equal elements (==: NaN is a run of its own), in order: out[:count]."""
    lib, s, scratch, producer = _setting(x, stream)
    if out is None:
        out = _arrays.empty(x, lib, _arrays.length(x, lib, "unique"))
    n = _sluice._unique("unique", _raw(x, producer), None, _raw(out, producer), None, None, algorithm, s, scratch)
    return out[:n]


def unique_by_key(keys, values, *, out_keys=None, out_values=None, algorithm="best", stream=None):
    """(keys, values): each run of equal keys' first key and the value beside it, in order."""
    lib, s, scratch, producer = _setting(keys, stream)
    n = _arrays.length(keys, lib, "unique_by_key", "keys")
    if out_keys is None:
        out_keys = _arrays.empty(keys, lib, n)
    if out_values is None:
        vlib = _arrays.library(values)
        out_values = _arrays.empty(values, vlib, _arrays.length(values, vlib, "unique_by_key", "values"))
    k = _sluice._unique("unique_by_key", _raw(keys, producer), _raw(values, producer), _raw(out_keys, producer),
                        _raw(out_values, producer), None, algorithm, s, scratch)
    return out_keys[:k], out_values[:k]


def run_length_encode(x, *, out_unique=None, out_counts=None, algorithm="best", stream=None):
    """(values, counts): each run's element and its length (uint64; int64 for PyTorch), in order."""
    lib, s, scratch, producer = _setting(x, stream)
    n = _arrays.length(x, lib, "run_length_encode")
    if out_unique is None:
        out_unique = _arrays.empty(x, lib, n)
    if out_counts is None:
        out_counts = _arrays.empty(x, lib, n, _arrays._COUNT)
    k = _sluice._runs("run_length_encode", _raw(x, producer), False, _raw(out_unique, producer), _raw(out_counts, producer),
                      None, algorithm, s, scratch)
    return out_unique[:k], out_counts[:k]


def non_trivial_runs(x, *, out_offsets=None, out_lengths=None, algorithm="best", stream=None):
    """(offsets, lengths) of the runs longer than one element (uint64; int64 for PyTorch), in order."""
    lib, s, scratch, producer = _setting(x, stream)
    n = _arrays.length(x, lib, "non_trivial_runs")
    if out_offsets is None:
        out_offsets = _arrays.empty(x, lib, n // 2, _arrays._COUNT)
    if out_lengths is None:
        out_lengths = _arrays.empty(x, lib, n // 2, _arrays._COUNT)
    k = _sluice._runs("non_trivial_runs", _raw(x, producer), True, _raw(out_offsets, producer), _raw(out_lengths, producer),
                      None, algorithm, s, scratch)
    return out_offsets[:k], out_lengths[:k]


# by key and segmented (CPU) ------------------------------------------------------------------------------------

def reduce_by_key(keys, values, *, op="sum", out_keys=None, out_values=None, algorithm="best", stream=None):
    """(keys, values): each run of equal keys' first key and the op-fold of its values (no init), in order.
    op: "sum", "product", "min" or "max"."""
    lib, s, scratch, producer = _setting(keys, stream)
    n = _arrays.length(keys, lib, "reduce_by_key", "keys")
    if out_keys is None:
        out_keys = _arrays.empty(keys, lib, n)
    if out_values is None:
        vlib = _arrays.library(values)
        out_values = _arrays.empty(values, vlib, _arrays.length(values, vlib, "reduce_by_key", "values"))
    k = _sluice._reduce_by_key("reduce_by_key", _raw(keys, producer), _raw(values, producer), _raw(out_keys, producer),
                               _raw(out_values, producer), op, algorithm, s, scratch)
    return out_keys[:k], out_values[:k]


def inclusive_scan_by_key(keys, values, *, op="sum", out=None, algorithm="best", stream=None):
    """The inclusive scan of values restarted at each run of equal keys; out may be values. Returns out."""
    lib, s, scratch, producer = _setting(keys, stream)
    if out is None:
        vlib = _arrays.library(values)
        out = _arrays.empty(values, vlib, _arrays.length(values, vlib, "inclusive_scan_by_key", "values"))
    _sluice._scan_by_key("inclusive_scan_by_key", _raw(keys, producer), _raw(values, producer), _raw(out, producer), True, op, None,
                         algorithm, s, scratch)
    return out


def exclusive_scan_by_key(keys, values, *, op="sum", init=None, out=None, algorithm="best", stream=None):
    """The exclusive scan of values restarted at each run of equal keys, each run's first element init (the
    op's identity by default); out may be values. Returns out."""
    lib, s, scratch, producer = _setting(keys, stream)
    if out is None:
        vlib = _arrays.library(values)
        out = _arrays.empty(values, vlib, _arrays.length(values, vlib, "exclusive_scan_by_key", "values"))
    _sluice._scan_by_key("exclusive_scan_by_key", _raw(keys, producer), _raw(values, producer), _raw(out, producer), False, op, init,
                         algorithm, s, scratch)
    return out


def segmented_reduce(values, offsets, *, op="sum", init=None, out=None, algorithm="best", stream=None):
    """out[s] = init op values[offsets[s]] op ... op values[offsets[s+1]-1] for the len(offsets) - 1 segments
    (offsets: uint64 or int64, non-decreasing, at most len(values)); init the op's identity by default."""
    lib, s, scratch, producer = _setting(values, stream)
    if out is None:
        olib = _arrays.library(offsets)
        out = _arrays.empty(values, lib, max(_arrays.length(offsets, olib, "segmented_reduce", "offsets") - 1, 0))
    _sluice._segmented("segmented_reduce", _raw(values, producer), _raw(offsets, producer), _raw(out, producer), False, False, op, init,
                       algorithm, s, scratch)
    return out


def segmented_inclusive_scan(values, offsets, *, op="sum", out=None, algorithm="best", stream=None):
    """The inclusive scan of each segment [offsets[s], offsets[s+1]) at the same positions of out; out's
    elements outside every segment are left as they are (out defaults to a copy of values); out may be values."""
    lib, s, scratch, producer = _setting(values, stream)
    if out is None:
        out = _arrays.copy(values, lib)
    _sluice._segmented("segmented_inclusive_scan", _raw(values, producer), _raw(offsets, producer), _raw(out, producer), True, True, op,
                       None, algorithm, s, scratch)
    return out


def segmented_exclusive_scan(values, offsets, *, op="sum", init=None, out=None, algorithm="best", stream=None):
    """The exclusive scan of each segment from init (the op's identity by default), as segmented_inclusive_scan."""
    lib, s, scratch, producer = _setting(values, stream)
    if out is None:
        out = _arrays.copy(values, lib)
    _sluice._segmented("segmented_exclusive_scan", _raw(values, producer), _raw(offsets, producer), _raw(out, producer), True, False, op,
                       init, algorithm, s, scratch)
    return out


# the k-way split (CPU) -----------------------------------------------------------------------------------------

def split(x, *, shift=0, bits=8, out=None, offsets=None, algorithm="best", stream=None):
    """(out, offsets): x's elements grouped by bits [shift, shift + bits) of their order-preserving image (as
    radix_sort reads keys), bucket 0 first, each bucket in input order; offsets (2^bits + 1 entries, uint64 or
    int64) where each bucket starts, the last one len(x). bits in [1, 8]."""
    lib, s, scratch, producer = _setting(x, stream)
    n = _arrays.length(x, lib, "split")
    if out is None:
        out = _arrays.empty(x, lib, n)
    if offsets is None:
        offsets = _arrays.empty(x, lib, (1 << int(bits)) + 1 if 1 <= int(bits) <= 8 else 0, _arrays._COUNT)
    _sluice._split("split", _raw(x, producer), int(shift), int(bits), _raw(out, producer), _raw(offsets, producer), algorithm, s, scratch)
    return out, offsets


def top_k(x, k, *, largest=True, sorted=True, indices=True, out=None, out_indices=None, algorithm="best", stream=None):
    """(values, indices) as torch.topk gives them: the k largest (largest=True) or smallest elements of x, the
    largest (smallest) first when sorted, else in input order; ties go to the lower position. indices (int64, or
    out_indices' uint64/int64) their positions in x; indices=False returns values alone. Floats are ordered as
    radix_sort orders them: -0.0 < +0.0, a positive NaN above +inf. CPU only for now."""
    try:
        k = _operator.index(k)
    except TypeError:
        raise TypeError(f"sluice.top_k: k={k!r}: expected an int") from None
    lib, s, scratch, producer = _setting(x, stream)
    n = _arrays.length(x, lib, "top_k")
    if k < 0 or k > n:
        raise ValueError(f"sluice.top_k: k={k}: must be in [0, {n}] (x holds {n} elements)")
    if out is None:
        out = _arrays.empty(x, lib, k)
    if indices and out_indices is None:
        out_indices = _arrays.empty(x, lib, k, _arrays._INDEX)
    _sluice._top_k("top_k", _raw(x, producer), k, bool(largest), bool(sorted), _raw(out, producer),
                   _raw(out_indices, producer) if indices else None, algorithm, s, scratch)
    return (out[:k], out_indices[:k]) if indices else out[:k]


# the registry ------------------------------------------------------------------------------------------------

_PRIMITIVES = ("reduce", "scan", "compact", "compact_unordered", "partition", "partition_unordered", "radix_sort", "unique",
               "run_length_encode", "reduce_by_key", "scan_by_key", "segmented_reduce", "segmented_scan", "split", "top_k",
               "segmented_radix_sort")


def list_algorithms(primitive=None):
    """The algorithms of `sluice list`: dicts with primitive, name, devices, default_on, stable, summary, params."""
    if primitive is not None and primitive not in _PRIMITIVES:
        raise ValueError(f"sluice.list_algorithms: primitive={primitive!r}: expected one of {', '.join(_PRIMITIVES)}")
    return [a for a in _sluice._algorithms() if primitive is None or a["primitive"] == primitive]
