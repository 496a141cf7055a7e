"""Kernel tables: primitive name -> factory(primitive) -> function of NumPy arrays."""

from ember.ops.operations.comm_ops import COLLECTIVE_KERNELS
from ember_cpu.kernels.array import KERNELS as ARRAY_KERNELS
from ember_cpu.kernels.math import KERNELS as MATH_KERNELS
from ember_cpu.kernels.nn import KERNELS as NN_KERNELS
from ember_cpu.kernels.optim import KERNELS as OPTIM_KERNELS

KERNELS = {
    **MATH_KERNELS, **ARRAY_KERNELS, **NN_KERNELS, **OPTIM_KERNELS, **COLLECTIVE_KERNELS,
    "PyFunc": lambda prim: prim.call,  # the user's Python, on host arrays: ours already are
}
