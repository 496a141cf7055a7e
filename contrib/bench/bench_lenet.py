"""LeNet-5 training step (forward, backward, Momentum), batch 32, on the CPU backend in PyNative
and in Graph mode, against the hand-written NumPy step of numpy_lenet.py; and the first-call
compile time of the graph-mode step against one PyNative step."""

from __future__ import annotations

from lenet_step import batch, seeded_lenet, train_cell
from numpy_lenet import NumpyLeNet
from run import Benchmark

from ember import Tensor, context


def _setup(mode: int):
    """(one ember step, one hand-written NumPy step, the first ember call) from the same
    initial parameters."""
    context.set_context(mode=mode, device_target="CPU")
    images, labels = batch()
    net = seeded_lenet()
    step = train_cell(net)
    reference = NumpyLeNet({p.name: p.asnumpy() for p in net.trainable_params()})
    x, y = Tensor(images), Tensor(labels)

    def ember_step():
        context.set_context(mode=mode)
        return step(x, y)

    def first_call():  # a fresh step: tracing, passes and code generation, then one run
        context.set_context(mode=mode)
        return train_cell(net)(x, y)

    return ember_step, (lambda: reference.step(images, labels)), first_call


_pynative, _numpy, _ = _setup(context.PYNATIVE_MODE)
_graph, _numpy_for_graph, _graph_first_call = _setup(context.GRAPH_MODE)

BENCHMARKS = [
    Benchmark("pynative LeNet-5 train step, batch 32", _pynative, _numpy,
              "hand-written NumPy step", "<= 2x (MindSpore 2.10 PyNative: ~67 ms)"),
    Benchmark("graph LeNet-5 train step, batch 32", _graph, _numpy_for_graph,
              "hand-written NumPy step", "<= 1.2x (MindSpore 2.10 graph: 6-8 ms)"),
    Benchmark("graph vs pynative LeNet-5 train step", _graph, _pynative,
              "the PyNative step", "< 1x"),
    Benchmark("graph LeNet-5 first call (compile + run)", _graph_first_call, _pynative,
              "one PyNative step", "compile < 0.5 s"),
]
