"""The prefilter before parsing (issue 32, speed): a file no selected rule could report on is only
syntax-checked; its whole-program facts are computed in a second pass when a pending finding names
a word of its text. Neither may change a finding."""

from __future__ import annotations

import ast
import gc
import re
import symtable
import unicodedata
import weakref
from pathlib import Path

import pytest

from paddle_doctor.lint import LintConfig, engine, files, lint_paths, lint_text
from paddle_doctor.lint.rules import BY_CODE, FAMILIES, REPORTABLE, eval_mode
from paddle_doctor.lint.semantics import EVAL_WORDS

FIXTURES = sorted((Path(__file__).parent / "fixtures" / "checker").glob("*.py"))
QUIET = "import paddle\n\n\ndef scale(x):\n    return paddle.to_tensor(x) * 2  # evaluation of nothing\n"


def _write(tmp_path, files: dict[str, str]) -> str:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return str(tmp_path)


def _found(result) -> list[tuple[str, int, str]]:
    return [(f.code, f.location.line, f.message) for f in result.findings]


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
def test_the_prefilter_keeps_every_fixture_finding(fixture, monkeypatch):
    """Linted as a run does (prefilter, second pass) and parsed whole with every family that its
    TRIGGERS start (as before the prefilter): the same findings, positives and look-alikes alike."""
    prefiltered = _found(lint_paths([str(fixture)], jobs=1))
    monkeypatch.setattr(engine, "plan", lambda text, enabled: ([(codes, family) for codes, family in FAMILIES if any(
        word in text for word in family.TRIGGERS)], True))
    whole = lint_text(fixture.read_text(encoding="utf-8"), str(fixture))[0]
    assert prefiltered == [(f.code, f.location.line, f.message) for f in whole]


def test_every_rule_example_that_reports_passes_the_prefilter():
    for rule in BY_CODE.values():
        if not rule.wrong or rule.code == "PDL900":
            continue
        assert any(may_report(rule.wrong) for codes, may_report in REPORTABLE if rule.code in codes), rule.code


def test_a_file_no_rule_could_report_on_is_not_parsed(tmp_path):
    result = lint_paths([_write(tmp_path, {"quiet.py": QUIET})], jobs=1)
    assert result.findings == [] and result.files == 1 and result.parsed == 0


def test_its_syntax_error_is_still_pdl900_with_the_parser_message(tmp_path):
    bad = QUIET + "def broken(:\n"
    result = lint_paths([_write(tmp_path, {"bad.py": bad})], jobs=1)
    with pytest.raises(SyntaxError) as exc:
        compile(bad, "bad.py", "exec", flags=0x400)  # ast.PyCF_ONLY_AST: the message the run reports
    assert [(f.code, f.location.line) for f in result.findings] == [("PDL900", exc.value.lineno)]
    assert exc.value.msg in result.findings[0].message


def test_what_only_the_symbol_table_refuses_is_not_pdl900(tmp_path):
    """``nonlocal`` at module level parses (ast.parse accepts it; only compiling refuses it): the cheap
    check (symtable) refuses it, the run asks ast.parse, which accepts it, as before the prefilter."""
    odd = QUIET + "nonlocal x\n"
    with pytest.raises(SyntaxError):
        symtable.symtable(odd, "odd.py", "exec")
    assert lint_paths([_write(tmp_path, {"odd.py": odd})], jobs=1).findings == []


def test_a_saver_in_a_file_that_cannot_report_is_found_in_the_second_pass(tmp_path):
    helper = "import paddle\n\n\ndef save_weights(obj, path):\n    paddle.save(obj, path)\n"
    train = ("import paddle\nfrom utils import save_weights\n\n\ndef train(model, out):\n"
             "    paddle.distributed.init_parallel_env()\n    model = paddle.DataParallel(model)\n"
             "    save_weights(model.state_dict(), out + '/best.pdparams')\n")
    result = lint_paths([_write(tmp_path, {"utils.py": helper, "train.py": train})], jobs=1)
    assert [(f.code, Path(f.location.path).name) for f in result.findings] == [("PDL303", "train.py")]
    assert result.parsed == 2  # utils.py only because train.py's pending finding names `save_weights`


def test_an_unrelated_file_is_not_parsed_in_the_second_pass(tmp_path):
    helper = "import paddle\n\n\ndef save_weights(obj, path):\n    paddle.save(obj, path)\n"
    train = ("import paddle\nfrom utils import save_weights\n\n\ndef train(model, out):\n"
             "    paddle.distributed.init_parallel_env()\n    model = paddle.DataParallel(model)\n"
             "    save_weights(model.state_dict(), out + '/best.pdparams')\n")
    result = lint_paths([_write(tmp_path, {"utils.py": helper, "train.py": train, "quiet.py": QUIET})], jobs=1)
    assert len(result.findings) == 1 and result.files == 3 and result.parsed == 2


