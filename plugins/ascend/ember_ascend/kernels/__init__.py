"""Kernel tables: primitive name -> factory(primitive, device) -> function of DeviceArrays.

Each kernel allocates its outputs from the device's pool and enqueues aclnn operators (or the
aclop fallback, or copies) on the device's stream; nothing waits for the device.
"""

from ember_ascend.kernels.array import KERNELS as ARRAY_KERNELS
from ember_ascend.kernels.math import KERNELS as MATH_KERNELS
from ember_ascend.kernels.nn import KERNELS as NN_KERNELS
from ember_ascend.kernels.optim import KERNELS as OPTIM_KERNELS

KERNELS = {**MATH_KERNELS, **ARRAY_KERNELS, **NN_KERNELS, **OPTIM_KERNELS}
