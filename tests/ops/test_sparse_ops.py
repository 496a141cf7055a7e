"""SparseToDense, SparseTensorDenseMatmul and Range: MindSpore's documented examples and
errors (values against NumPy are the conformance kit's cases)."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor
from ember.ops import operations as P

INDICES = Tensor(np.array([[0, 1], [1, 2]], np.int32))
VALUES = Tensor(np.array([1, 2], np.float32))


def test_documented_examples():
    out = P.SparseToDense()(INDICES, VALUES, (3, 4))
    np.testing.assert_array_equal(out.asnumpy(), [[0, 1, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]])
    out = P.SparseTensorDenseMatmul()(INDICES, VALUES, (3, 4), Tensor(np.ones((4, 2), np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [[1, 1], [2, 2], [0, 0]])
    out = P.Range()(*(Tensor(np.array(v, np.int32)) for v in (0, 10, 4)))
    assert out.shape == (3,)
    np.testing.assert_array_equal(out.asnumpy(), [0, 4, 8])


def _ints(*values):
    return tuple(Tensor(np.array(v, np.int32)) for v in values)


ERRORS = [
    ("indices-shape", lambda: P.SparseToDense()(INDICES, VALUES, (3, 4, 5)), ValueError,
     r"SparseToDense: indices must have shape \(N, 3\)"),
    ("adjoint", lambda: P.SparseTensorDenseMatmul(adjoint_st=1), TypeError,
     "SparseTensorDenseMatmul: adjoint_st must be a bool, but got 1"),
    ("inner", lambda: P.SparseTensorDenseMatmul()(INDICES, VALUES, (3, 4),
                                                  Tensor(np.ones((3, 2), np.float32))),
     ValueError, r"SparseTensorDenseMatmul: the sparse operand's columns \(4\) must equal"),
    ("range-zero-step", lambda: P.Range()(*_ints(0, 3, 0)), ValueError,
     "Range: delta 0 must be nonzero and lead from start 0 towards limit 3"),
    ("range-maxlen", lambda: P.Range(2)(*_ints(0, 3, 1)), ValueError,
     "Range: 3 numbers from 0 to 3 by 1 exceed maxlen 2"),
    ("range-dtypes", lambda: P.Range()(Tensor(np.float32(0)), *_ints(3, 1)), TypeError,
     "Range: input 'limit' must have dtype in"),
]


@pytest.mark.parametrize("call, error, match", [c[1:] for c in ERRORS],
                         ids=[c[0] for c in ERRORS])
def test_errors_name_the_op_and_what_is_accepted(call, error, match):
    with pytest.raises(error, match=match):
        call()
