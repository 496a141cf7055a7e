"""Train LeNet-5 on scikit-learn's handwritten digits with ember.Model and report test accuracy.

The 8x8 digit images (bundled with scikit-learn: nothing is downloaded) are upsampled to 32x32
and split 80/20 into training and test sets. A checkpoint is written at the end of each epoch
(the newest 2 are kept). ``--export lenet.onnx`` also writes the trained network as an ONNX
model (needs ``pip install onnx``), ``--export lenet.mindir`` as MindSpore's MindIR.

    python contrib/lenet/train.py [--device CPU] [--mode graph|pynative] [--epochs 40]
                                  [--batch-size 32] [--ckpt-dir checkpoints] [--export FILE]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lenet import LeNet5  # noqa: E402

import ember  # noqa: E402
from ember import context, nn  # noqa: E402
from ember.dataset import NumpySlicesDataset  # noqa: E402
from ember.train import CheckpointConfig, LossMonitor, Model, ModelCheckpoint  # noqa: E402


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


def main(argv: list[str] | None = None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="CPU", help="device_target (default: CPU)")
    parser.add_argument("--mode", choices=("graph", "pynative"), default="graph")
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ckpt-dir", default="checkpoints")
    parser.add_argument("--export", default="", metavar="FILE",
                        help="write the trained network into FILE: MindIR if it ends with "
                        ".mindir, else ONNX")
    args = parser.parse_args(argv)

    mode = context.GRAPH_MODE if args.mode == "graph" else context.PYNATIVE_MODE
    context.set_context(mode=mode, device_target=args.device)
    ember.set_seed(args.seed)
    train_x, train_y, test_x, test_y = load_digits(args.seed)
    train_set = NumpySlicesDataset((train_x, train_y), column_names=["image", "label"],
                                   shuffle=True).batch(args.batch_size, drop_remainder=True)
    test_set = NumpySlicesDataset((test_x, test_y), column_names=["image", "label"],
                                  shuffle=False).batch(args.batch_size)

    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=args.lr, momentum=0.9)
    model = Model(net, loss, optimizer, metrics={"Accuracy": nn.Accuracy()})
    steps = train_set.get_dataset_size()
    checkpoints = ModelCheckpoint(prefix="lenet", directory=args.ckpt_dir, config=CheckpointConfig(
        save_checkpoint_steps=steps, keep_checkpoint_max=2))
    print(f"LeNet-5 on {len(train_y)} training digits, device {args.device}, {args.mode} mode")
    model.train(args.epochs, train_set, callbacks=[LossMonitor(per_print_times=steps * 5),
                                                   checkpoints], dataset_sink_mode=False)
    accuracy = model.eval(test_set, dataset_sink_mode=False)["Accuracy"]
    print(f"checkpoint: {checkpoints.latest_ckpt_file_name}")
    print(f"test accuracy: {accuracy:.2%} on {len(test_y)} held-out digits")
    if args.export:
        path = ember.export(net, ember.Tensor(test_x[:1]), file_name=args.export,
                            file_format="MINDIR" if args.export.endswith(".mindir") else "ONNX")
        print(f"exported: {path}")
    return accuracy


if __name__ == "__main__":
    main()
