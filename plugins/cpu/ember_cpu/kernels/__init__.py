"""Kernel tables: primitive name -> factory(primitive) -> function of NumPy arrays."""

from ember_cpu.kernels.array import KERNELS as ARRAY_KERNELS
from ember_cpu.kernels.math import KERNELS as MATH_KERNELS

KERNELS = {**MATH_KERNELS, **ARRAY_KERNELS}
