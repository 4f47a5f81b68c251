"""The rule table as text: ``paddle-doctor explain PDLxxx`` and ``docs/lint.md``.

Regenerate the page with ``python -m paddle_doctor.lint.docs > docs/lint.md`` (a test keeps it in step).
"""

from __future__ import annotations

import textwrap

from .codes import Rule
from .rules import ALL_RULES

from . import codes as _codes

# the range policy, as codes.py's docstring states it
_POLICY = _codes.__doc__.split("Each rule names")[0].split("\n\n", 1)[1]

USAGE = """\
```
paddle-doctor lint [PATH...] [--format text|concise|json|sarif|github|gitlab|junit] [-o FILE]
                   [--select CODES] [--extend-select CODES] [--ignore CODES] [--statistics]
                   [--fix] [--unsafe-fixes] [--diff] [--show-fixes] [--exit-zero]
                   [--stdin-filename NAME] [--no-cache] [--color auto|always|never]
```

- **PATH**: files or folders; none means `.`; `-` reads one file from stdin, named by
  `--stdin-filename` (its configuration and `per-file-ignores` apply as if it were there).
- **Exit codes** (ruff's): 0 no findings (or `--exit-zero`), 1 findings (with `--diff`: fixes to
  apply), 2 usage error (unknown path or code, bad configuration) or an internal error in a rule
  (reported on stderr; the other rules still run).
- **Report**: `-o FILE` writes it to a file; `--statistics` prints one line per rule
  (`count<TAB>code<TAB>name`) instead of the findings; `--diff` prints what `--fix` (and
  `--unsafe-fixes`) would change as a unified diff and changes nothing; `--show-fixes` lists the
  fixes applied (with `--fix`) or available.
- **Concise**: `path:line:col: CODE message`, one line per finding, nothing else.
- **GitHub** (`--format github`): one workflow command per finding,
  `::error title=paddle-doctor (CODE),file=F,line=L,col=C,endLine=..,endColumn=..::F:L:C: CODE message`
  (`warning`/`notice` by severity), with `%`, CR, LF (and `:`/`,` in properties) escaped.
- **GitLab Code Quality** (`--format gitlab`): a JSON array of `{description, check_name,
  fingerprint, severity, location: {path, lines: {begin, end}}}`, paths relative to the current folder.
- **JUnit** (`--format junit`): one `testsuite` per file, one failing `testcase` per finding.
- **Text**: `path:line:col: CODE [*] message` (columns are 1-based characters), then
  `Found N issues.` and how many `--fix` can repair; `[*]` marks a fix that the given options apply.
- **JSON**: a list; each entry has `code`, `name`, `cause` (a catalog id for
  `paddle-doctor explain`), `message`, `severity`, `confidence`, `filename`, `location`
  `{row, column}`, `end_location`, `fix` (`null` or `{applicability, message, edits}`) and `url`.
- **SARIF 2.1.0** for code scanning: every rule in `tool.driver.rules` (id, name, descriptions,
  help with both examples, `helpUri`), results with a stable `ruleId` and
  `partialFingerprints["pdlHash/v1"]` (the rule, the path and the line's text, not its number).
- **Selection**: `--select`/`--ignore` take codes or prefixes (`PDL1`, `PDL40`, `ALL`),
  comma-separated or repeated; the most specific prefix wins, `ignore` wins a tie. `--select`
  replaces the configured `select`; `--ignore` adds to the configured `ignore`.
- **Configuration**: the nearest `pyproject.toml` above the first PATH:

  ```toml
  [tool.paddle-doctor.lint]
  select = ["ALL"]
  extend-select = ["PDL405"]      # added to select (also to a --select of the command line)
  ignore = ["PDL404"]
  exclude = ["third_party/*"]     # fnmatch patterns, relative to this file's folder (also names)
  max-file-size-mb = 2            # larger files are not parsed: a PDL900 finding

  [tool.paddle-doctor.lint.per-file-ignores]
  "tests/*" = ["PDL303"]          # codes or prefixes ignored in the files a pattern matches
  ```
  A value of the wrong type (`tool = "x"`, `lint = [1]`), a size that is not a finite number of
  MB in (0, 1024], an unknown key or a file TOML cannot read (nested too deeply) is one line on
  stderr and exit 2.
- **Suppression**: `# noqa` (all codes) or `# noqa: PDL101, PDL3` (codes or prefixes) on the first
  or last line of the finding; `# paddle-doctor: noqa` (optionally `: CODES`) in a comment on a
  line of its own for the whole file. Only real comments count (a `# noqa` in a string or a
  docstring does nothing). A malformed code (`# noqa: PDL-501`, `# noqa:` alone) makes the comment
  invalid: a warning on stderr, and it suppresses nothing (ruff's rule).
- **Fixes**: `--fix` applies *safe* fixes (the same behaviour, e.g. PDL302's
  `model._layers.state_dict()`); *unsafe* ones change behaviour (PDL401's `drop_last=False` makes the
  sampler pad with repeated samples; PDL303 wraps a one-line save in a rank-0 test) and need
  `--unsafe-fixes`. A file is rewritten only if it still parses afterwards.
- **What is read**: the files named, and `*.py` under folders (not `.git`, `.venv`, `venv`,
  `build`, `dist`, `node_modules`, hidden folders). Only a file that some selected rule could report
  on (its family's words, read from the text: a `DistributedBatchSampler` for PDL401/402/405, a
  `def` or `for` header named for evaluation and a model's name for PDL403/404, ...) is parsed into
  a tree; every other file is only checked for syntax errors (PDL900: still every file, with
  CPython's own verdict, from its parser without building the tree), and not at all when PDL900 is ignored: `--ignore PDL900` is the fast mode (about a third
  less CPU time cold on PaddleSeg; `bench/results/32-coldlint.md`). A file that another file's finding depends on
  (it names the helper or metric class, see *Whole program*) is parsed in a second pass. A file
  that never mentions `paddle` is checked only up to 2 MB (Python's parser
  holds the whole tree: past that, memory, not a finding, would be the cost); one that cannot be decoded (PEP 263 cookies and BOMs are honoured)
  or parsed (syntax error, NUL bytes), is over the size limit, or is not a regular file (a FIFO
  named `*.py` is never opened for a blocking read) is a **PDL900** finding in every format, so
  the run exits 1 and never says `All checks passed!` about a file it did not read. PDL900 runs
  whatever `select` says; `ignore = ["PDL900"]` turns it off. With 48 files or more, files are
  linted in worker processes, forked (one process where `os.fork` does not exist, or where the calling
  program runs other threads).
- **Cache** (ruff's): results of each file are kept in `.paddle_doctor_cache/` beside the
  `pyproject.toml` (or in the current folder), keyed by the file's bytes, its path, the selection
  and the linter's own code; an unchanged file is not parsed again. The folder holds a
  `.gitignore` of `*`. `--no-cache` neither reads nor writes it; `--fix` never uses it. The cache
  cannot change a result: each record carries an HMAC-SHA256 (under a random per-user key,
  `hmac.key`, mode 0600) over its key and its bytes, checked before it is parsed; a record that
  fails anything is ignored and the file checked afresh. The folders are 0700 and the records 0600;
  a cache folder or key file that another user could write is not used at all (one warning). A run
  also keeps its files' records together in one *pack* (`pack-<hash of the files and selection>`,
  one HMAC over its name and bytes): the next run over the same files reads that one file instead
  of a record per file. Its records are the per-file ones under the same keys, and a pack that
  fails anything is ignored (one over 64 MB is not written). It also keeps each file's size, mtime, ctime (ns) and inode, for files
  last changed more than 2 s before it was written: a file whose four are unchanged is not read
  again (as git's index and ruff do); any other file is read and hashed, so an edit (even one that
  keeps the size and puts the mtime back: the ctime moves) is never a cached hit.
- **Whole program**: a finding that depends on another file of the run is decided once every
  file is read: PDL402 is dropped when every caller of the function, in any file, runs a
  collective on what it gets back, and follows a metric object (fed with `update(...)` in the loop
  or by a helper) whose class, in any file, grows its own counters and never syncs them; PDL303 follows a call to a helper (`save(...)`) that writes
  with `paddle.save`/`paddle.jit.save` on every rank (the helper may be in another file).
- **pre-commit**: add to `.pre-commit-config.yaml`:

  ```yaml
  - repo: https://github.com/OWNER/paddle-doctor   # the repository you install paddle-doctor from
    rev: 0123456789abcdef0123456789abcdef01234567  # a full commit sha (the repository has no release tags yet)
    hooks:
      - id: paddle-doctor-lint
  ```
  or, with paddle-doctor installed, a `repo: local` hook with `entry: paddle-doctor lint`,
  `language: system`, `types: [python]` (README, "paddle-doctor lint").
- **With TorchFix**: its TOR401 asks for `num_workers > 0` (speed); PDL201 does not disagree, it
  asks for the `__main__` guard that makes worker processes safe under the `spawn` start method.
- **Ranks, as the rules see them**: a test is rank-dependent when ranks can take different
  branches (`rank == 0`, `dist.get_rank() in (0, -1)`, `is_main_process`, `ParallelEnv().local_rank`,
  `os.environ["PADDLE_TRAINER_ID"]`, and names assigned from those); a test of the mode
  (`local_rank != -1`, `rank is None`) is the same on every rank and is not. Collectives are
  resolved through imports (`import paddle.distributed as dist`, `from paddle.distributed import
  all_reduce`); a collective with a `group=` argument, and point-to-point `send`/`recv`, may be
  called by some ranks only and are not reported under rank branches.
"""


