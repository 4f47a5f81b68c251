"""An allowlist unpickler for Paddle checkpoints: it runs nothing the file asks for beyond
:mod:`.allowlist`, and in shape mode it steps over array data instead of reading it.

Built on the standard library's pure-Python unpickler (``pickle._Unpickler``, the reference the C
one mirrors) so that single opcodes can be replaced: the ones that construct arbitrary objects
(INST, OBJ, NEWOBJ, EXT*, PERSID) are refused outright, REDUCE calls only allowlisted callables,
BUILD sets state only on arrays and dtypes, and, in shape mode, long BINBYTES / BINUNICODE
payloads outside a frame are skipped with a seek (protocol 4 writes every large payload outside
frames), so inspecting a 1 GB file reads little more than its keys.

Budgets (a file of N bytes costs a small multiple of N, never more): every declared length
(BINBYTES8, BINUNICODE8, BYTEARRAY8, LONG4, BINSTRING, FRAME) is checked against the bytes left
in the file before anything is allocated, and the loaded object graph is walked once (shared
references counted as often as they are reached, as ``repr`` would): nesting deeper than
:data:`MAX_DEPTH` or more than :data:`MAX_EXPANDED` + N reachable items (a "billion laughs" of
memo references) is refused. :mod:`.budget` has the walk.
"""

from __future__ import annotations

import io
import os
import pickle
import struct
from typing import Any, BinaryIO

from ..errors import CheckpointError, UnsafeCheckpointError
from . import allowlist, budget

SKIP_AT_LEAST = 1 << 16  # payloads this long are data, never keys; shorter ones are just read

_REFUSED_OPCODES = {
    pickle.INST: "INST", pickle.OBJ: "OBJ", pickle.NEWOBJ: "NEWOBJ", pickle.NEWOBJ_EX: "NEWOBJ_EX",
    pickle.EXT1: "EXT1", pickle.EXT2: "EXT2", pickle.EXT4: "EXT4",
    pickle.PERSID: "PERSID", pickle.BINPERSID: "BINPERSID",
}


def _refuse(name: str):
    def load(self: _AllowlistUnpickler) -> None:
        raise UnsafeCheckpointError(f"refused: pickle opcode {name} (Paddle checkpoints never use it)")

    return load


class _AllowlistUnpickler(pickle._Unpickler):  # type: ignore[name-defined]
    dispatch = dict(pickle._Unpickler.dispatch)  # type: ignore[attr-defined]

    def __init__(self, file: BinaryIO, table: dict, skip_data: bool):
        self._size = _size_of(file)
        super().__init__(budget.BoundedReader(file, self._size), encoding="latin1")
        self._raw, self._table, self._skip = file, table, skip_data
        self._callables = {id(obj) for obj in table.values()}
        self._buildable = allowlist.buildable(table)

    def find_class(self, module: str, name: str) -> Any:
        try:
            return self._table[(module, name)]
        except KeyError:
            raise UnsafeCheckpointError(f"refused: the pickle asks for the global {module}.{name}, "
                                        "which Paddle checkpoints never need") from None

    def load_reduce(self) -> None:
        args = self.stack.pop()
        func = self.stack[-1]
        if id(func) not in self._callables or not isinstance(args, tuple):
            raise UnsafeCheckpointError(f"refused: REDUCE on {type(func).__name__}, not an allowlisted global")
        self.stack[-1] = self._vet(func(*args))

    def load_build(self) -> None:
        if not isinstance(self.stack[-2] if len(self.stack) > 1 else None, self._buildable):
            raise UnsafeCheckpointError(f"refused: BUILD on {type(self.stack[-2]).__name__} "
                                        "(only arrays and dtypes take state)")
        state = self.stack.pop()
        self.stack[-1].__setstate__(state)
        self._vet(self.stack[-1])

    def _vet(self, obj: Any) -> Any:
        """Refuse object dtypes (they hold pickled objects) and arrays larger than the file."""
        dtype = getattr(obj, "dtype", obj)
        if getattr(dtype, "hasobject", False):
            raise UnsafeCheckpointError("refused: a numpy object array or dtype (it holds arbitrary pickled "
                                        "objects; Paddle checkpoints never do)")
        nbytes = getattr(obj, "nbytes", None)
        if isinstance(nbytes, int) and self._size is not None and nbytes > self._size:
            raise CheckpointError(f"corrupt checkpoint: an array declares {nbytes:,} bytes, more than the "
                                  f"whole file ({self._size:,} bytes)")
        return obj

    def _frame_left(self) -> int | None:
        frame = self._unframer.current_frame
        if frame is None or frame.tell() >= len(frame.getbuffer()):
            return None
        return len(frame.getbuffer()) - frame.tell()

    def _left(self) -> int | None:
        """Bytes the next read can get: the rest of the current frame, else the rest of the file."""
        in_frame = self._frame_left()
        if in_frame is not None:
            return in_frame
        return None if self._size is None else self._size - self._raw.tell()

    def _payload(self, size: int, kind: type) -> Any:
        """Step over ``size`` bytes of data when it is safe to, else read them."""
        budget.check_length(size, self._left(), "a payload")  # before allocating it
        in_frame = self._frame_left() is not None
        if not self._skip or self._size is None or size < SKIP_AT_LEAST or in_frame:
            data = self.read(size)
            if len(data) != size:
                raise EOFError("data ends early")
            return data if kind is allowlist.SkippedData else str(data, "utf-8", "surrogatepass")
        self._unframer.current_frame = None
        end = self._raw.seek(size, os.SEEK_CUR)
        if end > self._size:
            raise EOFError("data ends early")
        return kind(size)

    def load_binbytes(self) -> None:
        (size,) = struct.unpack("<I", self.read(4))
        self.append(self._payload(size, allowlist.SkippedData))

    def load_binbytes8(self) -> None:
        (size,) = struct.unpack("<Q", self.read(8))
        self.append(self._payload(size, allowlist.SkippedData))

    def load_binunicode(self) -> None:
        (size,) = struct.unpack("<I", self.read(4))
        self.append(self._payload(size, allowlist.SkippedText))

    def load_binunicode8(self) -> None:
        (size,) = struct.unpack("<Q", self.read(8))
        self.append(self._payload(size, allowlist.SkippedText))

    def load_bytearray8(self) -> None:
        (size,) = struct.unpack("<Q", self.read(8))
        budget.check_length(size, self._left(), "BYTEARRAY8")  # before bytearray(size)
        data = self.read(size)
        if len(data) != size:
            raise EOFError("data ends early")
        self.append(bytearray(data))

    dispatch[pickle.REDUCE[0]] = load_reduce
    dispatch[pickle.BYTEARRAY8[0]] = load_bytearray8
    dispatch[pickle.BUILD[0]] = load_build
    dispatch[pickle.BINBYTES[0]] = load_binbytes
    dispatch[pickle.BINBYTES8[0]] = load_binbytes8
    dispatch[pickle.BINUNICODE[0]] = load_binunicode
    dispatch[pickle.BINUNICODE8[0]] = load_binunicode8
    for _code, _name in _REFUSED_OPCODES.items():
        dispatch[_code[0]] = _refuse(_name)


