"""The cause catalog: every contract id is present and complete, and docs/causes.md is in step."""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

import paddle_doctor
from paddle_doctor.catalog import Cause, UnknownCauseError, all_causes, cause_ids, get_cause
from paddle_doctor.links import LENSES, backlinks, links_for, references
from paddle_doctor.render.causes import render_cause_text, render_list_text, render_markdown
from paddle_doctor.cli.main import COMMANDS

REPO = Path(__file__).resolve().parents[2]

# DESIGN.md section 3, in its order, plus host_out_of_memory right after host_oom_killed.
DESIGN_IDS = [
    "python_exception",
    "gpu_oom",
    "host_oom_killed",
    "host_out_of_memory",
    "shm_too_small",
    "dataloader_worker_crash",
    "uneven_eval_batches",
    "rank_divergent_collective",
    "collective_timeout",
    "nccl_error",
    "nccl_library_missing",
    "nccl_version_mismatch",
    "nccl_network_interface",
    "cuda_cudnn_mismatch",
    "cuda_arch_unsupported",
    "cuda_error_other",
    "device_not_found",
    "cuda_visible_devices_misconfig",
    "stale_process_holding_gpu",
    "state_dict_prefix_mismatch",
    "state_dict_shape_mismatch",
    "residual_dist_env",
    "missing_dist_env",
    "wrong_host_ip",
    "config_error",
    "port_in_use",
    "file_not_found",
    "main_guard_missing",
    "segfault",
    "windows_no_nccl",
    "launcher_bug",
    "dataparallel_unused_parameters",
    "sampler_too_few_samples",
    "unknown",
    "rank_local_metric",
    "eval_samples_dropped",
    "eval_samples_duplicated",
    "concurrent_checkpoint_write",
]
CORRUPTION_IDS = {
    "rank_local_metric",
    "eval_samples_dropped",
    "eval_samples_duplicated",
    "concurrent_checkpoint_write",
    "state_dict_prefix_mismatch",
    "model_not_in_eval_mode",
}
LINT_CODE = re.compile(r"^PDL[1-5]\d\d$")  # lint/codes.py: PDL5xx is device and environment
SEED = re.compile(r"^\d{3} §\d+(\.\d+)?(, \d{3} §\d+(\.\d+)?)*$")
ENV_CHECK = re.compile(r"^[a-z][a-z0-9_]*$")


def test_every_design_id_is_present():
    missing = [cid for cid in DESIGN_IDS if cid not in cause_ids()]
    assert not missing


def test_design_ids_keep_design_order():
    present = [cid for cid in cause_ids() if cid in DESIGN_IDS]
    assert present == DESIGN_IDS


def test_ids_are_unique_and_match_entries():
    ids = [cause.id for cause in all_causes()]
    assert len(ids) == len(set(ids))
    assert tuple(ids) == cause_ids()


@pytest.mark.parametrize("cause", all_causes(), ids=lambda c: c.id)
def test_entry_is_complete(cause: Cause):
    for field in ("title", "why", "confirm", "fix"):
        assert getattr(cause, field).strip(), f"{cause.id}: empty {field}"
    assert "\n" not in cause.title
    assert cause.kind in ("crash", "corruption")
    assert cause.seed == "" or SEED.match(cause.seed), cause.seed
    links = links_for(cause.id)
    assert all(LINT_CODE.match(code) for code in links.lint_rules), links.lint_rules
    assert all(ENV_CHECK.match(name) for name in links.env_checks), links.env_checks


def test_kinds():
    corruption = {cause.id for cause in all_causes() if cause.kind == "corruption"}
    assert corruption == CORRUPTION_IDS


