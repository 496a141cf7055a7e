"""GRAPH_MODE with dicts: passed in (alone, or inside tuples and lists), returned (alone or
nested), through branches on tensors, and through the compile cache; values as the same
Python code computes them on NumPy arrays."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor, context, nn
from ember.graph.ir import flatten, unflatten


@pytest.fixture(autouse=True)
def graph_mode():
    context.set_context(mode=context.GRAPH_MODE)
    yield
    context.set_context(mode=context.PYNATIVE_MODE)


def f32(value):
    return Tensor(np.array(value, np.float32))


def as_numpy(tree):
    leaves, shape = flatten(tree, lambda v: False)
    return unflatten(shape, [np.asarray(v.asnumpy()) if isinstance(v, Tensor) else v
                             for v in leaves])


def assert_same_tree(got, want):
    got_leaves, got_tree = flatten(as_numpy(got), lambda v: False)
    want_leaves, want_tree = flatten(want, lambda v: False)
    assert got_tree == want_tree
    for g, w in zip(got_leaves, want_leaves):
        if isinstance(w, str):
            assert g == w
        else:
            np.testing.assert_allclose(g, w)


def nested(x, pair, options):
    out = {"sum": x + pair[1]["b"], "scaled": x * options["scale"]}
    return out, (options["tag"], {"inner": pair[0] - x})


class Nested(nn.Cell):
    def construct(self, x, pair, options):
        return nested(x, pair, options)


def test_dicts_in_arguments_and_in_returned_values():
    x, a, b = np.float32([1, 2]), np.float32([3, 5]), np.float32([10, 20])
    got = Nested()(Tensor(x), (Tensor(a), {"b": Tensor(b)}), {"scale": 3, "tag": "t"})
    assert_same_tree(got, nested(x, (a, {"b": b}), {"scale": 3, "tag": "t"}))


def test_each_dict_value_and_key_order_keys_the_compiled_graph():
    net = Nested()
    pair = (f32([1, 1]), {"b": f32([2, 2])})
    first = net(f32([1, 2]), pair, {"scale": 2, "tag": "t"})
    again = net(f32([1, 2]), pair, {"scale": 5, "tag": "t"})
    np.testing.assert_allclose(first[0]["scaled"].asnumpy(), [2, 4])
    np.testing.assert_allclose(again[0]["scaled"].asnumpy(), [5, 10])
    reordered = net(f32([1, 2]), pair, {"tag": "u", "scale": 2})
    assert reordered[1][0] == "u"


class Pick(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            out = {"value": x * 2, "sign": 1}
        else:
            out = {"value": -x, "sign": 1}
        return out


@pytest.mark.parametrize("x", [[1.0, 2.0], [-1.0, -3.0]])
def test_a_dict_returned_by_the_branches_of_a_switch(x):
    x = np.float32(x)
    want = {"value": x * 2 if x.sum() > 0 else -x, "sign": 1}
    assert_same_tree(Pick()(Tensor(x)), want)


def test_an_input_returned_as_it_is_is_the_callers_tensor():
    class Echo(nn.Cell):
        def construct(self, x, y):
            return x, y + 1, {"x": x}

    x = f32([1, 2, 3])
    out = Echo()(x, f32(1))
    assert out[0] is x and out[2]["x"] is x
    assert out == (x, out[1], {"x": x})


def test_a_dict_returned_is_cached_on_disk(tmp_path):
    context.set_context(enable_compile_cache=True, compile_cache_path=str(tmp_path))
    try:
        class Cached(nn.Cell):
            def construct(self, x):
                return {"double": x * 2, "pair": (x, {"neg": -x})}

        got = Cached()(f32([1, 2]))
        again = Cached()(f32([1, 2]))
    finally:
        context.set_context(enable_compile_cache=False)
    x = np.float32([1, 2])
    want = {"double": x * 2, "pair": (x, {"neg": -x})}
    assert_same_tree(got, want)
    assert_same_tree(again, want)
    assert list(tmp_path.rglob("*.json"))
