"""LpNorm and Cdist: attribute and input errors (values and gradients are the conformance
kit's ``pnorm`` family)."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor
from ember.ops import operations as P

X = Tensor(np.ones((2, 3, 4), np.float32))
ERRORS = [
    ("lp-p-type", lambda: P.LpNorm(0, p=2.0), TypeError, "LpNorm: 'p' must be an int, but got 2.0"),
    ("lp-p-value", lambda: P.LpNorm(0, p=-1), ValueError, "LpNorm: 'p' must be a non-negative"),
    ("lp-axis", lambda: P.LpNorm((0, 1.0)), TypeError, "LpNorm: 'axis' must be an int or a"),
    ("lp-keep-dims", lambda: P.LpNorm(0, keep_dims=1), TypeError,
     "LpNorm: 'keep_dims' must be a bool, but got 1"),
    ("lp-epsilon", lambda: P.LpNorm(0, epsilon=0), TypeError,
     "LpNorm: 'epsilon' must be a float, but got 0"),
    ("lp-axis-range", lambda: P.LpNorm(3)(X), ValueError, r"LpNorm: axis 3 is out of range"),
    ("lp-axes-count", lambda: P.LpNorm([0, 1, 2, 0])(X), ValueError,
     r"LpNorm: 'axis' \[0, 1, 2, 0\] names more axes than the input's rank 3"),
    ("lp-dtype", lambda: P.LpNorm(0)(Tensor(np.ones(3, np.int32))), TypeError,
     "LpNorm: input 'input' must have dtype in"),
    ("cdist-p-type", lambda: P.Cdist(2), TypeError, "Cdist: 'p' must be a float, but got 2"),
    ("cdist-p-value", lambda: P.Cdist(-1.0), ValueError,
     "Cdist: 'p' must be a non-negative float, but got -1.0"),
    ("cdist-rank", lambda: P.Cdist()(X, Tensor(np.ones((3, 4), np.float32))), ValueError,
     r"Cdist: input_x and input_y must both be 2-d or 3-d, but got shapes \[2, 3, 4\] and"),
    ("cdist-m", lambda: P.Cdist()(X, Tensor(np.ones((2, 3, 5), np.float32))), ValueError,
     r"Cdist: input_x \(B, P, M\) and input_y \(B, R, M\) must agree in B and M"),
    ("cdist-dtype", lambda: P.Cdist()(X, Tensor(np.ones((2, 3, 4), np.float16))), TypeError,
     "Cdist: input 'input_y' must have dtype in"),
]


@pytest.mark.parametrize("call, error, match", [c[1:] for c in ERRORS],
                         ids=[c[0] for c in ERRORS])
def test_errors_name_the_op_and_what_is_accepted(call, error, match):
    with pytest.raises(error, match=match):
        call()