def test_every_back_link_points_at_a_cause_of_the_catalog():
    """The lenses' own tables (lint rules, env checks, signatures, guard kinds, smoke checks, diagnose
    rules) name only real cause ids, and each name points at one cause (a diagnose rule may name
    several: uneven steps per epoch are a training's or an evaluation's)."""
    refs = references()
    assert set(refs) == set(LENSES)
    for lens, pairs in refs.items():
        assert pairs, f"{lens}: its table is empty"
        owner: dict[str, str] = {}
        for name, cause in pairs:
            assert cause in cause_ids(), f"{lens} {name} -> {cause!r}, not in the catalog"
            if lens != "diagnose_rules":
                assert owner.setdefault(name, cause) == cause, f"{lens} {name} -> {owner[name]} and {cause}"


def test_back_links_come_from_the_code_not_the_catalog():
    text = (REPO / "src" / "paddle_doctor" / "catalog" / "causes.toml").read_text(encoding="utf-8")
    assert not re.search(r"^(lint_rules|env_checks|signatures|guard_kinds)\s*=", text, re.M)
    every_rule = {code for links in backlinks().values() for code in links.lint_rules}
    from paddle_doctor.lint.rules import RULES
    assert every_rule == {rule.code for rule in RULES}


def test_the_back_link_index_explain_reads_is_the_registries_own():
    """explain reads links_index.py (it imports no lens); it must say what the registries say."""
    from paddle_doctor.links import collect_backlinks, render_index

    index = (REPO / "src" / "paddle_doctor" / "links_index.py").read_text(encoding="utf-8")
    assert index == render_index(), "regenerate: python -m paddle_doctor.links > src/paddle_doctor/links_index.py"
    assert {cause: {lens: getattr(links, lens) for lens in LENSES if getattr(links, lens)}
            for cause, links in backlinks().items()} == collect_backlinks()