def test_parallel_and_serial_runs_agree_and_the_collector_is_back_on(tmp_path):
    files = {f"quiet{i}.py": QUIET for i in range(50)}
    files.update({"bad.py": QUIET + "(((\n", "a.py": FIXTURES[1].read_text(encoding="utf-8")})
    root = _write(tmp_path, files)
    assert gc.isenabled()
    parallel, serial = lint_paths([root], jobs=2), lint_paths([root], jobs=1)
    assert gc.isenabled()
    assert _found(parallel) == _found(serial) and parallel.parsed == serial.parsed
    assert [Path(f.location.path).name for f in serial.findings if f.code == "PDL900"] == ["bad.py"]


def test_an_excluded_family_does_not_parse_the_file(tmp_path):
    loads = "import paddle\n\n\ndef load(model, path):\n    model.set_state_dict(paddle.load(path))\n"
    root = _write(tmp_path, {"load.py": loads})
    assert lint_paths([root], LintConfig().with_cli(("PDL1",), ()), jobs=1).parsed == 0
    assert lint_paths([root], LintConfig().with_cli(("PDL301",), ()), jobs=1).parsed == 1


def test_with_pdl900_ignored_such_a_file_is_not_even_syntax_checked(tmp_path, monkeypatch):
    root = _write(tmp_path, {"bad.py": QUIET + "def broken(:\n", "plain.py": "def broken(:\n"})
    checked, parses = [], engine._parses
    monkeypatch.setattr(engine, "_parses", lambda text, path: checked.append(path) or parses(text, path))
    ignored = lint_paths([root], LintConfig().with_cli(None, ("PDL900",)), jobs=1)
    assert ignored.findings == [] and ignored.skipped == [] and checked == []
    assert [f.code for f in lint_paths([root], jobs=1).findings] == ["PDL900", "PDL900"] and len(checked) == 2


def test_a_warm_run_decides_pending_findings_as_the_cold_one(tmp_path):
    """The second pass's results are cached under their own key: a warm run, which reads every record
    and parses nothing, keeps the PDL303 that only the helper file's summary decides."""
    helper = "import paddle\n\n\ndef save_weights(obj, path):\n    paddle.save(obj, path)\n"
    train = ("import paddle\nfrom utils import save_weights\n\n\ndef train(model, out):\n"
             "    paddle.distributed.init_parallel_env()\n    model = paddle.DataParallel(model)\n"
             "    save_weights(model.state_dict(), out + '/best.pdparams')\n")
    (tmp_path / "src").mkdir()
    root = _write(tmp_path / "src", {"utils.py": helper, "train.py": train, "quiet.py": QUIET})
    cache = str(tmp_path / "cache")
    cold = lint_paths([root], jobs=1, cache_dir=cache)
    warm = lint_paths([root], jobs=1, cache_dir=cache)
    assert _found(warm) == _found(cold) and [f.code for f in warm.findings] == ["PDL303"]
    guarded = helper.replace("    paddle.save", "    if paddle.distributed.get_rank() == 0:\n        paddle.save")
    (tmp_path / "src" / "utils.py").write_text(guarded, encoding="utf-8")
    assert lint_paths([root], jobs=1, cache_dir=cache).findings == []  # the helper changed: decided afresh


# The regex PDL403/404's may_report tried at every line start before issue 32's cold-run work; the
# str.find version must answer as it did (it is a twelfth of the run's CPU less).
_OLD_HEADS = re.compile(r"^[ \t\f]*(?:async[\s\\]+)?(?:def[\s\\]+(\w+)|for\b([^:]*))", re.M)


def _old_eval_heads(text: str) -> bool:
    lowered = (text if text.isascii() else unicodedata.normalize("NFKC", text)).lower()
    return any(word in EVAL_WORDS for name, head in _OLD_HEADS.findall(lowered)
               for word in re.findall(r"[a-z]+", name or head))


@pytest.mark.parametrize("text", [
    "def evaluate(model):\n    pass\n", "async def run_val(x): pass\n", "async \\\n  def Val_Step(x): pass\n",
    "def\\\n  evaluation(): pass\n", "    for batch in test_loader:\n        pass\n", "for (x, y) in\\\n dev_set: pass\n",
    "\tfor i in range(3): validate(i)\n", "x = 1  # def evaluate(model)\n", "s = 'for x in eval_loader'\n",
    "def format_eval(): pass\n", "def testing_tools(): pass\n", "FOR = 1\ndef forward(x): return x\n",
    "def ｅｖａｌ(): pass\n", "def évaluer(): pass\n", "formatter = 1\nfor_eval = 2\n", "for", "def", "",
    "def train():\n    for step in range(10):\n        pass\n", "x = [a for a in val]\n",
])
def test_the_eval_head_test_answers_as_the_regex_it_replaced(text):
    with_a_model = "model = build()\n" + text  # the other condition, a model's name, holds
    assert eval_mode.may_report(with_a_model) is _old_eval_heads(with_a_model)


