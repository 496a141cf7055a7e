"""Kernel tables: primitive name -> factory(primitive) -> function of NumPy arrays."""

from ember_cpu.kernels.array import KERNELS as ARRAY_KERNELS
from ember_cpu.kernels.detection import KERNELS as DETECTION_KERNELS
from ember_cpu.kernels.elementwise import KERNELS as ELEMENTWISE_KERNELS
from ember_cpu.kernels.linalg import KERNELS as LINALG_KERNELS
from ember_cpu.kernels.math import KERNELS as MATH_KERNELS
from ember_cpu.kernels.nn import KERNELS as NN_KERNELS
from ember_cpu.kernels.optim import KERNELS as OPTIM_KERNELS
from ember_cpu.kernels.reduce import KERNELS as REDUCE_KERNELS

KERNELS = {
    **MATH_KERNELS, **ELEMENTWISE_KERNELS, **REDUCE_KERNELS, **LINALG_KERNELS,
    **DETECTION_KERNELS, **ARRAY_KERNELS, **NN_KERNELS, **OPTIM_KERNELS,
    "PyFunc": lambda prim: prim.call,  # the user's Python, on host arrays: ours already are
}