def test_explain_imports_no_lens(tmp_path):
    """The back-links come from the index: explain of a cause imports no lint rule, env check,
    signature table or smoke check."""
    import subprocess
    import sys

    code = ("import sys; from paddle_doctor.cli.main import main; sys.argv = ['paddle-doctor', 'explain', "
            "'shm_too_small']\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(('paddle_doctor.lint', 'paddle_doctor.envcheck', "
            "'paddle_doctor.diagnose', 'paddle_doctor.smoke'))), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "lint rule" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == "[]", done.stderr


def test_code_fences_are_balanced():
    for cause in all_causes():
        for field in ("confirm", "fix"):
            fences = [ln for ln in getattr(cause, field).splitlines() if ln.lstrip().startswith("```")]
            assert len(fences) % 2 == 0, f"{cause.id}.{field}"


def test_eval_fixes_point_at_evaluate_not_drop_last():
    for cid in ("uneven_eval_batches", "eval_samples_dropped", "eval_samples_duplicated",
                "rank_local_metric", "sampler_too_few_samples"):
        fix = get_cause(cid).fix
        assert "paddle_doctor.evaluate(" in fix, cid
        for line in fix.splitlines():
            if "drop_last=True" in line:
                assert "not" in line.lower(), f"{cid} recommends drop_last=True: {line}"


def test_get_cause_unknown_raises():
    with pytest.raises(UnknownCauseError):
        get_cause("nope")
    with pytest.raises(KeyError):  # UnknownCauseError is a KeyError
        get_cause("nope")


def test_docs_causes_md_is_in_step():
    doc = REPO / "docs" / "causes.md"
    assert doc.read_text(encoding="utf-8") == render_markdown(), (
        "docs/causes.md is stale: run `python -m paddle_doctor.render.causes > docs/causes.md`"
    )


def test_markdown_has_every_cause_and_index_row():
    md = render_markdown()
    assert "python -m paddle_doctor.render.causes > docs/causes.md" in md
    for cause in all_causes():
        assert f"\n## `{cause.id}`\n" in md
        assert f"| [`{cause.id}`](#{cause.id}) |" in md


def test_cause_text_shows_every_field():
    cause = get_cause("state_dict_prefix_mismatch")
    text = render_cause_text(cause)
    assert text.startswith(f"{cause.id}: {cause.title}\n")
    for heading in ("Why", "How to confirm", "Fix"):
        assert f"\n{heading}\n" in text
    assert 'p = "_layers."' in text  # the strip-the-prefix snippet survives without its fences
    assert cause.seed in text
    assert links_for(cause.id).lint_rules and all(code in text for code in links_for(cause.id).lint_rules)
    assert "```" not in text


def test_list_text_one_line_per_cause():
    lines = render_list_text().splitlines()
    assert len(lines) == len(all_causes())
    for line, cause in zip(lines, all_causes()):
        assert line.split()[0] == cause.id
        assert line.endswith(cause.title)


def test_render_imports_neither_paddle_nor_rich():
    code = (
        "import sys; import paddle_doctor.render.causes as r; r.render_markdown(); "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('paddle', 'rich')]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


CLI_MENTION = re.compile(r"paddle-doctor ([a-z-]+)")
API_MENTION = re.compile(r"paddle_doctor\.([A-Za-z_]+)")


def _unreal_tool_mentions(text: str) -> list[str]:
    """`paddle-doctor WORD` that is not a registered command, `paddle_doctor.NAME` that is not public."""
    bad = [f"paddle-doctor {w}" for w in CLI_MENTION.findall(text) if w not in COMMANDS]
    for name in API_MENTION.findall(text):
        if name in paddle_doctor.__all__:
            continue
        if importlib.util.find_spec(f"paddle_doctor.{name}") is not None:  # a real submodule
            continue
        bad.append(f"paddle_doctor.{name}")
    return bad


def test_tool_mention_check_catches_tools_that_do_not_exist():
    # (`env`, then `lint`, served as examples of missing commands until they existed; these never will)
    assert _unreal_tool_mentions("run `paddle-doctor frobnicate eval.py` or `paddle-doctor wibble`") == [
        "paddle-doctor frobnicate", "paddle-doctor wibble"]
    assert _unreal_tool_mentions("use `paddle_doctor.no_such_helper(...)`") == ["paddle_doctor.no_such_helper"]
    assert _unreal_tool_mentions(
        "`paddle-doctor diagnose log/`, `paddle-doctor run --trace`, `paddle_doctor.evaluate(...)`, "
        "`python -m paddle_doctor.render.causes`") == []


@pytest.mark.parametrize("cause", all_causes(), ids=lambda c: c.id)
def test_catalog_names_only_commands_and_apis_that_exist(cause: Cause):
    """Docs must match behaviour: a fix that points at a tool a user cannot run is a wrong fix."""
    for field in dataclasses.fields(cause):
        value = getattr(cause, field.name)
        texts = value if isinstance(value, tuple) else (value,)
        for text in texts:
            if isinstance(text, str):
                assert not _unreal_tool_mentions(text), f"{cause.id}.{field.name}: {_unreal_tool_mentions(text)}"


def test_every_cause_member_is_a_catalog_entry_and_the_reverse():
    from paddle_doctor.catalog.ids import CauseId

    assert tuple(member.value for member in CauseId) == cause_ids()
    assert all(member.name == member.value for member in CauseId)


def test_a_drifted_member_list_is_refused_at_import(monkeypatch):
    from paddle_doctor.catalog import ids

    monkeypatch.setattr(ids, "catalog_headers", lambda: tuple(m.value for m in ids.CauseId) + ("new_cause",))
    with pytest.raises(ids.CatalogDriftError, match="only in causes.toml \\['new_cause'\\]"):
        ids.check_against_catalog()


def test_a_cause_member_is_the_plain_id_in_every_format():
    import json

    from paddle_doctor.catalog.ids import CauseId

    assert CauseId.gpu_oom == "gpu_oom" and hash(CauseId.gpu_oom) == hash("gpu_oom")
    assert str(CauseId.gpu_oom) == f"{CauseId.gpu_oom}" == "gpu_oom"
    assert json.dumps({CauseId.gpu_oom: [CauseId.shm_too_small]}) == '{"gpu_oom": ["shm_too_small"]}'
