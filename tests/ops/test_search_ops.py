"""SearchSorted and ConfusionMatrix: attribute and input errors (values are the conformance
kit's ``search`` family)."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor
from ember.ops import operations as P


def i32(*values):
    return Tensor(np.array(values, np.int32))


ERRORS = [
    ("search-flag", lambda: P.SearchSorted(out_int32=1), TypeError,
     "SearchSorted: 'out_int32' must be a bool, but got 1"),
    ("search-dtypes", lambda: P.SearchSorted()(i32(1, 2), Tensor(np.ones(2, np.float32))),
     TypeError, "SearchSorted: input 'values' must have dtype in"),
    ("search-shapes", lambda: P.SearchSorted()(Tensor(np.zeros((2, 3), np.int32)),
                                               Tensor(np.zeros((3, 3), np.int32))),
     ValueError, r"SearchSorted: sequence must be 1-d or agree with values in all but the last"),
    ("confusion-classes", lambda: P.ConfusionMatrix(2.0), TypeError,
     "ConfusionMatrix: num_classes must be an int, but got 2.0"),
    ("confusion-dtype", lambda: P.ConfusionMatrix(2, dtype=1), TypeError,
     "ConfusionMatrix: dtype must be a str, but got 1"),
    ("confusion-shapes", lambda: P.ConfusionMatrix(3)(i32(0, 1), i32(1)), ValueError,
     r"ConfusionMatrix: labels must be 1-d and predictions of its shape"),
    ("confusion-weights", lambda: P.ConfusionMatrix(3)(i32(0, 1), i32(1, 1), i32(1)),
     ValueError, r"ConfusionMatrix: weights must have the labels' shape \[2\], but got \[1\]"),
    ("confusion-range", lambda: P.ConfusionMatrix(3)(i32(0, 1), i32(1, 3)), RuntimeError,
     r"ConfusionMatrix: predictions must be in \[0, num_classes=3\), but got 3"),
]


@pytest.mark.parametrize("call, error, match", [c[1:] for c in ERRORS],
                         ids=[c[0] for c in ERRORS])
def test_errors_name_the_op_and_what_is_accepted(call, error, match):
    with pytest.raises(error, match=match):
        call()