def _size_of(file: BinaryIO) -> int | None:
    try:
        here = file.tell()
        end = file.seek(0, os.SEEK_END)
        file.seek(here)
        return end
    except (OSError, AttributeError, io.UnsupportedOperation):
        return None  # not seekable: read everything


def _kind_of(head: bytes) -> str:
    try:
        text = head[:256].decode("utf-8")
    except UnicodeDecodeError:
        return "it starts with other binary data"
    return "it starts with text" if text.isprintable() or text.strip() else "it starts with other binary data"


def pickle_protocol(head: bytes) -> int:
    """The protocol of a pickle from its first bytes; raises CheckpointError if it is not one Paddle writes."""
    if not head:
        raise CheckpointError("not a checkpoint: the file is empty (0 bytes)")
    if head[0] != pickle.PROTO[0] or len(head) < 2:
        # The file's bytes are not echoed: it may be any file (a key, a password list).
        raise CheckpointError(f"not a checkpoint: no pickle header ({_kind_of(head)}); Paddle writes pickle "
                              "protocols 2-4")
    if not 2 <= head[1] <= 5:
        raise CheckpointError(f"not a checkpoint: pickle protocol {head[1]} (Paddle writes 2-4)")
    return head[1]


_CODE_OPCODES = {"GLOBAL", "STACK_GLOBAL", "INST", "OBJ", "REDUCE", "NEWOBJ", "NEWOBJ_EX", "BUILD"}
OLD_PICKLE_SCAN = 1 << 16  # protocols 0-1 have no header; the first 64 KiB tell a pickle from text


def refuse_old_pickle(head: bytes) -> None:
    """A protocol 0-1 pickle (no PROTO header) that would run code is unsafe, not "not a checkpoint".

    Its opcodes are listed (``pickletools.genops`` parses, runs nothing); it counts as a pickle when
    the listing reaches STOP, or names a global ``module name`` before the 64 KiB run out (text
    such as "hello" parses as a few opcodes, then fails)."""
    import pickletools

    first = None
    try:
        for opcode, arg, _ in pickletools.genops(head):
            if opcode.name in ("GLOBAL", "INST") and isinstance(arg, str) and _is_global(arg):
                first = first or f"{opcode.name} {arg.replace(' ', '.')}"
                break
            if opcode.name in _CODE_OPCODES and first is None:
                first = opcode.name
    except (ValueError, UnicodeDecodeError, IndexError, KeyError, TypeError):
        if not (first or "").startswith(("GLOBAL ", "INST ")):
            return  # not a pickle: the caller says "not a checkpoint"
    if first:
        raise UnsafeCheckpointError(f"refused: a protocol 0-1 pickle (Paddle writes 2-4) with {first[:80]}, "
                                    "which runs code under pickle.load")


def _is_global(arg: str) -> bool:
    module, _, name = arg.partition(" ")
    return all(part.isidentifier() for part in module.split(".")) and name.replace(".", "_").isidentifier()


def load(file: BinaryIO, *, arrays: bool) -> Any:
    """Unpickle ``file`` with the allowlist: stand-ins with shapes only, or real numpy arrays.

    Raises :class:`UnsafeCheckpointError` for anything outside the allowlist and
    :class:`CheckpointError` for a file that is empty, truncated or not a pickle.
    """
    head = file.read(2)
    pickle_protocol(head)
    file.seek(-len(head), os.SEEK_CUR)
    table = allowlist.array_globals() if arrays else allowlist.shape_globals()
    try:
        unpickler = _AllowlistUnpickler(file, table, skip_data=not arrays)
        obj = unpickler.load()
        budget.check_graph(obj, unpickler._size or 0)
        return obj
    except CheckpointError:
        raise
    except (EOFError, pickle.UnpicklingError) as exc:
        if isinstance(exc, EOFError) or "exhausted" in str(exc) or "truncated" in str(exc):
            raise CheckpointError("corrupt checkpoint: the file ends early (truncated? a copy or a save "
                                  "that did not finish)") from None
        raise CheckpointError(f"corrupt checkpoint: {exc}") from None
    except ( struct.error, ValueError, TypeError, KeyError, IndexError,
            AttributeError, UnicodeDecodeError, OverflowError, MemoryError, RecursionError) as exc:
        raise CheckpointError(f"corrupt checkpoint: {type(exc).__name__}: {exc}") from None
