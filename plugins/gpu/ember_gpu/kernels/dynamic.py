"""Kernels of value-shaped primitives (Unique, MaskedSelect, ComputeAccidentalHits,
NonMaxSuppressionV3, CTCGreedyDecoder) and their relatives on TensorFlow. UniqueWithPad has a
fixed output shape, so its kernel avoids TensorFlow's Unique (whose output XLA cannot size) and
compares every pair of elements instead."""

from __future__ import annotations

from ember_gpu.device import import_tensorflow

tf = import_tensorflow()
raw = tf.raw_ops


def _unique(x):
    y, idx = raw.Unique(x=x, out_idx=tf.int32)
    return y, idx


def _unique_with_pad(x, pad_num):
    n = x.shape[0]
    positions = tf.range(n, dtype=x.dtype)
    first = tf.argmax(tf.cast(tf.equal(x[:, None], x[None, :]), tf.int8), axis=1,
                      output_type=x.dtype)
    is_first = tf.equal(first, positions)
    rank = tf.cumsum(tf.cast(is_first, x.dtype)) - 1  # a first appearance's place in y
    idx = tf.gather(rank, first)
    y = raw.UnsortedSegmentSum(data=tf.where(is_first, x, tf.zeros_like(x)),
                               segment_ids=tf.where(is_first, rank, -tf.ones_like(rank)),
                               num_segments=n)
    count = tf.reduce_sum(tf.cast(is_first, x.dtype))
    return tf.where(positions < count, y, tf.fill([n], tf.constant(pad_num, x.dtype))), idx


def _masked_select(x, mask):
    shape = tf.broadcast_static_shape(x.shape, mask.shape)
    return tf.boolean_mask(tf.broadcast_to(x, shape), tf.broadcast_to(mask, shape))


def _masked_select_grad(x, mask, grad):
    # The k-th selected place takes grad[k], the others the 0 appended to grad: static shapes,
    # which XLA compiles.
    shape = tf.broadcast_static_shape(x.shape, mask.shape)
    chosen = tf.reshape(tf.broadcast_to(mask, shape), [-1])
    place = tf.cumsum(tf.cast(chosen, tf.int32)) - 1
    padded = tf.concat([grad, tf.zeros([1], grad.dtype)], 0)
    full = tf.reshape(tf.gather(padded, tf.where(chosen, place, grad.shape[0])), shape)
    lead = shape.rank - x.shape.rank
    axes = list(range(lead)) + [lead + d for d, n in enumerate(x.shape)
                                if n == 1 and shape[lead + d] != 1]
    return tf.reshape(tf.reduce_sum(full, axis=axes), x.shape) if axes else full


def _accidental_hits(true_classes, sampled):
    hits = tf.where(tf.equal(true_classes[:, :, None], sampled[None, None, :]))  # row-major
    rows, ids = tf.cast(hits[:, 0], true_classes.dtype), tf.cast(hits[:, 2], true_classes.dtype)
    return rows, ids, tf.fill(tf.shape(rows), tf.float32.min)


def _non_zero(prim):
    def kernel(x):
        at = raw.Where(condition=tf.cast(x, tf.bool))  # (count, rank) int64, row-major
        return raw.Transpose(x=at, perm=[1, 0]) if prim.transpose else at

    return kernel


def _non_max_suppression(boxes, scores, max_output_size, iou_threshold, score_threshold):
    most = tf.maximum(tf.cast(max_output_size, tf.int32), 0)  # TensorFlow refuses a negative one
    kept = raw.NonMaxSuppressionV3(
        boxes=boxes, scores=scores, max_output_size=most,
        iou_threshold=iou_threshold, score_threshold=score_threshold)
    return tf.cast(kept, max_output_size.dtype)


def _ctc_greedy_decoder(merge_repeated):
    def kernel(inputs, sequence_length):
        indices, values, shape, log_prob = raw.CTCGreedyDecoder(
            inputs=inputs, sequence_length=sequence_length, merge_repeated=merge_repeated)
        return indices, values, shape, log_prob

    return kernel


KERNELS = {
    "Unique": lambda p: _unique,
    "UniqueWithPad": lambda p: _unique_with_pad,
    "MaskedSelect": lambda p: _masked_select,
    "MaskedSelectGrad": lambda p: _masked_select_grad,
    "NonZero": _non_zero,
    "Range": lambda p: lambda start, limit, delta: tf.range(start, limit, delta),
    "DynamicShape": lambda p: lambda x: tf.constant(x.shape.as_list(), tf.int32),
    "ComputeAccidentalHits": lambda p: _accidental_hits,
    "NonMaxSuppressionV3": lambda p: _non_max_suppression,
    "CTCGreedyDecoder": lambda p: _ctc_greedy_decoder(p.merge_repeated),
}
