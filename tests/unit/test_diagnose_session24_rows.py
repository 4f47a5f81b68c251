"""Readings added in issue 29's twenty-fourth session (batch135: the shell's report of a job a signal ended, quoted
inside a sentence of Chinese prose), the near texts each must leave alone, and the signature field ``near`` that
replaced the row names refine/near.py listed."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of as _diagnose


def _cause(tmp_path, text: str):
    rc = _diagnose(tmp_path, text)
    return (rc.cause, rc.confidence.value) if rc else None


@pytest.mark.parametrize("text", [
    # bash's "<script>: line N: <pid> <signal>" right after the reporter's colon
    "运行命令sh train.sh，得到如下错误：/opt/paddle/bin/paddle_local: line 81: 18521 Illegal instruction     "
    "(core dumped) ${DEBUGGER} $MYDIR/../opt/paddle/bin/paddle_trainer ${@:2}",
    "训练到一半报错：./run.sh: line 3: 40211 Segmentation fault      (core dumped) python train.py",
    # a signal's own words with the shell's " (core dumped)", glued to the sentence
    "运行tools/train.py后出现Segmentation fault (core dumped)，请问怎么解决",
])
def test_a_signal_report_quoted_in_a_sentence_is_read_as_the_crash(tmp_path, text):
    assert _cause(tmp_path, text + "\n") == (CauseId.segfault, "high")


@pytest.mark.parametrize("text", [
    # a capitalised word before " (core dumped)" that is no signal's name stays unread as a crash
    "输出里有一行Python (core dumped)的字样\n",
    # a path in the prose with no job report after it
    "日志在：./output/train.log: line 3 有一行警告\n",
])
def test_prose_near_a_signal_report_is_not_a_crash(tmp_path, text):
    found = _cause(tmp_path, text)
    assert found is None or found[0] != CauseId.segfault


def test_each_row_marked_near_has_a_near_cause_its_own_line_meets():
    """A row marked ``near`` is one whose line a near cause prints too: refine/near.py's NEAR must hold that cause for
    the row's cause, with a ``when`` its example meets (else the mark would change nothing)."""
    import re

    from paddle_doctor.diagnose.refine.near import NEAR
    from paddle_doctor.diagnose.signatures import SIGNATURES

    marked = [sig for sig in SIGNATURES if sig.near]
    assert len(marked) >= 5
    for sig in marked:
        nears = NEAR.get(sig.cause, ())
        assert any(not n.when or re.search(n.when, sig.example) for n in nears), sig.name


@pytest.mark.parametrize("code, moved", [("phi_kernel_absent", True), ("cuda_error_other_row", False)])
def test_a_verdict_of_a_row_marked_near_takes_its_near_cause(code, moved):
    from paddle_doctor.diagnose.refine.near import calibrated
    from paddle_doctor.findings import EvidenceLine, Finding

    line = "RuntimeError: (NotFound) The kernel `memory_efficient_attention` is not registered."
    root = Finding(code, CauseId.config_error, "a kernel the build lacks", evidence=(EvidenceLine("x.log", 1, line),))
    got = calibrated(root, code)
    if moved:  # the near cause first, and high lowered: the line alone does not tell the two apart
        assert got.alternatives[0].cause == CauseId.paddle_api_mismatch and got.confidence.value == "medium"
    else:  # a row not marked: its verdict stands as it was
        assert got == root
