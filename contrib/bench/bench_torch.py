"""The CPU backend against PyTorch eager on two training steps (forward, softmax cross-entropy,
backward, Momentum 0.01/0.9), in the same run: a small ResNet (batch 64, 32x32x3 images) and
LeNet-5 (batch 32, 128, 512), each in GRAPH_MODE and PyNative, with one compute thread pinned
to one core and with two threads.

Each ResNet row also names the FLOPs of one step and the SGEMM rate measured here, and a row
times the step against SGEMM calls of the same FLOP count: its ratio is the distance from the
GEMM limit. The PyTorch twins start from ember's parameters, and their first step is checked
against ember's. Skipped without torch (``pip install torch``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from lenet_step import seeded_lenet, train_cell
from run import Benchmark
from threadpoolctl import threadpool_limits

import ember
from ember import Tensor, context, nn, ops

RESNET_BATCH, LENET_BATCHES = 64, (32, 128, 512)
WIDTHS = (16, 32, 64)


def _conv(cin: int, cout: int, k: int = 3, stride: int = 1) -> nn.Conv2d:
    return nn.Conv2d(cin, cout, k, stride, pad_mode="pad" if k > 1 else "valid",
                     padding=k // 2)


class Stage(nn.Cell):
    """Two 3x3 conv + BatchNorm (+ ReLU) with a residual around them; a 1x1 conv + BatchNorm
    shortcut where the width or the stride changes."""

    def __init__(self, cin: int, cout: int, stride: int) -> None:
        super().__init__()
        self.conv1, self.bn1 = _conv(cin, cout, 3, stride), nn.BatchNorm2d(cout)
        self.conv2, self.bn2 = _conv(cout, cout), nn.BatchNorm2d(cout)
        self.relu = nn.ReLU()
        self.project = stride != 1 or cin != cout
        if self.project:
            self.conv3, self.bn3 = _conv(cin, cout, 1, stride), nn.BatchNorm2d(cout)

    def construct(self, x: Tensor) -> Tensor:
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        shortcut = self.bn3(self.conv3(x)) if self.project else x
        return self.relu(y + shortcut)


class ResNet(nn.Cell):
    """A 3x3 conv stem (3->16), three stages of widths 16/32/64 (strides 1, 2, 2), global
    average pooling and a dense layer to 10 classes."""

    def __init__(self) -> None:
        super().__init__()
        self.stem, self.bn = _conv(3, WIDTHS[0]), nn.BatchNorm2d(WIDTHS[0])
        self.relu = nn.ReLU()
        self.stages = nn.SequentialCell([
            Stage(cin, cout, 1 if cin == cout else 2)
            for cin, cout in zip((WIDTHS[0], *WIDTHS[:-1]), WIDTHS)])
        self.fc = nn.Dense(WIDTHS[-1], 10)

    def construct(self, x: Tensor) -> Tensor:
        x = self.stages(self.relu(self.bn(self.stem(x))))
        return self.fc(ops.reduce_mean(x, (2, 3)))


def step_flops(net: ResNet, batch: int, size: int = 32) -> float:
    """2 x the multiply-adds of one training step's convolutions and dense layer: the forward
    pass, the weight gradients and the input gradients (the stem's excepted)."""
    def conv(cell: nn.Conv2d, pixels: int) -> int:
        return pixels * cell.out_channels * cell.in_channels * int(np.prod(cell.kernel_size))

    forward = conv(net.stem, size * size)
    stem = forward
    for stage in net.stages:
        size //= stage.conv1.stride[0]
        forward += sum(conv(c, size * size) for c in (stage.conv1, stage.conv2)
                       + ((stage.conv3,) if stage.project else ()))
    forward += net.fc.in_channels * net.fc.out_channels
    return 2.0 * batch * (3 * forward - stem)


def sgemm_rate(threads: int, seconds: float = 0.3) -> float:
    """FLOP/s of float32 512x512 matrix products on ``threads`` BLAS threads (the CPU
    executors hold the BLAS to one otherwise)."""
    a, b = (np.random.default_rng(i).standard_normal((512, 512), np.float32) for i in (0, 1))
    out = np.empty_like(a)
    with threadpool_limits(threads, user_api="blas"):
        np.matmul(a, b, out=out)
        calls, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            np.matmul(a, b, out=out)
            calls += 1
    return calls * 2 * 512**3 / (time.perf_counter() - start)


def _gemms(flops: float, threads: int):
    """One call of 512x512 matrix products on ``threads`` BLAS threads that add up to
    ``flops``."""
    a = np.ones((512, 512), np.float32)
    out, count = np.empty_like(a), max(1, round(flops / (2 * 512**3)))

    def run():
        with threadpool_limits(threads, user_api="blas"):
            for _ in range(count):
                np.matmul(a, a, out=out)

    return run


# -- the PyTorch twins ----------------------------------------------------------------------
def _torch_resnet(torch, net: ResNet):
    tnn = torch.nn

    def conv(cell):
        c = tnn.Conv2d(cell.in_channels, cell.out_channels, cell.kernel_size, cell.stride,
                       padding=cell.kernel_size[0] // 2, bias=False)
        c.weight.data = torch.from_numpy(cell.weight.asnumpy().copy())
        return c

    def block(conv_cell, bn_cell, relu=True):
        return [conv(conv_cell), tnn.BatchNorm2d(bn_cell.num_features), *([tnn.ReLU()] * relu)]

    class TorchStage(tnn.Module):
        def __init__(self, stage: Stage) -> None:
            super().__init__()
            self.main = tnn.Sequential(*block(stage.conv1, stage.bn1),
                                       *block(stage.conv2, stage.bn2, relu=False))
            self.shortcut = (tnn.Sequential(*block(stage.conv3, stage.bn3, relu=False))
                             if stage.project else tnn.Identity())

        def forward(self, x):
            return torch.relu(self.main(x) + self.shortcut(x))

    fc = tnn.Linear(WIDTHS[-1], 10)
    fc.weight.data = torch.from_numpy(net.fc.weight.asnumpy().copy())
    fc.bias.data = torch.from_numpy(net.fc.bias.asnumpy().copy())
    return tnn.Sequential(*block(net.stem, net.bn), *(TorchStage(s) for s in net.stages),
                          tnn.AdaptiveAvgPool2d(1), tnn.Flatten(), fc)


def _torch_lenet(torch, net):
    tnn = torch.nn
    model = tnn.Sequential(tnn.Conv2d(1, 6, 5), tnn.ReLU(), tnn.MaxPool2d(2),
                           tnn.Conv2d(6, 16, 5), tnn.ReLU(), tnn.MaxPool2d(2), tnn.Flatten(),
                           tnn.Linear(400, 120), tnn.ReLU(), tnn.Linear(120, 84), tnn.ReLU(),
                           tnn.Linear(84, 10))
    ours = [net.conv1, net.conv2, net.fc1, net.fc2, net.fc3]
    theirs = [m for m in model if isinstance(m, tnn.Conv2d | tnn.Linear)]
    for a, b in zip(ours, theirs, strict=True):
        b.weight.data = torch.from_numpy(a.weight.asnumpy().copy())
        if b.bias is not None:
            b.bias.data = (torch.from_numpy(a.bias.asnumpy().copy()) if a.has_bias
                           else torch.zeros_like(b.bias))
    return model


def _torch_step(torch, model, images: np.ndarray, labels: np.ndarray):
    x, y = torch.from_numpy(images), torch.from_numpy(labels.astype(np.int64))
    loss_fn = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    model.train()

    def step():
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        return loss

    return step


def _ember_step(make, images: np.ndarray, labels: np.ndarray, mode: int):
    context.set_context(mode=mode, device_target="CPU")
    net = make()
    cell = train_cell(net)
    x, y = Tensor(images), Tensor(labels)

    def step():
        context.set_context(mode=mode)
        return cell(x, y)

    return net, step


def _data(batch: int, image: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    return (rng.standard_normal((batch, *image)).astype(np.float32),
            rng.integers(0, 10, batch).astype(np.int32))


def _seeded_resnet() -> ResNet:
    ember.set_seed(1)
    return ResNet()


def _case(torch, name: str, make, batch: int, image: tuple[int, int, int]) -> list[tuple]:
    """(label, ember graph step, ember PyNative step, torch step), the first steps checked to
    give the same loss."""
    images, labels = _data(batch, image)
    net, graph = _ember_step(make, images, labels, context.GRAPH_MODE)
    _, pynative = _ember_step(make, images, labels, context.PYNATIVE_MODE)
    reference = _torch_step(torch, (_torch_resnet if make is _seeded_resnet else _torch_lenet)(
        torch, net), images, labels)
    ours, theirs = graph().asnumpy(), reference().item()
    np.testing.assert_allclose(ours, theirs, rtol=1e-4, err_msg=f"{name}: first-step loss")
    return [(f"{name}, batch {batch}", graph, pynative, reference)]


def _benchmarks(threads: int) -> list[Benchmark]:
    import torch

    cases = _case(torch, "ResNet", _seeded_resnet, RESNET_BATCH, (3, 32, 32))
    for batch in LENET_BATCHES:
        cases += _case(torch, "LeNet-5", seeded_lenet, batch, (1, 32, 32))
    flops, rate = step_flops(_seeded_resnet(), RESNET_BATCH), sgemm_rate(threads)
    tag = f"{threads} thread{'s' * (threads > 1)}" + (" pinned" if threads == 1 else "")
    rows = []
    for label, graph, pynative, reference in cases:
        goal = "<= 1.0x" if "ResNet" in label else "<= 0.7x" if label.endswith(" 32") else "<= 0.8x"
        rows.append(Benchmark(f"graph {label}, {tag}", graph, reference, "PyTorch eager", goal))
        rows.append(Benchmark(f"pynative {label}, {tag}", pynative, graph, "GRAPH_MODE",
                              "<= 1.1x"))
        if "ResNet" in label:
            rows.append(Benchmark(f"graph {label}, {tag}: {flops / 1e9:.2f} GFLOP", graph,
                                  _gemms(flops, threads),
                                  f"SGEMM of the same FLOPs, {rate / 1e9:.0f} GFLOP/s",
                                  "GEMM limit = 1x"))
    return rows


def worker(threads: int, budget: float) -> None:
    import torch
    from run import best_seconds_pair

    torch.set_num_threads(threads)
    rows = []
    for bench in _benchmarks(threads):
        ours, ref = best_seconds_pair(bench.ember, bench.reference, budget)
        rows.append({"name": bench.name, "ember_s": ours, "reference_s": ref,
                     "ratio": ours / ref, "reference": bench.reference_name, "goal": bench.goal})
    print(json.dumps(rows))


def measure(budget: float = 1.0) -> list[dict]:
    """The rows of run.py's table, from one process per thread count (torch and TensorFlow do
    not share a process; the BLAS reads its thread count at start): ``OMP_NUM_THREADS=1``
    pinned to one core, then two threads (ImportError without torch)."""
    import torch  # noqa: F401  (the ImportError run.py reports)

    rows = []
    for threads in (1, 2):
        cores = sorted(os.sched_getaffinity(0))[:threads]
        command = ["taskset", "-c", ",".join(map(str, cores))] if threads == 1 else []
        command += [sys.executable, __file__, "--worker", str(threads), str(budget)]
        run = subprocess.run(command, capture_output=True, text=True, timeout=1800,
                             env={**os.environ, "OMP_NUM_THREADS": str(threads)})
        if run.returncode:
            raise RuntimeError(f"{' '.join(command)} failed:\n{run.stdout}\n{run.stderr}")
        rows += json.loads(run.stdout.strip().splitlines()[-1])
    return rows


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    worker(int(sys.argv[2]), float(sys.argv[3]))
