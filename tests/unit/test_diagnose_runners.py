"""Logs as job runners print them, read as one log per rank (tests/fixtures/runners/, written from real
recorded cases by make_runner_logs.py with each runner's prefix as its source defines it).

Each must give the verdict that the same case's own logs give: cause and rank."""

import json
from pathlib import Path

import pytest

from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.diagnose.read.prefixes import PREFIXES, detect, rfc3339_epoch

REPO = Path(__file__).resolve().parents[2]
RUNNERS = REPO / "tests" / "fixtures" / "runners"


def _want(case: str) -> tuple[str, int]:
    expected = json.loads((REPO / "cases" / case / "expected.json").read_text())
    return expected["cause"], expected["rank"]


def _got(path: Path) -> tuple[str, int | None]:
    rc = diagnose_paths([str(path)]).root_cause
    assert rc is not None
    return rc.cause, rc.ranks[0] if rc.ranks else None


@pytest.mark.parametrize("shape, case", [
    ("mpirun/tag_output.txt", "01_exception_rank1"),
    ("srun/label.txt", "08_rank1_sigkill_oom"),
    ("kubectl/prefix.txt", "22_rank_breaks_early"),
    ("kubectl/pods", "22_rank_breaks_early"),
    ("docker/4f1c2ab39e7d-json.log", "08_rank1_sigkill_oom"),
    ("docker/compose.txt", "01_exception_rank1"),
])
def test_runner_output_names_the_case_cause_and_rank(shape, case):
    assert _got(RUNNERS / shape) == _want(case)


def test_interleaved_ranks_become_one_log_each():
    d = diagnose_paths([str(RUNNERS / "mpirun" / "tag_output.txt")])
    assert {r.ranks[0] for r in d.ranks if r.ranks} == {0, 1}
    # the quoted frame's source line is the same rank's, not the other rank's line that follows it
    assert all("[1," not in e.text for e in d.root_cause.evidence)


def test_docker_timestamps_read_like_the_terminal_it_prefixes():
    plain = diagnose_paths([str(REPO / "tests" / "fixtures" / "cases" / "01_exception_rank1" / "terminal.out")])
    stamped = diagnose_paths([str(RUNNERS / "docker" / "timestamps.txt")])
    assert (stamped.root_cause.cause, stamped.root_cause.ranks) == (plain.root_cause.cause, plain.root_cause.ranks)
    assert stamped.notes == plain.notes


def test_silent_rank_keeps_its_own_last_line_in_srun_output():
    rc = diagnose_paths([str(RUNNERS / "srun" / "label.txt")]).root_cause
    assert any("cache holds 3 batches" in e.text for e in rc.evidence), rc.evidence


@pytest.mark.parametrize("line, name, rank", [
    ("[1,3]<stderr>:Traceback (most recent call last):", "mpirun --tag-output", 3),
    ("[1,3]<stdout>: step 1", "mpirun --tag-output", 3),  # Open MPI 5 (PRRTE) adds a space
    ("Tue Dec  1 20:07:19 2026[1,2]<stderr>:x", "mpirun --tag-output", 2),
    (" 7: step 1\n 8: step 1", "srun --label", 7),
    ("12: step 1\n 0: step 1", "srun --label", 12),
    ("[pod/ernie-worker-5/paddle] step 1", "kubectl logs --prefix", 5),
    ("[pod/ctr-ps-0/paddle] step 1", "kubectl logs --prefix", None),  # a parameter server, not a trainer
    ("2026-12-01T20:07:19.123456789Z step 1", "docker logs --timestamps", None),
    ("paddle-trainer3-1  | step 1", "docker compose logs", 3),  # compose v2: <project>-<service>-<replica>
    ("paddle_worker_2_1  | step 1", "docker compose logs", 2),  # compose v1: <project>_<service>_<replica>
    ("trainer-2  | step 1", "docker compose logs", None),  # replica 2 of one service: no rank of its own
    ("[21:12:11] :\t [Step 1/1] Traceback (most recent call last):", "TeamCity build log", None),
    ("[12:36:23]W:\t\t [Update checkout directory (/opt/w)] step 1", "TeamCity build log", None),
    ("[12:36:23] : step 1", "TeamCity build log", None),  # outside any block
    ("> Traceback (most recent call last):", "Markdown quote", None),  # a reply quoting a pasted log
    ("> > step 1", "Markdown quote", None),  # a quote of a quote
])
def test_each_prefix_is_detected_and_names_its_rank(line, name, rank):
    prefix = detect(((line + "\n") * 3).encode())
    assert prefix is not None and prefix.name == name
    text, got_rank, _ = prefix.split(line)
    assert got_rank == rank and text.strip().startswith(("Traceback", "step", "x"))


