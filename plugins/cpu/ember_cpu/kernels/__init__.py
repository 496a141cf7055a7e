"""Kernel tables: primitive name -> factory(primitive) -> function of NumPy arrays."""

from ember_cpu.kernels.activation import KERNELS as ACTIVATION_KERNELS
from ember_cpu.kernels.array import KERNELS as ARRAY_KERNELS
from ember_cpu.kernels.dynamic import KERNELS as DYNAMIC_KERNELS
from ember_cpu.kernels.elementwise import KERNELS as ELEMENTWISE_KERNELS
from ember_cpu.kernels.index import KERNELS as INDEX_KERNELS
from ember_cpu.kernels.math import KERNELS as MATH_KERNELS
from ember_cpu.kernels.nn import KERNELS as NN_KERNELS
from ember_cpu.kernels.norm import KERNELS as NORM_KERNELS
from ember_cpu.kernels.optim import KERNELS as OPTIM_KERNELS
from ember_cpu.kernels.reduce import KERNELS as REDUCE_KERNELS
from ember_cpu.kernels.scatter import KERNELS as SCATTER_KERNELS
from ember_cpu.kernels.spatial import KERNELS as SPATIAL_KERNELS

KERNELS = {
    **MATH_KERNELS, **ELEMENTWISE_KERNELS, **REDUCE_KERNELS, **ARRAY_KERNELS, **NN_KERNELS,
    **OPTIM_KERNELS, **ACTIVATION_KERNELS, **NORM_KERNELS, **SPATIAL_KERNELS,
    **SCATTER_KERNELS, **INDEX_KERNELS, **DYNAMIC_KERNELS,
    "PyFunc": lambda prim: prim.call,  # the user's Python, on host arrays: ours already are
}
