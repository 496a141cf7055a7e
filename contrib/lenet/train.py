"""Train LeNet-5 on scikit-learn's handwritten digits with ember.Model and report test accuracy.

The 8x8 digit images (bundled with scikit-learn: nothing is downloaded) are upsampled to 32x32
and split 80/20 into training and test sets. A checkpoint is written at the end of each epoch
(the newest 2 are kept). ``--export lenet.onnx`` also writes the trained network as an ONNX
model (needs ``pip install onnx``), ``--export lenet.mindir`` as MindSpore's MindIR.

    python contrib/lenet/train.py [--device CPU] [--mode graph|pynative] [--epochs 40]
                                  [--batch-size 32] [--ckpt-dir checkpoints] [--export FILE]
                                  [--parallel data] [--data digits|mnist --data-dir DIR]

``--data mnist --data-dir DIR`` trains on MNIST's IDX files instead, laid out as in MindSpore's
quick start: DIR/train and DIR/test, each with MNIST's ``*-images-idx3-ubyte`` and
``*-labels-idx1-ubyte`` files (gzip-compressed ``.gz`` ones too); the 28x28 images are padded to
32x32 and normalised with MNIST's mean and deviation. ``write_digits_as_mnist(DIR)`` writes the
digits in that layout.

Data parallel, in N processes that each train on 1/N of every batch (batch-size / N digits)
and average their gradients, so that the run follows the one-process run of the same global
batch (checkpoints in <ckpt-dir>/rank_<id>/):

    mpirun -n 2 python contrib/lenet/train.py --parallel data
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
from ember.communication import get_group_size, get_rank, init  # noqa: E402
from ember.dataset import MnistDataset, NumpySlicesDataset  # noqa: E402
from ember.train import CheckpointConfig, LossMonitor, Model, ModelCheckpoint  # noqa: E402


def load_digits(seed: int, normalise: bool = True
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(train images, train labels, test images, test labels); images N x 1 x 32 x 32,
    normalised to mean 0 and deviation 1 (else in [0, 1])."""
    from sklearn.datasets import load_digits as sklearn_digits

    digits = sklearn_digits()
    images = digits.images.astype(np.float32) / 16.0
    images = images.repeat(4, axis=1).repeat(4, axis=2)[:, None]  # 8x8 -> 32x32
    if normalise:
        images = (images - images.mean()) / images.std()
    labels = digits.target.astype(np.int32)
    order = np.random.default_rng(seed).permutation(len(labels))
    split = int(0.8 * len(labels))
    train, test = order[:split], order[split:]
    return images[train], labels[train], images[test], labels[test]


def write_digits_as_mnist(directory: str | Path, seed: int = 1) -> None:
    """The digits split as ``load_digits`` splits them, as MNIST's IDX files (28x28 uint8
    images: each 8x8 digit scaled to 0..255, upsampled 3x and padded by 2) in directory/train
    and directory/test."""
    train_x, train_y, test_x, test_y = load_digits(seed, normalise=False)
    for part, images, labels in (("train", train_x, train_y), ("t10k", test_x, test_y)):
        folder = Path(directory) / ("train" if part == "train" else "test")
        folder.mkdir(parents=True, exist_ok=True)
        pixels = np.round(images[:, 0, ::4, ::4] * 255).astype(np.uint8)  # back to 8x8
        pixels = np.pad(pixels.repeat(3, 1).repeat(3, 2), ((0, 0), (2, 2), (2, 2)))
        for kind, array, code in (("images-idx3", pixels, 3), ("labels-idx1", labels, 1)):
            header = bytes([0, 0, 0x08, code]) + np.array(array.shape, ">u4").tobytes()
            (folder / f"{part}-{kind}-ubyte").write_bytes(header + array.astype(np.uint8)
                                                          .tobytes())


