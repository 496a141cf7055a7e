"""Truncation and Addcmul/Addcdiv as compositions of aclnn elementwise operators."""

from __future__ import annotations

from typing import Any

from ember_ascend.device import AscendDevice, DeviceArray
from ember_ascend.kernels.common import Arithmetic


def _trunc(prim: Any, dev: AscendDevice) -> Any:
    def kernel(x: DeviceArray) -> DeviceArray:
        a = Arithmetic(dev, x.dtype)
        if x.dtype.kind != "f":
            out = dev.empty(x.shape, x.dtype)
            if out.size:
                dev.aclnn("InplaceCopy", out, x)
            return out
        return a.where(a.compare("LtTensor", x, 0), a.op("Ceil", x), a.op("Floor", x))

    return kernel


def _fused(prim: Any, dev: AscendDevice) -> Any:
    """``input_data + value * (x1 op x2)``: Mul for Addcmul, Div for Addcdiv."""
    op = "Mul" if prim.name == "Addcmul" else "Div"

    def kernel(data: DeviceArray, x1: DeviceArray, x2: DeviceArray,
               value: DeviceArray) -> DeviceArray:
        a = Arithmetic(dev, data.dtype)
        return a.add(data, a.mul(value, a.op(op, x1, x2)))

    return kernel


KERNELS = {
    "Trunc": _trunc,
    "Addcmul": _fused,
    "Addcdiv": _fused,
}
