"""SearchSorted as a count: in a sorted row, the insertion point of v is the number of
elements below v (at or below it, with ``right``): aclnnLtTensor/LeTensor of every (value,
element) pair, summed over the row (aclnnReduceSum)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember_ascend.device import AscendDevice, DeviceArray, view
from ember_ascend.kernels.common import Arithmetic, cast


def _search_sorted(prim: Any, dev: AscendDevice) -> Any:
    compare = "LeTensor" if prim.right else "LtTensor"
    dtype = np.int32 if prim.out_int32 else np.int64

    def kernel(sequence: DeviceArray, values: DeviceArray) -> DeviceArray:
        elements = view(sequence, sequence.shape[:-1] + (1,) + sequence.shape[-1:])
        wanted = view(values, values.shape + (1,))
        below = Arithmetic(dev, sequence.dtype).compare(compare, elements, wanted)
        counts = Arithmetic(dev, np.int64)
        return cast(dev, counts.sum(cast(dev, below, np.int64), (below.ndim - 1,), False), dtype)

    return kernel


KERNELS = {
    "SearchSorted": _search_sorted,
}
