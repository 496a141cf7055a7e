"""Elementwise arithmetic, comparisons, reductions and matrix products on TensorFlow."""

from __future__ import annotations

from ember_gpu.device import import_tensorflow

tf = import_tensorflow()
raw = tf.raw_ops

KERNELS = {
    "Add": lambda p: lambda x, y: raw.AddV2(x=x, y=y),
}
