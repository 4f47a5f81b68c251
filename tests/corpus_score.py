"""Scoring diagnose on labelled sets of logs (a folder with ``labels.jsonl`` and, per label, ``ID.log`` or a
folder ``ID/`` holding a job's ``terminal.out`` and ``log/workerlog.N``): top-1, top-3, failing rank, calibration (right/total per confidence level diagnose gave) and, for each
reasoning rule (``diagnose.rules``), how often it decided and how often it was right. Used by
``tests/unit/test_diagnose_corpus.py`` and ``bench/rules_precision.py``."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.diagnose.rules import rule_of

REPO = Path(__file__).resolve().parents[1]
CONFIDENCES = ("high", "medium", "low")
NO_VERDICT = "(no verdict)"
PRECISION_GOAL = 0.90


def labelled_sets(shared: list[Path]) -> list[Path]:
    """The shared sets that are present, then every labelled folder under tests/fixtures (gathered sets)."""
    found = [c for c in dict.fromkeys(shared) if (c / "labels.jsonl").exists()]
    return found + sorted(p.parent for p in (REPO / "tests" / "fixtures").rglob("labels.jsonl"))


def case_path(corpus: Path, case_id: str) -> Path:
    """A labelled case: ``ID.log`` (one pasted log) or the folder ``ID/`` (a job's outputs, every rank's log)."""
    log = corpus / f"{case_id}.log"
    return log if log.exists() else corpus / case_id


def labels(corpus: Path) -> list[dict]:
    return [json.loads(line) for line in (corpus / "labels.jsonl").read_text().splitlines() if line.strip()]


@dataclass
class Row:
    id: str
    want: str
    got: str | None
    confidence: str | None
    rule: str | None
    alternatives: tuple[str, ...]
    code: str | None = None  # the verdict's code: for a rule that defers, the signature it deferred to
    label_confidence: str = "?"  # how sure the labeller was (confirmed, likely, ...)
    want_rank: int | None = None  # the labelled rank that failed first (None: the label names none)
    got_rank: int | None = None  # the rank the verdict names first

    @property
    def hit1(self) -> bool:
        return self.got == self.want

    @property
    def hit3(self) -> bool:
        return self.want in (self.got, *self.alternatives)


@dataclass
class Score:
    name: str
    rows: list[Row] = field(default_factory=list)

    def calibration(self) -> dict[str, tuple[int, int]]:
        """confidence -> (right, total)."""
        out = {}
        for level in CONFIDENCES:
            rows = [r for r in self.rows if r.confidence == level]
            if rows:
                out[level] = (sum(r.hit1 for r in rows), len(rows))
        return out

    def per_rule(self) -> dict[str, tuple[int, int]]:
        """rule code -> (right, fired)."""
        out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for r in self.rows:
            out[r.rule or NO_VERDICT][0] += r.hit1
            out[r.rule or NO_VERDICT][1] += 1
        return {code: (right, fired) for code, (right, fired) in sorted(out.items())}

    def per_code(self, rule: str) -> dict[str, tuple[int, int]]:
        """For a rule that defers (to a signature, a table part): verdict code -> (right, fired)."""
        out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for r in self.rows:
            if r.rule == rule and r.code != rule:
                out[str(r.code)][0] += r.hit1
                out[str(r.code)][1] += 1
        return {code: (right, fired) for code, (right, fired) in sorted(out.items())}

    def failing_rank(self) -> tuple[int, int]:
        """(right, labelled) over the cases whose label names the rank that failed first."""
        ranked = [r for r in self.rows if r.want_rank is not None]
        return sum(r.got_rank == r.want_rank for r in ranked), len(ranked)

    def by_label_confidence(self) -> dict[str, tuple[int, int, int]]:
        """label confidence -> (top-1 right, top-3 right, total)."""
        out: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
        for r in self.rows:
            stat = out[r.label_confidence]
            stat[0], stat[1], stat[2] = stat[0] + r.hit1, stat[1] + r.hit3, stat[2] + 1
        return {k: (a, b, c) for k, (a, b, c) in sorted(out.items())}


def score(corpus: Path) -> Score:
    result = Score("/".join(corpus.parts[-2:]) if "fixtures" in corpus.parts else corpus.name)
    for label in labels(corpus):
        rc = diagnose_paths([str(case_path(corpus, label["id"]))]).root_cause
        rule = rule_of(rc)
        result.rows.append(Row(label["id"], label["root_cause"], rc.cause if rc else None,
                               rc.confidence.value if rc else None, rule.code if rule else None,
                               tuple(a.cause for a in rc.alternatives) if rc else (), rc.code if rc else None,
                               label.get("confidence", "?"), label.get("failing_rank"),
                               rc.ranks[0] if rc and rc.ranks else None))
    return result


def report(s: Score) -> list[str]:
    """The lines the corpus test and the bench print for one set."""
    n = len(s.rows)
    top1, top3 = sum(r.hit1 for r in s.rows), sum(r.hit3 for r in s.rows)
    lines = [f"{s.name}: top-1 {top1}/{n} ({top1 / n:.0%}), top-3 {top3}/{n} ({top3 / n:.0%})"]
    ranks_right, ranked = s.failing_rank()
    if ranked:
        lines[0] += f", failing rank {ranks_right}/{ranked}"
    lines.append("  calibration: " + ", ".join(f"{level} {right}/{total}"
                                             for level, (right, total) in s.calibration().items()))
    lines += [f"  label confidence {conf:<13} top-1 {h1}/{k}, top-3 {h3}/{k}"
              for conf, (h1, h3, k) in s.by_label_confidence().items()]
    for code, (right, fired) in s.per_rule().items():
        low = right < PRECISION_GOAL * fired and code != NO_VERDICT
        lines.append(f"  rule {code:<28} right {right}/{fired}" + ("  BELOW 90 %" if low else ""))
        lines += [f"      via {via:<24} right {r}/{f}" for via, (r, f) in s.per_code(code).items()]
    return lines
