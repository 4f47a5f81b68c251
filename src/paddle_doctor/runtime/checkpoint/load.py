"""``load_clean(model, path)``: load through the allowlist reader, align prefixes, and refuse to
go on with random weights where Paddle only warns ``Skip loading for ...``."""

from __future__ import annotations

import warnings
from typing import Any

from ...ckpt.arrays import load_arrays
from ...ckpt.compare import compare, same_dtype
from ...ckpt.meta import TensorMeta
from ...errors import StateDictMismatchError
from ...findings import Finding, Severity
from .modelspec import state_meta
from .unwrap import unwrap


def load_clean(model: Any, path: str, strict: bool = True) -> tuple[Finding, ...]:
    """Load the checkpoint at ``path`` into ``model`` (wrapped or not) and return what was found.

    The file is read with the allowlist unpickler (nothing in it runs). Keys are aligned to the
    model's by the best prefix rename (``_layers.``, ``module.``, ``student.``, ...). With
    ``strict`` any key missing in the file, any key the model lacks, or any shape or dtype that
    differs raises :class:`StateDictMismatchError` with a table, and the model is left untouched
    (everything is checked before anything is set).
    Without it the tensors that fit are loaded and the rest are reported in the returned Findings.
    """
    arrays = load_arrays(path)
    source = {k: TensorMeta(tuple(v.shape), str(v.dtype), int(v.nbytes)) for k, v in arrays.items()}
    target = state_meta(model)
    alignment, findings = compare(source, target, source_path=path)
    problems = [f for f in findings if f.code != "ckpt-prefix"]
    if strict and problems:
        raise StateDictMismatchError(mismatch_table(path, findings), tuple(findings))
    fitting = {}
    for key, value in arrays.items():
        name = alignment.apply(key)
        if name in target and tuple(value.shape) == target[name].shape \
                and same_dtype(str(value.dtype), target[name].dtype):
            fitting[name] = value
    with warnings.catch_warnings():  # the keys it would warn about are in our findings already
        warnings.filterwarnings("ignore", message="Skip loading for")
        unwrap(model).set_state_dict(fitting)
    return tuple(_as_applied(f) if f.code == "ckpt-prefix" else f for f in findings)


def _as_applied(finding: Finding) -> Finding:
    return Finding(code=finding.code, cause=finding.cause, severity=Severity.INFO,
                   message=f"aligned: {finding.message}", locations=finding.locations,
                   why=finding.why, facts=finding.facts)


def mismatch_table(path: str, findings: list[Finding]) -> str:
    """The exception's message: one row per key that does not fit."""
    rows = []
    for f in findings:
        if f.code == "ckpt-shape":
            rows += [("shape", s["key"], str(s["checkpoint"]), str(s["model"])) for s in f.facts["shapes"]]
        elif f.code == "ckpt-dtype":
            rows += [("dtype", d["key"], d["source"], d["target"]) for d in f.facts["dtypes"]]
        elif f.code == "ckpt-missing-keys":
            rows += [("missing", k, "-", "in model") for k in f.facts["keys"]]
        elif f.code == "ckpt-unexpected-keys":
            rows += [("unexpected", k, "in file", "-") for k in f.facts["keys"]]
    prefix = [f.message for f in findings if f.code == "ckpt-prefix"]
    head = f"checkpoint {path} does not fit the model: {len(rows)} keys"
    if prefix:
        head += f" (after aligning: {prefix[0]})"
    width = max([len("key")] + [len(r[1]) for r in rows[:50]])
    lines = [head, f"  {'problem':<10}  {'key':<{width}}  {'checkpoint':<16}  model"]
    lines += [f"  {a:<10}  {b:<{width}}  {c:<16}  {d}" for a, b, c, d in rows[:50]]
    if len(rows) > 50:
        lines.append(f"  ... {len(rows) - 50} more (exc.findings has them all)")
    lines.append("  load_clean(model, path, strict=False) loads the keys that fit and returns the rest")
    return "\n".join(lines)
