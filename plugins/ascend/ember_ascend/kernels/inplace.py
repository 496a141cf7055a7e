"""InplaceAdd, InplaceSub and InplaceUpdate on aclnnIndexPutImpl: the rows of ``v`` put into a
copy of ``x`` at the primitive's ``indices``, uploaded once."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_ascend.device import AscendDevice, DeviceArray, TensorList
from ember_ascend.kernels.scatter import _put


def _inplace(kind: str) -> Any:
    def factory(prim: Any, dev: AscendDevice) -> Any:
        rows = np.array(prim.indices, np.int64)

        def kernel(x: DeviceArray, v: DeviceArray) -> DeviceArray:
            out = dev.empty(x.shape, x.dtype)
            dev.copy(out, x)
            return _put(dev, out, TensorList((dev.constant(rows, np.int64),)), v, kind)

        return kernel

    return factory


KERNELS = {f"Inplace{kind}": _inplace(kind) for kind in ("Add", "Sub", "Update")}
