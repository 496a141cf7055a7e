"""Small networks shared by tests: the export tests' (ONNX, MindIR, MindSpore's load) and the
observers' (Profiler, data dump, on each backend)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from ember import Tensor, nn, ops

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "contrib" / "lenet"))
from lenet import LeNet5  # noqa: E402


class ResidualBlock(nn.Cell):
    """A ResNet basic block: conv-bn-relu-conv-bn, the shortcut added, then pooled."""

    def __init__(self, channels: int = 4) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, pad_mode="same", has_bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, pad_mode="pad", padding=1, has_bias=False)
        self.bn2 = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU()
        self.pool = nn.AvgPool2d(2, 2)
        self.fc = nn.Dense(channels * 16, 5)
        self.flatten = nn.Flatten()

    def construct(self, x: Tensor) -> Tensor:
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        y = self.pool(self.relu(y + x))
        return ops.softmax(self.fc(self.flatten(y)))


def non_trivial_batch_norm(net: nn.Cell) -> None:
    """Moving statistics other than 0 and 1, so inference BatchNorm is tested."""
    rng = np.random.default_rng(1)
    for p in net.get_parameters():
        if "moving" in p.name or "gamma" in p.name or "beta" in p.name:
            p.set_data(Tensor(rng.uniform(0.5, 1.5, p.shape).astype(np.float32)))


#: The networks every export test checks, with their input shapes.
EXPORTED = {"LeNet5": (LeNet5, (3, 1, 32, 32)), "ResidualBlock": (ResidualBlock, (2, 4, 8, 8))}


def export_case(name: str) -> tuple[nn.Cell, np.ndarray]:
    """One of ``EXPORTED``, in inference mode with non-trivial BatchNorm statistics, and a
    random input for it."""
    make, shape = EXPORTED[name]
    net = make()
    non_trivial_batch_norm(net)
    net.set_train(False)
    return net, np.random.default_rng(0).standard_normal(shape).astype(np.float32)


class DenseReLU(nn.Cell):
    """relu(dense(x)): MatMul, BiasAdd, ReLU."""

    def __init__(self) -> None:
        super().__init__()
        self.dense = nn.Dense(4, 3)
        self.relu = nn.ReLU()

    def construct(self, x: Tensor) -> Tensor:
        return self.relu(self.dense(x))


class Elementwise(nn.Cell):
    """Two inputs through every elementwise primitive the MindIR export writes."""

    def construct(self, x: Tensor, y: Tensor) -> Tensor:
        p = ops.operations
        a = p.Sub()(x, y) * p.RealDiv()(x, p.Abs()(y) + 1.0)
        b = p.Maximum()(p.Exp()(p.Neg()(x)), p.Minimum()(p.Sigmoid()(y), p.Tanh()(x)))
        return a + b + p.Log()(p.Sqrt()(p.Abs()(x) + 1.0))
