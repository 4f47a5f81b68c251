"""Would a word model make diagnose's generic verdicts right more often at first look? (No: see below.)

    pip install scikit-learn                             # for this script only
    python bench/word_model.py [--splits 70 80 90 100 105] [--margin 0.5] [--floor 0.3] [--to 109]

When no signature, table or wording names a cause, diagnose's verdict is generic: ``python_exception``
(the generic exception line) or ``unknown`` (an error with no known message). The idea measured here:
a logistic regression (scikit-learn) from the words of the window around the verdict's error line (the
15 lines before it, the line, the 5 after) to the labelled cause, allowed to replace ``unknown`` by its
best cause (probability >= ``--floor``) and ``python_exception`` by a cause likelier by ``--margin``.

For each batch of the first-look table (``bench/RESULTS.md``) the batch's first look is re-run with the
code of the commit its row names (verdict, code, error line). For each split S the model is trained on
the shared sets and the batches before S only (diagnose's current error line of each labelled log),
applied to the first looks of batches S and after, and the generic verdicts right before and after, and
each batch's first-look top-1 both ways, are printed. Figures and the decision: ``bench/results/29-words.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import math
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "src"))
from first_look_calibration import batches, first_look  # noqa: E402
from score_corpus import default_sets, labels  # noqa: E402

from paddle_doctor.findings import Finding  # noqa: E402

C = 0.3  # the regularisation: the forward splits gain most between 0.1 and 0.3 (0.3: a little more on `unknown`)
MIN_LOGS = 2  # a word seen in one labelled log says nothing beyond that log
MIN_WEIGHT = 0.05
LINES_BEFORE, LINES_AFTER = 15, 5
BYTES_BEFORE, BYTES_AFTER = 4096, 2048  # 15 lines of a traceback fit; a longer line is cut
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,}")
FRAME = re.compile(r'\s*File "')
GENERIC = {"exception": "python_exception", "error_without_cause": "unknown"}


@dataclasses.dataclass(frozen=True)
class WordModel:
    causes: tuple[str, ...]
    intercepts: tuple[float, ...]
    weights: dict[str, dict[int, float]]  # word -> {index of a cause: weight}
    trained_on: int

    def likelihoods(self, words: set[str]) -> dict[str, float]:
        """Each cause's probability given the words (a softmax over the causes' linear scores)."""
        scores = list(self.intercepts)
        for word in words & self.weights.keys():
            for index, weight in self.weights[word].items():
                scores[index] += weight
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        return {cause: e / sum(exps) for cause, e in zip(self.causes, exps)}


def window_words(before: bytes, here: bytes, cut_before: bool) -> set[str]:
    """The words of the last LINES_BEFORE lines of ``before`` (its first dropped when cut by the byte
    budget) and the first 1 + LINES_AFTER of ``here`` (which starts at the error line)."""
    lines_before = before.decode("utf-8", "replace").splitlines()
    if cut_before and lines_before:
        lines_before = lines_before[1:]
    lines = lines_before[-LINES_BEFORE:] + here.decode("utf-8", "replace").splitlines()[:1 + LINES_AFTER]
    return {w.lower() for w in WORD.findall("\n".join(lines))}


def anchor_line(quoted: list[tuple[str, int, str]]) -> tuple[str, int] | None:
    """(file, line) of a verdict's error line among its quoted (file, line, text): the last that is not a
    frame's source line (one that follows a ``File "...", line N`` line)."""
    for i in range(len(quoted) - 1, -1, -1):
        if not (i > 0 and FRAME.match(quoted[i - 1][2]) and quoted[i][1] == quoted[i - 1][1] + 1):
            return quoted[i][0], quoted[i][1]
    return None


def resembled_cause(model: WordModel, generic: str, words: set[str], margin: float, floor: float) -> str | None:
    """The cause that replaces the generic verdict, or None (it stands)."""
    likely = model.likelihoods(words)
    cause, p = max(((c, p) for c, p in likely.items() if c != "unknown"), key=lambda cp: cp[1])
    if cause == generic or p < floor or (generic == "python_exception" and p - likely[generic] <= margin):
        return None
    return cause


def labelled_sets() -> list[Path]:
    partial = sorted((REPO / "tests" / "gathered-partial").glob("batch*"))
    return default_sets() + [d for d in partial if (d / "labels.jsonl").exists()]


def batch_number(folder: Path) -> int:
    """The batch's number (0 for the shared sets, gathered before the batches)."""
    return int(folder.name[5:]) if folder.name.startswith("batch") else 0


def window_at(path: Path, line: int | None) -> set[str]:
    """The words of the window around ``line`` (1-based) of ``path``; the log's tail where ``line`` is None."""
    raw = path.read_bytes()
    starts = [0] + [i + 1 for i, b in enumerate(raw) if b == 0x0A and i + 1 < len(raw)]
    index = max(0, len(starts) - 1 - LINES_AFTER) if line is None else min(line, len(starts)) - 1
    offset = starts[index]
    start = max(0, offset - BYTES_BEFORE)
    return window_words(raw[start:offset], raw[offset:offset + BYTES_AFTER], cut_before=start > 0)


@functools.lru_cache(maxsize=None)
def evidence_line(path: Path) -> int | None:
    from paddle_doctor.diagnose import diagnose_paths

    rc: Finding | None = diagnose_paths([str(path)]).root_cause
    anchor = anchor_line([(q.path, q.line, q.text) for q in rc.evidence]) if rc is not None else None
    return anchor[1] if anchor is not None and Path(anchor[0]).resolve() == path.resolve() else None


