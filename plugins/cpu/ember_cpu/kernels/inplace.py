"""InplaceAdd, InplaceSub and InplaceUpdate on NumPy: the rows of ``v`` combined into a copy
of ``x`` at the primitive's ``indices``, repeated ones one after another."""

from __future__ import annotations

import numpy as np


def _inplace(ufunc):
    def factory(prim):
        rows = np.array(prim.indices, np.intp)

        def kernel(x, v):
            out = x.copy()
            if ufunc is None:
                out[rows] = v
            else:
                ufunc.at(out, rows, v)
            return out

        return kernel

    return factory


KERNELS = {
    "InplaceAdd": _inplace(np.add),
    "InplaceSub": _inplace(np.subtract),
    "InplaceUpdate": _inplace(None),
}
