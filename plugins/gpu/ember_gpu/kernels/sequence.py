"""Kernels of sequence decoding (NoRepeatNGram) on TensorFlow."""

from __future__ import annotations

from ember_gpu.device import import_tensorflow

tf = import_tensorflow()


def _no_repeat_ngram(n):
    def kernel(state_seq, log_probs):
        m, vocab = state_seq.shape[2], log_probs.shape[2]
        starts = m - n + 1  # the windows of n words: the last one's first n - 1 are the tail
        if starts <= 0:  # the sequence is shorter than an n-gram: nothing is banned
            return log_probs
        tail = state_seq[..., starts:]
        match = tf.stack([tf.reduce_all(tf.equal(state_seq[..., i:i + n - 1], tail), axis=-1)
                          for i in range(starts)], axis=-1)  # (batch, beam, starts)
        words = tf.one_hot(state_seq[..., n - 1:], vocab, on_value=True, off_value=False,
                           dtype=tf.bool)  # an id outside the vocabulary is all False
        banned = tf.reduce_any(match[..., None] & words, axis=-2)
        return tf.where(banned, tf.constant(log_probs.dtype.min, log_probs.dtype), log_probs)

    return kernel


KERNELS = {
    "NoRepeatNGram": lambda p: _no_repeat_ngram(p.ngram_size),
}
