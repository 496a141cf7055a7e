"""Kernel tables: primitive name -> factory(primitive) -> function of tf.Tensors.

Kernels are built from TensorFlow ops only (``tf.raw_ops`` on the hottest paths, which skip
the Python dispatch layers of ``tf.add`` and friends), so each one runs eagerly in PyNative
mode and traces into the XLA graphs of Graph mode alike. Each module of this package holds the
``KERNELS`` table of one kind of primitive; ``KERNELS`` here is their union.
"""

from ember.backend import merged_kernel_tables

KERNELS = merged_kernel_tables(__name__, __path__)
