"""Control flow in GRAPH_MODE: an RNN cell unrolled by a loop on a tensor (``while t < steps``,
``steps`` a Tensor), so the whole loop is one ``WhileLoop`` node.

Rows: the CPU backend's compiled graph against the same network in PyNative mode; its
gradient (with respect to the weights) in GRAPH_MODE against PyNative's, at 8, 16, 32 and 64
steps, where a linear cost in the steps shows that the backward loop reads the iterations the
forward loop saved; the compiled graph against the same loop written with ``tf.while_loop`` and
compiled by XLA
(``tf.function(jit_compile=True)``, on TensorFlow's CPU device); and, when ember-gpu runs here,
the GPU backend's graph (which becomes that ``tf.while_loop`` itself) against the same
reference. TensorFlow is what the GPU plugin installs; without it the rows that need it are
skipped.
"""

from __future__ import annotations

import numpy as np
from run import Benchmark

import ember
from ember import Parameter, Tensor, context, nn, ops

STEPS, BATCH, INPUTS, HIDDEN = 32, 16, 32, 64
GRAD_STEPS = (8, 16, 32, 64)


class RNN(nn.Cell):
    """``h = tanh(x_t W + h U + b)`` for ``t < steps``."""

    def __init__(self, w: np.ndarray, u: np.ndarray, b: np.ndarray) -> None:
        super().__init__()
        self.w = Parameter(Tensor(w), name="w")
        self.u = Parameter(Tensor(u), name="u")
        self.b = Parameter(Tensor(b), name="b")

    def construct(self, xs: Tensor, h: Tensor, steps: Tensor) -> Tensor:
        t = 0
        while t < steps:
            h = ops.tanh(ops.matmul(xs[t], self.w) + ops.matmul(h, self.u) + self.b)
            t = t + 1
        return h


def _data() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    return {"w": rng.standard_normal((INPUTS, HIDDEN)).astype(np.float32) * 0.1,
            "u": rng.standard_normal((HIDDEN, HIDDEN)).astype(np.float32) * 0.1,
            "b": np.zeros(HIDDEN, np.float32),
            "xs": rng.standard_normal((max(GRAD_STEPS), BATCH, INPUTS)).astype(np.float32),
            "h": np.zeros((BATCH, HIDDEN), np.float32)}


class RNNGrad(nn.Cell):
    """The gradients of ``sum(RNN(...))`` with respect to its weights."""

    def __init__(self, net: RNN) -> None:
        super().__init__()
        self.net = net
        self.grad = ops.GradOperation(get_by_list=True)
        self.weights = ember.ParameterTuple(net.trainable_params())

    def construct(self, xs: Tensor, h: Tensor, steps: Tensor) -> tuple:
        return self.grad(self.net, self.weights)(xs, h, steps)


def _ember_rnn_grad(d: dict[str, np.ndarray], mode: int, steps: int):
    context.set_context(mode=mode, device_target="CPU")
    net = RNNGrad(RNN(d["w"], d["u"], d["b"]))
    xs, h, n = Tensor(d["xs"]), Tensor(d["h"]), Tensor(steps, ember.int32)

    def step():
        context.set_context(mode=mode, device_target="CPU")
        return [g.asnumpy() for g in net(xs, h, n)]

    return step


def _tf_rnn(tf, d: dict[str, np.ndarray]):
    """The same loop with ``tf.while_loop``, compiled by XLA."""
    w, u, b = (tf.constant(d[k]) for k in ("w", "u", "b"))
    xs, h = tf.constant(d["xs"]), tf.constant(d["h"])
    steps = tf.constant(STEPS)

    @tf.function(jit_compile=True)
    def rnn(xs, h, steps):
        def body(t, h):
            return t + 1, tf.tanh(tf.matmul(xs[t], w) + tf.matmul(h, u) + b)
        return tf.while_loop(lambda t, h: t < steps, body, (tf.constant(0), h))[1]

    return lambda: rnn(xs, h, steps).numpy()


def _ember_rnn(d: dict[str, np.ndarray], mode: int, target: str):
    context.set_context(mode=mode, device_target=target)
    net = RNN(d["w"], d["u"], d["b"])
    xs, h, steps = Tensor(d["xs"]), Tensor(d["h"]), Tensor(STEPS, ember.int32)

    def step():
        context.set_context(mode=mode, device_target=target)
        return net(xs, h, steps).asnumpy()

    return step


def _benchmarks() -> list[Benchmark]:
    d = _data()
    graph = _ember_rnn(d, context.GRAPH_MODE, "CPU")
    pynative = _ember_rnn(d, context.PYNATIVE_MODE, "CPU")
    np.testing.assert_allclose(graph(), pynative(), rtol=1e-5, atol=1e-6)
    rows = [Benchmark(f"cpu graph RNN while-loop, {STEPS} steps", graph, pynative,
                      "the same network in PyNative mode", "graph faster than PyNative")]
    for steps in GRAD_STEPS:
        graph_grad = _ember_rnn_grad(d, context.GRAPH_MODE, steps)
        pynative_grad = _ember_rnn_grad(d, context.PYNATIVE_MODE, steps)
        for got, want in zip(graph_grad(), pynative_grad(), strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
        rows.append(Benchmark(f"cpu graph RNN while-loop gradient, {steps} steps", graph_grad,
                              pynative_grad, "the same gradient in PyNative mode",
                              "graph faster than PyNative, linear in the steps"))
    try:
        import tensorflow as tf
    except ImportError as exc:
        print(f"bench_control_flow: tf.while_loop rows skipped ({exc})")
        return rows
    reference = _tf_rnn(tf, d)
    np.testing.assert_allclose(graph(), reference(), rtol=1e-4, atol=1e-5)
    rows.append(Benchmark(f"cpu graph RNN while-loop, {STEPS} steps", graph, reference,
                          "tf.while_loop, XLA on CPU", "reported"))
    from ember._plugins import BackendError, check_device_target

    try:
        check_device_target("GPU")
    except (ValueError, BackendError) as exc:
        print(f"bench_control_flow: GPU row skipped ({exc})")
        return rows
    gpu = _ember_rnn(d, context.GRAPH_MODE, "GPU")
    np.testing.assert_allclose(gpu(), reference(), rtol=1e-4, atol=1e-5)
    rows.append(Benchmark(f"gpu graph RNN while-loop, {STEPS} steps", gpu, reference,
                          "tf.while_loop, XLA", "<= 1.15x tf.while_loop + XLA"))
    context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU")
    return rows


BENCHMARKS = _benchmarks()