def _mnist_image(image: np.ndarray, label: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An MNIST row (28x28x1 uint8, uint32) as LeNet's input: 1x32x32 float32, int32."""
    pixels = np.pad(image[:, :, 0], 2).astype(np.float32) / 255.0
    return ((pixels - 0.1307) / 0.3081)[None], label.astype(np.int32)


def mnist_sets(directory: str, batch_size: int, test_batch_size: int, shard: dict
               ) -> tuple[object, object, int, int]:
    """(train set, test set, train rows, test rows) from MNIST's IDX files in the quick
    start's layout, directory/train and directory/test."""
    sets = []
    for part, shuffle, extra, size in (("train", True, shard, batch_size),
                                       ("test", False, {}, test_batch_size)):
        data = MnistDataset(str(Path(directory) / part), shuffle=shuffle, **extra)
        rows = data.get_dataset_size()
        data = data.map(_mnist_image, input_columns=["image", "label"])
        sets.append((data.batch(size, drop_remainder=part == "train"), rows))
    (train_set, train_rows), (test_set, test_rows) = sets
    return train_set, test_set, train_rows, test_rows


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
    parser.add_argument("--parallel", choices=("none", "data"), default="none",
                        help="data: data parallel across the processes of `mpirun -n N`")
    parser.add_argument("--data", choices=("digits", "mnist"), default="digits",
                        help="digits: scikit-learn's (default); mnist: the IDX files in "
                        "--data-dir")
    parser.add_argument("--data-dir", default="", metavar="DIR",
                        help="with --data mnist: the directory holding train/ and test/")
    args = parser.parse_args(argv)
    if (args.data == "mnist") != bool(args.data_dir):
        parser.error("--data mnist and --data-dir DIR go together")

    mode = context.GRAPH_MODE if args.mode == "graph" else context.PYNATIVE_MODE
    context.set_context(mode=mode, device_target=args.device)
    shard, batch_size = {}, args.batch_size
    if args.parallel == "data":
        init()
        context.set_auto_parallel_context(parallel_mode=context.ParallelMode.DATA_PARALLEL,
                                          gradients_mean=True, parameter_broadcast=True)
        shard = {"num_shards": get_group_size(), "shard_id": get_rank()}
        if batch_size % get_group_size():
            parser.error(f"--batch-size {batch_size} must be a multiple of the number of "
                         f"processes, {get_group_size()}")
        batch_size //= get_group_size()
    ember.set_seed(args.seed)
    if args.data == "mnist":
        train_set, test_set, train_rows, test_rows = mnist_sets(args.data_dir, batch_size,
                                                                args.batch_size, shard)
        what, sample = "MNIST images", None
    else:
        train_x, train_y, test_x, test_y = load_digits(args.seed)
        train_set = NumpySlicesDataset((train_x, train_y), column_names=["image", "label"],
                                       shuffle=True, **shard).batch(batch_size,
                                                                    drop_remainder=True)
        test_set = NumpySlicesDataset((test_x, test_y), column_names=["image", "label"],
                                      shuffle=False).batch(args.batch_size)
        train_rows, test_rows, what, sample = len(train_y), len(test_y), "digits", test_x[:1]

    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=args.lr, momentum=0.9)
    model = Model(net, loss, optimizer, metrics={"Accuracy": nn.Accuracy()})
    steps = train_set.get_dataset_size()
    checkpoints = ModelCheckpoint(prefix="lenet", directory=args.ckpt_dir, config=CheckpointConfig(
        save_checkpoint_steps=steps, keep_checkpoint_max=2))
    print(f"LeNet-5 on {train_rows} training {what}, device {args.device}, {args.mode} mode"
          + (f", data parallel: rank {get_rank()} of {get_group_size()}" if shard else ""))
    model.train(args.epochs, train_set, callbacks=[LossMonitor(per_print_times=steps * 5),
                                                   checkpoints], dataset_sink_mode=False)
    accuracy = model.eval(test_set, dataset_sink_mode=False)["Accuracy"]
    print(f"checkpoint: {checkpoints.latest_ckpt_file_name}")
    print(f"test accuracy: {accuracy:.2%} on {test_rows} held-out {what}")
    if args.export:
        if sample is None:
            sample = next(test_set.create_tuple_iterator(output_numpy=True))[0][:1]
        path = ember.export(net, ember.Tensor(sample), file_name=args.export,
                            file_format="MINDIR" if args.export.endswith(".mindir") else "ONNX")
        print(f"exported: {path}")
    return accuracy


if __name__ == "__main__":
    main()
