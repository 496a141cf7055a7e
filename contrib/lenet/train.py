"""Train LeNet-5 on scikit-learn's handwritten digits and report test accuracy.

The 8x8 digit images (bundled with scikit-learn: nothing is downloaded) are upsampled to 32x32
and split 80/20 into training and test sets.

    python contrib/lenet/train.py [--device CPU] [--mode graph|pynative] [--epochs 40]
                                  [--batch-size 32]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lenet import LeNet5  # noqa: E402

import ember  # noqa: E402
from ember import Tensor, context, nn  # noqa: E402


def load_digits(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(train images, train labels, test images, test labels); images N x 1 x 32 x 32."""
    from sklearn.datasets import load_digits as sklearn_digits

    digits = sklearn_digits()
    images = digits.images.astype(np.float32) / 16.0
    images = images.repeat(4, axis=1).repeat(4, axis=2)[:, None]  # 8x8 -> 32x32
    images = (images - images.mean()) / images.std()
    labels = digits.target.astype(np.int32)
    order = np.random.default_rng(seed).permutation(len(labels))
    split = int(0.8 * len(labels))
    train, test = order[:split], order[split:]
    return images[train], labels[train], images[test], labels[test]


def accuracy(net: nn.Cell, images: np.ndarray, labels: np.ndarray, batch: int) -> float:
    net.set_train(False)
    correct = 0
    for start in range(0, len(labels), batch):
        logits = net(Tensor(images[start:start + batch])).asnumpy()
        correct += int((logits.argmax(axis=1) == labels[start:start + batch]).sum())
    return correct / len(labels)


def main(argv: list[str] | None = None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="CPU", help="device_target (default: CPU)")
    parser.add_argument("--mode", choices=("pynative", "graph"), default="graph")
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    mode = context.PYNATIVE_MODE if args.mode == "pynative" else context.GRAPH_MODE
    context.set_context(mode=mode, device_target=args.device)
    ember.set_seed(args.seed)
    train_x, train_y, test_x, test_y = load_digits(args.seed)

    net = LeNet5()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=args.lr, momentum=0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), optimizer)
    rng = np.random.default_rng(args.seed)
    print(f"LeNet-5 on {len(train_y)} training digits, device {args.device}, {args.mode} mode")
    for epoch in range(1, args.epochs + 1):
        step.set_train()
        order = rng.permutation(len(train_y))
        start_time, losses = time.perf_counter(), []
        for start in range(0, len(order) - args.batch_size + 1, args.batch_size):
            batch = order[start:start + args.batch_size]
            losses.append(step(Tensor(train_x[batch]), Tensor(train_y[batch])).asnumpy())
        print(f"epoch {epoch:2d}: loss {np.mean(losses):.4f} "
              f"({time.perf_counter() - start_time:.1f} s)", flush=True)
    result = accuracy(net, test_x, test_y, args.batch_size)
    print(f"test accuracy: {result:.2%} on {len(test_y)} held-out digits")
    return result


if __name__ == "__main__":
    main()
