"""The GPU backend's collectives: host staging through the CPU backend's MPI communicator.

Each collective copies the tensor to host memory, runs the MPI call there and copies the
result back, as one ``tf.numpy_function`` node (so it also runs inside the graphs of
GRAPH_MODE, which then are not compiled whole by XLA). NCCL, device to device, is a later
option.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ember.backend import host_communicator
from ember_gpu.device import import_tensorflow

tf = import_tensorflow()


class StagedCommunicator:
    """Collectives on tf.Tensors, run by a host communicator on their values."""

    def __init__(self, host: Any) -> None:
        self.host = host
        self.rank, self.size = host.rank, host.size
        self.local_rank, self.local_size = host.local_rank, host.local_size

    @property
    def calls(self) -> int:
        return self.host.calls

    def group(self, ranks: list[int]) -> StagedCommunicator:
        return StagedCommunicator(self.host.group(ranks))

    @staticmethod
    def _staged(fn: Callable[[Any], Any], x: Any, shape: tuple[int | None, ...]) -> Any:
        out = tf.numpy_function(fn, [x], x.dtype, stateful=True)
        out.set_shape(shape)
        return out

    def all_reduce(self, x: Any, op: str) -> Any:
        return self._staged(lambda a: self.host.all_reduce(a, op), x, x.shape)

    def all_gather(self, x: Any) -> Any:
        shape = (None if x.shape[0] is None else x.shape[0] * self.size, *x.shape[1:])
        return self._staged(self.host.all_gather, x, shape)

    def reduce_scatter(self, x: Any, op: str) -> Any:
        shape = (None if x.shape[0] is None else x.shape[0] // self.size, *x.shape[1:])
        return self._staged(lambda a: self.host.reduce_scatter(a, op), x, shape)

    def broadcast(self, x: Any, root: int) -> Any:
        return self._staged(lambda a: self.host.broadcast(a, root), x, x.shape)

    def all_to_all(self, x: Any, split_dim: int, concat_dim: int) -> Any:
        shape = list(x.shape)
        shape[split_dim] //= self.size
        shape[concat_dim] *= self.size
        return self._staged(lambda a: self.host.all_to_all(a, split_dim, concat_dim), x,
                            tuple(shape))

    def neighbor_exchange(self, xs: tuple, send_ranks: tuple, recv_ranks: tuple,
                          recv_specs: list) -> tuple:
        def on_host(*arrays: Any) -> tuple:
            return self.host.neighbor_exchange(arrays, send_ranks, recv_ranks, recv_specs)

        outs = tf.numpy_function(on_host, list(xs), [tf.as_dtype(d) for _, d in recv_specs],
                                 stateful=True)
        if not isinstance(outs, list | tuple):  # one output comes back alone, not in a list
            outs = [outs]
        for out, (shape, _) in zip(outs, recv_specs, strict=True):
            out.set_shape(shape)
        return tuple(outs)

    def abort(self, code: int) -> None:
        self.host.abort(code)

    def release(self) -> None:
        self.host.release()


def world() -> StagedCommunicator:
    return StagedCommunicator(host_communicator())
