"""The LeNet-5 training step the benchmarks time: a seeded batch of 32 images and labels, and
ember's training cell (softmax cross-entropy, Momentum 0.01/0.9) from seeded parameters."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import ember
from ember import nn

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lenet"))
from lenet import LeNet5  # noqa: E402

BATCH = 32


def batch() -> tuple[np.ndarray, np.ndarray]:
    """(images N x 1 x 32 x 32 float32, labels int32), the same at every call."""
    rng = np.random.default_rng(0)
    images = rng.standard_normal((BATCH, 1, 32, 32)).astype(np.float32)
    return images, rng.integers(0, 10, BATCH).astype(np.int32)


def seeded_lenet() -> LeNet5:
    """LeNet-5 with the parameters of seed 1."""
    ember.set_seed(1)
    return LeNet5()


def train_cell(net: nn.Cell) -> nn.Cell:
    """A new training cell for ``net``, in training mode."""
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss),
                               nn.Momentum(net.trainable_params(), 0.01, 0.9))
    step.set_train()
    return step
