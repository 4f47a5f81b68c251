"""Which fields of a batch feed the model, which are labels, and which outputs the metrics see.

The suites shape batches differently: PaddleClas yields ``[image, label]``; PaddleSeg
``{"img", "label", "trans_info"}``; PaddleNLP ``{"input_ids", "token_type_ids", "labels"}``;
PaddleDetection ``{"image", "im_shape", ..., "gt_bbox"}``. And models return a tensor, a tuple
(main plus auxiliary heads), a list (PaddleSeg's ``logit_list``) or a dict. ``BatchLayout``
turns one batch into ``model(*args, **kwargs)`` plus the labels, and the model's return value
into the list of outputs that ``metric.compute(*outputs, *labels)`` and ``loss_fn`` receive.

A field is named by a key (``"img"``), a position (``0``, ``-1``) or a dotted path into nested
batches (``"meta.label"``, ``"0.img"``); the exact key wins over a path when both exist.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paddle_doctor.runtime.evaluate.collate import MASK_KEY

Field = int | str


class BatchLayout:
    """``inputs``, ``labels`` and ``output`` as given to ``evaluate`` (see its docstring)."""

    def __init__(self, inputs: Any = None, labels: Any = None, output: Any = None) -> None:
        self.inputs = _check_selector("inputs", inputs, keywords=True)
        self.labels = _check_selector("labels", labels, keywords=False)
        self.output = _check_selector("output", output, keywords=False)

    def split(self, batch: Any, masked: bool) -> tuple[list, dict, list, Any]:
        """``(args, kwargs, labels, mask)`` of one batch."""
        if isinstance(batch, Mapping):
            return self._split_mapping(dict(batch), masked)
        if not isinstance(batch, (list, tuple)):
            raise TypeError(f"a batch is a tuple/list or a dict of fields, got {type(batch).__name__}: "
                            "make the collate_fn return one")
        fields = list(batch)
        mask = fields.pop() if masked else None
        if self.labels is None and self.inputs is None:
            if len(fields) < 2:
                raise TypeError(f"a batch needs at least one input and a label, got {len(fields)} field(s): "
                                "name them with inputs=[...] and labels=[...]")
            return fields[:-1], {}, fields[-1:], mask
        labels = _select(fields, self.labels if self.labels is not None else -1, "labels")
        if self.inputs is None:
            used = {_index(fields, f) for f in _as_fields(self.labels if self.labels is not None else -1)}
            return [f for i, f in enumerate(fields) if i not in used], {}, labels, mask
        args, kwargs = _inputs(fields, self.inputs)
        return args, kwargs, labels, mask

    def _split_mapping(self, batch: dict, masked: bool) -> tuple[list, dict, list, Any]:
        mask = batch.pop(MASK_KEY, None) if masked else None
        if self.labels is None:
            raise TypeError(f"the batches are dicts with keys {sorted(map(str, batch))}: say which are labels "
                            f"and which are inputs, e.g. {_dict_example(batch)}")
        labels = _select(batch, self.labels, "labels")
        if self.inputs is None:  # the PaddleNLP convention: every other key is a keyword argument
            used = {f for f in _as_fields(self.labels) if f in batch}
            return [], {k: v for k, v in batch.items() if k not in used}, labels, mask
        args, kwargs = _inputs(batch, self.inputs)
        return args, kwargs, labels, mask

    def pick_outputs(self, outputs: Any) -> list:
        """The outputs the metrics and ``loss_fn`` see, as a list (several only when chosen)."""
        if callable(self.output):
            return _as_list(self.output(outputs))
        if self.output is not None:
            return _select(outputs, self.output, "output")
        if isinstance(outputs, Mapping):
            if len(outputs) == 1:
                return list(outputs.values())
            raise TypeError(f"the model returned a dict with keys {sorted(map(str, outputs))}: choose what the "
                            "metrics see with output='logits' (a key, or a list of keys)")
        if isinstance(outputs, (list, tuple)) and len(outputs) > 1:
            # paddle.metric.Accuracy.compute(pred, label, *args) would take an auxiliary head for
            # the label and score it without a word: the choice must be the user's
            shapes = [list(getattr(o, "shape", [])) for o in outputs]
            raise TypeError(f"the model returned {len(outputs)} outputs (shapes {shapes}): choose what the "
                            "metrics and loss_fn see with output=0 (the main head), or output=[0, 1] for several")
        return _as_list(outputs)


def _dict_example(batch: Mapping) -> str:
    """A copy-pasteable example built from the batch's own keys."""
    keys = [str(k) for k in batch]
    label = next((k for k in keys if k in ("label", "labels")), None) or next(
        (k for k in keys if "label" in k), keys[-1] if keys else "label")
    others = [k for k in keys if k != label]
    if len(others) == 1:
        return f"evaluate(..., inputs={others[0]!r}, labels={label!r})"
    return (f"evaluate(..., labels={label!r}) (every other key goes to the model as a keyword argument), "
            f"or evaluate(..., inputs={others[:1]!r}, labels={label!r})")


