"""An image input pipeline: ImageFolderDataset of JPEG files this benchmark writes, then Decode,
Resize to 64x64 (bilinear), Normalize, HWC2CHW and batches of 16, one epoch per call, with 1 and
2 workers; against the same pipeline in tf.data (``decode_jpeg``, ``resize``, the same
arithmetic, ``num_parallel_calls`` and a private thread pool of the same size). Skipped when
Pillow or TensorFlow is not installed."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

import numpy as np
from run import Benchmark

import ember.dataset as ds
from ember.dataset.vision import c_transforms as C

_IMAGES, _SHAPE, _SIZE, _BATCH = 64, (96, 128), (64, 64), 16
_MEAN, _STD = [123.7, 116.3, 103.5], [58.4, 57.1, 57.4]


def _write_jpegs(pil) -> Path:
    """Smooth images with noise (JPEG-like content) in two class folders."""
    root = Path(tempfile.mkdtemp(prefix="ember-bench-images-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    rng = np.random.default_rng(0)
    y, x = np.mgrid[0:_SHAPE[0], 0:_SHAPE[1]]
    for i in range(_IMAGES):
        folder = root / f"class{i % 2}"
        folder.mkdir(exist_ok=True)
        base = np.stack([x * (1 + c) + y * (3 - c) + 40 * i for c in range(3)], axis=2)
        image = (base + rng.normal(0, 12, base.shape)) % 256
        pil.Image.fromarray(image.astype(np.uint8)).save(folder / f"{i:03d}.jpg", quality=90)
    return root


def _ember_epoch(root: Path, workers: int):
    ops = [C.Decode(), C.Resize(_SIZE), C.Normalize(_MEAN, _STD), C.HWC2CHW()]

    def epoch():
        data = ds.ImageFolderDataset(str(root), shuffle=False, num_parallel_workers=workers)
        data = data.map(operations=ops, input_columns="image", num_parallel_workers=workers)
        return [batch for batch, _ in data.batch(_BATCH).create_tuple_iterator(
            num_epochs=1, output_numpy=True)]
    return epoch


def _tf_epoch(tf, root: Path, workers: int):
    files = sorted(str(p) for p in root.glob("*/*.jpg"))
    mean, std = tf.constant(_MEAN), tf.constant(_STD)

    def load(path):
        image = tf.io.decode_jpeg(tf.io.read_file(path), channels=3)
        image = tf.image.resize(image, _SIZE, method="bilinear", antialias=False)
        return tf.transpose((image - mean) / std, (2, 0, 1))

    options = tf.data.Options()
    options.threading.private_threadpool_size = workers
    options.deterministic = True
    data = (tf.data.Dataset.from_tensor_slices(files)
            .map(load, num_parallel_calls=workers).batch(_BATCH).with_options(options))

    def epoch():
        return [batch.numpy() for batch in data]
    return epoch


def _benchmarks() -> list[Benchmark]:
    try:
        import PIL.Image as _  # noqa: F401
        import tensorflow as tf
    except ImportError as exc:
        print(f"bench_dataset: skipped ({exc})")
        return []
    import PIL
    root = _write_jpegs(PIL)
    return [Benchmark(f"image pipeline, {_IMAGES} JPEGs, {workers} worker(s)",
                      _ember_epoch(root, workers), _tf_epoch(tf, root, workers),
                      f"tf.data, {workers} thread(s)", "report the ratio")
            for workers in (1, 2)]


BENCHMARKS = _benchmarks()
