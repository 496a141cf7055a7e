"""Tensor front end of MindSpore 1.6, in both modes: ``Tensor.item(index)`` gives a 0-d Tensor,
unary ``+``, bool tensors as tuple slice bounds, HyperMap over a tuple and a ParameterTuple."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Parameter, ParameterTuple, Tensor, context, nn, ops

X = np.array([[1, 2, 3], [4, 5, 6]], np.float32)


@pytest.fixture(params=[context.PYNATIVE_MODE, context.GRAPH_MODE], ids=["pynative", "graph"])
def mode(request):
    context.set_context(mode=request.param)
    yield request.param
    context.set_context(mode=context.PYNATIVE_MODE)


class Item(nn.Cell):
    def __init__(self, index=None):
        super().__init__()
        self.index = index

    def construct(self, x):
        return x.item() if self.index is None else x.item(self.index)


@pytest.mark.parametrize("index, expected", [((0, 1), X[0, 1]), ((1, 2), X[1, 2]),
                                             (4, X.reshape(-1)[4]), (-1, X[-1, -1])])
def test_item_at_an_index_is_a_0d_tensor(mode, index, expected):
    out = Item(index)(Tensor(X))
    assert isinstance(out, Tensor) and out.shape == () and out.asnumpy() == expected


def test_item_of_a_one_element_tensor(mode):
    out = Item()(Tensor(np.array([7.5], np.float32)))
    assert out.shape == () and out.asnumpy() == 7.5


@pytest.mark.parametrize("index, error", [(None, ValueError), (1.0, TypeError),
                                          ((1, 2, 3), ValueError), ((2, 0), IndexError),
                                          (6, IndexError)])
def test_item_errors(mode, index, error):
    with pytest.raises(error):
        Item(index)(Tensor(X))


def test_python_numbers_of_one_element_tensors():
    assert float(Tensor(2.5)) == 2.5 and int(Tensor([3])) == 3 and bool(Tensor([[1]]))


class Positive(nn.Cell):
    def construct(self, x):
        return +x - x * 2


def test_unary_plus_keeps_the_tensor(mode):
    np.testing.assert_array_equal(Positive()(Tensor(X)).asnumpy(), -X)


class SliceByTensors(nn.Cell):
    def __init__(self):
        super().__init__()
        self.start = Tensor([True])
        self.stop = Tensor(3)

    def construct(self, xs):
        return ops.AddN()(xs[self.start:self.stop])


def test_bool_and_int_tensors_bound_a_tuple_slice(mode):
    xs = tuple(Tensor(np.full((2,), i, np.float32)) for i in range(5))
    np.testing.assert_array_equal(SliceByTensors()(xs).asnumpy(), [3.0, 3.0])  # 1 + 2


def test_hyper_map_takes_a_tuple_beside_a_parameter_tuple():
    params = ParameterTuple([Parameter(Tensor(X), "a"), Parameter(Tensor(X * 0), "b")])
    grads = (Tensor(np.ones_like(X)), Tensor(np.full_like(X, 2)))
    out = ops.HyperMap()(ops.Add(), grads, params)
    assert type(out) is tuple
    np.testing.assert_array_equal(out[0].asnumpy(), X + 1)
    np.testing.assert_array_equal(out[1].asnumpy(), np.full_like(X, 2))
