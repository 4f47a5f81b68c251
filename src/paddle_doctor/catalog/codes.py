"""What an error code says about the cause, read from ``codes.toml``: the enumerators of the CUDA,
NCCL, cuDNN and cuBLAS headers, errno values and signals, each mapped to a cause id or
deliberately to none.

The numbers of the enumerators (generated from the headers) stay with the parser in
``paddle_doctor.diagnose.anatomy``; the mapping of a code to a cause is the catalog's. Parsed and
checked the first time diagnose meets a code or a signal.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .ids import CauseId
from .load import DATA_DIR, CatalogError, cause_id, fields, number_key, read_toml, string_list, table

CODES_FILE = DATA_DIR / "codes.toml"
ENUMS = ("cudaError_t", "ncclResult_t", "cudnnStatus_t", "cublasStatus_t", "cusolverStatus_t")
NO_CAUSE = "none"  # the key of an enum's names that deliberately name no cause
_NUMBERED = {"name": str}
_OPTIONAL = {"cause": str, "note": str}


@dataclass(frozen=True)
class NumberedCode:
    """An errno value or a signal: its number, its name, the cause it points to (or None), a note."""

    number: int
    name: str
    cause: CauseId | None
    note: str = ""


@dataclass(frozen=True)
class CodeTables:
    enums: Mapping[str, Mapping[str, CauseId | None]]  # enum -> enumerator name -> cause
    generic: Mapping[str, CauseId]  # enum -> the cause of a code that names none of its own
    errno: Mapping[int, NumberedCode]
    signal: Mapping[int, NumberedCode]
    lone: Mapping[str, CauseId | None] = dataclasses.field(default_factory=dict)  # name -> see lone_cause
    ntstatus: Mapping[int, NumberedCode] = dataclasses.field(default_factory=dict)  # Windows' crash statuses
    unsure: frozenset[str] = frozenset()  # names whose generic verdict is at most medium (see unsure_code)


_TABLES = (*ENUMS, "generic", "errno", "signal")
_OPTIONAL_TABLES = ("lone", "ntstatus", "unsure")


def load_codes(path: Path = CODES_FILE) -> CodeTables:
    data = read_toml(path)
    unknown = sorted(set(data) - set(_TABLES) - set(_OPTIONAL_TABLES))
    if unknown:
        raise CatalogError(f"{path.name}: unknown table [{unknown[0]}] (allowed: {', '.join(_TABLES)})")
    missing = [name for name in _TABLES if name not in data]
    if missing:
        raise CatalogError(f"{path.name}: missing table [{missing[0]}]")
    generic = fields(data["generic"], f"{path.name}: [generic]", dict.fromkeys(ENUMS, str))
    enums = {enum: _enum(data[enum], f"{path.name}: [{enum}]") for enum in ENUMS}
    return CodeTables(enums=enums,
                      generic={enum: cause_id(generic[enum], f"{path.name}: [generic] {enum}") for enum in ENUMS},
                      errno=_numbered(data["errno"], f"{path.name}: [errno]"),
                      signal=_numbered(data["signal"], f"{path.name}: [signal]"),
                      lone=_enum(data.get("lone", {}), f"{path.name}: [lone]"),
                      ntstatus=_numbered(data.get("ntstatus", {}), f"{path.name}: [ntstatus]"),
                      unsure=_unsure(data.get("unsure", {}), enums, f"{path.name}: [unsure]"))


def _unsure(value: object, enums: Mapping[str, Mapping[str, CauseId | None]], where: str) -> frozenset[str]:
    """The ``names`` of ``[unsure]``, each an enumerator some enum table lists."""
    names = string_list(table(value, where).get("names", []), f"{where} names")
    stray = sorted(set(names).difference(*enums.values()))
    if stray:
        raise CatalogError(f"{where}: {stray[0]} is no enumerator of {', '.join(ENUMS)}")
    return frozenset(names)


def _enum(value: object, where: str) -> dict[str, CauseId | None]:
    """``{cause: [name, ...]}`` -> ``{name: cause}``; a name listed under two causes is refused."""
    out: dict[str, CauseId | None] = {}
    for key, names in table(value, where).items():
        cause = None if key == NO_CAUSE else cause_id(key, f"{where} {key}")
        for name in string_list(names, f"{where} {key}"):
            if name in out:
                raise CatalogError(f"{where}: {name} is listed twice")
            out[name] = cause
    return out


def _numbered(value: object, where: str) -> dict[int, NumberedCode]:
    out = {}
    for key, entry in table(value, where).items():
        at = f"{where} {key}"
        number = number_key(key, at)
        row = fields(entry, at, _NUMBERED, _OPTIONAL)
        cause = cause_id(row["cause"], f"{at} cause") if "cause" in row else None
        out[number] = NumberedCode(number, row["name"], cause, row.get("note", ""))
    return out


@functools.lru_cache(maxsize=1)
def code_tables() -> CodeTables:
    return load_codes()


def enum_causes(enum: str) -> Mapping[str, CauseId | None]:
    """``{enumerator name: cause or None}`` for one of :data:`ENUMS`."""
    return code_tables().enums[enum]


def generic_cause(enum: str) -> CauseId:
    """The cause of a code of ``enum`` that names none of its own (its library's generic id)."""
    return code_tables().generic[enum]


def lone_cause(name: str) -> CauseId | None:
    """The cause of the code ``name`` (one that names none of its own) when no other library's code
    is in its error (codes.toml's ``[lone]``), or None: then the generic id stands."""
    return code_tables().lone.get(name)


def unsure_code(name: str) -> bool:
    """Whether the generic verdict of the code ``name`` is at most medium (codes.toml's ``[unsure]``)."""
    return name in code_tables().unsure


def errno_cause(number: int | None) -> CauseId | None:
    code = code_tables().errno.get(number) if number is not None else None
    return code.cause if code else None


def signal_of(number: int) -> NumberedCode | None:
    """What the catalog knows of signal ``number`` (a launcher's exit code -N is signal N)."""
    return code_tables().signal.get(number)


def exit_status_of(code: int) -> NumberedCode | None:
    """What a process's exit code says of its end: -N is signal N (Popen.returncode on POSIX); a Windows
    status (codes.toml's ``[ntstatus]``, unsigned, or signed as some consoles print it) is the native fault
    Windows ended it with. None for an ordinary exit code."""
    status = code_tables().ntstatus.get(code & 0xFFFFFFFF)
    if status is not None:
        return status
    return signal_of(-code) if code < 0 else None
