"""The GPU (TensorFlow + XLA) backend against bare TensorFlow, in the same run: PyNative
``ops.add`` against eager ``tf.add``, and the graph-mode LeNet-5 training step against the same
network written in Keras and trained by a ``tf.function(jit_compile=True)`` step.

Without a GPU it runs on TensorFlow's CPU device (``EMBER_GPU_ON_CPU=1``, set by
``tox -e bench``); ember and the reference then share that device. Skipped when ember-gpu is
not installed or cannot run here.
"""

from __future__ import annotations

import numpy as np
from lenet_step import batch, seeded_lenet, train_cell
from run import Benchmark

from ember import Tensor, context, ops
from ember._plugins import BackendError, check_device_target


def _keras_lenet_step(tf, params: dict[str, np.ndarray], images: np.ndarray,
                      labels: np.ndarray):
    """One hand-written Keras LeNet-5 step (forward, loss, backward, Momentum) compiled by
    XLA, from ember's initial parameters, NCHW like ember's."""
    keras = tf.keras
    layers = keras.layers
    model = keras.Sequential([
        keras.Input((1, 32, 32)),
        layers.Conv2D(6, 5, activation="relu", use_bias=False, data_format="channels_first"),
        layers.MaxPooling2D(2, data_format="channels_first"),
        layers.Conv2D(16, 5, activation="relu", use_bias=False, data_format="channels_first"),
        layers.MaxPooling2D(2, data_format="channels_first"),
        layers.Flatten(data_format="channels_first"),
        layers.Dense(120, activation="relu"),
        layers.Dense(84, activation="relu"),
        layers.Dense(10),
    ])
    weights = [params[f"{name}.weight"].transpose(2, 3, 1, 0) for name in ("conv1", "conv2")]
    for name in ("fc1", "fc2", "fc3"):
        weights += [params[f"{name}.weight"].T, params[f"{name}.bias"]]
    model.set_weights(weights)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    optimizer = keras.optimizers.SGD(learning_rate=0.01, momentum=0.9)
    optimizer.build(model.trainable_variables)
    x, y = tf.constant(images), tf.constant(labels)

    @tf.function(jit_compile=True)
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    return lambda: step(x, y).numpy()


def _benchmarks() -> list[Benchmark]:
    try:
        check_device_target("GPU")
    except (ValueError, BackendError) as exc:
        print(f"bench_gpu: skipped ({exc})")
        return []
    import tensorflow as tf

    context.set_context(mode=context.PYNATIVE_MODE, device_target="GPU")
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((3, 3)).astype(np.float32) for _ in range(2))
    x, y = Tensor(a), Tensor(b)
    ta, tb = tf.constant(a), tf.constant(b)

    context.set_context(mode=context.GRAPH_MODE)
    images, labels = batch()
    net = seeded_lenet()
    train_step = train_cell(net)
    keras_step = _keras_lenet_step(tf, {p.name: p.asnumpy() for p in net.trainable_params()},
                                   images, labels)
    images_t, labels_t = Tensor(images), Tensor(labels)

    def graph_step():
        context.set_context(mode=context.GRAPH_MODE)
        return train_step(images_t, labels_t).asnumpy()

    context.set_context(mode=context.PYNATIVE_MODE)  # for ops.add, which runs first
    return [
        Benchmark("gpu pynative ops.add 3x3 float32", lambda: ops.add(x, y),
                  lambda: tf.add(ta, tb), "eager tf.add", "<= 1.5x tf.add"),
        Benchmark("gpu graph LeNet-5 train step, batch 32", graph_step, keras_step,
                  "Keras step, tf.function(jit_compile=True)", "<= 1.15x Keras + XLA"),
    ]


BENCHMARKS = _benchmarks()
