"""sluice.Error: what the library raises (the C++ sluice::error, with its code)."""


class Error(RuntimeError):
    """An error of the sluice library. ``code`` is the C++ ``errc`` name: ``"invalid_argument"``,
    ``"out_of_memory"``, ``"no_device"``, ``"cuda_error"``, ``"unsupported"``, ``"gl_error"`` or ``"comm_error"``."""

    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


class InvalidArgument(Error, ValueError):
    """An Error whose code is ``"invalid_argument"``: also a ValueError."""