def test_plain_logs_carry_no_prefix():
    for case in ("01_exception_rank1", "08_rank1_sigkill_oom"):
        head = (REPO / "tests" / "fixtures" / "cases" / case / "log" / "workerlog.0").read_bytes()[:4096]
        assert detect(head) is None
    assert detect(b"2024-03-10 00:35:50,211 INFO step 1\n" * 5) is None
    # CTest prefixes test 91's output with "91: " (real-dev2/043): one task that is not task 0
    assert detect(b"91: NCCL version 2.1.4+cuda9.1\n" * 5) is None
    # the fleet launcher's env table and a Markdown table start with '|' or spaces, not a container name
    table = detect(b"    |   PADDLE_TRAINER_ID   0   |\n" * 5)  # at most its indentation, no runner's prefix
    assert (table is None or table.name == "indented paste") and detect(b"| loss | 0.5 |\n" * 5) is None
    # a time in brackets without TeamCity's status and colon is a logger's own format
    assert detect(b"[21:12:11] INFO step 1\n" * 5) is None
    # a glog or Python logging line that starts with a month's name is no journald line (no host, no ident)
    assert detect(b"Nov 29 01:13:25.123 step 1 loss 0.5\n" * 5) is None
    # "I/O error" is no logcat priority and tag; a logger's month-day time without logcat's pid, tid and priority neither
    assert detect(b"I/O error: cannot read /data/x.bin\n" * 5) is None
    assert detect(b"06-18 18:42:06.401 INFO step 1: loss 0.5\n" * 5) is None
    assert len(PREFIXES) == 10  # and the indentation of a paste indented as a whole, measured per file


def test_kubectl_prefix_with_timestamps_gives_the_time():
    prefix = detect(b"[pod/a-worker-0/paddle] 2026-12-01T20:07:19.5Z hi\n" * 2)
    text, rank, when = prefix.split("[pod/a-worker-0/paddle] 2026-12-01T20:07:19.5Z hi")
    assert (text, rank, when) == ("hi", 0, rfc3339_epoch("2026-12-01T20:07:19.5Z"))


def test_srun_report_of_a_killed_task_makes_the_silent_death_sure():
    rc = diagnose_paths([str(RUNNERS / "srun" / "label.txt")]).root_cause
    assert (rc.cause, rc.ranks, rc.confidence.value) == ("host_oom_killed", (1,), "high")


def test_mpirun_report_gives_the_failed_rank_its_exit_code(run_cli):
    proc = run_cli("diagnose", "--format", "json", RUNNERS / "mpirun" / "tag_output.txt")
    rows = {r["rank"]: r for r in json.loads(proc.stdout)["ranks"]}
    assert (rows[1]["status"], rows[1]["exit_code"]) == ("root_cause", 1)
    assert (rows[0]["status"], rows[0]["exit_code"]) == ("victim", None)


@pytest.mark.parametrize("line, next_text, want", [
    ("srun: error: gpu-node-07: task 1: Killed", "", {1: -9}),
    ("srun: error: n1: tasks 0-2: Exited with exit code 1", "", {0: 1, 1: 1, 2: 1}),
    ("srun: error: n1: task 3: Segmentation fault (core dumped)", "", {3: -11}),
    ("srun: error: n1: task 2: Out Of Memory", "", {2: -9}),
    ("  Process name: [[40917,1],1]", "  Exit code:    1", {1: 1}),
    ("mpirun noticed that process rank 3 with PID 4711 on node n7 exited on signal 9 (Killed).", "", {3: -9}),
])
def test_runner_reports_name_rank_and_ending(line, next_text, want):
    from paddle_doctor.diagnose.read.runners import RUNNER_SIGNATURES, failed_ranks, match_runner

    sig, m = match_runner(line)
    assert failed_ranks(sig.name, m.groupdict(), next_text) == want
    assert all(match_runner(s.example) is not None for s in RUNNER_SIGNATURES)


@pytest.mark.parametrize("shape", ["docker/named", "docker/worker_1.log", "docker/containers"])
def test_a_container_named_for_its_rank_is_that_rank_log(shape):
    """`docker logs --timestamps trainer-N > trainer-N.log` of each container, the failing container's
    log alone, and the json-file driver's logs whose config.v2.json names the container
    (paddle-trainer-N): each is read as rank N's log, with the case's cause and rank."""
    assert _got(RUNNERS / shape) == _want("01_exception_rank1")


