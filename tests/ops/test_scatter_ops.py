"""Scatter primitives: in-place updates of Parameters in both modes, MindSpore's documented
examples, and errors (values against NumPy are the conformance kit's cases)."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember import Parameter, Tensor, context, nn, ops
from ember.ops import operations as P


def _param(values, dtype=np.float32):
    return Parameter(Tensor(np.array(values, dtype)), name="x")


class _Scatter(nn.Cell):
    def __init__(self, prim, variable):
        super().__init__()
        self.prim, self.variable = prim, variable

    def construct(self, indices, updates):
        return self.prim(self.variable, indices, updates)


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_scatter_add_updates_the_parameter_in_place(mode):
    # MindSpore's ScatterAdd example: repeated index 1 accumulates 3 + 7 + 9.
    context.set_context(mode=mode)
    variable = _param(np.zeros((2, 3)))
    indices = Tensor(np.array([[0, 1], [1, 1]], np.int32))
    updates = Tensor(np.array([[[1.0] * 3, [3.0] * 3], [[7.0] * 3, [9.0] * 3]], np.float32))
    out = _Scatter(P.ScatterAdd(), variable)(indices, updates)
    want = np.array([[1.0] * 3, [19.0] * 3], np.float32)
    np.testing.assert_array_equal(out.asnumpy(), want)
    np.testing.assert_array_equal(variable.asnumpy(), want)
    _Scatter(P.ScatterAdd(), variable)(indices, updates)  # a second step adds again
    np.testing.assert_array_equal(variable.asnumpy(), 2 * want)


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_scatter_nd_update_updates_the_parameter_in_place(mode):
    # MindSpore's ScatterNdUpdate example.
    context.set_context(mode=mode)
    variable = _param([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]])
    indices = Tensor(np.array([[0, 0], [1, 1]], np.int32))
    updates = Tensor(np.array([1.0, 2.2], np.float32))
    _Scatter(P.ScatterNdUpdate(), variable)(indices, updates)
    np.testing.assert_allclose(variable.asnumpy(), [[1.0, 0.3, 3.6], [0.4, 2.2, -3.2]])


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_lower_dtype_updates_convert_to_the_parameter_dtype(mode):
    # MindSpore 1.6's signature: float16 updates of a float32 Parameter are converted.
    context.set_context(mode=mode)
    variable = _param(np.ones((5, 5)))
    updates = Tensor(np.full(5, 0.5, np.float16))
    _Scatter(P.ScatterNdUpdate(), variable)(Tensor(np.array([1], np.int32)), updates)
    want = np.ones((5, 5), np.float32)
    want[1] = 0.5
    np.testing.assert_array_equal(variable.asnumpy(), want)
    assert variable.dtype == ember.float32


def test_scatter_nd_and_tensor_scatter_update_examples():
    indices = Tensor(np.array([[0, 1], [1, 1]], np.int32))
    updates = Tensor(np.array([3.2, 1.1], np.float32))
    out = ops.scatter_nd(indices, updates, (3, 3))
    np.testing.assert_allclose(out.asnumpy(), [[0, 3.2, 0], [0, 1.1, 0], [0, 0, 0]])
    x = Tensor(np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]], np.float32))
    out = ops.tensor_scatter_update(x, Tensor(np.array([[0, 0]], np.int32)),
                                    Tensor(np.array([1.0], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [[1.0, 0.3, 3.6], [0.4, 0.5, -3.2]])


def test_a_failing_scatter_changes_nothing():
    variable = _param([1.0, 2.0])
    with pytest.raises(ValueError, match="ScatterAdd: updates must have shape"):
        P.ScatterAdd()(variable, Tensor(np.array([0], np.int32)), Tensor(np.ones(2, np.float32)))
    np.testing.assert_array_equal(variable.asnumpy(), [1.0, 2.0])


I32 = Tensor(np.array([0], np.int32))
F32 = Tensor(np.ones(1, np.float32))
ERRORS = [
    ("not-parameter", lambda: P.ScatterAdd()(F32, I32, F32), TypeError,
     "ScatterAdd: input_x must be a Parameter"),
    ("use-locking", lambda: P.ScatterMax(use_locking=1), TypeError,
     "ScatterMax: use_locking must be a bool, but got 1"),
    ("float-indices", lambda: P.ScatterSub()(_param([1.0]), F32, F32), TypeError,
     "ScatterSub: input 'indices' must have dtype in"),
    ("updates-dtype", lambda: P.ScatterUpdate()(_param([1.0], np.float16), I32, F32),
     TypeError, "ScatterUpdate: input 'input_x' is a Parameter written in place"),
    ("div-ints", lambda: P.ScatterDiv()(_param([1], np.int32), I32, Tensor(np.ones(1, np.int32))),
     TypeError, "ScatterDiv: input 'input_x' must have dtype in"),
    ("nd-depth", lambda: P.ScatterNdAdd()(_param([1.0]), Tensor(np.zeros((1, 2), np.int32)), F32),
     ValueError, r"ScatterNdAdd: the last dimension of indices \(shape \[1, 2\]\) must be in"),
    ("scatter-nd-shape", lambda: ops.scatter_nd(Tensor(np.zeros((1, 1), np.int32)), F32, (2, -1)),
     ValueError, "ScatterNd: shape .* must not hold negative sizes"),
    ("tensor-scatter-updates", lambda: P.TensorScatterMax()(
        Tensor(np.ones((2, 2), np.float32)), Tensor(np.zeros((1, 1), np.int32)), F32),
     ValueError, r"TensorScatterMax: updates must have shape .* = \[1, 2\], but got \[1\]"),
    ("cache-max-num", lambda: P.UpdateCache()(_param([1.0]), I32, F32, 1.0), TypeError,
     "UpdateCache: max_num must be an int, but got 1.0"),
    ("cache-rows", lambda: P.UpdateCache()(_param(np.ones((3, 2))), I32, Tensor(np.ones(
        (2, 2), np.float32)), 3), ValueError,
     r"UpdateCache: updates must hold one row of input_x.shape\[1:\] = \[2\] per index \(1\)"),
]


@pytest.mark.parametrize("call, error, match", [c[1:] for c in ERRORS],
                         ids=[c[0] for c in ERRORS])
def test_errors_name_the_op_and_what_is_accepted(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("prim, indices", [(P.ScatterAdd(), [1, 3]), (P.ScatterMul(), [-1]),
                                           (P.ScatterNdUpdate(), [[0], [2]])])
def test_an_index_out_of_range_changes_nothing(prim, indices):
    variable = _param([1.0, 2.0])
    indices = Tensor(np.array(indices, np.int32))
    updates = Tensor(np.ones(indices.shape[:1], np.float32))
    with pytest.raises(RuntimeError, match=f"{prim.name} failed .* is out of range"):
        prim(variable, indices, updates)
    np.testing.assert_array_equal(variable.asnumpy(), [1.0, 2.0])


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_update_cache_reads_indices_flat_and_updates_as_rows(mode):
    # MindSpore's kernel flattens indices: [[-1, 2, 3]] addresses rows -1 (skipped), 2 and 3
    # with the update rows 0, 1 and 2, whatever the shapes' leading dimensions.
    context.set_context(mode=mode)
    variable = _param(np.arange(8).reshape(4, 2))
    indices = Tensor(np.array([[-1, 2, 3]], np.int32))
    updates = Tensor(np.array([[0, 0], [20, 21], [30, 31]], np.float32))
    cache = P.UpdateCache()
    out = _Scatter(lambda x, i, u: cache(x, i, u, 4), variable)(indices, updates)
    np.testing.assert_array_equal(variable.asnumpy(), [[0, 1], [2, 3], [20, 21], [30, 31]])
    np.testing.assert_array_equal(out.asnumpy(), [0])
