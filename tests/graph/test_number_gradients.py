"""Gradients of functions of Python numbers, in both modes: as in MindSpore 1.6, an input that
is a Python number (unless ``grad_for_scalar``) has no gradient (``get_all`` leaves it out, the
gradient of a first one is ``()``) and an output that is a number passes none; with
``grad_for_scalar`` numbers are differentiated like 0-d tensors (reference: the product rule)."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor, context, ops
from ember.common.api import ms_function

grad_first = ops.GradOperation()
grad_all = ops.GradOperation(get_all=True)


def mul(x, y):
    return x * y


@pytest.fixture(params=[context.PYNATIVE_MODE, context.GRAPH_MODE], autouse=True)
def mode(request):
    context.set_context(mode=request.param)
    yield
    context.set_context(mode=context.PYNATIVE_MODE, grad_for_scalar=False)


def test_numbers_have_no_gradient_by_default():
    assert grad_first(mul)(3, 2) == ()
    assert ms_function(lambda x, y: grad_first(mul)(x, y))(3, 2) == ()
    y = np.float32(2.5)
    assert grad_first(mul)(3, Tensor(y)) == ()  # the first input is the number
    (dy,) = grad_all(mul)(3, Tensor(y))
    np.testing.assert_allclose(dy.asnumpy(), 3)


def test_a_number_output_passes_no_gradient():
    def pair(x, n):
        return x * 2, n * 3

    (dx,) = grad_all(pair)(Tensor(np.float32([1, 2])), 4)
    np.testing.assert_allclose(dx.asnumpy(), [2, 2])


def test_grad_for_scalar_differentiates_numbers():
    context.set_context(grad_for_scalar=True)
    dx, dy = grad_all(mul)(3, 2)
    assert (int(dx.asnumpy()), int(dy.asnumpy())) == (2, 3)
    assert int(grad_first(mul)(3, 2).asnumpy()) == 2