def test_a_container_name_without_a_rank_states_none(tmp_path):
    box = tmp_path / ("ab12" * 16)
    box.mkdir()
    source = RUNNERS / "docker" / "containers"
    log = next(source.rglob("*-json.log"))
    (box / f"{box.name}-json.log").write_bytes(log.read_bytes())
    (box / "config.v2.json").write_text('{"Name": "/jupyter"}')
    d = diagnose_paths([str(tmp_path)])
    assert d.root_cause is not None and not d.root_cause.ranks


def test_a_quoted_paste_reads_as_the_log_it_quotes(tmp_path):
    """A reply quoting a pasted traceback (`> ` before every line) gives the verdict the log itself gives."""
    text = ("Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n    x = paddle.load(p)\n"
            "FileNotFoundError: [Errno 2] No such file or directory: 'output/model.pdparams'\n")
    plain, quoted = tmp_path / "plain.log", tmp_path / "quoted.log"
    plain.write_text(text)
    quoted.write_text("".join("> " + line for line in text.splitlines(True)))
    want = diagnose_paths([str(plain)]).root_cause
    got = diagnose_paths([str(quoted)]).root_cause
    assert (got.cause, got.confidence) == (want.cause, want.confidence) == ("file_not_found", "medium")


@pytest.mark.parametrize("indent", ["    ", "        ", "\t"])
def test_a_paste_indented_as_a_whole_reads_as_the_log(tmp_path, indent):
    """A Markdown code block made by indentation: the common indentation is taken from each line, the log's own
    (frames, source lines) stays."""
    text = ("Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n    x = paddle.load(p)\n"
            "FileNotFoundError: [Errno 2] No such file or directory: 'output/model.pdparams'\n")
    log = tmp_path / "indented.log"
    log.write_text("".join(indent + line for line in text.splitlines(True)))
    got = diagnose_paths([str(log)]).root_cause
    assert (got.cause, got.confidence, got.evidence[-1].text.startswith("FileNotFoundError")) == (
        "file_not_found", "medium", True)


def test_a_log_whose_own_lines_are_indented_is_not_an_indented_paste():
    # a traceback's frames (two spaces) and source lines (four): the common indentation is 2, below the minimum
    assert detect(b'  File "train.py", line 9, in <module>\n    x = paddle.load(p)\n' * 3) is None


def test_a_bold_error_line_inside_a_quote_is_read(tmp_path):
    """Markdown bold around an error line (`**AssertionError: ...**`) is taken off inside a quote's prefix too."""
    log = tmp_path / "quoted.log"
    log.write_text("> Traceback (most recent call last):\n>   File \"tools/train.py\", line 140, in main\n"
                   ">     assert os.path.exists(checkpoints + \".pdparams\"), \\\n"
                   "> **AssertionError: The ./pretrain_models/x.pdparams does not exists!**\n")
    got = diagnose_paths([str(log)]).root_cause
    assert got.cause == "file_not_found" and got.evidence[-1].text.startswith("AssertionError"), got.evidence


@pytest.mark.parametrize("wrap", ["> ", "    ", "2024-05-01T10:00:00.123Z "])
def test_a_runners_ranked_lines_quoted_indented_or_stamped_keep_their_ranks(tmp_path, wrap):
    """A prefix that names no rank (a quote, an indentation, docker's times) around mpirun's ranked prefix: both
    are taken off, and the inner one still names each line's rank."""
    plain = diagnose_paths([str(RUNNERS / "mpirun" / "tag_output.txt")]).root_cause
    log = tmp_path / "wrapped.log"
    log.write_text("".join(wrap + line for line in (RUNNERS / "mpirun" / "tag_output.txt").read_text()
                           .splitlines(True)))
    got = diagnose_paths([str(log)]).root_cause
    assert (got.cause, got.ranks) == (plain.cause, plain.ranks) and got.ranks, (got.cause, got.ranks)


def test_a_stall_at_nccl_init_behind_docker_times_is_still_a_stall(tmp_path):
    """The line after NCCL's set-up is read without docker's time prefix (which would look like a job's log line)."""
    text = ("I0302 02:01:36.274989 31267 nccl_context.cc:83] init nccl context nranks: 4 local rank: 0 gpu id: 0 "
            "ring id: 0\nthe job waits here for 20 minutes\n")
    log = tmp_path / "stamped.log"
    log.write_text("".join("2024-05-01T10:00:00.123Z " + line for line in text.splitlines(True)))
    got = diagnose_paths([str(log)]).root_cause
    assert got is not None and got.cause == "nccl_network_interface", got
