"""LeNet-5 in PyNative mode: ember's gradients and Momentum step against the hand-written NumPy
LeNet of contrib/bench (an independent implementation of the same computation)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import ember
from ember import ParameterTuple, Tensor, context, nn, ops

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "contrib" / "bench"), str(ROOT / "contrib" / "lenet")]
from lenet import LeNet5  # noqa: E402
from numpy_lenet import NumpyLeNet  # noqa: E402


@pytest.fixture
def batch():
    rng = np.random.default_rng(3)
    return (rng.standard_normal((4, 1, 32, 32)).astype(np.float32),
            rng.integers(0, 10, 4).astype(np.int32))


def _net():
    context.set_context(mode=context.PYNATIVE_MODE)
    ember.set_seed(0)
    net = LeNet5()
    # larger first-layer weights than the default Normal(0.01) keep the ReLUs active
    for p in net.trainable_params():
        p.set_data(Tensor(p.asnumpy() * 5))
    return net


def test_parameter_names_follow_mindspore():
    assert [p.name for p in _net().trainable_params()] == [
        "conv1.weight", "conv2.weight", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias",
        "fc3.weight", "fc3.bias"]


def test_gradients_match_the_hand_written_lenet(batch):
    images, labels = batch
    net = _net()
    loss_net = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                      reduction="mean"))
    params = ParameterTuple(net.trainable_params())
    grads = ops.GradOperation(get_by_list=True)(loss_net, params)(Tensor(images),
                                                                   Tensor(labels))
    reference = NumpyLeNet({p.name: p.asnumpy() for p in params})
    loss, expected = reference.loss_and_grads(images, labels)
    np.testing.assert_allclose(loss_net(Tensor(images), Tensor(labels)).asnumpy(), loss,
                               rtol=1e-5)
    for p, g in zip(params, grads):
        scale = np.abs(expected[p.name]).max()
        np.testing.assert_allclose(g.asnumpy(), expected[p.name], rtol=1e-4,
                                   atol=1e-5 * scale, err_msg=p.name)


def test_momentum_steps_match_the_hand_written_lenet(batch):
    images, labels = batch
    net = _net()
    reference = NumpyLeNet({p.name: p.asnumpy() for p in net.trainable_params()})
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn),
                               nn.Momentum(net.trainable_params(), 0.01, 0.9))
    for _ in range(3):
        loss = step(Tensor(images), Tensor(labels))
        expected = reference.step(images, labels)
        np.testing.assert_allclose(loss.asnumpy(), expected, rtol=1e-4)
    for p in net.trainable_params():
        np.testing.assert_allclose(p.asnumpy(), reference.params[p.name], rtol=1e-4,
                                   atol=1e-6, err_msg=p.name)
