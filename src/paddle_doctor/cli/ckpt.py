"""``paddle-doctor ckpt inspect|check|diff|strip``: exit 0 clean, 1 mismatch (check, diff), 2 on
unusable input (missing, empty, truncated, unsafe or non-checkpoint files: one line, no traceback)."""

from __future__ import annotations

import functools
import gc
import sys

import click

FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)


def _fail(cmd: str, message: str) -> None:
    from ..render.text import inert  # a file name in the message may hold escape codes

    click.echo(f"paddle-doctor ckpt {cmd}: error: {inert(message)}", err=True)
    sys.exit(2)


def _guarded(cmd: str):
    """Turn the library's errors into one line on stderr and exit 2."""
    def wrap(func):
        @functools.wraps(func)
        def run(*args, **kwargs):
            from ..ckpt.strip import StripError
            from ..errors import CheckpointError, UnsafeCheckpointError

            try:
                return func(*args, **kwargs)
            except UnsafeCheckpointError as exc:
                _fail(cmd, f"{exc}; nothing from the file ran (paddle-doctor explain checkpoint_unsafe)")
            except (CheckpointError, StripError, OSError) as exc:
                _fail(cmd, str(exc) if not isinstance(exc, OSError) else _os_error(exc))
            except Exception as exc:  # a bug of ours must not end in a traceback on the user's screen
                _fail(cmd, f"internal error: {type(exc).__name__}: {exc} (please report it)")
        return run
    return wrap


def _os_error(exc: OSError) -> str:
    text = exc.strerror or str(exc)  # ENOSPC from a write has no file name: never "...: None"
    return f"{text}: {exc.filename}" if exc.filename else text


def _echo_lines(lines) -> None:
    from ..render import text

    text.echo(lines)


def _json(data) -> None:
    from ..render import json_out

    click.echo(json_out.dumps(data))


@click.group("ckpt")
def command() -> None:
    """Inspect, check, diff and strip Paddle checkpoints (.pdparams, .pdopt, .safetensors, sharded
    index JSON) without importing paddle and without running anything from the file."""


@command.command("inspect")
@click.argument("file")
@FORMAT
@click.option("--limit", type=int, default=None, help="Show at most N tensors in text (0: all).")
@_guarded("inspect")
def inspect_cmd(file: str, fmt: str, limit: int | None) -> None:
    """Keys, shapes, dtypes, parameter count, shared prefix, split pieces re-joined, format."""
    from ..ckpt import common_prefix, read_checkpoint

    ckpt = read_checkpoint(file)
    prefix = common_prefix(ckpt.tensors)
    if fmt == "json":
        _json({**ckpt.to_dict(), "prefix": prefix})
        return
    from ..render.ckpt_text import render_inspect

    _echo_lines(render_inspect(ckpt, prefix, None if not limit else limit))


def _report(findings, fmt: str, extra: dict, ok_text: str, bad_text: str) -> None:
    if fmt == "json":
        _json({**extra, "ok": not findings, "findings": [f.to_dict() for f in findings]})
    else:
        from ..render.ckpt_text import render_findings

        _echo_lines(render_findings(findings, ok_text, bad_text))
    if findings:
        sys.exit(1)


@command.command("check")
@click.argument("file")
@click.option("--model", "spec", required=True, metavar="MODULE:FACTORY",
              help="Builds the model: a module (or path/to/file.py) and a callable with no arguments.")
@FORMAT
@_guarded("check")
def check_cmd(file: str, spec: str, fmt: str) -> None:
    """Compare FILE with the state dict of the model MODULE:FACTORY builds; exit 1 on mismatch."""
    from ..ckpt import compare, read_checkpoint

    ckpt = read_checkpoint(file)
    from ..runtime.checkpoint.modelspec import ModelSpecError, build_model, state_meta  # imports no paddle

    try:
        model_keys = state_meta(build_model(spec))
    except ModelSpecError as exc:
        _fail("check", str(exc))
    finally:
        # The model's module imported paddle: its million objects would be walked once more by the
        # interpreter's last collection (0.3-0.4 s of a 2 s command). Frozen, they are not.
        gc.freeze()
    alignment, findings = compare(ckpt.tensors, model_keys, source_path=ckpt.path)
    _report(findings, fmt, {"file": ckpt.path, "model": spec, "alignment":
                            {"strip": alignment.strip, "add": alignment.add, "matched": alignment.matched}},
            f"OK: all {len(model_keys)} keys of the model are in {ckpt.path} with their shapes and dtypes",
            f"MISMATCH: {ckpt.path} does not load cleanly into {spec} (exit 1)")


@command.command("diff")
@click.argument("a")
@click.argument("b")
@FORMAT
@_guarded("diff")
def diff_cmd(a: str, b: str, fmt: str) -> None:
    """Keys, shapes and dtypes that differ between checkpoints A and B (after aligning prefixes)."""
    from ..ckpt import compare, read_checkpoint

    left, right = read_checkpoint(a), read_checkpoint(b)
    alignment, findings = compare(left.tensors, right.tensors, source_path=left.path,
                                  source_name="A", target_name="B", symmetric=True)
    _report(findings, fmt, {"a": left.path, "b": right.path,
                            "alignment": {"strip": alignment.strip, "add": alignment.add}},
            f"SAME: {len(left.tensors)} tensors with the same keys, shapes and dtypes",
            "DIFFERENT: A and B do not hold the same tensors (exit 1)")


@command.command("strip")
@click.argument("file")
@click.option("-o", "--output", "out", default=None, help="Where to write (a directory for a sharded checkpoint).")
@click.option("--prefix", default=None, help="The prefix to strip (default: the one every key shares).")
@click.option("--in-place", is_flag=True, help="Overwrite FILE, keeping a backup FILE.bak.")
@FORMAT
@_guarded("strip")
def strip_cmd(file: str, out: str | None, prefix: str | None, in_place: bool, fmt: str) -> None:
    """Write FILE with a key prefix stripped; atomic, loadable by paddle.load, FILE untouched unless --in-place."""
    from ..ckpt import strip_checkpoint

    done = strip_checkpoint(file, out=out, prefix=prefix, in_place=in_place)
    if fmt == "json":
        _json(done.to_dict())
        return
    click.echo(done.message)
    for backup in done.facts["backups"]:
        click.echo(f"backup: {backup}")
