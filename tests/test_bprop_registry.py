"""ops._grad's registries: a rule registered for a primitive replaces its backward rule in
PyNative and Graph mode, as MindSpore 1.6's bprop_getters/bprops do."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor, context, ops
from ember.ops import operations as P
from ember.ops._grad import bprop_getters, bprops, get_bprop_fn
from ember.ops._grad.grad_math_ops import binop_grad_common


@pytest.fixture
def mul_restored(monkeypatch):
    """Registering changes P.Mul for the process; put its own rule back afterwards."""
    for name in ("bprop", "bprop_reads_inputs", "bprop_reads_out"):
        monkeypatch.setattr(P.Mul, name, getattr(P.Mul, name))
    monkeypatch.setattr(bprop_getters, "data", {})
    monkeypatch.setattr(bprops, "data", {})


def _grads(mode):
    context.set_context(mode=mode)
    try:
        x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
        y = Tensor(np.array([10.0, 20.0], np.float32))
        return ops.GradOperation(get_all=True)(lambda a, b: a * b)(x, y)
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)


@pytest.mark.usefixtures("mul_restored")
@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_a_registered_getter_replaces_the_rule(mode):
    @bprop_getters.register(P.Mul)
    def get_bprop_mul(self):
        mul = P.Mul()

        def bprop(x, y, out, dout):  # twice the true gradient, to be told apart
            return binop_grad_common(x, y, 2 * mul(y, dout), 2 * mul(x, dout))

        return bprop

    dx, dy = _grads(mode)
    np.testing.assert_allclose(dx.asnumpy(), [[20, 40], [20, 40]])
    np.testing.assert_allclose(dy.asnumpy(), [8, 12])  # summed over the broadcast rows
    assert get_bprop_fn(P.Mul()) is not None and bprop_getters.get("Mul") is get_bprop_mul


@pytest.mark.usefixtures("mul_restored")
def test_a_registered_bprop_by_name():
    @bprops.register("Mul")
    def bprop(x, y, out, dout):
        return ops.zeros_like(x), ops.ones_like(y)

    dx, dy = _grads(context.PYNATIVE_MODE)
    assert (dx.asnumpy() == 0).all() and (dy.asnumpy() == 1).all()
    assert get_bprop_fn("Mul") is bprop


def test_the_rule_of_an_unregistered_primitive_is_its_own():
    assert get_bprop_fn(P.Sub()) is None
    with pytest.raises(TypeError, match="must be a Primitive class or a name"):
        bprop_getters.register(3)
