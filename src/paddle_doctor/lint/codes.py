"""The lint rule table, as data.

Range policy (a code never changes meaning once published; retired codes are not reused):

    PDL1xx  collectives and deadlocks: a collective some ranks never reach, or reach out of step
    PDL2xx  DataLoader and processes: worker processes, start methods, main guards
    PDL3xx  checkpoints and state dicts: who writes, what is loaded, which keys
    PDL4xx  evaluation correctness: samples dropped or counted twice, rank-local metrics, eval mode
    PDL5xx  device and environment: variables read by Paddle at import time
    PDL9xx  reserved for the linter itself (never a rule about user code)

Each rule names one catalog cause (``paddle-doctor explain CAUSE``); the catalog's ``lint_rules``
back-links are derived from :data:`RULES`. ``wrong`` and ``right`` are the examples that
``paddle-doctor explain PDLxxx`` and ``docs/lint.md`` show; the golden fixtures hold many more.
This module imports nothing of paddle_doctor but the record's enums.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..findings import Fixable, Severity
from ..catalog.ids import CauseId

DOCS_URL = "https://github.com/paddle-doctor/paddle-doctor/blob/main/docs/lint.md"


@dataclass(frozen=True)
class Rule:
    code: str
    name: str  # kebab-case symbol (pylint style); stable like the code
    cause: str  # catalog cause id
    summary: str  # one line
    wrong: str  # a minimal example the rule reports
    right: str  # the same code, fixed
    fixable: Fixable | None = None  # what --fix can do (None: nothing automatic)
    severity: Severity = Severity.ERROR
    fix: str = ""  # the remedy in one line (the Finding's ``fix``; the catalog holds the long one)
    default: bool = True  # in the default selection; False: opt-in (``--select`` it or ``ALL``), like ruff's preview

    @property
    def url(self) -> str:
        return f"{DOCS_URL}#{self.code.lower()}-{self.name}"


RULES: tuple[Rule, ...] = (
    Rule(
        "PDL101", "collective-in-rank-branch", CauseId.rank_divergent_collective,
        "A collective is called inside a branch that depends on the rank: the other ranks never join it and hang.",
        fix='Call the collective on every rank, outside the branch; keep only the printing or saving under the rank test.',
        wrong="""\
if dist.get_rank() == 0:
    dist.all_reduce(total)      # ranks != 0 never call it
    print(total.item())""",
        right="""\
dist.all_reduce(total)          # every rank
if dist.get_rank() == 0:
    print(total.item())""",
    ),
    Rule(
        "PDL102", "collective-after-rank-exit", CauseId.rank_divergent_collective,
        "A collective follows a rank-dependent return/break/continue: the ranks that left never join it.",
        fix='Run the collective before the rank-dependent exit, or make every rank take the same exit.',
        wrong="""\
