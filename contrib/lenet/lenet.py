"""LeNet-5 as MindSpore's guides write it, with ``mindspore`` replaced by ``ember``."""

from __future__ import annotations

import ember.nn as nn
from ember.common.initializer import Normal


class LeNet5(nn.Cell):
    """Conv 5x5 (1->6), ReLU, 2x2 max pool, conv 5x5 (6->16), ReLU, 2x2 max pool, and three
    dense layers (400->120->84->num_class) with ReLU between them; input N x 1 x 32 x 32."""

    def __init__(self, num_class: int = 10, num_channel: int = 1) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
        self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
        self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)
