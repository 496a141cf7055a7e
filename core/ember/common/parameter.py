"""``Parameter``: a named, trainable tensor whose data is updated in place."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ember import _autodiff
from ember.common.tensor import Tensor


def _initial_array(default_input: Any) -> np.ndarray:
    if isinstance(default_input, Tensor):
        return default_input.asnumpy()
    if isinstance(default_input, np.ndarray | int | float | bool | list | tuple):
        return Tensor(default_input).asnumpy()
    raise TypeError("Parameter default_input must be a Tensor (such as initializer('normal', "
                    "shape)), a NumPy array or a number, but got "
                    f"{type(default_input).__name__}")


class Parameter(Tensor):
    """A network weight: ``Parameter(default_input, name=None, requires_grad=True)``.

    Cells name their parameters after the attribute that holds them, prefixed by the path
    of child cells (``conv1.weight``); that name is what checkpoints store.
    """

    def __init__(self, default_input: Any, name: str | None = None,
                 requires_grad: bool = True, layerwise_parallel: bool = False,
                 parallel_optimizer: bool = True) -> None:
        from ember._executor import state

        if state.tracer is not None:
            from ember.ops.primitive import user_frame

            raise RuntimeError(
                f"a Parameter cannot be created inside a function compiled into a graph "
                f"(ms_function or GRAPH_MODE), at {user_frame()}: create it in the Cell's "
                "__init__, or outside the function, and use it inside")
        super().__init__(_initial_array(default_input))
        if name is not None and not isinstance(name, str):
            raise TypeError(f"Parameter name must be a str, but got {type(name).__name__}")
        self._name = name or "Parameter"
        self._named = name is not None
        self.requires_grad = requires_grad
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer
        # 1.6's state flags: ember never slices a parameter across devices, and its data is
        # set when it is made (no deferred initialization to mark)
        self.sliced, self.is_init, self.inited_param = False, False, None

    @property
    def name(self) -> str:
        return self._name

    @name.setter
    def name(self, value: str) -> None:
        if not isinstance(value, str) or not value:
            raise ValueError(f"Parameter name must be a non-empty str, but got {value!r}")
        self._name = value
        self._named = True

    @property
    def requires_grad(self) -> bool:
        return self._node is _autodiff.LEAF

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"Parameter requires_grad must be a bool, but got {value!r}")
        self._node = _autodiff.LEAF if value else None

    @property
    def data(self) -> Parameter:
        return self

    def set_data(self, data: Any, slice_shape: bool = False) -> Parameter:
        """Replace the values; the shape must stay the same (dtype converts)."""
        array = _initial_array(data)
        if array.shape != self._shape and not slice_shape:
            raise ValueError(f"Parameter {self._name}: set_data got shape {list(array.shape)}, "
                             f"but the parameter has shape {list(self._shape)}")
        if _autodiff.state.recording:  # the calls recorded so far read the old values
            _autodiff.keep_reads(self, self._data, self._device)
        self._data = array.astype(self._dtype.np_dtype, copy=False)
        self._device = None
        self._shape = self._data.shape
        return self

    def assign_value(self, value: Tensor) -> Parameter:
        """Copy ``value`` (same shape and dtype) into this parameter with the Assign primitive,
        on the parameter's own device."""
        from ember.ops.operations.optim_ops import assign

        assign(self, value)
        return self

    def clone(self, init: str = "same") -> Parameter:
        """A copy with the same name and the same (or freshly initialized) values."""
        data: Any = self if init == "same" else init
        from ember.common.initializer import initializer

        if init != "same":
            data = initializer(init, self._shape, self._dtype)
        return Parameter(data, self._name, self.requires_grad)

    def __repr__(self) -> str:
        return (f"Parameter (name={self._name}, shape={self._shape}, dtype={self._dtype}, "
                f"requires_grad={self.requires_grad})")

    __str__ = __repr__

    def __deepcopy__(self, memo: dict) -> Parameter:
        return Parameter(self.asnumpy(), self._name if self._named else None,
                         self.requires_grad)

    __hash__ = Tensor.__hash__


class ParameterTuple(tuple):
    """A tuple of Parameters (``ParameterTuple(net.trainable_params())``)."""

    def __new__(cls, iterable: Iterable[Parameter]) -> ParameterTuple:
        items = tuple(iterable)
        for item in items:
            if not isinstance(item, Parameter):
                raise TypeError("ParameterTuple holds only Parameters, but got "
                                f"{type(item).__name__}")
        return super().__new__(cls, items)

    def clone(self, prefix: str, init: str = "same") -> ParameterTuple:
        """Copies named ``prefix.<name>`` (how optimizers make moments)."""
        clones = []
        for p in self:
            c = p.clone(init)
            c.name = f"{prefix}.{p.name}"
            clones.append(c)
        return ParameterTuple(clones)
