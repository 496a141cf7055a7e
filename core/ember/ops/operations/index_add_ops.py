"""``IndexAdd``: slices added into a Parameter along one axis, in place (one of MindSpore's math
operations)."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.ops._rules import normalize_axis
from ember.ops.operations.array_ops import gather
from ember.ops.operations.math_ops import _check
from ember.ops.primitive import Primitive, Spec, describe

__all__ = ["IndexAdd"]

_DTYPES = frozenset((mstype.float16, mstype.float32, mstype.float64, mstype.int8, mstype.int16,
                     mstype.int32, mstype.uint8))


class IndexAdd(Primitive):
    """``input_x[..., indices[i], ...] += input_y[..., i, ...]`` along ``axis`` of the Parameter
    ``input_x``, in place: ``IndexAdd(axis, use_lock=True, check_index_bound=True)(input_x,
    indices, input_y)`` returns the updated Parameter. ``indices`` is 1-D Int32; ``input_y``
    has the shape of ``input_x`` but ``len(indices)`` along ``axis``; repeated indices add up.
    """

    pure = False
    updates_parameters = True

    def __init__(self, axis: int, use_lock: bool = True, check_index_bound: bool = True) -> None:
        super().__init__()
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError(f"IndexAdd: axis must be an int, but got {axis!r}")
        for name, value in (("use_lock", use_lock), ("check_index_bound", check_index_bound)):
            if not isinstance(value, bool):
                raise TypeError(f"IndexAdd: {name} must be a bool, but got {value!r}")
        self.axis = axis
        self.use_lock = use_lock
        self.check_index_bound = check_index_bound

    def infer(self, x: Any, indices: Any, y: Any) -> Spec:
        if not isinstance(x, Parameter):
            raise TypeError(f"IndexAdd: input_x must be a Parameter (it is updated in place), "
                            f"but got {type(x).__name__}")
        _check(self.name, "input_x", x, _DTYPES)
        _check(self.name, "indices", indices, frozenset((mstype.int32,)))
        _check(self.name, "input_y", y, frozenset((x.dtype,)))
        if x.ndim == 0:
            raise ValueError("IndexAdd: input_x must have rank >= 1, but it is 0-d")
        (axis,) = normalize_axis(self.name, self.axis, x.ndim)
        want = x.shape[:axis] + indices.shape + x.shape[axis + 1:]
        if indices.ndim != 1 or y.shape != want:
            raise ValueError(f"IndexAdd: indices must be 1-D and input_y of shape {list(want)} "
                             f"(input_x's with len(indices) along axis {self.axis}), but got "
                             f"({describe((x, indices, y))})")
        return x.shape, x.dtype

    def bprop(self, x: Tensor, indices: Tensor, y: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return dout, None, gather(dout, indices, self.axis)
