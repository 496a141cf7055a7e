"""Scatters on aclnnIndexPutImpl: assignments (Update) and accumulations (Add; Sub adds the
negated updates), into a Parameter in place or into a copy (TensorScatter*) or zeros
(ScatterNd). Scatter* index the first dimension; the *Nd ones pass the K columns of
``indices[..., K]`` as strided views, one index tensor per leading dimension.
"""

from __future__ import annotations

from typing import Any

from ember_ascend.device import AscendDevice, DeviceArray, TensorList, View, contiguous_strides

#: kind -> (accumulate, negate the updates)
KINDS = {"Update": (False, False), "Add": (True, False), "Sub": (True, True)}


def columns(indices: DeviceArray) -> TensorList:
    depth = indices.shape[-1]
    shape = indices.shape[:-1]
    strides = tuple(s * depth for s in contiguous_strides(shape))
    return TensorList(tuple(View(indices, shape, strides, k) for k in range(depth)))


def _put(dev: AscendDevice, out: DeviceArray, index: TensorList, updates: DeviceArray,
         kind: str) -> DeviceArray:
    accumulate, negate = KINDS[kind]
    if updates.size and out.size:
        if negate:
            negated = dev.empty(updates.shape, updates.dtype)
            dev.aclnn("Neg", updates, negated)
            updates = negated
        dev.aclnn("IndexPutImpl", out, index, updates, accumulate, False)
    return out


def _in_place(kind: str, nd: bool) -> Any:
    def factory(prim: Any, dev: AscendDevice) -> Any:
        def kernel(variable: DeviceArray, indices: DeviceArray,
                   updates: DeviceArray) -> DeviceArray:
            index = columns(indices) if nd else TensorList((indices,))
            return _put(dev, variable, index, updates, kind)

        return kernel

    return factory


def _tensor_scatter(kind: str) -> Any:
    def factory(prim: Any, dev: AscendDevice) -> Any:
        def kernel(x: DeviceArray, indices: DeviceArray, updates: DeviceArray) -> DeviceArray:
            out = dev.empty(x.shape, x.dtype)
            dev.copy(out, x)
            return _put(dev, out, columns(indices), updates, kind)

        return kernel

    return factory


def _scatter_nd(prim: Any, dev: AscendDevice) -> Any:
    def kernel(indices: DeviceArray, updates: DeviceArray, shape: Any) -> DeviceArray:
        out = dev.zero(dev.empty(tuple(shape), updates.dtype))
        return _put(dev, out, columns(indices), updates, "Add")

    return kernel


KERNELS = {
    **{f"Scatter{kind}": _in_place(kind, nd=False) for kind in KINDS},
    **{f"ScatterNd{kind}": _in_place(kind, nd=True) for kind in KINDS},
    **{f"TensorScatter{kind}": _tensor_scatter(kind) for kind in ("Update", "Add", "Sub")},
    "ScatterNd": _scatter_nd,
}
