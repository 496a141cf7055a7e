"""Scatter kernels on NumPy: in-place updates of Parameters and new tensors.

NumPy's unbuffered ``ufunc.at`` applies repeated indices one after another, as MindSpore's
CPU kernels do.
"""

from __future__ import annotations

import numpy as np

from ember_cpu.kernels.array import _at

#: The ufunc each scatter applies (None: plain assignment).
_UFUNCS = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide,
           "Max": np.maximum, "Min": np.minimum, "Update": None}


def _combine(out, at, updates, ufunc):
    if ufunc is None:
        out[at] = updates
    else:
        ufunc.at(out, at, updates)


def _check_bounds(shape, at):
    """Raise before an in-place update writes anything when an index is outside ``shape``
    (NumPy would wrap a negative one, and ``ufunc.at`` stops half way)."""
    for dim, (index, size) in enumerate(zip(at, shape)):
        bad = (index < 0) | (index >= size)
        if np.any(bad):
            raise IndexError(f"index {np.asarray(index)[bad].flat[0]} is out of range [0, "
                             f"{size}) for dimension {dim} of the variable of shape "
                             f"{list(shape)}; the variable is unchanged")


def _scatter(kind):
    """Scatter<kind>: along the first dimension of the variable, in place."""

    def factory(prim):
        ufunc = _UFUNCS[kind]

        def kernel(variable, indices, updates):
            _check_bounds(variable.shape, (indices,))
            _combine(variable, indices, updates, ufunc)
            return variable

        return kernel

    return factory


def _scatter_nd_in_place(kind):
    """ScatterNd<kind>: at the positions the last dimension of ``indices`` addresses."""

    def factory(prim):
        ufunc = _UFUNCS[kind]

        def kernel(variable, indices, updates):
            at = _at(indices)
            _check_bounds(variable.shape, at)
            _combine(variable, at, updates, ufunc)
            return variable

        return kernel

    return factory


def _tensor_scatter(kind):
    """TensorScatter<kind>: the same on a copy."""

    def factory(prim):
        ufunc = _UFUNCS[kind]

        def kernel(x, indices, updates):
            out = x.copy()
            _combine(out, _at(indices), updates, ufunc)
            return out

        return kernel

    return factory


def _scatter_nd(prim):
    def kernel(indices, updates, shape):
        out = np.zeros(shape, updates.dtype)
        np.add.at(out, _at(indices), updates)
        return out

    return kernel


def _update_cache(variable, indices, updates, max_num):
    indices = indices.reshape(-1)
    updates = updates.reshape((indices.size,) + variable.shape[1:])
    keep = (indices >= 0) & (indices < min(max_num, len(variable)))
    variable[indices[keep]] = updates[keep]
    return np.zeros(1, variable.dtype)


def _tensor_copy_slices(prim):
    def kernel(x, value, begin, end, strides):
        index, shape = prim.index(x.shape, begin, end, strides)
        out = x.copy()
        out[index] = value.reshape(shape)
        return out

    return kernel


def _scatter_elements(prim):
    def kernel(data, indices, updates):
        # each update's coordinates, its index in place of the one along axis
        at = list(np.indices(indices.shape, sparse=True))
        at[prim.axis % data.ndim] = indices
        out = data.copy()
        out[tuple(at)] = updates
        return out

    return kernel


KERNELS = {
    **{f"Scatter{kind}": _scatter(kind) for kind in _UFUNCS},
    "ScatterNonAliasingAdd": _scatter_nd_in_place("Add"),
    "ScatterElements": _scatter_elements,
    **{f"ScatterNd{kind}": _scatter_nd_in_place(kind) for kind in ("Add", "Sub", "Update")},
    **{f"TensorScatter{kind}": _tensor_scatter(kind) for kind in ("Update", "Sub", "Max", "Min")},
    "ScatterNd": _scatter_nd,
    "UpdateCache": lambda p: _update_cache,
    "TensorCopySlices": _tensor_copy_slices,
}
