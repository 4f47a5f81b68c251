"""The era table of docs/diagnose.md is generated from the signature rows' sources and kept in step
(issue 33): which Paddle eras a row's message was found in is read from its ``source`` field."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from paddle_doctor.diagnose.signatures import signature_table
from paddle_doctor.diagnose.eras import BEGIN, END, OURS, clauses, era_marks, era_rows, with_era_table

DOC = Path(__file__).resolve().parents[2] / "docs" / "diagnose.md"
ALL_ERAS = ("1.8", "2.0", "2.1-2.3", "2.4", "2.5-2.6", "3.x")


def test_the_doc_holds_the_table_the_rows_give():
    doc = DOC.read_text(encoding="utf-8")
    assert doc.count(BEGIN) == 1 and doc.count(END) == 1
    assert with_era_table(doc, signature_table()) == doc, (
        "docs/diagnose.md's era table is stale: run `python -m paddle_doctor.diagnose.eras docs/diagnose.md`")


def test_the_command_rewrites_only_the_table(tmp_path):
    doc = DOC.read_text(encoding="utf-8")
    stale = tmp_path / "diagnose.md"
    stale.write_text(doc.replace("| `gpu_oom` | ✓ |", "| `gpu_oom` |  |", 1), encoding="utf-8")
    assert stale.read_text(encoding="utf-8") != doc
    subprocess.run([sys.executable, "-m", "paddle_doctor.diagnose.eras", str(stale)], check=True)
    assert stale.read_text(encoding="utf-8") == doc


def marked(source: str, mark: str = "✓") -> tuple[str, ...]:
    return tuple(era for era in ALL_ERAS if era_marks(source).get(era) == mark)


@pytest.mark.parametrize("source, eras", [
    ("pp 1.8.5-3.3.1 so: fluid/imperative/data_loader.cc (... is killed by signal: %s.)", ALL_ERAS),
    ("pp 2.4.2 paddle/distributed/fleet/launch_utils.py get_gpus", ("2.4",)),
    ("pp 2.x-3.3.1 paddle/nn/layer/layers.py set_state_dict", ALL_ERAS[1:]),
    ("pp 2.5-3.x GPU so: phi/core/distributed/comm_task_manager.cc", ("2.5-2.6", "3.x")),
    ("pp 1.8.5-2.4.2 fleet/base/role_maker.py, 3.3.1 incubate/distributed/fleet/role_maker.py",
     ("1.8", "2.0", "2.1-2.3", "2.4", "3.x")),
    ("pp 1.8.5 paddle/distributed/utils.py; pp 2.0.2 paddle/distributed/fleet/launch_utils.py", ("1.8", "2.0")),
    ("pp 2.0.2-3.3.1 parallel.py (not a parallel environment); 2.4.2-3.3.1 group.py", ALL_ERAS[1:]),
    ("pp 2.4.2 so: gpu_info.cc (CUDA 12.9 driver; NCCL 2.1.15 says so)", ("2.4",)),  # a template's numbers
])
def test_a_paddle_clause_marks_the_eras_of_its_versions(source, eras):
    assert marked(source) == eras


def test_another_librarys_text_is_read_in_every_era_paddle_does_not_already_mark():
    assert marked("CPython Lib/multiprocessing/spawn.py (bootstrapping phase)", "all") == ALL_ERAS
    source = "pp 2.4.2-3.3.1 so: tcp_utils.cc (Bind network on %s failed.); Python errno EADDRINUSE"
    assert marked(source) == ("2.4", "2.5-2.6", "3.x")
    assert marked(source, "all") == ("1.8", "2.0", "2.1-2.3")


def test_our_own_rows_mark_no_era_and_semicolons_in_a_template_do_not_split():
    assert era_marks(f"{OURS} src/paddle_doctor/errors.py") == {}
    assert clauses("pp 2.4.2 a.py (one; two); CUDA runtime") == ["pp 2.4.2 a.py (one; two)", "CUDA runtime"]


def test_every_row_that_names_a_cause_is_placed_in_some_era():
    # a source the reader cannot place (a new spelling of a version) fails here, not as a blank row
    unplaced = [row["name"] for row in signature_table()
                if row["cause"] and not row["source"].startswith(OURS) and not era_marks(row["source"])]
    assert unplaced == []


def test_every_cause_a_row_names_has_its_line_in_the_table():
    named = {row["cause"] for row in signature_table() if row["cause"] and not row["source"].startswith(OURS)}
    shown = {cause.strip("`") for cause, _, _ in era_rows(signature_table())}
    assert named <= shown