for batch in loader:
    if rank != 0:
        continue
    dist.barrier()              # only rank 0 gets here""",
        right="""\
for batch in loader:
    dist.barrier()
    if rank != 0:
        continue""",
    ),
    Rule(
        "PDL103", "collective-error-swallowed", CauseId.rank_divergent_collective,
        "A try/except around a collective swallows the error: this rank goes on while the others are one collective ahead or behind.",
        fix="Let the collective's error propagate (or exit the process) so every rank stops together.",
        wrong="""\
try:
    dist.all_reduce(loss)
except Exception:
    pass                        # this rank continues out of step""",
        right="""\
dist.all_reduce(loss)           # let it fail on every rank""",
    ),
    Rule(
        "PDL104", "per-batch-all-gather-uneven", CauseId.uneven_eval_batches,
        "A per-batch all_gather runs over a loader that is not a DistributedBatchSampler: the last batches differ across ranks.",
        fix='Shard with DistributedBatchSampler (same batch count and shapes), pad to a common shape, or use all_gather_object; paddle_doctor.evaluate() syncs once per evaluation.',
        wrong="""\
loader = DataLoader(shard, batch_size=32)
for x, y in loader:
    preds = []
    dist.all_gather(preds, model(x))   # shapes differ on the last batch""",
        right="""\
sampler = DistributedBatchSampler(dataset, batch_size=32)
loader = DataLoader(dataset, batch_sampler=sampler)
for x, y in loader:
    preds = []
    dist.all_gather(preds, model(x))""",
        severity=Severity.WARNING,
    ),
    Rule(
        "PDL201", "dataloader-workers-without-main-guard", CauseId.main_guard_missing,
        "A DataLoader with num_workers > 0 is reached at module level without an `if __name__ == \"__main__\":` guard.",
        fix='Move the loader and the loop into main() and call it under `if __name__ == "__main__":`.',
        wrong="""\
loader = DataLoader(ds, batch_size=32, num_workers=4)
for batch in loader:
    ...""",
        right="""\
def main():
    loader = DataLoader(ds, batch_size=32, num_workers=4)
    for batch in loader:
        ...

if __name__ == "__main__":
    main()""",
    ),
    Rule(
        "PDL202", "spawn-without-main-guard", CauseId.main_guard_missing,
        "paddle.distributed.spawn() runs at module level without an `if __name__ == \"__main__\":` guard: each spawned process re-imports the module and spawns again.",
        fix='Call spawn() from main() under `if __name__ == "__main__":`.',
        wrong="""\
import paddle.distributed as dist
dist.spawn(train, nprocs=2)""",
        right="""\
import paddle.distributed as dist

if __name__ == "__main__":
    dist.spawn(train, nprocs=2)""",
    ),
    Rule(
        "PDL301", "state-dict-load-unchecked", CauseId.state_dict_prefix_mismatch,
        "The result of set_state_dict()/set_dict()/load_dict() (missing and unexpected keys) is ignored: a mismatch only warns and keeps random weights.",
        fix='Keep the result: `missing, unexpected = layer.set_state_dict(sd)` and raise if either is non-empty.',
        wrong="""\
model.set_state_dict(paddle.load("model.pdparams"))""",
        right="""\
missing, unexpected = model.set_state_dict(paddle.load("model.pdparams"))
if missing or unexpected:
    raise RuntimeError(f"missing {missing[:5]}, unexpected {unexpected[:5]}")""",
        default=False,  # checkpoint hygiene, not a distributed bug: 0 of 21 strictly true on 4 suites (bench/RESULTS.md)
    ),
    Rule(
        "PDL302", "wrapper-state-dict-saved", CauseId.state_dict_prefix_mismatch,
        "The state dict of a fleet.distributed_model() wrapper, or named_parameters(), is saved: keys carry a `_layers.` prefix (or lack the buffers) a bare model does not match.",
        fix='Save the bare model: `model._layers.state_dict()`.',
        wrong="""\
model = fleet.distributed_model(net)
paddle.save(model.state_dict(), "model.pdparams")""",
        right="""\
model = fleet.distributed_model(net)
paddle.save(model._layers.state_dict(), "model.pdparams")""",
        fixable=Fixable.SAFE,
        severity=Severity.WARNING,
    ),
    Rule(
        "PDL303", "checkpoint-saved-by-every-rank", CauseId.concurrent_checkpoint_write,
        "paddle.save() to a path shared by all ranks is reached by every rank: concurrent writers corrupt the file.",
        fix='Save on one rank (`if dist.get_rank() == 0:`) or put the rank in the file name.',
        wrong="""\
dist.init_parallel_env()
...
paddle.save(model.state_dict(), "model.pdparams")""",
        right="""\
dist.init_parallel_env()
...
if dist.get_rank() == 0:
    paddle.save(model.state_dict(), "model.pdparams")""",
        fixable=Fixable.UNSAFE,
    ),
    Rule(
        "PDL401", "eval-sampler-drop-last", CauseId.eval_samples_dropped,
        "An evaluation DistributedBatchSampler has drop_last=True: real samples are silently left out of the metric.",
        fix='Use drop_last=False and count each sample once (paddle_doctor.evaluate() is exact).',
        wrong="""\
eval_sampler = DistributedBatchSampler(eval_ds, batch_size=32, drop_last=True)""",
        right="""\
eval_sampler = DistributedBatchSampler(eval_ds, batch_size=32, drop_last=False)
# the padding repeats up to world_size - 1 samples: count by sample id,
# or use paddle_doctor.evaluate(), which is exact""",
        fixable=Fixable.UNSAFE,
    ),
    Rule(
        "PDL402", "rank-local-metric", CauseId.rank_local_metric,
        "An evaluation over a DistributedBatchSampler accumulates its metric per rank and reports it with no all_reduce/all_gather.",
        fix="all_reduce the metric's sufficient statistics (sums and counts) before reporting, or use paddle_doctor.evaluate().",
        wrong="""\
sampler = DistributedBatchSampler(eval_ds, batch_size=32)
for x, y in DataLoader(eval_ds, batch_sampler=sampler):
    correct += (model(x).argmax(1) == y).sum().item()
if dist.get_rank() == 0:
    print(correct / len(eval_ds))   # rank 0's shard only""",
        right="""\
stats = paddle.to_tensor([correct, seen])
dist.all_reduce(stats)
if dist.get_rank() == 0:
    print((stats[0] / stats[1]).item())""",
    ),
    Rule(
        "PDL403", "eval-loop-without-no-grad", CauseId.gpu_oom,
        "An evaluation loop runs the model outside paddle.no_grad(): every batch keeps its autograd graph and memory.",
        fix='Run the loop under `with paddle.no_grad():` or decorate the function with `@paddle.no_grad()`.',
        wrong="""\
def evaluate(model, loader):
    model.eval()
    for x, y in loader:
        out = model(x)""",
        right="""\
@paddle.no_grad()
def evaluate(model, loader):
    model.eval()
    for x, y in loader:
        out = model(x)""",
        severity=Severity.WARNING,
    ),
    Rule(
        "PDL404", "eval-loop-without-eval-mode", CauseId.model_not_in_eval_mode,
        "An evaluation loop runs the model without model.eval(): dropout and batch norm stay in training mode.",
        fix='Call `model.eval()` before the loop (and `model.train()` after, if training continues).',
        wrong="""\
@paddle.no_grad()
def evaluate(model, loader):
    for x, y in loader:
        out = model(x)""",
        right="""\
@paddle.no_grad()
def evaluate(model, loader):
    model.eval()
    for x, y in loader:
        out = model(x)""",
        severity=Severity.WARNING,
    ),
    Rule(
        "PDL405", "eval-padded-samples-counted", CauseId.eval_samples_duplicated,
        "Per-sample results of an evaluation DistributedBatchSampler (drop_last=False) are all_gathered and scored without removing the padding: up to world_size - 1 samples count twice.",
        fix="Keep the first len(dataset) gathered results (the sampler pads by repeating the first samples), or use paddle_doctor.evaluate(), which is exact.",
        wrong="""\
sampler = DistributedBatchSampler(eval_ds, batch_size=32)
preds = []
for x, y in DataLoader(eval_ds, batch_sampler=sampler):
    out = []
    dist.all_gather(out, model(x))
    preds.extend(out)
score = metric(preds)                # the padded duplicates are scored too""",
        right="""\
sampler = DistributedBatchSampler(eval_ds, batch_size=32)
preds = []
for x, y in DataLoader(eval_ds, batch_sampler=sampler):
    out = []
    dist.all_gather(out, model(x))
    preds.extend(out)
score = metric(preds[:len(eval_ds)])  # drop the padding""",
        severity=Severity.WARNING,
        default=False,  # new in issue 18: no finding on the suites yet to measure its precision
    ),
    Rule(
        "PDL501", "device-env-after-import", CauseId.cuda_visible_devices_misconfig,
        "CUDA_VISIBLE_DEVICES or FLAGS_selected_gpus is set in os.environ after `import paddle`: Paddle has already read it.",
        fix="Set it before `import paddle` (first lines of the script) or in the launch command's environment.",
        wrong="""\
import paddle
os.environ["CUDA_VISIBLE_DEVICES"] = "0\"""",
        right="""\
import os
os.environ["CUDA_VISIBLE_DEVICES"] = "0"
import paddle""",
    ),
)

# The linter's own codes (PDL9xx): a file it could not check is reported like any finding, so a run
# never says "All checks passed!" about a file it did not read.
UNCHECKED = "PDL900"
LINTER_RULES: tuple[Rule, ...] = (
    Rule(
        UNCHECKED, "file-not-checked", CauseId.python_exception,  # not a back-link: the file's own error
        "A file could not be checked (syntax error, undecodable bytes, NUL bytes, over the size limit, not a regular file): no rule ran on it.",
        fix="Make the file parse (Python would raise the same SyntaxError on import), or exclude it in [tool.paddle-doctor.lint].",
        wrong="""\
def evaluate(model:             # a syntax error: no rule can read this file
    pass""",
        right="""\
def evaluate(model):
    pass""",
    ),
)
# RULES are about user code and back-link to catalog causes (links.py); ALL_RULES adds the linter's own.
ALL_RULES: tuple[Rule, ...] = (*RULES, *LINTER_RULES)

BY_CODE: dict[str, Rule] = {rule.code: rule for rule in ALL_RULES}


def get_rule(code: str) -> Rule:
    """The rule for ``code`` (KeyError for an unknown one)."""
    return BY_CODE[code.upper()]
