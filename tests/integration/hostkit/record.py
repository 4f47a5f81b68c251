"""Record the host scenarios' outputs as fixtures for diagnose's unit tests (multi-host bundles).

    .venv/bin/python tests/integration/hostkit/record.py            # every scenario (root; about 4 min)
    .venv/bin/python tests/integration/hostkit/record.py -k shm     # some (a pytest -k expression)

It runs the host tests (tests/integration/hosts/) with ``PDOC_HOSTS_RECORD`` set; each test's
folder (one ``host-x/`` per host: ``terminal.txt`` and ``log/``) is copied into
``tests/fixtures/hosts/<scenario>/`` by the folder's conftest, scrubbed as cases/record.py does
(machine paths to placeholders, the launchers' environment dumps reduced to their ``PADDLE_*``
keys, and refused if any other environment value is left). The addresses stay: they are the
harness's private ones (10.213.0.x). ``expected.json`` beside each says what diagnose must name.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests" / "fixtures" / "hosts"
RECORD_VAR = "PDOC_HOSTS_RECORD"

# scenario -> what diagnose of ``paths`` (relative to the scenario's folder) must say: the cause,
# and the host whose ranks are the culprits (None: no rank).
EXPECTED = {
    "a_rank_raising_on_host_b": {"paths": ["host-a/log", "host-b/log"], "cause": "python_exception", "host": "host-b"},
    "a_lost_host": {"paths": ["host-a/log", "host-b/log"], "cause": "collective_timeout", "host": "host-b"},
    "a_partition": {"paths": ["host-a/log", "host-b/log"], "cause": "network_partition", "host": None},
    "wrong_master_port": {"paths": ["host-a/terminal.txt"], "cause": "config_error", "host": None},
    "nnodes_mismatch": {"paths": ["host-a/terminal.txt", "host-a/log"], "cause": "config_error", "host": None},
    "loopback_hostname": {"paths": ["host-a/log", "host-b/log"], "cause": "wrong_host_ip", "host": "host-b"},
    "master_port_held": {"paths": ["host-a/terminal.txt"], "cause": "port_in_use", "host": None,
                         "known_wrong": "the launcher's output never names the port (see bench/results/31-hosts.md)"},
    "shm_small_on_host_b": {"paths": ["host-a/log", "host-b/log"], "cause": "shm_too_small", "host": "host-b"},
}
# test name (without "test_") -> scenario
SCENARIO_OF = {
    "a_rank_raising_on_host_b_is_named_on_every_survivor_and_by_diagnose": "a_rank_raising_on_host_b",
    "a_lost_host_is_named_by_the_other_within_10_s": "a_lost_host",
    "a_partition_is_named_on_both_sides_within_10_s": "a_partition",
    "run_and_diagnose_name_the_nodes_that_never_joined[wrong_master_port]": "wrong_master_port",
    "run_and_diagnose_name_the_nodes_that_never_joined[nnodes_mismatch]": "nnodes_mismatch",
    "a_host_name_resolving_to_loopback_is_wrong_host_ip": "loopback_hostname",
    "the_master_port_held_on_host_a_is_port_in_use": "master_port_held",
    "a_small_shm_on_host_b_only_is_named_and_shows_in_env_compare": "shm_small_on_host_b",
}


def _case_recorder():
    spec = importlib.util.spec_from_file_location("cases_record", ROOT / "cases" / "record.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _paddle_venvs() -> list[str]:
    """The venv paddle is imported from, when it is not sys.prefix (found without importing it)."""
    spec = importlib.util.find_spec("paddle")
    origin = Path(spec.origin).resolve() if spec and spec.origin else None
    lib = next((p for p in (origin.parents if origin else ()) if p.name == "lib"), None)
    return [str(lib.parent)] if lib is not None and str(lib.parent) != sys.prefix else []


def copy_hosts(work: Path, test_name: str) -> Path | None:
    """Copy one test's host folders (scrubbed) into the fixtures; None when it is no scenario."""
    scenario = SCENARIO_OF.get(re.sub(r"^test_", "", test_name))
    if scenario is None:
        return None
    rec = _case_recorder()
    pairs = rec.path_replacements(work)
    for real_venv in _paddle_venvs():  # a worktree's venv may take paddle from another venv
        pairs.insert(1, (real_venv, "/opt/venv"))
    dest = FIXTURES / scenario
    shutil.rmtree(dest, ignore_errors=True)
    for src in sorted(work.glob("host-*/**/*")):
        if not src.is_file() or src.name.startswith("env_"):
            continue
        text = rec.scrub_text(rec.reduce_file(src, src.read_text(encoding="utf-8", errors="replace")), pairs)
        text = text.replace("\0", "")
        leaks = [k for k in rec.env_leaks(text) if k not in ("OLDPWD", "PWD")]  # the shell's folders
        if leaks:
            raise RuntimeError(f"{scenario}: {src.relative_to(work)} would leak environment values of {leaks}")
        (dest / src.relative_to(work)).parent.mkdir(parents=True, exist_ok=True)
        (dest / src.relative_to(work)).write_text(text, encoding="utf-8")
    (dest / "expected.json").write_text(json.dumps(EXPECTED[scenario], indent=2) + "\n")
    return dest


def main(argv: list[str]) -> int:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rxs", "tests/integration/hosts", *argv]
    return subprocess.run(cmd, cwd=ROOT, env={**os.environ, RECORD_VAR: "1"}).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
