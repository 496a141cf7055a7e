"""Cases for ``ember.ops.operations.sequence_ops``: NoRepeatNGram.

The reference walks each beam's sequence window by window in plain Python.
"""

from __future__ import annotations

import numpy as np

from ember.ops import operations as P
from ember.testing.cases import OpCase


def _no_repeat_ngram(n: int):
    def reference(state_seq: np.ndarray, log_probs: np.ndarray) -> np.ndarray:
        out = log_probs.copy()
        lowest = np.finfo(log_probs.dtype).min
        for b in range(state_seq.shape[0]):
            for w in range(state_seq.shape[1]):
                words = state_seq[b, w].tolist()
                tail = words[len(words) - n + 1:] if n > 1 else []
                for i in range(len(words) - n + 1):
                    if words[i:i + n - 1] == tail and 0 <= words[i + n - 1] < out.shape[2]:
                        out[b, w, words[i + n - 1]] = lowest
        return out

    return reference


_DOC_SEQ = [[[1, 2, 1, 2, 5, 1, 2], [9, 3, 9, 5, 4, 1, 5]],
            [[4, 8, 6, 4, 5, 6, 4], [4, 8, 8, 4, 3, 4, 8]]]
_DOC_PROBS = [[[0.7, 0.8, 0.6, 0.9, 0.2, 0.8, 0.4, 0.6, 0.2, 0.7],
               [0.4, 0.5, 0.6, 0.7, 0.8, 0.1, 0.9, 0.8, 0.7, 0.1]],
              [[0.9, 0.7, 0.6, 0.3, 0.5, 0.3, 0.5, 0.4, 0.8, 0.6],
               [0.5, 0.8, 0.8, 0.7, 0.7, 0.8, 0.2, 0.7, 0.9, 0.7]]]
_DOC_BANNED = [(0, 0, 1), (0, 0, 5), (1, 0, 5), (1, 1, 8)]  # where 1.6's docstring shows -FLT_MAX


def _documented(seq: np.ndarray, probs: np.ndarray) -> np.ndarray:
    out = probs.copy()
    for at in _DOC_BANNED:
        out[at] = np.finfo(probs.dtype).min
    return out


def _repetitive(rng: np.random.Generator, dt: type, m: int = 9) -> tuple:
    """Beams over a vocabulary of 4 words (so n-grams repeat) scored over 6, one id outside
    it (-1 or 6) now and then."""
    seq = rng.integers(0, 4, (2, 3, m))
    seq[rng.random(seq.shape) < 0.05] = rng.choice([-1, 6])
    return seq.astype(np.int32), rng.standard_normal((2, 3, 6)).astype(dt)


CASES: list[OpCase] = [
    OpCase("NoRepeatNGram/documented", "NoRepeatNGram", lambda: P.NoRepeatNGram(3),
           lambda rng, dt: (np.array(_DOC_SEQ, np.int32), np.array(_DOC_PROBS, dt)),
           _documented),
    *(OpCase(f"NoRepeatNGram/ngram-{n}", "NoRepeatNGram", lambda n=n: P.NoRepeatNGram(n),
             _repetitive, _no_repeat_ngram(n)) for n in (1, 2, 3)),
    OpCase("NoRepeatNGram/longer-than-sequence", "NoRepeatNGram", lambda: P.NoRepeatNGram(4),
           lambda rng, dt: _repetitive(rng, dt, 3), _no_repeat_ngram(4)),
]
