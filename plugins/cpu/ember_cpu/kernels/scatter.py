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


def _scatter(kind):
    """Scatter<kind>: along the first dimension of the variable, in place."""

    def factory(prim):
        ufunc = _UFUNCS[kind]

        def kernel(variable, indices, updates):
            _combine(variable, indices, updates, ufunc)
            return variable

        return kernel

    return factory


def _scatter_nd_in_place(kind):
    """ScatterNd<kind>: at the positions the last dimension of ``indices`` addresses."""

    def factory(prim):
        ufunc = _UFUNCS[kind]

        def kernel(variable, indices, updates):
            _combine(variable, _at(indices), updates, ufunc)
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


KERNELS = {
    **{f"Scatter{kind}": _scatter(kind) for kind in _UFUNCS},
    **{f"ScatterNd{kind}": _scatter_nd_in_place(kind) for kind in ("Add", "Sub", "Update")},
    **{f"TensorScatter{kind}": _tensor_scatter(kind) for kind in ("Update", "Sub", "Max", "Min")},
    "ScatterNd": _scatter_nd,
}
