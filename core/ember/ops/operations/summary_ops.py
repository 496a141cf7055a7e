"""The summary operators: ``ScalarSummary``, ``ImageSummary``, ``TensorSummary`` and
``HistogramSummary``, as MindSpore 1.6's (``mindspore.ops.operations.debug_ops``).

``Op()(name, value)`` inside a Cell's ``construct`` stages ``value`` under ``name[:Kind]`` in a
process-wide cache each time the network runs; ``SummaryRecord.record(step)`` drains the cache
into its event file. Like ``Print``, a call is a node that runs Python when the graph runs (a
``PyFunc`` with no outputs, which graph passes never remove or merge), so GRAPH_MODE and
PYNATIVE_MODE stage the same values.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

from ember.common.tensor import Tensor
from ember.ops.operations.array_ops import _Static
from ember.ops.operations.debug_ops import call_python

__all__ = ["HistogramSummary", "ImageSummary", "ScalarSummary", "TensorSummary"]

_summary_lock = threading.Lock()
_summary_tensor_cache: dict[str, Tensor] = {}


def _cache_summary_tensor_data(summary: list[dict[str, Any]]) -> bool:
    """Stage ``[{"name": "tag[:Kind]", "data": tensor}, ...]``; a later value of a name
    replaces the earlier one."""
    with _summary_lock:
        for item in summary:
            _summary_tensor_cache[item["name"]] = item["data"]
    return True


def _get_summary_tensor_data() -> dict[str, Tensor]:
    """Take every staged value, leaving the cache empty."""
    global _summary_tensor_cache
    with _summary_lock:
        data, _summary_tensor_cache = _summary_tensor_cache, {}
    return data


def _stage(tag: str, value: Tensor) -> tuple:
    _cache_summary_tensor_data([{"name": tag, "data": value}])
    return ()


class _Summary(_Static):
    """``op(name, value)``: validate, then stage ``value`` under ``name[:kind]`` when the
    network runs. Returns None: nothing a graph can compute with."""

    kind = ""

    def __init__(self) -> None:
        super().__init__()
        self.add_prim_attr("side_effect_io", True)

    def check_shape(self, shape: tuple[int, ...]) -> None:
        """Raise ValueError for a value shape the kind does not accept."""

    def __call__(self, name: Any, value: Any) -> None:
        if not isinstance(name, str):
            raise TypeError(f"For '{self.name}', the 'name' should be str, but got "
                            f"{type(name).__name__}.")
        if not name:
            raise ValueError(f"For '{self.name}', the name should be valid string, but got "
                             f"'{name}'.")
        if not isinstance(value, Tensor):
            raise TypeError(f"For '{self.name}', the 'value' should be Tensor, but got "
                            f"{type(value).__name__}.")
        self.check_shape(tuple(value.shape))
        call_python(functools.partial(_stage, f"{name}[:{self.kind}]"), (value,), (),
                    self.name)


class ScalarSummary(_Summary):
    """Stage a scalar (a value of shape [] or [1]) for ``SummaryRecord``."""

    kind = "Scalar"

    def check_shape(self, shape: tuple[int, ...]) -> None:
        if shape not in ((), (1,)):
            raise ValueError(f"For '{self.name}', the shape of 'value' should be [] or [1], "
                             f"but got {list(shape)}.")


class ImageSummary(_Summary):
    """Stage images (a 4-D NCHW value, C being 1 or 3) for ``SummaryRecord``."""

    kind = "Image"

    def check_shape(self, shape: tuple[int, ...]) -> None:
        if len(shape) != 4:
            raise ValueError(f"For '{self.name}', the dimension of 'value' should be 4, but "
                             f"got {len(shape)}.")


class _NonScalarSummary(_Summary):
    def check_shape(self, shape: tuple[int, ...]) -> None:
        if not shape:
            raise ValueError(f"For '{self.name}', the type of 'value' should be tensor, its "
                             f"shape should not be [], but got {list(shape)}.")


class TensorSummary(_NonScalarSummary):
    """Stage a tensor (rank 1 or more) for ``SummaryRecord``."""

    kind = "Tensor"


class HistogramSummary(_NonScalarSummary):
    """Stage a tensor (rank 1 or more) whose histogram ``SummaryRecord`` writes."""

    kind = "Histogram"
