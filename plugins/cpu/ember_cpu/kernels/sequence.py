"""Kernels of sequence decoding (NoRepeatNGram) on NumPy."""

from __future__ import annotations

import numpy as np


def _no_repeat_ngram(n):
    def kernel(state_seq, log_probs):
        m, vocab = state_seq.shape[2], log_probs.shape[2]
        starts = m - n + 1  # the windows of n words: the last one's first n - 1 are the tail
        if starts <= 0:  # the sequence is shorter than an n-gram: nothing is banned
            return log_probs
        tail = state_seq[..., starts:]
        match = np.stack([(state_seq[..., i:i + n - 1] == tail).all(axis=-1)
                          for i in range(starts)], axis=-1)  # (batch, beam, starts)
        nxt = state_seq[..., n - 1:]
        banned = np.zeros(log_probs.shape, bool)
        b, w, i = np.nonzero(match & (nxt >= 0) & (nxt < vocab))
        banned[b, w, nxt[b, w, i]] = True
        return np.where(banned, np.finfo(log_probs.dtype).min, log_probs)

    return kernel


KERNELS = {
    "NoRepeatNGram": lambda p: _no_repeat_ngram(p.ngram_size),
}
