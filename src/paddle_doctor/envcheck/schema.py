"""The shape of an env report (``env --format json``), checked before ``env --compare`` reads one.

A small hand validator (the project has no jsonschema or pydantic dependency, and this is all it
needs): every field that ``compare`` reads must have its type, sections may be missing or null,
extra keys are allowed (newer versions add facts). :func:`load_report` also bounds what a file
may cost: its size, and JSON nesting deeper than a report ever has (a recursion bomb).
"""

from __future__ import annotations

import json
import os
from typing import Any

MAX_BYTES = 16 * 1024 * 1024  # a report is a few KiB
MAX_DEPTH = 16  # a report nests 4 deep
SCALAR = (str, int, float, bool, type(None))
TEXT = (str, type(None))

# path -> allowed types; "*" is every item of a list or every value of an object
FIELDS: tuple[tuple[tuple[str, ...], tuple[type, ...]], ...] = (
    (("schema",), (str,)),
    (("paddle",), (dict, type(None))),
    (("paddle", "version"), TEXT), (("paddle", "commit"), TEXT), (("paddle", "distribution"), TEXT),
    (("paddle", "compiled_with"), (dict, type(None))),
    (("paddle", "compiled_with", "nccl"), SCALAR), (("paddle", "compiled_with", "cuda"), SCALAR),
    (("paddle", "compiled_with", "cudnn"), SCALAR),
    (("libraries",), (dict, type(None))),
    (("libraries", "*"), (dict, type(None))), (("libraries", "*", "version"), SCALAR),
    (("gpu",), (dict, type(None))),
    (("gpu", "driver_version"), SCALAR), (("gpu", "driver_cuda_version"), SCALAR),
    (("gpu", "gpus"), (list, type(None))), (("gpu", "gpus", "*"), (dict,)), (("gpu", "gpus", "*", "name"), TEXT),
    (("system",), (dict, type(None))), (("system", "python"), (dict, type(None))),
    (("system", "python", "version"), TEXT),
    (("variables",), (dict, type(None))), (("variables", "*"), TEXT),
    (("network",), (dict, type(None))), (("network", "hostname"), TEXT),
    (("packages",), (dict, type(None))), (("packages", "*"), TEXT),
)


class ReportError(ValueError):
    """A file that is not an env report ``compare`` can read; the message is one line."""


def load_report(path: str) -> dict[str, Any]:
    """The report in ``path``, validated; :class:`ReportError` says why not."""
    try:
        if os.path.getsize(path) > MAX_BYTES:
            raise ReportError(f"{path} is over {MAX_BYTES // (1024 * 1024)} MiB: not an env report")
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
    except RecursionError:
        raise ReportError(f"{path}: JSON nested too deeply to be an env report") from None
    except (OSError, ValueError) as exc:
        if isinstance(exc, ReportError):
            raise
        raise ReportError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    validate(data, path)
    return data


def validate(data: Any, label: str) -> None:
    if not isinstance(data, dict) or not str(data.get("schema", "")).startswith("paddle_doctor.env/"):
        raise ReportError(f"{label} is not a report of `paddle-doctor env --format json`")
    depth = _depth(data)
    if depth > MAX_DEPTH:
        raise ReportError(f"{label}: JSON nested {depth} deep (an env report nests 4): not an env report")
    for path, types in FIELDS:
        for where, value in _values(data, path):
            if not isinstance(value, types):
                names = " or ".join("null" if t is type(None) else t.__name__ for t in types)
                raise ReportError(f"{label} is not a valid env report: {where} is {_kind(value)}, expected {names}")


def _values(data: Any, path: tuple[str, ...], where: str = ""):
    """(dotted place, value) of every value at ``path``; places that are absent are skipped."""
    if not path:
        yield where, data
        return
    head, rest = path[0], path[1:]
    if head == "*":
        items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
        for key, value in items:
            yield from _values(value, rest, f"{where}[{key!r}]" if isinstance(key, int) else f"{where}.{key}")
    elif isinstance(data, dict) and head in data:
        yield from _values(data[head], rest, f"{where}.{head}" if where else head)


def _depth(value: Any) -> int:
    stack, deepest = [(value, 1)], 0
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > MAX_DEPTH:
            return deepest
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _kind(value: Any) -> str:
    return "null" if value is None else f"a {type(value).__name__}" if not isinstance(value, (dict, list)) \
        else "an object" if isinstance(value, dict) else "a list"
