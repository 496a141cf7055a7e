"""SearchSorted and ConfusionMatrix on TensorFlow."""

from __future__ import annotations

from ember_gpu.device import import_tensorflow

tf = import_tensorflow()


def _search_sorted(prim):
    side, dtype = "right" if prim.right else "left", tf.int32 if prim.out_int32 else tf.int64

    def kernel(sequence, values):
        if sequence.shape.rank == 1:  # one row for every row of values
            sequence = tf.broadcast_to(sequence, values.shape[:-1] + sequence.shape)
        return tf.searchsorted(sequence, values, side, out_type=dtype)

    return kernel


def _confusion_matrix(prim):
    def kernel(labels, predictions, weights=None):
        if tf.executing_eagerly():  # a class out of range raises (a compiled graph cannot)
            prim.check_classes(labels.numpy(), predictions.numpy())
        counts = tf.ones_like(labels) if weights is None else tf.cast(weights, labels.dtype)
        pairs = tf.stack([tf.cast(labels, tf.int64), tf.cast(predictions, tf.int64)], 1)
        return tf.tensor_scatter_nd_add(tf.zeros((prim.num_classes,) * 2, labels.dtype),
                                        pairs, counts)

    return kernel


KERNELS = {
    "SearchSorted": _search_sorted,
    "ConfusionMatrix": _confusion_matrix,
}
