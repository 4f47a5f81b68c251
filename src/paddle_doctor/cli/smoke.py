"""``paddle-doctor smoke``: a real distributed train step + evaluation; exit 0 when every check
passes, 1 when one fails (the diagnosis follows), 2 on bad options."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import click


@click.command("smoke")
@click.option("--nproc", type=click.IntRange(1, 64), default=2, show_default=True, help="Processes per node.")
@click.option("--nnodes", type=click.IntRange(1, 1024), default=1, show_default=True,
              help="Nodes; run the same command on each one, with the same --master.")
@click.option("--master", default=None, metavar="HOST:PORT", help="Rendezvous address (needed with --nnodes > 1).")
@click.option("--hosts", default=None, metavar="HOST[:PORT],HOST,...",
              help="Every node of the job, the master first (its port: 6170 unless given); run the same "
                   "command on each. Replaces --nnodes and --master, and checks first that this machine is "
                   "one of them and advertises its listed address.")
@click.option("--device", type=click.Choice(["cpu", "gpu"]), default="cpu", show_default=True)
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where logs and results go (default ./paddle-doctor-smoke).")
@click.option("--timeout", type=click.FloatRange(min=1), default=180.0, show_default=True,
              help="Seconds before the whole launch is stopped.")
@click.option("--inject-fault", "fault", default=None, metavar="KIND[:RANK]",
              help="Make one rank fail on purpose (raise, kill, exit; rank 1 by default): shows what a "
                   "failure looks like and that CI catches it.")
@click.option("--junit", "junit", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FILE",
              help="Also write the checks as JUnit XML to FILE (for CI test reports).")
def command(nproc, nnodes, master, hosts, device, out_dir, timeout, fault, junit) -> None:
    """Launch a tiny real training step and evaluation through python -m paddle.distributed.launch
    (collectives of each kind, DataLoader workers, save/load, evaluate parity) and print a
    pass/fail table."""
    from ..smoke.launch import SmokeOptions, check_fault, default_out_dir, parse_master, run_smoke

    if importlib.util.find_spec("paddle") is None:
        _fail("paddlepaddle is not installed here; smoke runs a real launch (pip install paddlepaddle)")
    node = ""
    if hosts is not None:
        if nnodes != 1 or master:
            _fail("--hosts replaces --nnodes and --master: give one or the other")
        nnodes, master, node = _check_hosts(hosts)
    try:
        if nnodes > 1 or master:
            parse_master(master or "")
        fault = check_fault(fault) if fault else None
    except ValueError as exc:
        _fail(str(exc))
    options = SmokeOptions(out_dir=(out_dir or default_out_dir()).absolute(), nproc=nproc, nnodes=nnodes,
                           master=master, device=device, timeout=timeout, fault=fault)
    from ..process.bounded_run import StopRequested
    from ..process.workers_python import GuardsUnreachable
    from ..term import Ticker

    click.echo(f"paddle-doctor smoke: launching {nnodes} node(s) x {nproc} process(es), {device}{node} "
               f"(up to {timeout:g} s)")  # at once: the table comes when the launch ends
    try:
        with Ticker("running the smoke launch", timeout):
            run = run_smoke(options)
    except GuardsUnreachable as exc:
        _fail(str(exc))
    except StopRequested as stop:
        click.echo(f"paddle-doctor smoke: {stop}; the launch, its ranks and their helpers were ended "
                   f"(logs in {options.out_dir / 'log'})", err=True)
        sys.exit(stop.exit_code)
    if junit is not None:
        _write_junit(run, junit)
    sys.exit(_report(run))


def _check_hosts(value: str) -> tuple[int, str, str]:
    """--hosts: parsed, and this machine checked against it before anything launches."""
    import os

    from ..envcheck.probes.commands import run_command
    from ..envcheck.probes.system import probe_network
    from ..smoke.hosts import check_this_node, parse_hosts

    try:
        hosts = parse_hosts(value)
    except ValueError as exc:
        _fail(str(exc))
    network = probe_network(run_command)
    local = [a["address"] for a in network["addresses"]]
    check = check_this_node(hosts, local, os.environ.get("POD_IP") or network["fqdn_ip"])
    for warning in check.warnings:
        click.echo(f"paddle-doctor smoke: warning: {warning}", err=True)
    if check.errors:
        for error in check.errors[:-1]:
            click.echo(f"paddle-doctor smoke: error: {error}", err=True)
        _fail(check.errors[-1])
    role = "the master" if check.index == 0 else f"node {check.index}"
    return hosts.nnodes, hosts.master, f"; this machine is {hosts.hosts[check.index]}, {role}"


def _write_junit(run, dest: Path) -> None:
    from ..render.ci.junit import junit_xml
    from ..render.checks import outcome_of_facts

    xml = junit_xml(run.findings, "paddle-doctor smoke", run.launch.wall_s,
                    outcome_of=lambda f: f.outcome or outcome_of_facts(f))
    from ..outfile import write_text

    try:
        write_text(dest, xml)  # atomic for a file; in place for a device, a FIFO, a symlink
    except OSError as exc:
        _fail(f"cannot write {dest}: {exc.strerror or exc}")


def _fail(message: str) -> None:
    click.echo(f"paddle-doctor smoke: error: {message}", err=True)
    sys.exit(2)


def _report(run) -> int:
    from ..render import text
    from ..render.checks import check_table

    o, launch = run.options, run.launch
    where = f"{o.nnodes} node(s) x {o.nproc} process(es), {o.device}"
    text.echo([text.Line(f"paddle-doctor smoke: {where}; ranks reporting here: "
                         f"{', '.join(map(str, run.ranks_seen)) or 'none'}", "head")] + check_table(run.findings))
    if run.ok:
        text.echo([text.Line(f"SMOKE PASSED  {len(run.findings)} checks in {launch.wall_s:.1f} s", "ok")])
        return 0
    from ..smoke.results import how_it_ended

    text.echo([text.Line(f"SMOKE FAILED  ({how_it_ended(launch, o.timeout)}; logs in {run.log_dir}). Diagnosis:",
                         "verdict")])
    _print_diagnosis(run)
    return 1


def _timed_out_verdict(run, diagnosis) -> list | None:
    """When smoke itself stopped the launch (--timeout), that is the verdict; a diagnosis of the logs
    follows only when it names a cause with some confidence (smoke's own SIGTERM ends every rank with
    a traceback, which says nothing)."""
    from ..catalog.ids import CauseId
    from ..render import text

    if not run.launch.timed_out:
        return None
    rc = diagnosis.root_cause if diagnosis is not None else None
    lines = [text.Line(f"VERDICT  smoke stopped the launch after --timeout {run.options.timeout:g} s, before the "
                       "ranks finished. Give it more time (--timeout), or see where each log in "
                       f"{run.log_dir} stops.", "verdict")]
    if rc is not None and rc.cause != CauseId.unknown and rc.confidence.value != "low":
        lines += [text.Line("The logs show an error before the stop:", "head")] + text.render_diagnosis(diagnosis)
    return lines


def _print_diagnosis(run) -> None:
    from ..diagnose.paths import diagnose_paths
    from ..diagnose.read.sources import DiagnoseInputError
    from ..render import text

    paths = [str(p) for p in (run.log_dir, run.options.out_dir / "terminal.out") if p.exists()]
    try:
        raw = diagnose_paths(paths)
    except DiagnoseInputError as exc:
        raw = None
        if not run.launch.timed_out:
            click.echo(f"paddle-doctor smoke: no diagnosis: {exc}", err=True)
            return
    stopped = _timed_out_verdict(run, raw)
    if stopped is not None:
        text.echo(stopped)
        return
    text.echo(text.render_diagnosis(raw))
    from ..render.html import write_report

    page = write_report(raw, paths, run.options.out_dir / "report.html")
    click.echo(f"paddle-doctor smoke: timeline page {page}")
