"""Build this rank's batches where an error can be caught, and ahead of the model.

Why: Paddle's DataLoader builds batches in a reader thread (and in worker processes with
``num_workers > 0``); an exception there is printed and never raised in one process (the main
thread waits on the batch queue forever), and with workers it ends as ``Blocking queue is
killed`` with nothing named. Here the dataset and the ``collate_fn`` run inside wrappers that
catch every exception and pass it on *as data* (a ``Failure`` in place of the batch); the main
loop raises it as a ``BatchError`` naming the sample indices and the argument to change.

Without workers no DataLoader is used at all: one thread builds the next batches of the rank's
own shard while the model runs on the current one (a ``__getitem__`` that reads files or decodes
images overlaps the forward pass), and the main thread's waits for it are short and polled, so
a peer's failure is seen while waiting too. Batches reach the model as the DataLoader would
give them: arrays as ``paddle.Tensor``, tuples as lists, everything else as it is.
"""

from __future__ import annotations

import queue
import threading
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from paddle_doctor.errors import BatchError
from paddle_doctor.runtime.evaluate.collate import DICT_LABELS

POLL_S = 0.2  # the longest the main thread waits for a batch before looking at its peers again
AHEAD = 2  # batches built ahead of the model
_DONE = object()


@dataclass
class Failure:
    """An exception raised while building a batch, carried as data (picklable across workers)."""

    where: str  # "dataset" or "collate_fn"
    kind: str
    message: str
    trace: str
    index: Any = None  # the sample index, for a dataset error
    hint: str = ""


def _failure(where: str, exc: BaseException, index: Any = None, hint: str = "") -> Failure:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename != __file__][-2:]
    trace = "; ".join(f"{f.filename.rsplit('/', 1)[-1]}:{f.lineno} in {f.name}" for f in frames)
    return Failure(where, type(exc).__name__, str(exc).strip().splitlines()[0][:500] if str(exc).strip() else "",
                   trace, index, hint)


class GuardedDataset:
    """``dataset[i]``, with an exception returned as a ``Failure`` instead of raised."""

    def __init__(self, dataset: Any) -> None:
        self.dataset = dataset

    def __len__(self) -> int:
        return len(self.dataset)

    def __getitem__(self, index: int) -> Any:
        try:
            return self.dataset[index]
        except Exception as exc:
            return _failure("dataset", exc, index=int(index))


class GuardedCollate:
    """The user's ``collate_fn`` (or Paddle's default), with any failure returned as data."""

    def __init__(self, collate_fn: Any) -> None:
        self.custom = collate_fn is not None
        if collate_fn is None:
            from paddle.io.dataloader.collate import default_collate_fn as collate_fn
        self.collate_fn = collate_fn

    def __call__(self, samples: Sequence[Any]) -> Any:
        bad = next((s for s in samples if isinstance(s, Failure)), None)
        if bad is None:
            try:
                return self.collate_fn(samples)
            except Exception as exc:  # a custom collate's own message says what it needs
                bad = _failure("collate_fn", exc, hint="" if self.custom else sample_hint(samples))
        return [np.zeros(1, np.float32), bad]  # the DataLoader needs one array to carry it


def failure_of(batch: Any) -> Failure | None:
    if isinstance(batch, (list, tuple)) and len(batch) == 2 and isinstance(batch[1], Failure):
        return batch[1]
    return None


def batch_error(failure: Failure, idx: Sequence[int], rank: int, custom_collate: bool, workers: bool) -> BatchError:
    """The one-line error for a failed batch: what raised, on which samples, what to change."""
    where = f"rank {rank}" + (", in a DataLoader worker" if workers else "")
    said = f"{failure.kind}: {failure.message}" if failure.message else failure.kind
    frames = f" [{failure.trace}]" if failure.trace else ""
    if failure.where == "dataset":
        return BatchError(f"dataset[{failure.index}] raised {said} ({where}){frames}: fix the dataset's "
                          "__getitem__ or its transforms for this sample")
    shown = list(idx)[:8]
    samples = f"samples {shown}" + (f" and {len(idx) - len(shown)} more" if len(idx) > len(shown) else "")
    owner = "collate_fn" if custom_collate else "the default collate_fn"
    fix = failure.hint or ("fix it or pass another collate_fn=" if custom_collate
                           else "pass a collate_fn= that can batch these samples")
    return BatchError(f"{owner} raised {said} on {samples} ({where}){frames}: {fix}")


