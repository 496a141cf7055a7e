"""LeNet-5 training step (forward, backward, Momentum), batch 32, PyNative on the CPU backend,
against the hand-written NumPy step of numpy_lenet.py."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from numpy_lenet import NumpyLeNet
from run import Benchmark

import ember
from ember import Tensor, context, nn

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lenet"))
from lenet import LeNet5  # noqa: E402

BATCH = 32


def _setup():
    context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU")
    ember.set_seed(1)
    rng = np.random.default_rng(0)
    images = rng.standard_normal((BATCH, 1, 32, 32)).astype(np.float32)
    labels = rng.integers(0, 10, BATCH).astype(np.int32)
    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss),
                               nn.Momentum(net.trainable_params(), 0.01, 0.9))
    step.set_train()
    reference = NumpyLeNet({p.name: p.asnumpy() for p in net.trainable_params()})
    x, y = Tensor(images), Tensor(labels)
    return (lambda: step(x, y)), (lambda: reference.step(images, labels))


_ember_step, _numpy_step = _setup()

BENCHMARKS = [
    Benchmark("pynative LeNet-5 train step, batch 32", _ember_step, _numpy_step,
              "hand-written NumPy step", "<= 2x (MindSpore 2.10 PyNative: ~67 ms)"),
]