DEFAULT_SET = """\
A rule is on by default when it reports a distributed-run bug and its findings on real suites are
at least 90 % true (hand review: `bench/lint_review.py`, figures in `bench/RESULTS.md`). An
*opt-in* rule (like ruff's preview rules) would run only when named (`--select PDLxxx` or a
prefix more specific than `PDL`); `ALL` would not turn it on. Since issue 32 every rule is on.

- **On: PDL301** (a checkpoint loaded with `set_state_dict` whose missing/unexpected keys are
  ignored) reports only a load whose mismatch matters: the model is then evaluated, exported or used
  for inference in a function that does not train it, training resumes from it, it is called with
  `strict=False`, or the receiver is a `fleet.distributed_model()` wrapper. Pretrained backbones
  loaded in a constructor, warm starts in a training function, dicts trimmed before the load
  (`del sd["fc.weight"]`) and functions that compare keys are silent. On the five suites' GitHub
  heads it reports 35 findings, all true: every place judged true when it reported every
  unchecked load (57 findings, 21 of them pretrained or fine-tune warm starts); on three
  suites never reviewed before (PaddleSpeech, PaddleRec, PaddleGAN heads) 60 of 60 are true
  (`bench/lint_review.py --heads --new`, figures in `bench/results/32-lint.md`; the default set's
  first look at those three was 86 % strictly true, 97 % after fixing the PDL101/PDL102/PDL303
  false alarms it showed).
- **On: PDL405** (padded duplicates scored: per-batch results all_gathered, or per-rank counts
  all_reduced, over a padding `DistributedBatchSampler`, never compared with `len(dataset)`): no
  finding on 9,162 files (the eight suites' heads above, six more heads: PaddleScience, PaddleViT,
  PaddleMIX, Paddle3D, PaddleHelix, PaddleSlim, and the PaddleNLP and PaddleOCR wheels), so its
  precision has no measure (0 of 0) and it gave no false alarm. By hand, each of the five functions
  there that builds a `DistributedBatchSampler` and all_gathers or all_reduces is rightly silent:
  PaddleSeg's four `evaluate` cut the gathered results to `len(eval_dataset)`, PaddleMIX DiT's
  `main` trains (`bench/results/32-lintspeed.md`). It stays on because the bug it
  reports (up to world_size - 1 samples counted twice) is real whenever `len(dataset)` is not a
  multiple of the world size, and its golden fixtures pair each form with a look-alike.
- **On: every other rule.** On the suites' GitHub heads the default set reports 47 findings, all
  true (35 PDL301, 10 PDL303 every-rank saves through PaddleVideo's `save` helper, 1 PDL402, 1
  PDL900). PDL103 was narrowed (a handler that computes the collective's result
  locally is a single-process fallback whose error is the same on every rank: ppdet's gfl/simota
  heads); PDL401 and PDL403 were narrowed for the false alarms the review found.
- **PDL900** (a file that could not be checked) always runs unless ignored by name: a run must not
  pass silently over a file it did not read."""