def describe_model_call_error(exc: TypeError, layout: BatchLayout, batch: Any, masked: bool, args: list,
                              kwargs: dict) -> str | None:
    """A hint when the model refused the arguments the batch was split into: say how it was split
    and which arguments choose otherwise (PaddleOCR's ``[image, label, length]`` with the default
    "last field is the label" calls ``model(image, label)``)."""
    text = str(exc)
    if "argument" not in text:
        return None
    if isinstance(batch, Mapping):
        given = f"model(**{{{', '.join(repr(k) for k in kwargs)}}})" if kwargs else f"model(<{len(args)} inputs>)"
        return (f"the model refused {given} ({text}): name its arguments with evaluate(..., inputs=[...] or "
                "{kwarg: key}) and the labels with labels=[...]")
    width = len(batch) - (1 if masked else 0)
    if layout.inputs is None and layout.labels is None:
        label_fields = list(range(1, width))
        call = ", ".join(f"f{i}" for i in range(width - 1))
        return (f"the batch has {width} fields; by default the last is the label and the other {width - 1} go "
                f"to the model as model({call}), which it refused ({text}): name them, e.g. "
                f"evaluate(..., inputs=0, labels={label_fields!r}) for [image, label, length] batches")
    return (f"the model refused {len(args)} positional argument(s) ({text}): choose them with evaluate(..., "
            "inputs=[...]) and the labels with labels=[...]")


def describe_call_error(exc: TypeError, metric: Any, outputs: list, labels: list) -> str | None:
    """A hint when a metric's ``compute`` got the wrong number of arguments (an auxiliary output)."""
    text = str(exc)
    if "positional argument" not in text or len(outputs) + len(labels) < 2:
        return None
    return (f"{type(metric).__name__}.compute(*outputs, *labels) got {len(outputs)} output(s) and "
            f"{len(labels)} label(s) ({text}): choose the outputs it sees with evaluate(..., output=0) "
            "(or a key, a list, a function) and the labels with labels=[...]")


def _inputs(container: Any, selector: Any) -> tuple[list, dict]:
    if callable(selector):
        return _as_list(selector(container)), {}
    if isinstance(selector, Mapping):
        return [], {str(name): get_field(container, f, "inputs") for name, f in selector.items()}
    return _select(container, selector, "inputs"), {}


def _select(container: Any, selector: Any, argument: str) -> list:
    if callable(selector):
        return _as_list(selector(container))
    return [get_field(container, f, argument) for f in _as_fields(selector)]


def get_field(container: Any, field: Field, argument: str) -> Any:
    """``container[field]``, following a dotted path into nested dicts and sequences."""
    try:
        return _get(container, field)
    except (KeyError, IndexError, TypeError):
        pass
    if isinstance(field, str) and "." in field:
        value = container
        try:
            for part in field.split("."):
                value = _get(value, int(part) if part.lstrip("-").isdigit() else part)
            return value
        except (KeyError, IndexError, TypeError):
            pass
    raise ValueError(f"{argument}={field!r}: the batch has no such field ({_describe(container)}); "
                     f"change {argument}=")


def _get(container: Any, field: Field) -> Any:
    if isinstance(container, Mapping):
        return container[field]
    if isinstance(container, (list, tuple)) and isinstance(field, int):
        return container[field]
    raise TypeError(type(container).__name__)


def _index(fields: list, field: Field) -> int:
    if not isinstance(field, int):
        raise ValueError(f"labels={field!r}: the batches are tuples, so name fields by position (0, 1, -1)")
    return field % len(fields)


def _describe(container: Any) -> str:
    if isinstance(container, Mapping):
        return f"keys {sorted(map(str, container))}"
    if isinstance(container, (list, tuple)):
        return f"{len(container)} positions"
    return f"a {type(container).__name__}"


def _as_fields(selector: Any) -> list:
    return list(selector) if isinstance(selector, (list, tuple)) else [selector]


def _as_list(value: Any) -> list:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _check_selector(argument: str, value: Any, keywords: bool) -> Any:
    """Refuse a malformed selector before any work, naming the argument."""
    if value is None or callable(value) or isinstance(value, (int, str)) and not isinstance(value, bool):
        return value
    if keywords and isinstance(value, Mapping):
        fields = list(value.values())
    elif isinstance(value, (list, tuple)) and value:
        fields = list(value)
    else:
        allowed = "a key, a position, a list of them" + (", a {kwarg: key} dict" if keywords else "")
        raise TypeError(f"{argument}={value!r}: give {allowed}, or a function of the "
                        f"{'batch' if argument != 'output' else 'model output'}")
    bad = [f for f in fields if isinstance(f, bool) or not isinstance(f, (int, str))]
    if bad:
        raise TypeError(f"{argument}: fields are named by key (str) or position (int), got {bad!r}")
    return value

