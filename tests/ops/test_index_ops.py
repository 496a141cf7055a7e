"""GatherD, EmbeddingLookup and segment reductions: MindSpore's documented examples and errors
(values against NumPy are the conformance kit's cases)."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor, ops
from ember.ops import operations as P


def test_documented_examples():
    x = Tensor(np.array([[1, 2], [3, 4]], np.int32))
    out = ops.gather_d(x, 1, Tensor(np.array([[0, 0], [1, 0]], np.int32)))
    np.testing.assert_array_equal(out.asnumpy(), [[1, 1], [4, 3]])
    out = ops.unsorted_segment_sum(Tensor(np.array([1, 2, 3, 4], np.float32)),
                                   Tensor(np.array([0, 0, 1, 2], np.int32)), 4)
    np.testing.assert_array_equal(out.asnumpy(), [3, 3, 4, 0])
    params = Tensor(np.array([[8, 9], [10, 11], [12, 13], [14, 15]], np.float32))
    out = P.EmbeddingLookup()(params, Tensor(np.array([[5, 2], [8, 5]], np.int32)), 4)
    np.testing.assert_array_equal(out.asnumpy(), [[[10, 11], [0, 0]], [[0, 0], [10, 11]]])


X = Tensor(np.ones((2, 3), np.float32))
IDS = Tensor(np.array([0, 1], np.int32))
ERRORS = [
    ("gather-d-rank", lambda: ops.gather_d(X, 0, IDS), ValueError,
     r"GatherD: index of shape \[2\] must have the rank of x, shape \[2, 3\]"),
    ("gather-d-dim", lambda: ops.gather_d(X, 2, Tensor(np.zeros((2, 3), np.int32))), ValueError,
     r"GatherD: axis 2 is out of range \[-2, 2\)"),
    ("segment-prefix", lambda: ops.unsorted_segment_sum(X, Tensor(np.zeros(3, np.int32)), 2),
     ValueError, r"UnsortedSegmentSum: the shape of segment_ids, \[3\], must be a prefix"),
    ("segment-count", lambda: ops.unsorted_segment_max(X, IDS, 0), ValueError,
     "UnsortedSegmentMax: num_segments must be at least 1, but got 0"),
    ("segment-ids-dtype", lambda: ops.unsorted_segment_min(X, X, 2), TypeError,
     "UnsortedSegmentMin: input 'segment_ids' must have dtype in"),
    ("embedding-offset", lambda: P.EmbeddingLookup()(X, IDS, 1.5), TypeError,
     "EmbeddingLookup: offset must be an int, but got 1.5"),
]


@pytest.mark.parametrize("call, error, match", [c[1:] for c in ERRORS],
                         ids=[c[0] for c in ERRORS])
def test_errors_name_the_op_and_what_is_accepted(call, error, match):
    with pytest.raises(error, match=match):
        call()
