"""Reversing, sorting, blocks, grids, diagonals and masked filling: MindSpore's documented
examples and errors (values against NumPy are the conformance kit's cases)."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor, ops
from ember.common import dtype as mstype
from ember.ops import operations as P


def _t(values, dtype=np.float32):
    return Tensor(np.array(values, dtype))


def test_documented_examples():
    x = _t([[1, 2, 3, 4], [5, 6, 7, 8]], np.int32)
    np.testing.assert_array_equal(P.ReverseV2([1])(x).asnumpy(), [[4, 3, 2, 1], [8, 7, 6, 5]])
    x = _t([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    out = P.ReverseSequence(1)(x, _t([1, 2, 3], np.int32))
    np.testing.assert_array_equal(out.asnumpy(), [[1, 2, 3], [5, 4, 6], [9, 8, 7]])
    values, indices = ops.sort(_t([[8, 2, 1], [5, 9, 3], [4, 6, 7]], np.float16))
    np.testing.assert_array_equal(values.asnumpy(), [[1, 2, 8], [3, 5, 9], [4, 6, 7]])
    np.testing.assert_array_equal(indices.asnumpy(), [[2, 1, 0], [2, 0, 1], [0, 1, 2]])
    grids = P.Meshgrid()((_t([1, 2, 3, 4]), _t([5, 6, 7]), _t([8, 9, 0, 1, 2])))
    assert [g.shape for g in grids] == [(3, 4, 5)] * 3
    assert P.InvertPermutation()((3, 4, 0, 2, 1)) == (2, 4, 3, 0, 1)
    np.testing.assert_array_equal(P.Eye()(2, 2, mstype.int32).asnumpy(), [[1, 0], [0, 1]])
    np.testing.assert_array_equal(P.Diag()(_t([1, 2, 3, 4])).asnumpy(), np.diag([1, 2, 3, 4]))
    out = ops.masked_fill(_t([1, 2, 3, 4]), Tensor(np.array([True, True, False, True])), 0.5)
    np.testing.assert_array_equal(out.asnumpy(), [0.5, 0.5, 3, 0.5])
    first, second = P.Unstack()(_t([[1, 1, 1, 1], [2, 2, 2, 2]]))
    np.testing.assert_array_equal(second.asnumpy(), [2, 2, 2, 2])


X4 = Tensor(np.ones((1, 4, 2, 2), np.float32))
ERRORS = [
    ("reverse-repeat", lambda: P.ReverseV2((0, -2))(Tensor(np.ones((2, 2)))), ValueError,
     r"ReverseV2: axis \[0, -2\] repeats a dimension"),
    ("sequence-dims", lambda: P.ReverseSequence(1, 1), ValueError,
     "ReverseSequence: seq_dim and batch_dim must differ, but both are 1"),
    ("sequence-lengths", lambda: P.ReverseSequence(1)(X4, _t([1, 2], np.int32)), ValueError,
     r"ReverseSequence: seq_lengths must have shape \[1\]"),
    ("sort-descending", lambda: P.Sort(descending=1), TypeError,
     "Sort: descending must be a bool, but got 1"),
    ("block-size", lambda: P.SpaceToDepth(1), ValueError,
     "SpaceToDepth: block_size must be at least 2, but got 1"),
    ("depth-multiple", lambda: P.DepthToSpace(3)(X4), ValueError,
     r"DepthToSpace: the channels of x, shape \[1, 4, 2, 2\], must be a multiple of"),
    ("space-rank", lambda: P.SpaceToDepth(2)(Tensor(np.ones((4, 4)))), ValueError,
     r"SpaceToDepth: x must be 4-d, but got shape \[4, 4\]"),
    ("batch-paddings", lambda: P.SpaceToBatchND(2, [[0, 0]]), ValueError,
     "SpaceToBatchND: paddings must be two pairs of non-negative ints"),
    ("batch-multiple", lambda: P.SpaceToBatchND(2, [[0, 1], [0, 0]])(X4), ValueError,
     "SpaceToBatchND: the padded spatial sizes of input_x"),
    ("space-to-batch-block", lambda: P.SpaceToBatch(1, [[0, 0], [0, 0]]), ValueError,
     "SpaceToBatch: block_size must be at least 2, but got 1"),
    ("space-to-batch-multiple", lambda: P.SpaceToBatch(2, [[0, 1], [0, 0]])(X4), ValueError,
     "SpaceToBatch: the padded spatial sizes of input_x"),
    ("batch-to-space-block", lambda: P.BatchToSpace((2, 2), [[0, 0], [0, 0]]), TypeError,
     r"BatchToSpace: block_size must be an int, but got \(2, 2\)"),
    ("batch-to-space-batch", lambda: P.BatchToSpace(2, [[0, 0], [0, 0]])(X4), ValueError,
     r"BatchToSpace: input_x of shape \[1, 4, 2, 2\] needs a batch"),
    ("split-v-sizes", lambda: P.SplitV([2, 0], 0, 2), ValueError,
     r"SplitV: size_splits must hold positive ints and at most one -1, but got \[2, 0\]"),
    ("split-v-two-inferred", lambda: P.SplitV([-1, -1], 0, 2), ValueError,
     "SplitV: size_splits must hold positive ints and at most one -1"),
    ("split-v-count", lambda: P.SplitV([1, 3], 0, 3), ValueError,
     r"SplitV: size_splits \[1, 3\] must hold num_split \(3\) sizes"),
    ("split-v-type", lambda: P.SplitV([1.0, 3], 0, 2), TypeError,
     "SplitV: size_splits must be a tuple of ints"),
    ("split-v-sum", lambda: P.SplitV([1, 2], 1, 2)(X4), ValueError,
     r"SplitV: size_splits \[1, 2\] must add up to 4, dimension 1 of input_x"),
    ("split-v-inferred-empty", lambda: P.SplitV([4, -1], 1, 2)(X4), ValueError,
     r"SplitV: size_splits \[4, -1\] must add up to 4"),
    ("split-v-dim", lambda: P.SplitV([1, 1], 4, 2)(X4), ValueError,
     r"SplitV: axis 4 is out of range \[-4, 4\)"),
    ("meshgrid-indexing", lambda: P.Meshgrid("yx"), ValueError,
     "Meshgrid: indexing must be 'xy' or 'ij', but got 'yx'"),
    ("meshgrid-rank", lambda: P.Meshgrid()((X4, X4)), ValueError,
     r"Meshgrid: inputs\[0\] must be 1-d, but got shape \[1, 4, 2, 2\]"),
    ("permutation", lambda: P.InvertPermutation()((0, 0)), ValueError,
     r"InvertPermutation: input_x \[0, 0\] must be a permutation of 0..1"),
    ("eye-dtype", lambda: P.Eye()(2, 2, np.float32), TypeError, "Eye: t must be an ember"),
    ("diag-part", lambda: P.DiagPart()(Tensor(np.ones((2, 3)))), ValueError,
     r"DiagPart: input_x must have a shape s \+ s, but got \[2, 3\]"),
    ("masked-fill-value", lambda: ops.masked_fill(X4, Tensor(np.ones(2, bool)), _t([1, 2])),
     ValueError, r"MaskedFill: value must be a 0-d Tensor or a number, but got shape \[2\]"),
    ("padding", lambda: P.Padding(4)(Tensor(np.ones((2, 2)))), ValueError,
     r"Padding: the last dimension of x must be 1, but x has shape \[2, 2\]"),
]


@pytest.mark.parametrize("call, error, match", [c[1:] for c in ERRORS],
                         ids=[c[0] for c in ERRORS])
def test_errors_name_the_op_and_what_is_accepted(call, error, match):
    with pytest.raises(error, match=match):
        call()
