"""The only globals a checkpoint pickle may ask for: what Paddle's own ``paddle.save`` writes.

Two tables with the same names: ``shape_globals()`` answers with stand-ins that record shapes and
dtypes and keep no data (``ckpt inspect``), ``array_globals()`` with numpy itself (``strip``,
``load_clean``). Anything not named here is refused by the unpickler, with the name it asked for.
An allowlist, never a denylist: denylist scanners (picklescan, modelscan) are bypassed again and
again (as torch.load(weights_only=True) learned, it is an allowlist too).

What Paddle writes (paddle/framework/io.py, 2.x-3.3): a dict of numpy arrays
(``numpy.core.multiarray._reconstruct`` / ``numpy._core...`` since numpy 2, ``numpy.ndarray``,
``numpy.dtype``); protocol 2 encodes bytes as ``_codecs.encode(text, 'latin1')``; ``_pickle_save``
reduces a Tensor to ``builtins.tuple((name, array))`` and a DenseTensor to
``builtins.eval('data', {'data': array})``: we answer that one pattern without calling eval.
"""

from __future__ import annotations

import collections
import functools
from typing import Any, Callable

from ..errors import CheckpointError, UnsafeCheckpointError

_MULTIARRAY = ("numpy.core.multiarray", "numpy._core.multiarray")
_BUILTINS = ("builtins", "__builtin__")  # __builtin__: Python 2 era files

# numpy dtype codes -> names, for the stand-ins (numpy itself is not needed to inspect).
_DTYPE_NAMES = {
    "b1": "bool", "i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64",
    "u1": "uint8", "u2": "uint16", "u4": "uint32", "u8": "uint64",
    "f2": "float16", "f4": "float32", "f8": "float64", "c8": "complex64", "c16": "complex128",
}


class SkippedData:
    """Raw bytes the unpickler stepped over instead of reading (only their length is known)."""

    __slots__ = ("size",)

    def __init__(self, size: int | None):
        self.size = size


class SkippedText(SkippedData):
    """A long text (protocol 2's latin-1 form of array data) stepped over; ``size`` is UTF-8 bytes."""

    __slots__ = ()


class NdarrayMarker:
    """Stands for ``numpy.ndarray`` where numpy is not loaded."""


NDARRAY = NdarrayMarker()


class DTypeStub:
    __slots__ = ("code", "byteorder")

    def __init__(self, code: Any, align: Any = False, copy: Any = True):
        if not isinstance(code, str):
            raise CheckpointError(f"corrupt checkpoint: numpy.dtype({code!r}) is not a dtype code")
        if code.lstrip("|<>=").startswith("O"):
            raise UnsafeCheckpointError("refused: numpy object dtype (it holds arbitrary pickled objects; "
                                        "Paddle checkpoints never do)")
        self.code, self.byteorder = code, "="

    def __setstate__(self, state: Any) -> None:
        if isinstance(state, tuple) and len(state) >= 2 and isinstance(state[1], str):
            self.byteorder = state[1]

    @property
    def name(self) -> str:
        return _DTYPE_NAMES.get(self.code, self.code)

    @property
    def itemsize(self) -> int:
        digits = "".join(ch for ch in self.code if ch.isdigit())
        return int(digits) if digits else 0


class ArrayStub:
    """An array's shape and dtype, read from the pickle's BUILD state; the data is never kept."""

    __slots__ = ("shape", "dtype", "nbytes")

    def __init__(self) -> None:
        self.shape: tuple[int, ...] = ()
        self.dtype = "unknown"
        self.nbytes: int | None = None

    def __setstate__(self, state: Any) -> None:
        # numpy's ndarray.__reduce__ state: (version, shape, dtype, is_fortran, rawdata)
        if not (isinstance(state, tuple) and len(state) == 5 and isinstance(state[2], DTypeStub)):
            raise CheckpointError("corrupt checkpoint: an array's state is not numpy's (version, shape, dtype, ...)")
        shape = state[1]
        if not (isinstance(shape, tuple) and all(isinstance(n, int) and n >= 0 for n in shape)):
            raise CheckpointError(f"corrupt checkpoint: array shape {shape!r}")
        self.shape, self.dtype = shape, state[2].name
        expected = state[2].itemsize
        for n in shape:
            expected *= n
        stored = _stored_size(state[4])
        if stored is not None and expected and stored != expected:
            raise CheckpointError(f"corrupt checkpoint: an array of shape {list(shape)} {self.dtype} "
                                  f"holds {stored} bytes, expected {expected}")
        self.nbytes = expected or stored


