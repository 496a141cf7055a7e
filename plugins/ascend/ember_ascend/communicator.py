"""The Ascend backend's collectives: reductions device to device by ``HcclAllReduce`` on the
backend's stream, the others staged through host memory by the CPU backend's MPI
communicator (as the GPU backend's). The HCCL communicator of a group is made from a root
info that its rank 0 creates and broadcasts over MPI (``HcclCommInitRootInfo`` on every rank).
Data types HCCL lacks (bool, float64, unsigned) are reduced through the host too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.backend import host_communicator
from ember_ascend import driver as drv
from ember_ascend.device import AscendDevice, DeviceArray


class HcclCommunicator:
    """Collectives on DeviceArrays among the processes of the MPI communicator ``host``."""

    def __init__(self, host: Any, device: AscendDevice) -> None:
        self.host, self.device = host, device
        self.rank, self.size = host.rank, host.size
        self.local_rank, self.local_size = host.local_rank, host.local_size
        driver = device.driver
        root = driver.hccl_root_info() if host.rank == 0 else bytes(drv.HCCL_ROOT_INFO_BYTES)
        shared = host.broadcast(np.frombuffer(root, np.uint8).copy(), 0)
        self.comm = driver.hccl_init(host.size, np.asarray(shared, np.uint8).tobytes(),
                                     host.rank)
        self.reductions = 0  # collectives HCCL ran (the host counts its own)

    @property
    def calls(self) -> int:
        return self.host.calls + self.reductions

    def group(self, ranks: list[int]) -> HcclCommunicator:
        return HcclCommunicator(self.host.group(ranks), self.device)

    def _staged(self, fn: Callable[[np.ndarray], np.ndarray], x: DeviceArray) -> DeviceArray:
        return self.device.from_host(np.asarray(fn(self.device.to_host(x))))

    def all_reduce(self, x: DeviceArray, op: str) -> DeviceArray:
        if x.dtype.name not in drv.HCCL_DTYPES:
            return self._staged(lambda a: self.host.all_reduce(a, op), x)
        out = self.device.empty(x.shape, x.dtype)
        self.device.all_reduce(self.comm, x, out, drv.HCCL_DTYPES[x.dtype.name],
                               drv.HCCL_OPS[op])
        self.reductions += 1
        return out

    def all_gather(self, x: DeviceArray) -> DeviceArray:
        return self._staged(self.host.all_gather, x)

    def reduce_scatter(self, x: DeviceArray, op: str) -> DeviceArray:
        return self._staged(lambda a: self.host.reduce_scatter(a, op), x)

    def broadcast(self, x: DeviceArray, root: int) -> DeviceArray:
        return self._staged(lambda a: self.host.broadcast(a, root), x)

    def all_to_all(self, x: DeviceArray, split_dim: int, concat_dim: int) -> DeviceArray:
        return self._staged(lambda a: self.host.all_to_all(a, split_dim, concat_dim), x)

    def neighbor_exchange(self, xs: tuple, send_ranks: tuple, recv_ranks: tuple,
                          recv_specs: list) -> tuple:
        received = self.host.neighbor_exchange(tuple(self.device.to_host(x) for x in xs),
                                               send_ranks, recv_ranks, recv_specs)
        return tuple(self.device.from_host(np.asarray(r)) for r in received)

    def abort(self, code: int) -> None:
        self.host.abort(code)

    def release(self) -> None:
        self.device.synchronize()
        self.device.driver.hccl_destroy(self.comm)
        self.host.release()


def world(device: AscendDevice) -> HcclCommunicator:
    return HcclCommunicator(host_communicator(), device)
