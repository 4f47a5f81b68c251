"""Compare a checkpoint's key set with a model's (or another checkpoint's): the prefix rename that
aligns them, then missing, unexpected and shape-mismatched keys, each kind one :class:`Finding`."""

from __future__ import annotations

from collections.abc import Mapping

from ..findings import Confidence, Finding, Fixable, Location, Severity
from .meta import TensorMeta
from .prefixes import Alignment, align
from ..catalog.ids import CauseId

SHOW = 8  # keys named in a finding's message; all of them are in its facts


def compare(source: Mapping[str, TensorMeta], target: Mapping[str, TensorMeta], *,
            source_path: str = "", source_name: str = "the checkpoint", target_name: str = "the model",
            dtypes: bool = True, symmetric: bool = False) -> tuple[Alignment, list[Finding]]:
    """``source`` (a checkpoint) against ``target`` (what must load it, or a second checkpoint).
    Returns the alignment used and the problems, in the order a reader fixes them: prefix, shapes,
    dtypes, missing, unexpected. ``symmetric`` (two checkpoints, neither the reference) names the
    last two "only in A" / "only in B" (codes ``ckpt-only-in-target`` / ``ckpt-only-in-source``),
    so swapping the arguments swaps the names and nothing else."""
    alignment = align(source, target)
    renamed = {alignment.apply(key): key for key in source}
    where = (Location(path=source_path),) if source_path else ()
    findings = []
    if not alignment.is_identity:
        findings.append(_prefix_finding(alignment, len(source), where, target_name))
    shapes = [(k, renamed[k], source[renamed[k]].shape, target[k].shape)
              for k in target if k in renamed and tuple(source[renamed[k]].shape) != tuple(target[k].shape)]
    if shapes:
        findings.append(_shape_finding(shapes, where, target_name))
    if dtypes:
        changed = [(k, source[renamed[k]].dtype, target[k].dtype)
                   for k in target if k in renamed and not same_dtype(source[renamed[k]].dtype, target[k].dtype)]
        if changed:
            findings.append(_dtype_finding(changed, where, source_name, target_name))
    codes = ("ckpt-only-in-target", "ckpt-only-in-source") if symmetric else \
        ("ckpt-missing-keys", "ckpt-unexpected-keys")
    missing = [k for k in target if k not in renamed]
    if missing:
        findings.append(_keys_finding(codes[0], missing, f"are only in {target_name}" if symmetric
                                      else f"of {target_name} are not in {source_name}", where))
    unexpected = [renamed[k] for k in renamed if k not in target]
    if unexpected:
        findings.append(_keys_finding(codes[1], unexpected, f"are only in {source_name}" if symmetric
                                      else f"of {source_name} are not in {target_name}", where))
    return alignment, findings


def same_dtype(a: str, b: str) -> bool:
    """Equal dtype names; Paddle pickles bfloat16 as numpy uint16, so those two count as one."""
    return a == b or {a, b} == {"uint16", "bfloat16"}


def _dtype_finding(changed: list[tuple], where: tuple, source_name: str, target_name: str) -> Finding:
    listed = "; ".join(f"{k} {a} vs {b}" for k, a, b in changed[:SHOW])
    return Finding(code="ckpt-dtype", cause=CauseId.state_dict_shape_mismatch, severity=Severity.ERROR,
                   message=f"{len(changed)} tensors have another dtype in {source_name} than in {target_name}: {listed}",
                   locations=where, facts={"dtypes": [{"key": k, "source": a, "target": b} for k, a, b in changed]})


def _names(keys: list[str]) -> str:
    shown = ", ".join(keys[:SHOW])
    return shown + (f", ... ({len(keys) - SHOW} more)" if len(keys) > SHOW else "")


def _prefix_finding(alignment: Alignment, total: int, where: tuple, target_name: str) -> Finding:
    return Finding(
        code="ckpt-prefix", cause=CauseId.state_dict_prefix_mismatch, severity=Severity.ERROR,
        message=f"the keys do not match {target_name} as they are; {alignment.describe()} "
                f"and {alignment.matched} of {total} keys match",
        locations=where, fixable=Fixable.SAFE,
        fix=_prefix_fix(alignment, where[0].path if where else "FILE"),
        why="the rename was chosen because it makes the most checkpoint keys land on model keys",
        facts={"strip": alignment.strip, "add": alignment.add, "matched": alignment.matched, "total": total},
    )


def _prefix_fix(alignment: Alignment, path: str) -> str:
    if alignment.add:
        return "paddle_doctor.load_clean(model, path) applies this rename when it loads"
    stem = path[: -len(".pdparams")] if path.endswith(".pdparams") else path + ".clean"
    out = f"{stem}_clean.pdparams" if path.endswith(".pdparams") else stem
    return (f"paddle-doctor ckpt strip {path} -o {out} --prefix '{alignment.strip}' "
            "(or load with paddle_doctor.load_clean(model, path))")


def _shape_finding(shapes: list[tuple], where: tuple, target_name: str) -> Finding:
    listed = "; ".join(f"{ck} {list(cs)} vs {list(ms)}" for _, ck, cs, ms in shapes[:SHOW])
    more = f"; ... ({len(shapes) - SHOW} more)" if len(shapes) > SHOW else ""
    return Finding(
        code="ckpt-shape", cause=CauseId.state_dict_shape_mismatch,
        message=f"{len(shapes)} tensors have another shape than in {target_name}: {listed}{more}",
        locations=where, confidence=Confidence.HIGH,
        fix="build the model with the configuration the checkpoint was trained with (class_num, hidden size), "
            "or drop those keys on purpose (a new head)",
        facts={"shapes": [{"key": mk, "checkpoint_key": ck, "checkpoint": list(cs), "model": list(ms)}
                          for mk, ck, cs, ms in shapes]},
    )


def _keys_finding(code: str, keys: list[str], what: str, where: tuple) -> Finding:
    symmetric = code.startswith("ckpt-only")
    return Finding(
        code=code, cause=CauseId.state_dict_shape_mismatch,
        severity=Severity.ERROR if code == "ckpt-missing-keys" else Severity.WARNING,
        message=f"{len(keys)} keys {what}: {_names(keys)}",
        locations=where,
        fix="the two checkpoints hold different tensors: check that both come from one model and version"
        if symmetric else "check that the checkpoint belongs to this model (architecture and version); "
        "load_clean(model, path, strict=False) loads the rest on purpose",
        facts={"keys": keys},
    )
