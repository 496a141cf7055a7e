"""In-place updates of Parameters in device memory, from aclnn's Inplace operators.

A Parameter's data on this backend is a DeviceArray; these kernels write into its memory and
return it. aclnn has no ApplyMomentum, so it is composed of InplaceMul, InplaceAdd and Mul.
"""

from __future__ import annotations

from typing import Any

from ember_ascend.device import AscendDevice, DeviceArray, Scalar, view


def _hyper(dev: AscendDevice, value: Any, dtype: Any) -> Any:
    """A hyperparameter (a number, or a one-element device array) as a 0-d tensor."""
    if isinstance(value, DeviceArray):
        if value.dtype != dtype:
            raise TypeError(f"a hyperparameter of dtype {value.dtype} for a {dtype} Parameter")
        return view(value, ())
    return dev.constant(value, dtype)


def _assign(prim: Any, dev: AscendDevice) -> Any:
    def kernel(variable: DeviceArray, value: DeviceArray) -> DeviceArray:
        dev.aclnn("InplaceCopy", variable, value)
        return variable

    return kernel


def _assign_add(prim: Any, dev: AscendDevice) -> Any:
    def kernel(variable: DeviceArray, value: DeviceArray) -> DeviceArray:
        dev.aclnn("InplaceAdd", variable, value, Scalar(1, variable.dtype))
        return variable

    return kernel


def _apply_momentum(prim: Any, dev: AscendDevice) -> Any:
    nesterov, scale = prim.use_nesterov, prim.gradient_scale

    def kernel(variable: DeviceArray, accumulation: DeviceArray, learning_rate: Any,
               gradient: DeviceArray, momentum: Any) -> DeviceArray:
        dtype = variable.dtype
        momentum, learning_rate = _hyper(dev, momentum, dtype), _hyper(dev, learning_rate, dtype)
        if scale != 1.0:
            scaled = dev.empty(gradient.shape, dtype)
            dev.aclnn("Mul", gradient, dev.constant(scale, dtype), scaled)
            gradient = scaled
        dev.aclnn("InplaceMul", accumulation, momentum)
        dev.aclnn("InplaceAdd", accumulation, gradient, Scalar(1, dtype))
        step = accumulation
        if nesterov:
            ahead = dev.empty(variable.shape, dtype)
            dev.aclnn("Mul", accumulation, momentum, ahead)
            dev.aclnn("InplaceAdd", ahead, gradient, Scalar(1, dtype))
            step = ahead
        update = dev.empty(variable.shape, dtype)
        dev.aclnn("Mul", step, learning_rate, update)
        dev.aclnn("InplaceAdd", variable, update, Scalar(-1, dtype))
        return variable

    return kernel


KERNELS = {
    "Assign": _assign,
    "AssignAdd": _assign_add,
    "ApplyMomentum": _apply_momentum,
}