def rule_text(rule: Rule) -> str:
    fix = {None: "no automatic fix", "safe": "`--fix`", "unsafe": "`--fix --unsafe-fixes` (changes behaviour)"}[
        rule.fixable.value if rule.fixable else None]
    return (f"{rule.code} {rule.name}: {rule.summary}\n\n"
            f"Cause: {rule.cause} (paddle-doctor explain {rule.cause})\n"
            f"Severity: {rule.severity.value}; automatic fix: {fix.replace('`', '')}\n"
            f"Fix: {rule.fix}\n\n"
            f"Wrong\n{textwrap.indent(rule.wrong, '    ')}\n\nRight\n{textwrap.indent(rule.right, '    ')}\n"
            f"\nSuppress with `# noqa: {rule.code}` on the line, or `ignore = [\"{rule.code}\"]` in "
            "[tool.paddle-doctor.lint].\n")


def rules_list_text() -> str:
    """``explain --list``'s lint part: one line per rule, ``code  name  (default|opt-in)``."""
    width = max(len(r.name) for r in ALL_RULES)
    return "\nLint rules (paddle-doctor explain PDLxxx):\n" + "".join(
        f"{r.code}  {r.name.ljust(width)}  {'on' if r.default else 'opt-in'}\n" for r in ALL_RULES)