def _stored_size(raw: Any) -> int | None:
    if isinstance(raw, (bytes, bytearray)):
        return len(raw)
    if isinstance(raw, SkippedText):
        return None  # UTF-8 length of latin-1 text: not the byte count
    if isinstance(raw, SkippedData):
        return raw.size
    return None


def _stub_reconstruct(cls: Any, shape: Any = (0,), typecode: Any = b"b") -> ArrayStub:
    if cls is not NDARRAY:
        raise UnsafeCheckpointError("refused: numpy _reconstruct of something other than numpy.ndarray")
    if not (isinstance(shape, tuple) and all(isinstance(n, int) and 0 <= n <= 1 for n in shape)):
        # numpy's own pickles say (0,) and set the real shape with BUILD; anything else is crafted
        raise CheckpointError(f"corrupt checkpoint: numpy _reconstruct with shape {str(shape)[:40]} "
                              "(numpy writes (0,))")
    return ArrayStub()


def codecs_encode(text: Any, encoding: Any = "utf-8") -> Any:
    """Protocol 2's spelling of bytes: ``_codecs.encode(text, 'latin1')``; nothing else."""
    if encoding not in ("latin1", "latin-1"):
        raise UnsafeCheckpointError(f"refused: _codecs.encode with encoding {encoding!r}")
    if isinstance(text, SkippedText):
        return SkippedData(None)
    if not isinstance(text, str):
        raise UnsafeCheckpointError("refused: _codecs.encode of a non-text value")
    return text.encode("latin1")


def paddle_eval(expression: Any, namespace: Any = None, *rest: Any) -> Any:
    """Paddle's DenseTensor reduce is ``eval('data', {'data': array})``: return the array, run nothing."""
    if expression == "data" and not rest and isinstance(namespace, dict) and set(namespace) == {"data"}:
        return namespace["data"]
    raise UnsafeCheckpointError(f"refused: builtins.eval({str(expression)[:60]!r}) (Paddle only writes eval('data', ...))")


def safe_tuple(items: Any = ()) -> tuple:
    if not isinstance(items, (tuple, list)):
        raise UnsafeCheckpointError("refused: builtins.tuple of a non-sequence")
    return tuple(items)


def _common() -> dict[tuple[str, str], Callable]:
    table: dict[tuple[str, str], Any] = {("_codecs", "encode"): codecs_encode,
                                         ("collections", "OrderedDict"): collections.OrderedDict}
    for mod in _BUILTINS:
        table[(mod, "eval")] = paddle_eval
        table[(mod, "tuple")] = safe_tuple
    return table


@functools.lru_cache(maxsize=1)
def shape_globals() -> dict[tuple[str, str], Any]:
    table = _common()
    table[("numpy", "ndarray")] = NDARRAY
    table[("numpy", "dtype")] = DTypeStub
    for mod in _MULTIARRAY:
        table[(mod, "_reconstruct")] = _stub_reconstruct
    return table


@functools.lru_cache(maxsize=1)
def array_globals() -> dict[tuple[str, str], Any]:
    import numpy as np  # only strip and load_clean need real arrays

    multiarray = np._core.multiarray if hasattr(np, "_core") else np.core.multiarray
    table = _common()
    table[("numpy", "ndarray")] = np.ndarray
    table[("numpy", "dtype")] = np.dtype
    for mod in _MULTIARRAY:
        table[(mod, "_reconstruct")] = multiarray._reconstruct  # no scalar: inspect refuses it too
    return table


def buildable(table: dict) -> tuple[type, ...]:
    """The types whose instances BUILD may give state to (arrays and dtypes, nothing else)."""
    if table is shape_globals():
        return (ArrayStub, DTypeStub)
    import numpy as np

    return (np.ndarray, np.dtype)
