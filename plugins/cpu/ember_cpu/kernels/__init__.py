"""Kernel tables: primitive name -> factory(primitive) -> function of NumPy arrays.

Each module of this package holds the ``KERNELS`` table of one kind of primitive (math,
elementwise, reduce, array, nn, ...); ``KERNELS`` here is their union.
"""

from ember.backend import merged_kernel_tables

KERNELS = {
    **merged_kernel_tables(__name__, __path__),
    "PyFunc": lambda prim: prim.call,  # the user's Python, on host arrays: ours already are
}
