"""``make demo`` describes the screen it just showed (issue 30, "the rest"): which rank the launcher
named next to the rank that failed first, and its ``Exit code -15`` next to the shell's 241. Read
from two recorded launches: case 01 (the launcher named rank 0, a victim; exit 1) and case 20 (it
named rank 1, the culprit, and ended rank 0 with SIGTERM: ``Exit code -15``)."""

from __future__ import annotations

from pathlib import Path

from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.lab.screen import launcher_named, what_the_screen_showed

CASES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "cases"


def _case(name: str) -> tuple[list[str], int]:
    lines = (CASES / name / "terminal.out").read_text(errors="replace").splitlines()
    root = diagnose_paths([str(CASES / name)]).root_cause
    return lines, root.ranks[0]


def test_when_the_launcher_names_a_victim_the_sentence_says_so():
    lines, root = _case("01_exception_rank1")
    assert launcher_named(lines) == 0 and root == 1
    said = what_the_screen_showed(lines, root, 1)
    assert "named rank 0" in said and "symptom" in said and "on rank 1" in said and "Exit code" not in said


def test_when_the_launcher_names_the_culprit_and_exits_minus_15_both_are_explained():
    lines, root = _case("20_dataloader_shm_too_small")
    assert launcher_named(lines) == root
    said = what_the_screen_showed(lines, root, 241)
    assert f"named rank {root}, the rank that failed first" in said and "symptom" not in said
    assert "'Exit code -15'" in said and "= 241" in said
