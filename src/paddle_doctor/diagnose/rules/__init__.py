"""diagnose's reasoning rules, in the order :func:`..rootcause.decide` tries them.

Each rule is a function ``(ranks, unranked, facts) -> Finding | None`` (its module says what it
reads); the first that returns a Finding decides. Every verdict a rule can return is declared here
(:data:`RULES`, the protocol of :mod:`paddle_doctor.rules`: code, cause, message, docs, check), so
``paddle-doctor explain CODE`` and the cause pages show it, the corpus test prints its precision,
and a test holds each declared example to the code it names. The refiners a rule consults are in
:mod:`..refine`; a verdict is traced back to its rule by :func:`rule_of`.
"""

from __future__ import annotations

import functools

from ...catalog.ids import CauseId
from ...findings import Finding
from ..refine import REFINERS
from ..signatures import SIGNATURES
from ..verdict import VerdictRule, by_structure, declare
from .candidates import from_candidates, from_unranked
from .divergence import from_divergent_waits
from .launcher import from_any_error, from_launcher_only
from .setup import (from_contradicting_launch_cmds, from_hang_dump, from_lone_timeout, from_peers_never_joined,
                    from_spawn_child, from_stopped_at_nccl_init, from_unreached_endpoints)
from .silent import from_real_timeout, from_silent_peer, from_stuck_in_dataloader
from .stalls import from_lock_wait, from_uneven_steps
from .warned import from_named_warning

# The chain: the first rule that returns a verdict decides.
CHAIN = (from_lock_wait, from_uneven_steps, from_candidates, from_divergent_waits, from_silent_peer,
         from_stuck_in_dataloader, from_real_timeout, from_contradicting_launch_cmds, from_unreached_endpoints,
         from_peers_never_joined, from_hang_dump, from_unranked, from_spawn_child, from_launcher_only,
         from_lone_timeout, from_named_warning, from_stopped_at_nccl_init, from_any_error)

_SIGNATURES = "the log signature of the chosen line (explain its cause for the list)"
_ERROR_TABLES = "the error tables (codes, operators, C++ files, modules) of diagnose/anatomy"
STRUCTURE_PARTS = ("code", "operator", "cpp_file", "module", "type", "frame", "component", "call", "suite_check", "wording",
                   "error_class")

