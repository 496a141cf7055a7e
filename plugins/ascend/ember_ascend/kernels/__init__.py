"""Kernel tables: primitive name -> factory(primitive, device) -> function of DeviceArrays.

Each kernel allocates its outputs from the device's pool and enqueues aclnn operators (or the
aclop fallback, or copies) on the device's stream; nothing waits for the device. Each module
of this package holds the ``KERNELS`` table of one kind of primitive; ``KERNELS`` here is their
union (``common`` holds shared helpers only).
"""

from ember.backend import merged_kernel_tables

KERNELS = merged_kernel_tables(__name__, __path__)
