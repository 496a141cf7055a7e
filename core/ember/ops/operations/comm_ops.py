"""Collective primitives, as ``mindspore.ops.operations.comm_ops``: AllReduce, AllGather,
ReduceScatter, Broadcast, AlltoAll, NeighborExchange.

Every process of the group calls the same collective in the same order (in PyNative mode op by
op; in GRAPH_MODE they are graph nodes, which the passes never remove, merge or fold). The
kernel of each is the same for every backend: a call of the backend's communicator
(``ember_communicator`` hook) for the primitive's group, on the backend's arrays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.communication.management import GlobalComm, communicator, get_rank, group_ranks
from ember.ops._rules import check_tensor
from ember.ops.operations.array_ops import _ints, _shape_of
from ember.ops.operations.math_ops import cast, equal, mul, real_div, zeros_like
from ember.ops.primitive import Primitive, Spec

__all__ = ["AllGather", "AllReduce", "AlltoAll", "Broadcast", "NeighborExchange", "ReduceOp",
           "ReduceScatter"]

#: What the collectives move: MPI has no Bool reduction, and MindSpore's kernels take these.
_DTYPES = (mstype.int8, mstype.uint8, mstype.int32, mstype.int64, mstype.float16,
           mstype.float32, mstype.float64)


class ReduceOp:
    """The reductions of AllReduce and ReduceScatter."""

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"


_OPS = (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD)


class _Collective(Primitive):
    """A collective on the processes of ``group``; ``collective(comm)`` returns the function
    of the backend's arrays that runs it on the communicator ``comm``."""

    pure = False  # every process must run it: graph passes keep it as it is
    cache_infer = False  # infer reads the size of the group, which init() and groups change
    collective: Callable[[Any], Callable[..., Any]]  # each collective defines it

    def __init__(self, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__()
        if not isinstance(group, str):
            raise TypeError(f"{self.name}: group must be a str, but got {type(group).__name__}")
        self.group = group

    def _input(self, x: Any) -> tuple[Tensor, int]:
        """The tensor input, checked, and the group's size (RuntimeError before init())."""
        return check_tensor(self.name, "x", x, _DTYPES), len(group_ranks(self.name, self.group))


class _OnTuple(_Collective):
    """A collective called on a tuple of tensors, returning a tuple."""

    def __call__(self, input_x: Any) -> Any:
        if not isinstance(input_x, tuple | list) or not input_x:
            raise TypeError(f"{self.name}: input_x must be a non-empty tuple of Tensors, but "
                            f"got {type(input_x).__name__}")
        return super().__call__(*input_x)


def collective_kernel(prim: _Collective) -> Callable[..., Any]:
    """The kernel factory of every collective: its call on the group's communicator."""
    return prim.collective(communicator(prim.group, prim.name))


def _check_op(owner: str, op: Any) -> str:
    if op not in _OPS:
        raise ValueError(f"{owner}: op must be one of {', '.join(map(repr, _OPS))} (ReduceOp), "
                         f"but got {op!r}")
    return op


class AllReduce(_Collective):
    """Reduces ``x`` over the group with ``op`` (ReduceOp.SUM, MAX, MIN or PROD); every
    process gets the result: ``AllReduce(op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP)``.

    Its gradient is the all-reduced sum of the output gradients, masked where ``x`` is the
    extreme for MAX/MIN (as MindSpore's), times ``out / x`` for PROD (MindSpore masks PROD too).
    """

    def __init__(self, op: str = ReduceOp.SUM, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(group)
        self.op = _check_op("AllReduce", op)

    def infer(self, x: Any) -> Spec:
        x, _ = self._input(x)
        return x.shape, x.dtype

    def collective(self, comm: Any) -> Callable[..., Any]:
        op, reduce = self.op, comm.all_reduce
        return lambda x: reduce(x, op)

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        dx = AllReduce(ReduceOp.SUM, self.group)(dout)
        if self.op == ReduceOp.SUM:
            return (dx,)
        if self.op == ReduceOp.PROD:  # d(prod)/dx = prod / x, summed over the processes' douts
            return (real_div(mul(dx, out), x),)
        return (mul(dx, cast(equal(x, out), dx.dtype)),)  # max/min: where x is the extreme


class AllGather(_Collective):
    """Concatenates the processes' ``x`` along axis 0, in rank order:
    ``AllGather(group=GlobalComm.WORLD_COMM_GROUP)``."""

    def infer(self, x: Any) -> Spec:
        x, size = self._input(x)
        if x.ndim == 0:
            raise ValueError("AllGather: x must have at least one dimension, but got a scalar")
        return (x.shape[0] * size, *x.shape[1:]), x.dtype

    def collective(self, comm: Any) -> Callable[..., Any]:
        return comm.all_gather

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        return (ReduceScatter(ReduceOp.SUM, self.group)(dout),)


class ReduceScatter(_Collective):
    """Reduces ``x`` over the group with ``op`` and gives process ``r`` block ``r`` of axis 0
    (split into group-size blocks): ``ReduceScatter(op=ReduceOp.SUM, group=...)``."""

    def __init__(self, op: str = ReduceOp.SUM, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(group)
        self.op = _check_op("ReduceScatter", op)

    def infer(self, x: Any) -> Spec:
        x, size = self._input(x)
        if x.ndim == 0 or x.shape[0] % size:
            raise ValueError(f"ReduceScatter: the first dimension of x must be a multiple of the "
                             f"group size {size}, but x has shape {list(x.shape)}")
        return (x.shape[0] // size, *x.shape[1:]), x.dtype

    def collective(self, comm: Any) -> Callable[..., Any]:
        op, scatter = self.op, comm.reduce_scatter
        return lambda x: scatter(x, op)

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        if self.op != ReduceOp.SUM:
            raise RuntimeError(f"ReduceScatter: only op=ReduceOp.SUM is differentiable, but this "
                               f"one has op={self.op!r}")
        return (AllGather(self.group)(dout),)


class Broadcast(_OnTuple):
    """Every process gets the tensors of process ``root_rank`` (a rank of the group):
    ``Broadcast(root_rank, group)((x, ...))`` returns a tuple; the other processes' inputs
    give the shapes and dtypes. Gradients: the root's inputs get the sum of every process's
    output gradients, the others' zeros (MindSpore passes each process's own through)."""

    def __init__(self, root_rank: int, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(group)
        if not isinstance(root_rank, int) or isinstance(root_rank, bool) or root_rank < 0:
            raise ValueError(f"Broadcast: root_rank must be an int >= 0, but got {root_rank!r}")
        self.root_rank = root_rank

    def infer(self, *xs: Any) -> list[Spec]:
        size = 0
        for x in xs:
            x, size = self._input(x)
        if self.root_rank >= size:
            raise ValueError(f"Broadcast: root_rank must be a rank of group {self.group!r} "
                             f"(size {size}), but got {self.root_rank}")
        return [(x.shape, x.dtype) for x in xs]

    def collective(self, comm: Any) -> Callable[..., Any]:
        root, broadcast = self.root_rank, comm.broadcast
        return lambda *xs: tuple(broadcast(x, root) for x in xs)

    def bprop(self, *args: Any) -> tuple:
        xs, dout = args[:-2], args[-1]
        summed = tuple(AllReduce(ReduceOp.SUM, self.group)(d) for d in dout)  # on every rank
        if get_rank(self.group) != self.root_rank:  # the outputs do not depend on this x
            return tuple(zeros_like(x) for x in xs)
        return summed


class AlltoAll(_Collective):
    """Splits ``x`` into ``split_count`` (the group size) blocks along ``split_dim``, sends
    block ``r`` to process ``r``, and concatenates the blocks received along ``concat_dim``:
    ``AlltoAll(split_count, split_dim, concat_dim, group)``."""

    def __init__(self, split_count: int, split_dim: int, concat_dim: int,
                 group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(group)
        for name, value in (("split_count", split_count), ("split_dim", split_dim),
                            ("concat_dim", concat_dim)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"AlltoAll: {name} must be an int, but got {value!r}")
        self.split_count, self.split_dim, self.concat_dim = split_count, split_dim, concat_dim

    def infer(self, x: Any) -> Spec:
        x, size = self._input(x)
        if self.split_count != size:
            raise ValueError(f"AlltoAll: split_count must equal the size {size} of group "
                             f"{self.group!r}, but got {self.split_count}")
        for name, dim in (("split_dim", self.split_dim), ("concat_dim", self.concat_dim)):
            if not -x.ndim <= dim < x.ndim:
                raise ValueError(f"AlltoAll: {name} {dim} is out of range for x of shape "
                                 f"{list(x.shape)}")
        shape = list(x.shape)
        if shape[self.split_dim] % size:
            raise ValueError(f"AlltoAll: dimension split_dim={self.split_dim} of x (shape "
                             f"{shape}) must be a multiple of split_count {size}")
        shape[self.split_dim] //= size
        shape[self.concat_dim] *= size
        return tuple(shape), x.dtype

    def collective(self, comm: Any) -> Callable[..., Any]:
        split_dim, concat_dim, exchange = self.split_dim, self.concat_dim, comm.all_to_all
        return lambda x: exchange(x, split_dim, concat_dim)

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        back = AlltoAll(self.split_count, self.concat_dim, self.split_dim, self.group)
        return (back(dout),)


class NeighborExchange(_OnTuple):
    """Sends tensor ``i`` of the input tuple to rank ``send_rank_ids[i]`` of the group and
    returns the tensors received from ``recv_rank_ids``, of shapes ``recv_shapes`` and dtype
    ``recv_type``: ``NeighborExchange(send_rank_ids, recv_rank_ids, recv_shapes, send_shapes,
    recv_type, group)``. Messages between two processes arrive in the order they were sent."""

    def __init__(self, send_rank_ids: list[int], recv_rank_ids: list[int], recv_shapes: Any,
                 send_shapes: Any, recv_type: mstype.Type,
                 group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(group)
        op = "NeighborExchange"
        self.send_rank_ids = _ints(op, "send_rank_ids", send_rank_ids)
        self.recv_rank_ids = _ints(op, "recv_rank_ids", recv_rank_ids)
        self.recv_shapes = tuple(_shape_of(op, "recv_shapes", s) for s in recv_shapes)
        self.send_shapes = tuple(_shape_of(op, "send_shapes", s) for s in send_shapes)
        if len(self.send_shapes) != len(self.send_rank_ids) or \
                len(self.recv_shapes) != len(self.recv_rank_ids):
            raise ValueError(f"{op}: send_shapes and recv_shapes need one shape per rank of "
                             f"send_rank_ids and recv_rank_ids, but got {len(self.send_shapes)}"
                             f" for {len(self.send_rank_ids)} and {len(self.recv_shapes)} for "
                             f"{len(self.recv_rank_ids)}")
        if recv_type not in _DTYPES:
            raise TypeError(f"{op}: recv_type must be one of {', '.join(map(str, _DTYPES))}, but "
                            f"got {recv_type!r}")
        self.recv_type = recv_type

    def infer(self, *xs: Any) -> list[Spec]:
        size = 0
        for i, x in enumerate(xs):
            x, size = self._input(x)
            if i < len(self.send_shapes) and x.shape != self.send_shapes[i]:
                raise ValueError(f"NeighborExchange: input {i} must have shape send_shapes[{i}] "
                                 f"= {list(self.send_shapes[i])}, but got {list(x.shape)}")
        if len(xs) != len(self.send_rank_ids):
            raise ValueError(f"NeighborExchange: input_x must hold one tensor per rank of "
                             f"send_rank_ids ({len(self.send_rank_ids)}), but got {len(xs)}")
        for rank in (*self.send_rank_ids, *self.recv_rank_ids):
            if not 0 <= rank < size:
                raise ValueError(f"NeighborExchange: rank {rank} is not in group {self.group!r}"
                                 f" (size {size})")
        return [(shape, self.recv_type) for shape in self.recv_shapes]

    def collective(self, comm: Any) -> Callable[..., Any]:
        sends, receives, exchange = self.send_rank_ids, self.recv_rank_ids, comm.neighbor_exchange
        specs = [(shape, self.recv_type.np_dtype) for shape in self.recv_shapes]
        return lambda *xs: exchange(xs, sends, receives, specs)

    def bprop(self, *args: Any) -> tuple:
        xs, dout = args[:-2], args[-1]
        back = NeighborExchange(self.recv_rank_ids, self.send_rank_ids, self.send_shapes,
                                self.recv_shapes, xs[0].dtype, self.group)
        return back(dout)


#: The kernels of the collectives, for a backend's kernel table: ``{**KERNELS,
#: **COLLECTIVE_KERNELS}``; its ``ember_communicator`` hook supplies what they call.
COLLECTIVE_KERNELS = {cls.__name__: collective_kernel
                      for cls in (AllReduce, AllGather, ReduceScatter, Broadcast, AlltoAll,
                                  NeighborExchange)}