def test_the_eval_head_test_answers_as_the_regex_on_every_fixture_and_example():
    texts = [p.read_text(encoding="utf-8") for p in FIXTURES] + [t for r in BY_CODE.values() for t in (r.wrong, r.right) if t]
    texts = [t for t in texts if any(word in t.lower() for word in ("model", "net", "ema"))]
    assert len(texts) > 50 and [eval_mode.may_report(t) for t in texts] == [_old_eval_heads(t) for t in texts]


def test_an_evaluation_loop_that_calls_no_model_is_not_parsed(tmp_path):
    """PDL403/404 report a model's call (semantics.model_like): a file whose text names none is not parsed."""
    loop = "import paddle\n\n\ndef evaluate(m, loader):\n    for x in loader:\n        out = {0}(x)\n"
    quiet = lint_paths([_write(tmp_path, {"eval.py": loop.format("predictor")})], jobs=1)
    assert quiet.parsed == 0 and quiet.findings == []
    for name in ("model", "net", "ema", "self.student_model", "Network"):
        (tmp_path / "eval.py").write_text(loop.format(name) + "\nevaluate(None, [])\n", encoding="utf-8")
        assert lint_paths([str(tmp_path)], jobs=1).parsed == 1, name


def test_a_linted_tree_is_freed_without_the_garbage_collector(monkeypatch):
    """The parent links are a cycle: unlinked after the file is linted, its tree goes when dropped
    (the collector's passes over linked trees were a tenth of a cold run's CPU)."""
    trees, parse = [], ast.parse
    monkeypatch.setattr(engine.ast, "parse", lambda *a, **k: trees.append(weakref.ref(tree := parse(*a, **k))) or tree)
    collecting = gc.isenabled()
    gc.disable()
    try:
        findings = lint_text(FIXTURES[1].read_text(encoding="utf-8"), str(FIXTURES[1]))[0]
        assert len(trees) == 1 and trees[0]() is None and findings
    finally:
        if collecting:
            gc.enable()


@pytest.mark.parametrize("text, parsed", [
    ("import paddle.distributed as dist\n\n\ndef f(x):\n    dist.all_reduce(x)\n", True),
    ("from paddle.distributed import all_gather_object\n\n\ndef f(x):\n    all_gather_object([], x)\n", True),
    ("import paddle.distributed as dist  # gathered below\n\n\ndef f(x):\n    dist.ａｌｌ_ｒｅｄｕｃｅ(x)\n", True),
    ("import paddle\n# distributed: reduce_mean, gathered, all_reduced\nloss = paddle.reduce_mean(x)\n", False),
    ("import paddle.distributed\nx = paddle.distributed.barrier", True),  # at the very end
    ("barrier()  # paddle.distributed\n", True),  # at the very start
    ("import paddle.distributed\ny = x.all_gather_objects + all_reduce2 + _barrier\n", False),
])
def test_collectives_parse_a_file_only_when_a_collective_is_named_as_a_whole_word(tmp_path, text, parsed):
    """PDL101-104 start from a call named for a collective (an identifier, NFKC-normalised as the parser does)."""
    collectives = next(family for codes, family in FAMILIES if "PDL101" in codes)
    assert collectives.may_report(text) is parsed
    config = LintConfig().with_cli(("PDL1",), ())
    assert lint_paths([_write(tmp_path, {"c.py": text})], config, jobs=1).parsed == int(parsed)


def test_a_deferred_file_not_kept_in_the_main_process_is_read_by_the_second_pass(tmp_path, monkeypatch):
    """The main process keeps deferred files' bytes (up to a total) to look for pending names; a file
    past that total is read by the worker, which lints it only if it holds one."""
    helper = "import paddle\n\n\ndef save_weights(obj, path):\n    paddle.save(obj, path)\n"
    train = ("import paddle\nfrom utils import save_weights\n\n\ndef train(model, out):\n"
             "    paddle.distributed.init_parallel_env()\n    model = paddle.DataParallel(model)\n"
             "    save_weights(model.state_dict(), out + '/best.pdparams')\n")
    root = _write(tmp_path, {"utils.py": helper, "train.py": train, "quiet.py": QUIET})
    kept = lint_paths([root], jobs=1)
    monkeypatch.setattr(files.Kept, "keep", lambda self, path, data: None)
    read_again = lint_paths([root], jobs=1)
    assert _found(read_again) == _found(kept) and [f.code for f in kept.findings] == ["PDL303"]
    assert read_again.parsed == kept.parsed == 2  # quiet.py holds no pending name: not linted in full
