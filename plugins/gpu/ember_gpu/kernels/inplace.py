"""InplaceAdd, InplaceSub and InplaceUpdate on TensorFlow: the rows of ``v`` scattered into a
copy of ``x`` at the primitive's ``indices`` (TensorScatterAdd, Sub, Update)."""

from __future__ import annotations

import numpy as np

from ember_gpu.device import import_tensorflow

tf = import_tensorflow()
raw = tf.raw_ops


def _inplace(op):
    def factory(prim):
        rows = np.array(prim.indices, np.int32)[:, None]
        return lambda x, v: op(tensor=x, indices=rows, updates=v)

    return factory


KERNELS = {
    "InplaceAdd": _inplace(raw.TensorScatterAdd),
    "InplaceSub": _inplace(raw.TensorScatterSub),
    "InplaceUpdate": _inplace(raw.TensorScatterUpdate),
}
