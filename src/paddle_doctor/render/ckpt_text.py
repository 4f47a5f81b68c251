"""Plain-text rendering for ``paddle-doctor ckpt``: a checkpoint's table of contents, and Findings
of a check or diff with the verdict on the last line."""

from __future__ import annotations

from collections.abc import Sequence

from ..ckpt.meta import Checkpoint
from ..findings import Finding
from .text import Line


def _size(nbytes: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if nbytes < 1024 or unit == "GiB":
            return f"{nbytes:.0f} {unit}" if unit == "B" else f"{nbytes:.1f} {unit}"
        nbytes /= 1024
    return ""


def render_inspect(ckpt: Checkpoint, prefix: str, limit: int | None = None) -> list[Line]:
    kind = ckpt.format + (f" protocol {ckpt.protocol}" if ckpt.protocol else "")
    lines = [Line(f"{ckpt.path}: {kind}, {len(ckpt.tensors)} tensors, {ckpt.num_parameters:,} parameters "
                  f"({_size(ckpt.nbytes)})", "head")]
    if len(ckpt.files) > 1:
        lines.append(Line(f"files: {len(ckpt.files) - 1} shards + index"))
    lines.append(Line(f"prefix: '{prefix}' (shared by every key)" if prefix else "prefix: none shared by every key",
                      "warn" if prefix else ""))
    for key, pieces in ckpt.joined.items():
        lines.append(Line(f"joined: {key} from {len(pieces)} pieces ({', '.join(pieces[:3])}"
                          f"{', ...' if len(pieces) > 3 else ''})"))
    for key, what in ckpt.extras.items():
        lines.append(Line(f"extra: {key}  {what}", "dim"))
    rows = list(ckpt.tensors.items())[:limit]
    if rows:
        width = max(len(key) for key, _ in rows)
        shape_w = max(len(str(list(meta.shape))) for _, meta in rows)
        lines.append(Line(f"  {'key':<{width}}  {'shape':<{shape_w}}  dtype", "head"))
        lines += [Line(f"  {key:<{width}}  {str(list(meta.shape)):<{shape_w}}  {meta.dtype}") for key, meta in rows]
    if limit is not None and len(ckpt.tensors) > limit:
        lines.append(Line(f"  ... {len(ckpt.tensors) - limit} more (--limit 0 shows all)", "dim"))
    return lines


def render_findings(findings: Sequence[Finding], ok_text: str, bad_text: str) -> list[Line]:
    lines = []
    for f in findings:
        lines.append(Line(f"{f.severity.value.upper():<7} {f.code} [{f.cause}]: {f.message}",
                          "verdict" if f.severity.value == "error" else "warn"))
        if f.fix:
            lines.append(Line(f"        fix: {f.fix}"))
    if findings:
        causes = sorted({f.cause for f in findings})
        lines.append(Line(f"        more: {', '.join('paddle-doctor explain ' + c for c in causes)}", "dim"))
        lines.append(Line(bad_text, "verdict"))
    else:
        lines.append(Line(ok_text, "ok"))
    return lines
