"""Ger, Inplace*, ScatterNonAliasingAdd, ScatterElements, NonZero, MaxPoolWithArgmax,
ParallelConcat and PopulationCount: their validation errors (values are the conformance kit's
cases)."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Parameter, Tensor, context, nn
from ember.ops import operations as P
from ember.ops.operations import array_ops, math_ops, nn_ops

F32 = Tensor(np.ones((3, 2), np.float32))
ERRORS = [
    ("ger-rank", lambda: P.Ger()(F32, Tensor(np.ones(2, np.float32))), ValueError,
     "Ger: inputs 'x1' and 'x2' must be 1-D"),
    ("ger-dtype", lambda: P.Ger()(Tensor(np.ones(2, np.int32)), Tensor(np.ones(2, np.int32))),
     TypeError, "Ger: input 'x1' must have dtype in"),
    ("inplace-indices-type", lambda: P.InplaceAdd(1.0), TypeError,
     "InplaceAdd: indices must be an int or a tuple of ints"),
    ("inplace-item-type", lambda: P.InplaceSub((0, "1")), TypeError,
     "InplaceSub: each item of indices must be an int"),
    ("inplace-range", lambda: P.InplaceUpdate((0, 3))(F32, Tensor(np.ones((2, 2), np.float32))),
     ValueError, r"InplaceUpdate: the value of indices must be in \[0, 3\), but got 3"),
    ("inplace-v-shape", lambda: P.InplaceAdd(0)(F32, Tensor(np.ones((2, 2), np.float32))),
     ValueError, r"InplaceAdd: v must have shape \(len\(indices\), \*x.shape\[1:\]\) = \[1, 2\]"),
    ("non-aliasing-parameter", lambda: P.ScatterNonAliasingAdd()(
        F32, Tensor(np.zeros((1, 1), np.int32)), Tensor(np.ones(1, np.float32))), TypeError,
     "ScatterNonAliasingAdd: input_x must be a Parameter"),
    ("non-aliasing-int64-indices", lambda: P.ScatterNonAliasingAdd()(
        Parameter(F32, "x"), Tensor(np.zeros((1, 1), np.int64)), Tensor(np.ones(1, np.float32))),
     TypeError, "ScatterNonAliasingAdd: input 'indices' must have dtype in"),
    ("scatter-elements-axis", lambda: P.ScatterElements(2)(
        F32, Tensor(np.zeros((1, 1), np.int32)), Tensor(np.ones((1, 1), np.float32))), ValueError,
     r"ScatterElements: axis 2 is out of range \[-2, 2\)"),
    ("scatter-elements-shapes", lambda: P.ScatterElements()(
        F32, Tensor(np.zeros((1, 2), np.int32)), Tensor(np.ones((1, 1), np.float32))),
     ValueError, "ScatterElements: indices and updates must have one shape"),
    ("non-zero-transpose", lambda: P.NonZero(1), TypeError,
     "NonZero: transpose must be a bool"),
    ("argmax-pool-rank", lambda: P.MaxPoolWithArgmax(2)(F32), ValueError, "MaxPoolWithArgmax"),
    ("parallel-concat-first-dim", lambda: P.ParallelConcat()((F32, F32)), ValueError,
     r"ParallelConcat: values\[0\] has shape \[3, 2\]"),
    ("population-count-dtype", lambda: P.PopulationCount()(Tensor(np.ones(2, np.int32))),
     TypeError, "PopulationCount: input 'input' must have dtype in"),
]


@pytest.mark.parametrize("call, error, match", [c[1:] for c in ERRORS],
                         ids=[c[0] for c in ERRORS])
def test_errors_name_the_op_and_what_is_accepted(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_mindspore_module_paths():
    assert math_ops.Ger is P.Ger and math_ops.InplaceAdd is P.InplaceAdd
    assert array_ops.InplaceUpdate is P.InplaceUpdate
    assert array_ops.ScatterElements is P.ScatterElements
    assert array_ops.ScatterNonAliasingAdd is P.ScatterNonAliasingAdd
    assert array_ops.ParallelConcat is P.ParallelConcat
    assert nn_ops.MaxPoolWithArgmax is P.MaxPoolWithArgmax


def test_non_zero_is_refused_in_graph_mode():
    class Net(nn.Cell):
        def construct(self, x):
            return P.NonZero()(x)

    context.set_context(mode=context.GRAPH_MODE)
    try:
        with pytest.raises(RuntimeError, match="NonZero cannot be compiled into a graph"):
            Net()(F32)
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
