"""The metric base classes, as ``mindspore.nn.Metric``: metrics accumulate on the host in NumPy."""

from __future__ import annotations

import functools
from abc import ABCMeta, abstractmethod
from collections.abc import Callable
from typing import Any

import numpy as np

from ember.common.tensor import Tensor

_EVAL_TYPES = ("classification", "multilabel")


def rearrange_inputs(func: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a metric's ``update`` so that ``set_indexes`` picks and orders its inputs."""

    @functools.wraps(func)
    def wrapper(self: Metric, *inputs: Any) -> Any:
        indexes = self.indexes
        if indexes:
            if any(not -len(inputs) <= i < len(inputs) for i in indexes):
                raise ValueError(f"{type(self).__name__}.update: indexes {indexes} do not fit "
                                 f"the {len(inputs)} inputs given")
            inputs = tuple(inputs[i] for i in indexes)
        return func(self, *inputs)

    return wrapper


class Metric(metaclass=ABCMeta):
    """The base of metrics: ``clear()`` resets, ``update(*inputs)`` accumulates a batch,
    ``eval()`` computes the result. ``metric(*inputs)`` is clear, update and eval at once.

    Inputs may be ember Tensors, NumPy arrays or lists (see ``_convert_data``).
    """

    def __init__(self) -> None:
        self._indexes: list[int] | None = None

    @property
    def indexes(self) -> list[int] | None:
        """The positions of ``update``'s inputs to use, in order (None: all, as given)."""
        return getattr(self, "_indexes", None)

    def set_indexes(self, indexes: list[int]) -> Metric:
        """Use ``update``'s inputs at ``indexes``, in that order (with ``rearrange_inputs``).

        E.g. for ``update(logits, label0, label1)``, ``set_indexes([0, 2])`` scores
        ``(logits, label1)``. Returns the metric.
        """
        if (not isinstance(indexes, list)
                or not all(isinstance(i, int) and not isinstance(i, bool) for i in indexes)):
            raise ValueError(f"{type(self).__name__}.set_indexes: indexes must be a list of int, "
                             f"but got {indexes!r}")
        self._indexes = indexes
        return self

    def __call__(self, *inputs: Any) -> Any:
        self.clear()
        self.update(*inputs)
        return self.eval()

    @abstractmethod
    def clear(self) -> None:
        """Reset the accumulated state."""

    @abstractmethod
    def update(self, *inputs: Any) -> None:
        """Accumulate one batch of inputs (usually predictions and labels)."""

    @abstractmethod
    def eval(self) -> Any:
        """The metric over everything accumulated since ``clear``."""

    @staticmethod
    def _convert_data(data: Any) -> np.ndarray:
        """A metric input (Tensor, NumPy array or list) as a NumPy array."""
        if isinstance(data, Tensor):
            return data.asnumpy()
        if isinstance(data, np.ndarray):
            return data
        if isinstance(data, list | tuple):
            return np.array(data)
        raise TypeError(f"Metric inputs must be an ember Tensor, a NumPy array or a list, but got "
                        f"{type(data).__name__}")

    @staticmethod
    def _check_onehot_data(data: np.ndarray) -> bool:
        """Whether ``data`` (N, C, ...) is one-hot along axis 1."""
        if data.ndim < 2 or not np.isin(data, (0, 1)).all():
            return False
        return bool((data.sum(axis=1) == 1).all())

    def _no_samples(self) -> RuntimeError:
        name = type(self).__name__
        return RuntimeError(f"{name}.eval: the number of samples is 0; {name} must have at least "
                            "one example before it can be computed: call update() first")


class EvaluationBase(Metric):
    """A metric of predictions ``y_pred`` against labels ``y``.

    ``eval_type='classification'``: ``y_pred`` (N, C, ...) scores C classes, ``y`` holds class
    indices (N, ...) or is one-hot (N, C, ...). ``'multilabel'``: ``y_pred`` and ``y`` are both
    (N, C, ...) of 0 and 1.
    """

    def __init__(self, eval_type: str) -> None:
        super().__init__()
        if not isinstance(eval_type, str):
            raise TypeError(f"{type(self).__name__}: eval_type must be a str in {_EVAL_TYPES}, "
                            f"but got {type(eval_type).__name__}")
        if eval_type not in _EVAL_TYPES:
            raise ValueError(f"{type(self).__name__}: eval_type must be one of {_EVAL_TYPES}, "
                             f"but got {eval_type!r}")
        self._type = eval_type
        self._class_num = 0

    def _prepare(self, inputs: tuple[Any, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Check ``(y_pred, y)`` and return them as arrays; class indices for 'classification'."""
        where = f"{type(self).__name__}.update"
        if len(inputs) != 2:
            raise ValueError(f"{where}: needs 2 inputs (y_pred, y), but got {len(inputs)}")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        classification = self._type == "classification"
        if classification and y_pred.ndim == y.ndim and self._check_onehot_data(y):
            y = y.argmax(axis=1)
        if y_pred.ndim < 2:
            raise ValueError(f"{where}: y_pred must be (N, C, ...) with the classes on axis 1, "
                             f"but got shape {y_pred.shape}")
        expected = (y_pred.shape[0], *y_pred.shape[2:]) if classification else y_pred.shape
        if y.shape != expected:
            kind = ("class indices (N, ...) or one-hot (N, C, ...)" if classification
                    else "the same shape as y_pred")
            raise ValueError(f"{where}: with eval_type {self._type!r}, y must be {kind}: for "
                             f"y_pred of shape {y_pred.shape} y's shape must be {expected}, but "
                             f"got {y.shape}")
        class_num = y_pred.shape[1]
        if classification:
            if y.size and (not np.all(np.mod(y, 1) == 0) or y.min() < 0 or y.max() >= class_num):
                raise ValueError(f"{where}: y must hold class indices in [0, {class_num}), but "
                                 f"got values from {y.min()} to {y.max()}")
            y = y.astype(np.int64)
        elif not (np.isin(y_pred, (0, 1)).all() and np.isin(y, (0, 1)).all()):
            raise ValueError(f"{where}: with eval_type 'multilabel', y_pred and y must hold only "
                             "0 and 1")
        if self._class_num == 0:
            self._class_num = class_num
        elif class_num != self._class_num:
            raise ValueError(f"{where}: y_pred has {class_num} classes, but earlier updates had "
                             f"{self._class_num}")
        return y_pred, y
