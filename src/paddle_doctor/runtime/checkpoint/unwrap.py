"""Find the user's own model inside the wrappers that distributed training puts around it."""

from __future__ import annotations

from typing import Any

# The attribute each wrapper keeps the wrapped Layer in: paddle.DataParallel and fleet's
# meta_parallel wrappers (TensorParallel, PipelineParallel, ShardingParallel, SegmentParallel)
# use ``_layers``; group-sharded stage 2/3 wrappers use ``_layer``.
_INNER = ("_layers", "_layer")


def unwrap(model: Any) -> Any:
    """The innermost Layer: ``model`` itself when it is not a wrapper."""
    import paddle

    seen = set()
    while id(model) not in seen:
        seen.add(id(model))
        for attr in _INNER:
            inner = getattr(model, attr, None)
            if isinstance(inner, paddle.nn.Layer) and inner is not model:
                model = inner
                break
    return model
