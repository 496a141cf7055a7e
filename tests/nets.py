"""Small networks shared by the export tests (ONNX, MindIR, MindSpore's load)."""

from __future__ import annotations

import numpy as np

from ember import Tensor, nn, ops


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
