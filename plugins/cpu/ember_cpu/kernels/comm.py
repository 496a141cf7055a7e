"""Collectives: the core's kernels, which call this backend's MPI communicator
(``ember_cpu.communicator``) on NumPy arrays."""

from ember.ops.operations.comm_ops import COLLECTIVE_KERNELS as KERNELS  # noqa: F401