RULES: tuple[VerdictRule, ...] = (
    declare("waits_in_file_lock", CauseId.stale_download_lock, "every waiting rank sleeps in a file lock's acquire "
            "and nothing else failed", from_lock_wait, "tests/fixtures/wild/stale_lock/log"),
    declare("uneven_steps_per_epoch", CauseId.uneven_train_batches, "the job ended in a wait and the ranks' last "
            "progress lines show different step totals or epochs", from_uneven_steps,
            "tests/fixtures/cases/23_uneven_train_steps/log", also=(CauseId.uneven_eval_batches,)),
    declare("own_error", None, "a rank's own error line names the cause (the most specific, or the earliest "
            "when every candidate has a time)", from_candidates, "tests/fixtures/cases/01_exception_rank1/log",
            defers_to=_SIGNATURES),
    declare("signal_exit", None, "the launcher reports a fatal signal for a rank whose log has no error",
            from_candidates, "tests/fixtures/cases/08_rank1_sigkill_oom/terminal.out",
            defers_to="the signal table of catalog/codes.toml"),
    *(declare(f"structure_{part}", None, f"a generic error line whose {part.replace('_', ' ')} names a more "
              "specific cause", by_structure, example, defers_to=_ERROR_TABLES)
      for part, example in zip(STRUCTURE_PARTS, ("tests/fixtures/codes/cudnnStatus_t.txt", "corpus:real-dev3/118",
                                                 "corpus:real-dev3/102", "an exception raised in a Paddle module "
                                                 "the tables map", "an exception type the tables map",
                                                 "a traceback frame the tables map",
                                                 "tests/fixtures/gathered/batch1/110.log",
                                                 "tests/fixtures/gathered/batch1/113.log",
                                                 "a suite's own check of a path or a configured value",
                                                 "an exception whose message words a known kind of failure",
                                                 "tests/unit/test_error_parts.py (Paddle's error class and the object "
                                                 "it names)"))),
    declare("rank_left_first", CauseId.rank_divergent_collective, "every rank waits in a different collective; "
            "the call sites show which rank left the common ones first", from_divergent_waits,
            "tests/fixtures/cases/22_rank_breaks_early/log"),
    declare("exited_before_a_once_called_collective", CauseId.rank_divergent_collective, "a rank waits in a "
            "collective a program calls once (a barrier, a broadcast) after the launcher shows its peer had exited "
            "cleanly: the peer never called it", from_silent_peer, "tests/built/live1/29707"),
    declare("peer_exited_cleanly", CauseId.uneven_eval_batches, "a rank reports its peer closed the connection, "
            "and the launcher shows that peer had exited cleanly", from_silent_peer,
            "tests/fixtures/cases/04_uneven_batch_count_all_reduce/terminal.out"),
    declare("peer_said_it_ends", CauseId.rank_divergent_collective, "a rank's last line says it is ending (no error, "
            "no exit code from the launcher) while its peer waited in a collective: it left early", from_silent_peer,
            "tests/built/live3/29994", also=(CauseId.uneven_eval_batches,)),
    declare("silent_death", CauseId.host_oom_killed, "a rank's log stops without an error while its peer reports "
            "the connection closed: it was killed from outside", from_silent_peer,
            "tests/fixtures/cases/04_uneven_batch_count_all_reduce/log"),
    declare("stuck_in_dataloader", CauseId.dataloader_worker_crash, "a rank's SIGTERM crash dump shows it waiting "
            "for a DataLoader batch", from_stuck_in_dataloader, "tests/fixtures/cases/19_dataloader_worker_hang/log"),
    declare("real_timeout_peers_unseen", CauseId.unknown, "a rank waited the full gloo timeout and its peers' logs "
            "were not given: the file that settles it is named", from_real_timeout,
            "tests/fixtures/cases/05_collective_only_on_rank0/terminal.out"),
    declare("timed_out_waiting_for_busy_peer", CauseId.collective_timeout, "a rank waited the full gloo timeout in a "
            "barrier or a broadcast while every peer was alive in no collective (stopped by the launcher's SIGTERM): "
            "busy with work of its own", from_real_timeout, "tests/built/live1/29718"),
    declare("real_timeout", CauseId.rank_divergent_collective, "a rank waited the full gloo timeout while its "
            "peers were alive and elsewhere", from_real_timeout, "tests/fixtures/cases/05_collective_only_on_rank0/log"),
    declare("launch_ips_disagree", CauseId.config_error, "the nodes' launch commands give different --ips",
            from_contradicting_launch_cmds, "corpus:real-dev2/036"),
    declare("lone_process_waits_for_peers", CauseId.residual_dist_env, "no launcher ran, the environment holds "
            "PADDLE_* variables, and the process waited for peers on this machine that nothing started",
            from_unreached_endpoints, "tests/built/built1/29628.log"),
    declare("endpoints_never_ready", CauseId.wrong_host_ip, "the trainers kept waiting for endpoints at an address "
            "no host has", from_unreached_endpoints, "corpus:real-dev2/035"),
    declare("nodes_never_registered", CauseId.config_error, "the trainers kept waiting for real endpoints that "
            "never answered: those nodes never started", from_unreached_endpoints, "corpus:real-dev3/124"),
    declare("peers_never_joined", CauseId.config_error, "the launcher's master sync was the last thing it did: the "
            "other nodes never joined", from_peers_never_joined, "a launcher log that ends in `Waiting peer start`"),
    declare("stopped_at_nccl_init", CauseId.nccl_network_interface, "the text stops at NCCL's communicator set-up "
            "with no error, no launcher failure and no line after it", from_stopped_at_nccl_init,
            "corpus:real-dev2/012", also=(CauseId.nccl_error,)),
    declare("retries_own_port", CauseId.wrong_host_ip, "a process listens on a port and retries that same port at "
            "another address", from_hang_dump, "corpus:real-dev2/034"),
    declare("lone_rendezvous", CauseId.residual_dist_env, "a single process with no launcher hung in rendezvous "
            "until it was killed", from_hang_dump, "tests/fixtures/cases/14_residual_dist_env/terminal.out"),
    declare("store_workers_never_came", CauseId.config_error, "the rank that hosts the TCP store waited in "
            "TCPStore::waitWorkers and nothing here retried to reach it: the other nodes' ranks never came",
            from_hang_dump, "tests/fixtures/hosts/nnodes_mismatch"),
    declare("rendezvous_never_met", CauseId.wrong_host_ip, "the ranks of a launched job hung in rendezvous until "
            "they were killed", from_hang_dump, "a launched rank's SIGTERM dump inside the TCP store's rendezvous"),
    declare("unranked_error", None, "a pasted snippet with no rank: its most specific error line names the cause",
            from_unranked, "corpus:real-dev/002", defers_to=_SIGNATURES),
    declare("spawn_child_failed", CauseId.main_guard_missing, "a spawned child failed while re-importing the main "
            "module and no other error follows", from_spawn_child, "corpus:real-dev2/058"),
    declare("aborted_without_a_word", CauseId.host_oom_killed, "the old launcher reports a rank aborted, with no exit "
            "code, and its log stops without any error: SIGKILL", from_launcher_only, "tests/built/built1/29618"),
    declare("failed_without_error", CauseId.unknown, "the launcher reports a rank failed and its log, which was "
            "read, holds no error", from_launcher_only, "tests/fixtures/smoke/exit_rank1"),
    declare("pod_exit_status", None, "only the launcher's report was given and its pod exit code is a fatal signal "
            "(-N) or a Windows crash status", from_launcher_only, "LAUNCH INFO ... Exit code 3221226505 after Pod "
            "failed / Container failed !!!", defers_to="the signal and ntstatus tables of catalog/codes.toml"),
    declare("every_rank_aborted", CauseId.python_exception, "the old launcher reports every trainer aborted and no "
            "rank shows a peer's failure", from_launcher_only, "corpus:real-dev3/126"),
    declare("cause_not_given", CauseId.unknown, "only the launcher's report and symptoms were given: the file that "
            "holds the cause is named", from_launcher_only, "tests/fixtures/cases/01_exception_rank1/terminal.out"),
    declare("lone_collective_timeout", CauseId.collective_timeout, "one process's text whose only error is a "
            "collective that timed out", from_lone_timeout, "corpus:real-dev3/103"),
    declare("warning_names_cause", None, "a warning names a cause and no error in the text names another "
            "(medium when an error follows it, low when it is the only sign)", from_named_warning,
            "tests/fixtures/gathered/batch5/519.log", defers_to="the warning's log signature"),
    declare("traceback_cut_at_raise_site", None, "a Python traceback cut before its exception line whose "
            "innermost frame is a raise statement of Paddle that raises one message only", from_any_error,
            "tests/fixtures/gathered/batch12/1209.log", defers_to="the raise sites of diagnose/anatomy/components.py"),
    declare("error_worded", None, "an error line that no signature knows, whose words say a known kind of failure "
            "(a path it cannot open, a version it requires)", from_any_error, "tests/unit/test_diagnose_wording.py",
            defers_to="the wordings of diagnose/anatomy/wording.py"),
    declare("traceback_type_worded", None, "a Python traceback cut before its exception line, whose header (a "
            "notebook's) names a class whose name says a known kind of failure", from_any_error,
            "tests/fixtures/gathered/batch22/2202.log", defers_to="the class wordings of diagnose/anatomy/wording.py"),
    declare("interrupted_by_hand", CauseId.unknown, "the run was stopped by hand (KeyboardInterrupt) with no error "
            "before it: a wait whose cause the text does not hold", from_any_error,
            "tests/fixtures/wild/even_train_stuck_reader"),
    declare("traceback_without_exception", CauseId.python_exception, "a Python traceback whose exception line is "
            "not in the text", from_any_error, "tests/fixtures/cases/01_exception_rank1/log/workerlog.0"),
    declare("error_without_cause", CauseId.unknown, "the text shows an error but no known message that names its "
            "cause", from_any_error, "tests/fixtures/runners/make_runner_logs.py"),
    *REFINERS,
)

BY_CODE = {rule.code: rule for rule in RULES}


@functools.lru_cache(maxsize=1)
def _signature_roles() -> dict[str, str]:
    return {sig.name: sig.role for sig in SIGNATURES}


def rule_of(finding: Finding | None) -> VerdictRule | None:
    """The rule that returned ``finding``: its code, or for a verdict named after a log signature,
    the rule that defers to it (an earlier warning, a rank's own error line, a snippet's). None for
    a verdict no reasoning rule made (an error record's)."""
    if finding is None:
        return None
    if finding.code in BY_CODE:
        return BY_CODE[finding.code]
    role = _signature_roles().get(finding.code)
    if role is None:
        return None
    if role == "context":
        return BY_CODE["explained_by_warning"]
    return BY_CODE["own_error" if finding.ranks else "unranked_error"]
