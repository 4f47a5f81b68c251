"""Cause relations are catalog data (issue 33): ``generic = true`` and ``explains = [...]`` in
causes.toml, checked when read, and the same whether a path reads one table or the whole file."""

from __future__ import annotations

import pytest

from paddle_doctor.catalog import (CatalogError, _one_cause, all_causes, explains_also, generic_causes, get_cause,
                                   is_generic, is_symptom, load_causes)
from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.diagnose.read.parse import Event
from paddle_doctor.diagnose.signatures import match_line
from paddle_doctor.diagnose.verdict import confidence_of

CAUSE = 'title = "t"\nkind = "crash"\nwhy = "w"\nconfirm = "c"\nfix = "f"\n'


def test_the_generic_causes_are_those_that_name_no_reason():
    generic = generic_causes()
    assert {CauseId.python_exception, CauseId.segfault, CauseId.nccl_error} <= generic
    assert not {CauseId.gpu_oom, CauseId.nccl_version_mismatch, CauseId.unknown} & generic
    assert all(isinstance(c, CauseId) for c in generic)


def test_no_driver_explains_the_device_errors_cuda_reports_for_it():
    assert explains_also(CauseId.device_not_found) == (CauseId.cuda_cudnn_mismatch,
                                                       CauseId.cuda_visible_devices_misconfig)
    assert explains_also(CauseId.gpu_oom) == ()


def test_a_symptom_is_a_cause_whose_error_says_something_else_failed():
    assert [c.id for c in all_causes() if c.symptom] == [CauseId.dataloader_worker_crash]
    assert is_symptom(CauseId.dataloader_worker_crash) and not is_symptom(CauseId.python_exception)
    assert is_generic(CauseId.segfault) and not is_generic(CauseId.gpu_oom)


def _event(line: str) -> Event:
    sig, match = match_line(line)
    return Event(sig, match.groupdict(), "train.log", 0, line, "", None, None, 0)


def test_a_lone_generic_line_of_a_symptom_cause_is_at_most_medium():
    queue = _event("SystemError: (Fatal) Blocking queue is killed because the data reader raises an exception.")
    caught = _event("KeyError: 'DataLoader worker(1) caught KeyError with message:")
    plain = _event("RuntimeError: boom")
    assert queue.sig.cause == caught.sig.cause == CauseId.dataloader_worker_crash
    assert [confidence_of(e, [(0, e)]) for e in (queue, caught, plain)] == ["medium", "high", "high"]


@pytest.mark.parametrize("cause", ["", "None", "a_cause_of_a_newer_writer", None])
def test_an_id_the_catalog_lacks_has_no_relations(cause):
    # an error record from another writer may carry any string: diagnose asks, and must not fail
    assert (is_generic(cause), is_symptom(cause), explains_also(cause)) == (False, False, ())


def test_one_table_read_alone_says_what_the_whole_file_says():
    for cause in all_causes():
        assert _one_cause(cause.id) == cause, cause.id
    assert get_cause(CauseId.device_not_found).explains == explains_also(CauseId.device_not_found)


@pytest.mark.parametrize("extra, words", [
    ('explains = ["gpu_oomm"]\n', "'gpu_oomm' is not a cause id"),
    ('explains = "gpu_oom"\n', "'explains' must be a list"),
    ('generic = "yes"\n', "'generic' must be a bool"),
    ('symptom = 1\n', "'symptom' must be a bool"),
])
def test_a_bad_relation_is_refused(tmp_path, extra, words):
    path = tmp_path / "causes.toml"
    path.write_text(f"[device_not_found]\n{CAUSE}{extra}")
    with pytest.raises(CatalogError, match=words):
        load_causes(path)