def sample_hint(samples: Sequence[Any]) -> str:
    """What about the samples a default collate cannot batch: shapes that differ, or text."""
    fields = _fields_of(samples)
    for name, values in fields.items():
        text = [v for v in values if isinstance(v, (str, bytes))]
        if text:
            return (f"field {name!r} holds text ({text[0]!r}): labels must be integer class ids; map them "
                    "in the dataset's __getitem__")
    for name, values in fields.items():
        shapes = sorted({tuple(np.shape(v)) for v in values if _numeric(v)})
        if len(shapes) > 1:
            return (f"field {name!r} has samples of shapes {[list(s) for s in shapes[:3]]}: pass "
                    f"collate_fn={_pad_collate_for(samples)} (pads each batch and masks the pads out of every "
                    "metric), or resize in the val transforms, or use batch_size=1")
    return ""


def _pad_collate_for(samples: Sequence[Any]) -> str:
    """``pad_collate``, or the ``PadCollate(label=...)`` these dict samples need (no default key)."""
    first = next((s for s in samples if isinstance(s, Mapping)), None)
    if first is None or any(k in first for k in DICT_LABELS):
        return "paddle_doctor.pad_collate"
    keys = list(first)
    guess = next((k for k in keys if "label" in str(k)), keys[-1] if keys else "label")
    return f"paddle_doctor.PadCollate(label={guess!r})"


def _fields_of(samples: Sequence[Any]) -> dict:
    good = [s for s in samples if not isinstance(s, Failure)]
    if good and all(isinstance(s, Mapping) for s in good):
        return {k: [s.get(k) for s in good] for k in good[0]}
    if good and all(isinstance(s, (list, tuple)) for s in good):
        return {k: [s[k] for s in good if len(s) > k] for k in range(len(good[0]))}
    return {0: good}


def _numeric(value: Any) -> bool:
    try:
        return np.asarray(value.numpy() if hasattr(value, "numpy") else value).dtype.kind in "biuf"
    except (ValueError, TypeError):
        return False


def to_tensors(batch: Any) -> Any:
    """What Paddle's DataLoader (``return_list=True``) hands the model for a collated batch."""
    import paddle

    if isinstance(batch, np.ndarray):
        return paddle.to_tensor(batch)
    if isinstance(batch, Mapping):
        return {k: to_tensors(v) for k, v in batch.items()}
    if isinstance(batch, (list, tuple)):
        return [to_tensors(v) for v in batch]
    return batch


class LocalBatches:
    """``(indices, batch)`` for each planned batch, built by one thread ``AHEAD`` batches in advance.

    ``poll()`` is called whenever the main thread has waited ``POLL_S`` for a batch (it raises to
    stop: a peer failed). ``close()`` stops the thread (after an error in the model, too)."""

    def __init__(self, dataset: Any, batches: Sequence[np.ndarray], collate: GuardedCollate,
                 poll: Callable[[], None] | None = None) -> None:
        self.dataset, self.batches, self.collate, self.poll = GuardedDataset(dataset), batches, collate, poll
        self._queue: queue.Queue = queue.Queue(maxsize=AHEAD)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._build, name="paddle-doctor-batches", daemon=True)

    def _build(self) -> None:
        for idx in self.batches:
            if self._stop.is_set():
                return
            try:
                batch = self.collate([self.dataset[int(i)] for i in idx])
            except BaseException as exc:  # our wrappers catch Exception; anything else ends the thread here
                batch = [np.zeros(1, np.float32), _failure("collate_fn", exc)]
            if not self._put((idx, batch)):
                return
        self._put(_DONE)

    def _put(self, item: Any) -> bool:
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=POLL_S)
                return True
            except queue.Full:
                continue
        return False

    def __iter__(self) -> Iterator[tuple[np.ndarray, Any]]:
        self._thread.start()
        while True:
            item = self._get()
            if item is _DONE:
                return
            idx, batch = item
            yield idx, batch if failure_of(batch) is not None else to_tensors(batch)

    def _get(self) -> Any:
        while True:
            try:
                return self._queue.get(timeout=POLL_S)
            except queue.Empty:
                if not self._thread.is_alive() and self._queue.empty():
                    raise BatchError("the thread that builds this rank's batches ended without a word") from None
                if self.poll is not None:
                    self.poll()

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2 * POLL_S)
