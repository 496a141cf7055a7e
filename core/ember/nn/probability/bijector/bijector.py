"""``Bijector``: the base of invertible transformations, a Cell whose ``construct`` calls the
function it is named (``bijector('forward', x)``)."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ember._checkparam import Validator
from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.ops import functional as F

__all__ = ["Bijector"]


class Bijector(Cell):
    """Base class of the bijectors :math:`y = f(x)`.

    Args:
        is_constant_jacobian (bool): whether the Jacobian of the transformation is constant.
            Default: False.
        is_injective (bool): whether the transformation is injective. Default: True.
        name (str): the name of the bijector. Default: None.
        dtype (ember.dtype): the float type of the values it takes; None: any float type.
            Default: None.
        param (dict): the arguments it was built with, its parameters under 'param_dict'.

    A subclass defines ``_forward``, ``_inverse``, ``_forward_log_jacobian`` and
    ``_inverse_log_jacobian``. Calling a bijector on a Distribution returns the
    ``TransformedDistribution`` of that distribution by this bijector.
    """

    #: (Distribution, TransformedDistribution): ``bijector(d)`` for a ``d`` of the first
    #: builds the second; set by ``distribution.transformed_distribution``, the layer above,
    #: so that this module does not import it.
    _transform: ClassVar[tuple[type, type] | None] = None

    def __init__(self, is_constant_jacobian: bool = False, is_injective: bool = True,
                 name: str | None = None, dtype: mstype.Type | None = None,
                 param: dict | None = None) -> None:
        super().__init__()
        Validator.check_value_type("name", name, [str], type(self).__name__)
        Validator.check_value_type("is_constant_jacobian", is_constant_jacobian, [bool], name)
        Validator.check_value_type("is_injective", is_injective, [bool], name)
        if dtype is not None:
            Validator.check_type_name("dtype", dtype, mstype.float_type, type(self).__name__)
        self._name = name
        self._dtype = dtype
        self._parameters = {k: v for k, v in (param or {}).items()
                            if k not in ("self", "param") and not k.startswith("_")}
        if "bijector" not in self._parameters:
            self._batch_shape = self._calc_batch_shape()
            self._is_scalar_batch = self._check_is_scalar_batch()
        self._is_constant_jacobian = is_constant_jacobian
        self._is_injective = is_injective
        self.default_parameters: list = []
        self.parameter_names: list = []
        self.common_dtype: mstype.Type | None = None

    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self) -> mstype.Type | None:
        return self._dtype

    @property
    def parameters(self) -> dict:
        return self._parameters

    @property
    def is_constant_jacobian(self) -> bool:
        return self._is_constant_jacobian

    @property
    def is_injective(self) -> bool:
        return self._is_injective

    @property
    def batch_shape(self) -> tuple | None:
        return self._batch_shape

    @property
    def is_scalar_batch(self) -> bool:
        return self._is_scalar_batch

    def _add_parameter(self, value: Any, name: str) -> Tensor:
        """``value`` as a Tensor: a float one, of the bijector's dtype where it has one, of the
        same dtype as the parameters before it otherwise."""
        if isinstance(value, bool) or value is None:
            raise TypeError(f"{name} cannot be type {type(value)}")
        value_t = value if isinstance(value, Tensor) else Tensor(value)
        if self.dtype is None:
            if self.common_dtype is None:
                self.common_dtype = value_t.dtype
            elif value_t.dtype != self.common_dtype:
                raise TypeError(f"{name} should have the same dtype as other arguments.")
            Validator.check_type_name(f"dtype of {name}", value_t.dtype, mstype.float_type,
                                      type(self).__name__)
        elif value_t.dtype != self.dtype:
            raise TypeError(f"{name} should have the same dtype as the bijector's dtype.")
        self.default_parameters.append(value)
        self.parameter_names.append(name)
        return value_t

    def _calc_batch_shape(self) -> tuple | None:
        values = list(self._parameters.get("param_dict", {}).values())
        if not values or any(v is None for v in values):
            return None
        return tuple(np.broadcast_shapes(*(tuple(v.shape) if isinstance(v, Tensor)
                                           else np.shape(v) for v in values)))

    def _check_is_scalar_batch(self) -> bool:
        if "param_dict" not in self._parameters:
            return False
        return all(v is None or isinstance(v, (int, float))
                   for v in self._parameters["param_dict"].values())

    def _check_value_dtype(self, value: Any) -> Tensor:
        """``value`` is a float Tensor, of the bijector's dtype where it has one."""
        if not isinstance(value, Tensor):
            raise TypeError("For input value of bijector, input type should be a Tensor or "
                            "Parameter.")
        if self.dtype is None:
            if not mstype.is_float(value.dtype):
                raise TypeError(f"For input value of bijector, the type should be or be "
                                f"subclass of Float, but got {value.dtype}")
        elif value.dtype != self.dtype:
            raise TypeError(f"For {self.name}, the input value should be of dtype "
                            f"{self.dtype}, but got {value.dtype}")
        return value

    def _check_value(self, value: Any, name: str) -> Tensor:
        if not isinstance(value, Tensor):
            raise TypeError(f"For {name}, input type should be a Tensor or Parameter.")
        return value

    def cast_param_by_value(self, value: Tensor, para: Tensor) -> Tensor:
        """``para`` in the dtype of ``value``."""
        return F.cast(para, value.dtype)

    def shape_mapping(self, shape: tuple) -> tuple:
        """The shape of the output for an input of ``shape``."""
        return tuple(np.broadcast_shapes(tuple(shape), self.batch_shape or ()))

    def forward(self, value: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        """y = f(x)."""
        return self._forward(value, *args, **kwargs)

    def inverse(self, value: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        """x = f^-1(y)."""
        return self._inverse(value, *args, **kwargs)

    def forward_log_jacobian(self, value: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        """log |df/dx| at x."""
        return self._forward_log_jacobian(value, *args, **kwargs)

    def inverse_log_jacobian(self, value: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        """log |df^-1/dy| at y."""
        return self._inverse_log_jacobian(value, *args, **kwargs)

    def _forward(self, *args: Any, **kwargs: Any) -> Tensor:
        raise NotImplementedError(f"forward is not implemented for {self.name} bijector.")

    def _inverse(self, *args: Any, **kwargs: Any) -> Tensor:
        raise NotImplementedError(f"inverse is not implemented for {self.name} bijector.")

    def _forward_log_jacobian(self, *args: Any, **kwargs: Any) -> Tensor:
        raise NotImplementedError(f"forward_log_jacobian is not implemented for {self.name} "
                                  "bijector.")

    def _inverse_log_jacobian(self, *args: Any, **kwargs: Any) -> Tensor:
        raise NotImplementedError(f"inverse_log_jacobian is not implemented for {self.name} "
                                  "bijector.")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if args and Bijector._transform and isinstance(args[0], Bijector._transform[0]):
            return Bijector._transform[1](self, args[0])
        return super().__call__(*args, **kwargs)

    _CALLS = ("forward", "inverse", "forward_log_jacobian", "inverse_log_jacobian")

    def construct(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Call the function ``name`` ('forward', 'inverse', 'forward_log_jacobian',
        'inverse_log_jacobian')."""
        if name not in self._CALLS:
            raise NotImplementedError(f"{name} is not a function of bijector {self.name}: "
                                      f"call one of {list(self._CALLS)}")
        return getattr(self, name)(*args, **kwargs)
