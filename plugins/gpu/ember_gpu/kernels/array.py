"""(filled in below)"""

from __future__ import annotations

from ember_gpu.device import import_tensorflow

tf = import_tensorflow()

KERNELS: dict = {}
