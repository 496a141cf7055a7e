"""Searching and counting by value: SearchSorted (insertion points in sorted rows) and
ConfusionMatrix (pairs of labels counted into a table). Neither has a gradient."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.ops._rules import check_tensor
from ember.ops.operations.array_ops import _int_attr
from ember.ops.operations.nn_ops import _check_bool
from ember.ops.primitive import Primitive, Spec

__all__ = ["ConfusionMatrix", "SearchSorted"]

_NUMBERS = tuple(mstype.number_type)


class SearchSorted(Primitive):
    """For each of ``values`` (..., S), the index in the matching row of ``sequence`` (..., N)
    (or in the 1-d ``sequence``), increasing along its last axis, where it would be inserted
    to keep the row sorted: before equal elements, or after them with ``right``:
    ``SearchSorted(out_int32=False, right=False)(sequence, values)`` -> int64 (int32)."""

    def __init__(self, out_int32: bool = False, right: bool = False) -> None:
        super().__init__()
        self.out_int32 = _check_bool(self.name, "out_int32", out_int32)
        self.right = _check_bool(self.name, "right", right)

    def infer(self, sequence: Any, values: Any) -> Spec:
        check_tensor(self.name, "sequence", sequence, _NUMBERS)
        check_tensor(self.name, "values", values, (sequence.dtype,))
        if sequence.ndim == 0 or values.ndim == 0 or (
                sequence.ndim != 1 and sequence.shape[:-1] != values.shape[:-1]):
            raise ValueError(f"SearchSorted: sequence must be 1-d or agree with values in all "
                             f"but the last axis, but got shapes {list(sequence.shape)} and "
                             f"{list(values.shape)}")
        return values.shape, mstype.int32 if self.out_int32 else mstype.int64


class ConfusionMatrix(Primitive):
    """The (num_classes, num_classes) table whose [i, j] counts (or sums ``weights`` over)
    the positions of label i predicted as j, of the labels' dtype; labels outside
    [0, num_classes) are an error: ``ConfusionMatrix(num_classes, dtype="int32")(labels,
    predictions, weights=None)``."""

    def __init__(self, num_classes: int, dtype: str = "int32") -> None:
        super().__init__()
        self.num_classes = _int_attr(self.name, "num_classes", num_classes, minimum=1)
        if not isinstance(dtype, str):
            raise TypeError(f"ConfusionMatrix: dtype must be a str, but got {dtype!r}")
        self.dtype = dtype

    def __call__(self, labels: Any, predictions: Any, weights: Any = None) -> Any:
        if weights is None:
            return super().__call__(labels, predictions)
        return super().__call__(labels, predictions, weights)

    def infer(self, labels: Any, predictions: Any, weights: Any = None) -> Spec:
        check_tensor(self.name, "labels", labels, _NUMBERS)
        check_tensor(self.name, "predictions", predictions, (labels.dtype,))
        if labels.ndim != 1 or predictions.shape != labels.shape:
            raise ValueError(f"ConfusionMatrix: labels must be 1-d and predictions of its "
                             f"shape, but got shapes {list(labels.shape)} and "
                             f"{list(predictions.shape)}")
        if weights is not None:
            check_tensor(self.name, "weights", weights, _NUMBERS)
            if weights.shape != labels.shape:
                raise ValueError(f"ConfusionMatrix: weights must have the labels' shape "
                                 f"{list(labels.shape)}, but got {list(weights.shape)}")
        return (self.num_classes, self.num_classes), labels.dtype

    def check_classes(self, *columns: Any) -> None:
        """ValueError naming the first of the kernel's host copies of labels and predictions
        holding a class outside [0, num_classes)."""
        for name, column in zip(("labels", "predictions"), columns):
            bad = [int(c) for c in column.tolist() if not 0 <= c < self.num_classes]
            if bad:
                raise ValueError(f"ConfusionMatrix: {name} must be in [0, "
                                 f"num_classes={self.num_classes}), but got {bad[0]}")
