"""Scatters on aclnnIndexPutImpl: assignments (Update) and accumulations (Add; Sub adds the
negated updates), into a Parameter in place or into a copy (TensorScatter*) or zeros
(ScatterNd). Scatter* index the first dimension; the *Nd ones pass the K columns of
``indices[..., K]`` as strided views, one index tensor per leading dimension. Max, Min, Mul
and Div reduce the updates aimed at each slice first (:func:`reduce_slots`: a selection
reduced by aclnnAmax, aclnnAmin or aclnnProdDim), then apply them to it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_ascend.device import (
    AscendDevice,
    DeviceArray,
    DType,
    IntArray,
    Scalar,
    TensorList,
    View,
    contiguous_strides,
)
from ember_ascend.kernels.common import Arithmetic

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


#: reducing operator -> (the identity of its reduction, the operator combining two values)
REDUCTIONS = {"Amax": (lambda dt: (np.finfo if dt.kind == "f" else np.iinfo)(dt).min, "Maximum"),
              "Amin": (lambda dt: (np.finfo if dt.kind == "f" else np.iinfo)(dt).max, "Minimum"),
              "ProdDim": (lambda dt: 1, "Mul")}


def reduce_slots(dev: AscendDevice, reduce: str, slots: DeviceArray, rows: DeviceArray,
                 shape: tuple[int, ...]) -> DeviceArray:
    """An array of ``shape`` (n slots, ...) whose slot s is ``reduce`` (Amax, Amin, ProdDim)
    of the rows (``rows`` read as slots.size rows of shape[1:]) whose ``slots`` entry is s, or
    the reduction's identity where none is: an (n, rows, ...) selection reduced over its
    rows."""
    out = dev.empty(shape, rows.dtype)
    fill = np.asarray(REDUCTIONS[reduce][0](out.dtype), out.dtype)
    count, n, rest = slots.size, shape[0], shape[1:]
    if not (count and out.size):
        if out.size:
            dev.aclnn("InplaceFillScalar", out, Scalar(fill.item(), out.dtype))
        return out
    member = dev.empty((n, count), np.bool_)
    dev.aclnn("EqTensor", dev.constant(np.arange(n).reshape(-1, 1), slots.dtype),
              View(slots, (1, count), (0, 1)), member)
    chosen = dev.empty((n, count, *rest), out.dtype)
    dev.aclnn("SWhere", View(member, (n, count, *(1,) * len(rest)), (count, 1, *(0,) * len(rest))),
              View(rows, (1, count, *rest), (0, *contiguous_strides((count, *rest)))),
              dev.constant(fill, out.dtype), chosen)
    if reduce == "ProdDim":
        dev.aclnn(reduce, chosen, 1, False, DType(out.dtype), out)
    else:
        dev.aclnn(reduce, chosen, IntArray((1,)), False, out)
    return out


#: kind -> (the reduction of the updates aimed at one slice, the operator applying it): max,
#: min and products do not depend on the order the updates come in
REDUCED = {"Max": ("Amax", "Maximum"), "Min": ("Amin", "Minimum"), "Mul": ("ProdDim", "Mul"),
           "Div": ("ProdDim", "Div")}


def _slots(dev: AscendDevice, indices: DeviceArray, nd: bool,
           x: DeviceArray) -> tuple[DeviceArray, int]:
    """The slice of ``x`` each update is aimed at, as a flat index over x's first ``depth``
    axes, and depth (1 for Scatter*: the indices themselves)."""
    if not nd:
        return indices, 1
    depth = indices.shape[-1]
    a = Arithmetic(dev, indices.dtype)
    flat = None
    for column, stride in zip(columns(indices).items, contiguous_strides(x.shape[:depth])):
        term = a.mul(column, stride)
        flat = term if flat is None else a.add(flat, term)
    return flat, depth


def _reduced(dev: AscendDevice, x: DeviceArray, indices: DeviceArray, updates: DeviceArray,
             kind: str, nd: bool) -> DeviceArray:
    """``x`` with the updates aimed at each slice reduced first, then applied to it."""
    reduce, combine = REDUCED[kind]
    slots, depth = _slots(dev, indices, nd, x)
    per_slot = reduce_slots(dev, reduce, slots, updates,
                            (int(np.prod(x.shape[:depth], dtype=np.int64)), *x.shape[depth:]))
    out = dev.empty(x.shape, x.dtype)
    if out.size:
        dev.aclnn(combine, x, View(per_slot, x.shape, contiguous_strides(x.shape)), out)
    return out


def _in_place(kind: str, nd: bool) -> Any:
    def factory(prim: Any, dev: AscendDevice) -> Any:
        def kernel(variable: DeviceArray, indices: DeviceArray,
                   updates: DeviceArray) -> DeviceArray:
            if kind in REDUCED:
                dev.aclnn("InplaceCopy", variable,
                          _reduced(dev, variable, indices, updates, kind, nd))
                return variable
            index = columns(indices) if nd else TensorList((indices,))
            return _put(dev, variable, index, updates, kind)

        return kernel

    return factory


def _tensor_scatter(kind: str) -> Any:
    def factory(prim: Any, dev: AscendDevice) -> Any:
        def kernel(x: DeviceArray, indices: DeviceArray, updates: DeviceArray) -> DeviceArray:
            if kind in REDUCED:
                return _reduced(dev, x, indices, updates, kind, nd=True)
            out = dev.empty(x.shape, x.dtype)
            dev.copy(out, x)
            return _put(dev, out, columns(indices), updates, kind)

        return kernel

    return factory


def _update_cache(prim: Any, dev: AscendDevice) -> Any:
    """Rows of the Parameter replaced by the last update aimed at them, indices outside
    [0, max_num) skipped: each row's last update number (:func:`reduce_slots` with aclnnAmax
    of the numbers 0, 1, ...) picks the row gathered where there is one."""
    def kernel(x: DeviceArray, indices: DeviceArray, updates: DeviceArray,
               max_num: int) -> DeviceArray:
        rows, count = min(x.shape[0], max_num), indices.size
        if rows > 0 and count and x.size:
            last = reduce_slots(dev, "Amax", indices, dev.constant(np.arange(count), np.int64),
                                (rows,))
            a, rest = Arithmetic(dev, np.int64), x.shape[1:]
            picked = dev.empty((rows, *rest), x.dtype)
            dev.aclnn("GatherV2", View(updates, (count, *rest), contiguous_strides((count, *rest))),
                      0, a.op("Maximum", last, 0), picked)
            kept = View(x, (rows, *rest), contiguous_strides((rows, *rest)))
            aimed = View(a.compare("GeTensor", last, 0), (rows, *(1,) * len(rest)),
                         (1, *(0,) * len(rest)))
            dev.aclnn("InplaceCopy", kept, Arithmetic(dev, x.dtype).where(aimed, picked, kept))
        return dev.zero(dev.empty((1,), x.dtype))

    return kernel


def _scatter_elements(prim: Any, dev: AscendDevice) -> Any:
    """A copy of data with each update put at its coordinates, its index in place of the one
    along axis (the others constant index tensors)."""
    def kernel(data: DeviceArray, indices: DeviceArray, updates: DeviceArray) -> DeviceArray:
        axis = prim.axis % data.ndim
        grid = np.indices(indices.shape, dtype=indices.dtype)
        index = TensorList(tuple(indices if d == axis else dev.constant(grid[d], indices.dtype)
                                 for d in range(data.ndim)))
        out = dev.empty(data.shape, data.dtype)
        dev.copy(out, data)
        return _put(dev, out, index, updates, "Update")

    return kernel


def _scatter_nd(prim: Any, dev: AscendDevice) -> Any:
    def kernel(indices: DeviceArray, updates: DeviceArray, shape: Any) -> DeviceArray:
        out = dev.zero(dev.empty(tuple(shape), updates.dtype))
        return _put(dev, out, columns(indices), updates, "Add")

    return kernel


KERNELS = {
    **{f"Scatter{kind}": _in_place(kind, nd=False) for kind in (*KINDS, *REDUCED)},
    **{f"ScatterNd{kind}": _in_place(kind, nd=True) for kind in KINDS},
    "ScatterNonAliasingAdd": _in_place("Add", nd=True),
    "ScatterElements": _scatter_elements,
    **{f"TensorScatter{kind}": _tensor_scatter(kind) for kind in
       ("Update", "Add", "Sub", "Max", "Min")},
    "ScatterNd": _scatter_nd,
    "UpdateCache": _update_cache,
}
