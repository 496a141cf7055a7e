"""NoRepeatNGram: attribute and input errors (values are the conformance kit's ``sequence``
family)."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor
from ember.ops import operations as P


def _ban(seq_shape=(1, 2, 4), probs_shape=(1, 2, 5), n=2, seq_dtype=np.int32):
    seq, probs = np.zeros(seq_shape, seq_dtype), np.zeros(probs_shape, np.float32)
    return P.NoRepeatNGram(n)(Tensor(seq), Tensor(probs))


ERRORS = [
    ("type", lambda: P.NoRepeatNGram(2.0), TypeError,
     "NoRepeatNGram: ngram_size must be an int, but got 2.0"),
    ("value", lambda: P.NoRepeatNGram(0), ValueError,
     "NoRepeatNGram: ngram_size must be at least 1, but got 0"),
    ("seq-dtype", lambda: _ban(seq_dtype=np.int64), TypeError,
     "NoRepeatNGram: input 'state_seq' must have dtype in"),
    ("rank", lambda: _ban(seq_shape=(2, 4)), ValueError,
     r"NoRepeatNGram: state_seq and log_probs must be 3-d, but got shapes \[2, 4\]"),
    ("beams", lambda: _ban(probs_shape=(1, 3, 5)), ValueError,
     r"NoRepeatNGram: state_seq and log_probs must agree in \(batch_size, beam_width\)"),
    ("too-long", lambda: _ban(n=6), ValueError,
     r"NoRepeatNGram: ngram_size 6 must be at most state_seq.shape\[2\] \+ 1 = 5"),
]


@pytest.mark.parametrize("call, error, match", [c[1:] for c in ERRORS],
                         ids=[c[0] for c in ERRORS])
def test_errors_name_the_op_and_what_is_accepted(call, error, match):
    with pytest.raises(error, match=match):
        call()
