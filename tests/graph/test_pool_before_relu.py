"""The ``pool_before_relu`` pass: ``MaxPool(ReLU(x))`` runs as ``ReLU(MaxPool(x))``, forward and
backward, with the same values and gradients as PyNative (which runs the ops as written)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from ember import ParameterTuple, Tensor, context, nn, ops
from ember.graph.passes import pool_before_relu
from ember.graph.tracer import trace


def _tied(shape, seed=0):
    """Small integers: many windows hold equal maxima, and many are all negative."""
    return np.random.default_rng(seed).integers(-3, 3, shape).astype(np.float32)


class ReluPool(nn.Cell):
    def __init__(self, pool):
        super().__init__()
        self.relu, self.pool = nn.ReLU(), pool

    def construct(self, x):
        return self.pool(self.relu(x)) * 3.0


def _grads(net, x):
    params = ParameterTuple(net.trainable_params())
    return ops.GradOperation(get_all=True)(net, params)(Tensor(x))[0].asnumpy()


def _in_both_modes(fn):
    out = []
    for mode in (context.PYNATIVE_MODE, context.GRAPH_MODE):
        context.set_context(mode=mode)
        out.append(fn())
    context.set_context(mode=context.PYNATIVE_MODE)
    return out


@pytest.mark.parametrize("pool, shape", [
    (nn.MaxPool2d(2, 2), (2, 3, 6, 8)),
    (nn.MaxPool2d(3, 2, pad_mode="same"), (2, 3, 7, 7)),  # overlapping windows, padding
    (ops.MaxPool3D(2, 2), (1, 2, 4, 4, 6)),
    # ceil_mode adds windows of padding only (maximum -inf, which ReLU after the pool would
    # turn into 0): the pass leaves this pool as written
    (ops.MaxPool3D(2, 2, "pad", 1, ceil_mode=True), (1, 2, 5, 5, 5)),
])
def test_values_and_gradients_are_those_of_relu_then_pool(pool, shape):
    x = _tied(shape)
    net = ReluPool(pool)
    forward = _in_both_modes(lambda: net(Tensor(x)).asnumpy())
    grads = _in_both_modes(lambda: _grads(net, x))
    np.testing.assert_array_equal(forward[1], forward[0])
    np.testing.assert_array_equal(grads[1], grads[0])
    # an independent reference: each window's gradient on its first positive maximum
    if shape == (2, 3, 6, 8):
        windows = np.maximum(x, 0).reshape(2, 3, 3, 2, 4, 2).transpose(0, 1, 2, 4, 3, 5)
        windows = windows.reshape(2, 3, 3, 4, 4)
        first = windows.argmax(-1)
        expected = np.zeros_like(windows)
        np.put_along_axis(expected, first[..., None], 3.0 * (windows.max(-1) > 0)[..., None],
                          axis=-1)
        expected = expected.reshape(2, 3, 3, 4, 2, 2).transpose(0, 1, 2, 4, 3, 5)
        np.testing.assert_array_equal(grads[1], expected.reshape(shape))


def test_compiled_steps_write_the_rewrite_as_a_stage(tmp_path):
    context.set_context(mode=context.GRAPH_MODE, save_graphs=True, save_graphs_path=str(tmp_path))
    try:
        _grads(ReluPool(nn.MaxPool2d(2, 2)), _tied((1, 1, 4, 4)))
    finally:
        context.set_context(mode=context.PYNATIVE_MODE, save_graphs=False)
    (summary,) = tmp_path.glob("*_passes.txt")
    assert re.search(r"^\d+_pool_before_relu: \d+ nodes$", summary.read_text(), re.M)
    (source,) = tmp_path.glob("*_backend.py")
    order = [line.split("# ")[1].split()[0] for line in source.read_text().splitlines()
             if "# " in line]
    assert order.index("MaxPool") < order.index("ReLU") < order.index("ReluGrad") < order.index(
        "MaxPoolGrad")


def _names(graph):
    return [n.prim.name for n in graph.nodes]


def _traced_grads(f, x):
    return trace(lambda t: ops.GradOperation()(f)(t), (Tensor(x),), "g")


def test_the_relu_and_its_gradient_run_on_the_pooled_tensor():
    pool = ops.MaxPool(2, 2)
    graph = _traced_grads(lambda t: pool(ops.relu(t)), _tied((1, 2, 4, 4)))
    relu, max_pool = graph.nodes[:2]
    assert _names(graph)[:2] == ["ReLU", "MaxPool"]
    pool_before_relu(graph)
    names = _names(graph)
    assert names.index("MaxPool") < names.index("ReLU")
    assert names.index("ReluGrad") < names.index("MaxPoolGrad")
    pooled = graph.nodes[names.index("MaxPool")].outputs[0]
    assert graph.nodes[names.index("ReLU")].inputs == [pooled]
    assert graph.nodes[names.index("ReLU")].outputs[0].shape == (1, 2, 2, 2)
    relu_grad = graph.nodes[names.index("ReluGrad")]
    assert relu_grad.outputs[0].shape == (1, 2, 2, 2)
    assert graph.nodes[names.index("MaxPoolGrad")].inputs[:2] == [graph.inputs[0], pooled]
    # the nodes keep their scopes: the user's ReLU and MaxPool swapped places
    assert graph.nodes[:2] == [max_pool, relu]


@pytest.mark.parametrize("f", [
    lambda t: ops.MaxPool(2, 2)(ops.relu(t)).sum() + ops.relu(t).sum(),  # read again (CSE)
    lambda t: (ops.MaxPool(2, 2)(ops.relu(t)), ops.relu(t)),  # returned
    lambda t: ops.AvgPool(2, 2)(ops.relu(t)),  # not a max
])
def test_other_readers_of_the_relu_keep_the_graph_as_written(f):
    from ember.graph.passes import eliminate_common_subexpressions

    graph = eliminate_common_subexpressions(trace(f, (Tensor(_tied((1, 2, 4, 4))),), "f"))
    before = _names(graph)
    assert _names(pool_before_relu(graph)) == before


def test_inference_graphs_pool_first_too():
    graph = trace(lambda t: ops.MaxPool(2, 2)(ops.relu(t)), (Tensor(_tied((1, 1, 4, 4))),), "f")
    assert _names(pool_before_relu(graph)) == ["MaxPool", "ReLU"]
    assert graph.outputs[0] is graph.nodes[1].outputs[0]
