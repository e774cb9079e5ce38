"""The caller's array library, as sluice uses it: new arrays made by that library on the input's device, the
library's current stream, and its allocator for scratch memory."""

import numpy as np

from . import _sluice


RAW = object()  # marks the descriptors of raw() for the compiled module

_TORCH_KINDS = {}  # torch dtype -> (kind, bytes), made at the first tensor


def _torch_kind(dtype):
    if not _TORCH_KINDS:
        torch = _torch()
        for name, kind in (("bool", ("b", 1)), ("uint8", ("u", 1)), ("int8", ("i", 1)), ("int16", ("i", 2)),
                           ("int32", ("i", 4)), ("int64", ("i", 8)), ("float16", ("f", 2)), ("bfloat16", ("B", 2)),
                           ("float32", ("f", 4)), ("float64", ("f", 8)), ("complex64", ("c", 8)),
                           ("complex128", ("c", 16)), ("uint16", ("u", 2)), ("uint32", ("u", 4)), ("uint64", ("u", 8))):
            if hasattr(torch, name):
                _TORCH_KINDS[getattr(torch, name)] = kind
    return _TORCH_KINDS.get(dtype)


def raw(a, lib, producer):
    """a as the compiled module reads it fastest: PyTorch tensors and CuPy arrays by their attributes (a
    DLPack export costs several microseconds a call), anything else as it is. `producer`: the stream the
    library orders its work on (the call waits for it where it runs on another)."""
    if lib == "torch" and a is not None:
        if a.dim() != 1 or (a.stride(0) != 1 and a.numel() > 1) or a.is_conj() or a.is_neg():
            return plain(a)  # the compiled module's checks and errors
        kind = _torch_kind(a.dtype)
        if kind is None:
            return a
        cuda = a.is_cuda
        return (RAW, a.data_ptr(), a.numel(), kind[0], kind[1], cuda, a.get_device() if cuda else 0, True,
                producer if cuda else 0, a)
    if lib == "cupy" and a is not None:
        if a.ndim != 1 or (a.strides[0] != a.itemsize and a.size > 1):
            return a
        d = a.dtype
        return (RAW, a.data.ptr, a.size, d.kind, d.itemsize, True, a.device.id, True, producer, a)
    return plain(a)


def library(x):
    """'numpy', 'torch', 'cupy' or 'other'."""
    if isinstance(x, np.ndarray):
        return "numpy"
    root = type(x).__module__.partition(".")[0]
    return root if root in ("torch", "cupy") else "other"


def on_cuda(x, lib):
    if lib == "numpy":
        return False
    if lib == "torch":
        return x.is_cuda
    if lib == "cupy":
        return True
    return _sluice._describe(x, "sluice", "x")[1]


def length(x, lib, fn, arg="x"):
    """len(x) of a 1-D array: the checks the compiled module makes, before anything is allocated."""
    if lib in ("numpy", "torch", "cupy"):
        if x.ndim != 1:
            raise ValueError(f"sluice.{fn}: '{arg}' has {x.ndim} dimensions; sluice takes 1-D arrays (flatten it first)")
        return x.shape[0]
    return _sluice._describe(x, fn, arg)[0]


def plain(a):
    """a as the compiled module reads it: PyTorch's bool tensors as uint8 (the same memory; older PyTorch
    cannot export bool through DLPack)."""
    if a is not None and type(a).__module__.startswith("torch") and a.dtype is _torch().bool:
        return a.view(_torch().uint8)
    return a


def _cupy():
    import cupy

    return cupy


def _torch():
    import torch

    return torch


def _other_cuda_library():
    """Where an input's library cannot make arrays (Numba, JAX): results are CuPy arrays, else PyTorch tensors."""
    try:
        return "cupy", _cupy()
    except ImportError:
        pass
    try:
        return "torch", _torch()
    except ImportError:
        raise TypeError("sluice: results for this array type are made by CuPy or PyTorch; neither is installed (pass out=)") from None


_COUNT = object()  # the dtype of an _async form's count
_INDEX = object()  # argsort's int64