def examples(until: int | None = None) -> list[tuple[str, set[str]]]:
    """(labelled cause, window words) of every labelled log (of the batches before ``until`` only)."""
    out = []
    for folder in labelled_sets():
        if until is not None and batch_number(folder) >= until:
            continue
        for label in labels(folder):
            path = folder / f"{label['id']}.log"
            if path.exists():
                out.append((label["root_cause"], window_at(path, evidence_line(path))))
        print(f"  {folder.name}: {len(out)} logs so far", file=sys.stderr, flush=True)
    return out


def fit(data: list[tuple[str, set[str]]]) -> dict:
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    seen = Counter(w for _, ws in data for w in ws)
    vec = DictVectorizer()
    x = vec.fit_transform([{w: 1 for w in ws if seen[w] >= MIN_LOGS} for _, ws in data])
    model = LogisticRegression(C=C, max_iter=5000).fit(x, [cause for cause, _ in data])
    weights: dict[str, dict[str, float]] = defaultdict(dict)
    for ci, row in enumerate(model.coef_):
        for wi, weight in enumerate(row):
            if abs(weight) >= MIN_WEIGHT:
                weights[vec.feature_names_[wi]][str(ci)] = round(float(weight), 3)
    return {"causes": [str(c) for c in model.classes_], "intercepts": [round(float(b), 3) for b in model.intercept_],
            "weights": dict(sorted(weights.items())), "trained_on": len(data)}


def as_model(data: dict) -> WordModel:
    return WordModel(tuple(data["causes"]), tuple(data["intercepts"]),
                           {w: {int(i): v for i, v in per.items()} for w, per in data["weights"].items()},
                           data["trained_on"])


def decided(model: WordModel, code: str, got: str, window: set[str], margin: float, floor: float) -> str:
    """What the rule would make of a first look's verdict."""
    generic = GENERIC.get(code)
    if generic is None or got != generic:
        return got
    return resembled_cause(model, generic, window, margin, floor) or got


# Run in the child, with the first look's paddle_doctor importable: one tab-separated line per log.
CHILD = """
import json, sys
from pathlib import Path
from paddle_doctor.diagnose import diagnose_paths
folder = Path(sys.argv[1])
for line in filter(str.strip, (folder / "labels.jsonl").read_text().splitlines()):
    label = json.loads(line)
    path = folder / f"{label['id']}.log"
    rc = diagnose_paths([str(path)]).root_cause
    got = str(getattr(rc.cause, "value", rc.cause)) if rc else "-"
    quoted = [(q.path, q.line, q.text) for q in rc.evidence] if rc is not None else []
    # the anchor as anchor_line finds it (this child runs the first look's code, not this script)
    keep = [q for i, q in enumerate(quoted) if not (i > 0 and quoted[i - 1][2].lstrip().startswith('File "')
                                                    and q[1] == quoted[i - 1][1] + 1)]
    at = keep[-1][1] if keep and Path(keep[-1][0]).resolve() == path.resolve() else ""
    print(label["id"], label["root_cause"], got, getattr(rc, "code", None) or "-", at, sep="\\t", flush=True)
"""


def first_looks(lo: int, hi: int) -> list[tuple[int, Path, list[str]]]:
    out = []
    for n, commit, folder in batches(lo, hi):
        out += [(n, folder, row) for row in first_look(commit, folder, CHILD)]
        print(f"  first look of batch{n} (code of {commit})", file=sys.stderr, flush=True)
    return out


def forward(splits: list[int], margin: float, floor: float, last: int) -> None:
    looks = first_looks(min(splits), last)
    for split in splits:
        model = as_model(fit(examples(until=split)))
        generic = [0, 0, 0]
        per_batch: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
        for n, folder, (log_id, want, got, code, at) in looks:
            if n < split:
                continue
            window = window_at(folder / f"{log_id}.log", int(at) if at else None)
            after = decided(model, code, got, window, margin, floor)
            per_batch[n][0] += 1
            per_batch[n][1] += want == got
            per_batch[n][2] += want == after
            if code in GENERIC:
                generic[0] += 1
                generic[1] += want == got
                generic[2] += want == after
        n_all = sum(v[0] for v in per_batch.values())
        before, after = sum(v[1] for v in per_batch.values()), sum(v[2] for v in per_batch.values())
        print(f"split {split} (trained on {model.trained_on} logs): generic verdicts {generic[1]}/{generic[0]} -> "
              f"{generic[2]}/{generic[0]}; first looks of batches {split}-: {before}/{n_all} -> {after}/{n_all}")
        print("  per batch: " + ", ".join(f"{n} {b}->{a}/{t}" for n, (t, b, a) in sorted(per_batch.items())))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, nargs="+", default=[70, 80, 90, 100, 105])
    parser.add_argument("--margin", type=float, default=0.5, help="how much likelier than python_exception")
    parser.add_argument("--floor", type=float, default=0.3, help="the least probability that replaces unknown")
    parser.add_argument("--to", type=int, default=10**6, help="the last batch scored (29-words.md: 109)")
    args = parser.parse_args(argv)
    forward(args.splits, args.margin, args.floor, args.to)
    return 0


if __name__ == "__main__":
    sys.exit(main())
