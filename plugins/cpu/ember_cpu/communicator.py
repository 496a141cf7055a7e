"""The CPU backend's communicator: MPI collectives (mpi4py) on NumPy buffers.

Every call passes NumPy arrays as buffers to mpi4py's upper-case methods (``Allreduce``,
``Allgather``, ...), so data moves as raw memory: nothing is pickled. MPI receives into a
buffer kept for each size, whose result is then copied out: Open MPI receives into memory it
has seen before about twice as fast as into fresh memory (measured with 16 MB). mpi4py
initialises MPI when it is first imported, in :func:`world`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def _mpi() -> Any:
    try:
        from mpi4py import MPI
    except ImportError as exc:
        raise ImportError(f"collectives on the CPU backend need mpi4py and an MPI library "
                          f"({exc}): pip install \"ember-core[dist]\"") from exc
    return MPI


class MpiCommunicator:
    """The processes of one MPI communicator; arrays are NumPy arrays in host memory."""

    def __init__(self, comm: Any, local: Any = None) -> None:
        self.comm = comm
        self.rank, self.size = comm.Get_rank(), comm.Get_size()
        self.local_rank = local.Get_rank() if local is not None else self.rank
        self.local_size = local.Get_size() if local is not None else self.size
        self.calls = 0
        self._scratch: dict[int, np.ndarray] = {}  # receive buffers by size in bytes
        mpi = _mpi()
        self._ops = {"sum": mpi.SUM, "max": mpi.MAX, "min": mpi.MIN, "prod": mpi.PROD}

    def group(self, ranks: list[int]) -> MpiCommunicator:
        return MpiCommunicator(self.comm.Create_group(self.comm.group.Incl(ranks)))

    def _receive(self, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        """The receive buffer for an array of ``shape`` and ``dtype`` (copy the result out)."""
        nbytes = math.prod(shape) * dtype.itemsize
        buffer = self._scratch.get(nbytes)
        if buffer is None:
            buffer = self._scratch[nbytes] = np.empty(nbytes, np.uint8)
        return buffer.view(dtype).reshape(shape)

    def all_reduce(self, x: np.ndarray, op: str) -> np.ndarray:
        x = np.ascontiguousarray(x)
        out = self._receive(x.shape, x.dtype)
        self.comm.Allreduce(x, out, op=self._ops[op])
        self.calls += 1
        return out.copy()

    def all_gather(self, x: np.ndarray) -> np.ndarray:
        x = np.ascontiguousarray(x)
        out = self._receive((self.size * x.shape[0], *x.shape[1:]), x.dtype)
        self.comm.Allgather(x, out)
        self.calls += 1
        return out.copy()

    def reduce_scatter(self, x: np.ndarray, op: str) -> np.ndarray:
        x = np.ascontiguousarray(x)
        out = self._receive((x.shape[0] // self.size, *x.shape[1:]), x.dtype)
        self.comm.Reduce_scatter_block(x, out, op=self._ops[op])
        self.calls += 1
        return out.copy()

    def broadcast(self, x: np.ndarray, root: int) -> np.ndarray:
        out = np.array(x, order="C")  # a copy: the input stays as it was
        self.comm.Bcast(out, root=root)
        self.calls += 1
        return out

    def all_to_all(self, x: np.ndarray, split_dim: int, concat_dim: int) -> np.ndarray:
        send = np.ascontiguousarray(np.stack(np.split(x, self.size, axis=split_dim)))
        received = np.empty_like(send)
        self.comm.Alltoall(send, received)
        self.calls += 1
        return np.concatenate(list(received), axis=concat_dim)

    def neighbor_exchange(self, xs: tuple, send_ranks: tuple, recv_ranks: tuple,
                          recv_specs: list) -> tuple:
        received = tuple(np.empty(shape, dtype) for shape, dtype in recv_specs)
        requests = [self.comm.Isend(np.ascontiguousarray(x), dest=rank)
                    for x, rank in zip(xs, send_ranks)]
        requests += [self.comm.Irecv(out, source=rank) for out, rank in zip(received, recv_ranks)]
        _mpi().Request.Waitall(requests)
        self.calls += 1
        return received

    def abort(self, code: int) -> None:
        """End every process of the launch (one died: the others must not wait for it)."""
        self.comm.Abort(code)

    def release(self) -> None:
        if self.comm != _mpi().COMM_WORLD:
            self.comm.Free()


def world() -> MpiCommunicator:
    """Every process of the launch (a launch of one when the process was started alone)."""
    mpi = _mpi()
    comm = mpi.COMM_WORLD
    return MpiCommunicator(comm, comm.Split_type(mpi.COMM_TYPE_SHARED))