def empty(x, lib, n, dtype=None):
    """An uninitialised array of n elements of x's dtype (or _COUNT, _INDEX) on x's device, of x's library."""
    if lib == "numpy" or (lib == "other" and not on_cuda(x, lib)):
        d = np.uint64 if dtype is _COUNT else np.int64 if dtype is _INDEX else dtype or np.asarray(x).dtype
        return np.empty(n, dtype=d)
    if lib == "torch":
        torch = _torch()
        d = torch.int64 if dtype in (_COUNT, _INDEX) else dtype or x.dtype
        return torch.empty(n, dtype=d, device=x.device)
    if lib == "cupy":
        cupy = _cupy()
        d = np.uint64 if dtype is _COUNT else np.int64 if dtype is _INDEX else dtype or x.dtype
        with x.device:
            return cupy.empty(n, dtype=d)
    name, other = _other_cuda_library()
    device = _sluice._describe(x, "sluice", "x")[2]
    d = np.uint64 if dtype is _COUNT else np.int64 if dtype is _INDEX else np.dtype(x.dtype)
    if name == "cupy":
        with other.cuda.Device(device):
            return other.empty(n, dtype=d)
    return other.empty(n, dtype=getattr(other, np.dtype(d).name), device=f"cuda:{device}")


def copy(x, lib):
    """A copy of x by x's library (for sorting out of place)."""
    if lib == "torch":
        return x.clone()
    if lib in ("numpy", "cupy"):
        return x.copy()
    if not on_cuda(x, lib):
        return np.array(x, copy=True)
    name, other = _other_cuda_library()
    return other.asarray(x).copy() if name == "cupy" else other.from_dlpack(x).clone()


def arange(x, lib, n):
    """0, 1, ... n-1 as int64 on x's device, by x's library."""
    if lib == "torch":
        torch = _torch()
        return torch.arange(n, dtype=torch.int64, device=x.device)
    if lib == "cupy":
        with x.device:
            return _cupy().arange(n, dtype=np.int64)
    if lib == "numpy" or not on_cuda(x, lib):
        return np.arange(n, dtype=np.int64)
    name, other = _other_cuda_library()
    device = _sluice._describe(x, "sluice", "x")[2]
    if name == "cupy":
        with other.cuda.Device(device):
            return other.arange(n, dtype=np.int64)
    return other.arange(n, dtype=other.int64, device=f"cuda:{device}")


def stream_of(x, lib, stream):
    """The cudaStream_t (an int) a call on x runs on: stream= as given, else the library's current stream."""
    if stream is not None:
        if isinstance(stream, int):
            return stream
        if hasattr(stream, "__cuda_stream__"):
            return int(stream.__cuda_stream__()[1])
        if hasattr(stream, "cuda_stream"):  # torch.cuda.Stream
            return int(stream.cuda_stream)
        if hasattr(stream, "ptr"):  # cupy.cuda.Stream
            return int(stream.ptr)
        raise TypeError(f"sluice: stream={stream!r}: expected a torch.cuda.Stream, a cupy.cuda.Stream, an object with "
                        "__cuda_stream__ or a cudaStream_t as an int")
    return current_stream(x, lib)


def current_stream(x, lib):
    """The library's current stream on x's device (an int; 0 for host arrays and other libraries)."""
    if lib == "torch" and x.is_cuda:
        torch = _torch()
        fast = getattr(torch._C, "_cuda_getCurrentRawStream", None)  # an int, without making a Stream object
        return fast(x.get_device()) if fast else torch.cuda.current_stream(x.device).cuda_stream
    if lib == "cupy":
        return _cupy().cuda.get_current_stream().ptr
    return 0


def scratch_for(x, lib, stream):
    """(allocate(nbytes) -> pointer, free(pointer)) from the caller's allocator, or None for sluice's own pool."""
    if lib == "torch" and x.is_cuda:
        torch = _torch()
        # The caching allocator's own entry points (the call has made x's device current); the public
        # wrappers cost a device switch each.
        alloc = getattr(torch._C, "_cuda_cudaCachingAllocator_raw_alloc", None)
        free = getattr(torch._C, "_cuda_cudaCachingAllocator_raw_delete", None)
        if alloc and free:
            return (lambda n: alloc(n, stream), free)
        device = x.get_device()
        return (lambda n: torch.cuda.caching_allocator_alloc(n, device, stream), torch.cuda.caching_allocator_delete)
    if lib == "cupy":
        cupy = _cupy()
        held = {}
        current = cupy.cuda.get_current_stream().ptr == stream

        def allocate(n):
            if current:
                memory = cupy.cuda.alloc(n)
            else:
                with cupy.cuda.ExternalStream(stream):
                    memory = cupy.cuda.alloc(n)
            held[memory.ptr] = memory
            return memory.ptr

        return (allocate, held.pop)
    return None