def render_markdown() -> str:
    out = ["# `paddle-doctor lint` rules", "",
           "<!-- generated: python -m paddle_doctor.lint.docs > docs/lint.md (do not edit by hand) -->", "",
           "Paddle-aware checks that find distributed-evaluation bugs in the source, before the run.", "",
           "## Usage", "", USAGE,
           "## Code ranges", "", "```", textwrap.dedent(_POLICY).strip("\n"), "```", "",
           "## Default set", "", DEFAULT_SET, "",
           "| code | name | default | cause | fix | summary |", "|---|---|---|---|---|---|"]
    for rule in ALL_RULES:
        anchor = f"{rule.code.lower()}-{rule.name}"
        fix = rule.fixable.value if rule.fixable else ""
        out.append(f"| [{rule.code}](#{anchor}) | `{rule.name}` | {'on' if rule.default else 'opt-in'} "
                   f"| [`{rule.cause}`](causes.md#{rule.cause}) | {fix} | {rule.summary} |")
    for rule in ALL_RULES:
        out += ["", f"## {rule.code} {rule.name}", "", rule.summary, "",
                f"Cause: [`{rule.cause}`](causes.md#{rule.cause}). Severity: {rule.severity.value}."
                + (f" Fix: {rule.fixable.value} (`--fix`{' --unsafe-fixes' if rule.fixable.value == 'unsafe' else ''})."
                   if rule.fixable else ""),
                "", f"Fix: {rule.fix}", "", "Wrong:", "", "```python", rule.wrong, "```", "", "Right:", "", "```python", rule.right, "```"]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(render_markdown(), end="")
