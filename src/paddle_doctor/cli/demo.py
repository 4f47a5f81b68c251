"""``paddle-doctor demo``: a real 2-process CPU evaluation fails; show what the launcher printed,
then the diagnosis, then the same data evaluated exactly with ``paddle_doctor.evaluate`` on 2
ranks, its result next to a plain one-process Paddle loop (the ground truth, no paddle_doctor).
Needs paddlepaddle (the evaluations really run)."""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path

import click

DEMO_CASE = "01_exception_rank1"
TAIL_LINES = 14


def cases_root() -> Path | None:
    """cases/ of a source checkout (editable install), or the copy shipped inside the wheel."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here.parent.parent / "cases", here / "_cases"):
        if (candidate / DEMO_CASE / "expected.json").is_file():
            return candidate
    return None


@click.command("demo")
@click.option("--keep", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keep the run's logs in this directory (default: a temporary one, removed).")
def command(keep: Path | None) -> None:
    """Run a real 2-process evaluation that fails on rank 1, then diagnose it."""
    if importlib.util.find_spec("paddle") is None:
        click.echo("paddle-doctor demo: error: paddlepaddle is not installed "
                   "(pip install paddlepaddle); the demo runs a real evaluation.", err=True)
        sys.exit(2)
    root = cases_root()
    if root is None:
        click.echo("paddle-doctor demo: error: the demo case folder was not found in this install.", err=True)
        sys.exit(2)
    if keep is not None:
        keep = keep.resolve()  # the runs start inside it: a relative path would nest
        keep.mkdir(parents=True, exist_ok=True)
        _run(root / DEMO_CASE, keep)
        return
    with tempfile.TemporaryDirectory(prefix="paddle-doctor-demo-") as tmp:
        _run(root / DEMO_CASE, Path(tmp))


def _run(case_dir: Path, work: Path) -> None:
    from ..diagnose.paths import diagnose_paths
    from ..lab import run_case
    from ..lab.screen import what_the_screen_showed
    from ..render import text

    _bold("== 1. A user's 2-process evaluation on CPU, through the real launcher:", bold=True)
    click.echo("   python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log eval.py")
    click.echo("   (running; this takes about 10 s)")
    run = run_case(case_dir, work)
    tail = run.terminal.read_text(errors="replace").splitlines()[-TAIL_LINES:]
    _bold(f"== 2. The last {TAIL_LINES} lines the launcher printed (exit code {run.returncode}):", bold=True)
    click.echo("\n".join("   | " + line for line in tail))
    diagnosis = diagnose_paths([str(work)])
    root = diagnosis.root_cause.ranks[0] if diagnosis.root_cause is not None and diagnosis.root_cause.ranks else None
    lines = run.terminal.read_text(errors="replace").splitlines()
    click.echo("   " + what_the_screen_showed(lines, root, run.returncode))  # the screen above, not a fixed text
    _bold(f"== 3. paddle-doctor diagnose {work}", bold=True)
    text.echo(text.render_diagnosis(diagnosis))
    _fixed(case_dir / "eval_fixed.py", work / "fixed")


def _bold(message: str, **_style) -> None:
    """A heading, bold where term.py says colour is on (--color, NO_COLOR, FORCE_COLOR, a terminal)."""
    from ..term import use_color

    click.secho(message, bold=True, color=use_color(sys.stdout))


def _fixed(script: Path, work: Path) -> None:
    """The same data scored with paddle_doctor.evaluate: every query counted once, on any rank count."""
    from ..lab.fixed_demo import run_fixed_evaluation

    _bold("== 4. The fix: a query is the sample, pad_collate pads the short last query, and", bold=True)
    _bold("      paddle_doctor.evaluate counts every sample exactly once, with one collective:", bold=True)
    click.echo('   result = paddle_doctor.evaluate(model, queries, paddle.metric.Accuracy(name="hit_at_1"),')
    click.echo("                                   batch_size=2, collate_fn=paddle_doctor.pad_collate)")
    outcome = run_fixed_evaluation(script, work)
    dist, single = outcome["distributed"], outcome["single_process"]
    if not dist or not single:
        click.echo(f"   the fixed run did not finish; its logs are in {outcome['work_dir']}")
        sys.exit(1)
    click.echo("   against a plain Paddle loop in one process, query by query (no paddle_doctor):")
    for label, res in (("2 processes (evaluate)", dist), ("1 process (plain loop)", single)):
        metrics = ", ".join(f"{k} = {v:.4f}" for k, v in res["metrics"].items())
        click.echo(f"   {label:<24} {metrics}   samples counted: {res['num_samples']}")
    verdict = "equal" if outcome["equal"] else "DIFFERENT"
    _bold(f"   distributed and single-process results are {verdict}.", bold=True)
    if not outcome["equal"]:
        sys.exit(1)
