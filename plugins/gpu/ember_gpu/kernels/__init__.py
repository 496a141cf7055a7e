"""Kernel tables: primitive name -> factory(primitive) -> function of tf.Tensors.

Kernels are built from TensorFlow ops only (``tf.raw_ops`` on the hottest paths, which skip
the Python dispatch layers of ``tf.add`` and friends), so each one runs eagerly in PyNative
mode and traces into the XLA graphs of Graph mode alike.
"""

from ember_gpu.kernels.activation import KERNELS as ACTIVATION_KERNELS
from ember_gpu.kernels.array import KERNELS as ARRAY_KERNELS
from ember_gpu.kernels.dynamic import KERNELS as DYNAMIC_KERNELS
from ember_gpu.kernels.index import KERNELS as INDEX_KERNELS
from ember_gpu.kernels.math import KERNELS as MATH_KERNELS
from ember_gpu.kernels.nn import KERNELS as NN_KERNELS
from ember_gpu.kernels.norm import KERNELS as NORM_KERNELS
from ember_gpu.kernels.optim import KERNELS as OPTIM_KERNELS
from ember_gpu.kernels.python import KERNELS as PYTHON_KERNELS
from ember_gpu.kernels.scatter import KERNELS as SCATTER_KERNELS
from ember_gpu.kernels.spatial import KERNELS as SPATIAL_KERNELS

KERNELS = {**MATH_KERNELS, **ARRAY_KERNELS, **NN_KERNELS, **OPTIM_KERNELS, **PYTHON_KERNELS,
           **ACTIVATION_KERNELS, **NORM_KERNELS, **SPATIAL_KERNELS, **SCATTER_KERNELS,
           **INDEX_KERNELS, **DYNAMIC_KERNELS}
