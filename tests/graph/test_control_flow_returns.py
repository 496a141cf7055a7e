"""GRAPH_MODE ``return`` inside loops and branches on tensor conditions, with statements after
the ``if`` that holds them (MindSpore's "parallel if" cases): results agree with the same
function run by Python on numbers."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor, context
from ember.graph import ms_function


@pytest.fixture(autouse=True)
def graph_mode():
    context.set_context(mode=context.GRAPH_MODE)
    yield
    context.set_context(mode=context.PYNATIVE_MODE)


def return_in_while_in_else(x, y, bias):
    if bias > y:
        y = x + y
    else:
        while x > 0:
            if y > 0:
                return bias
            x = x - 1
            y = y + 1
    return x + y


def return_in_for_in_else_then_if(x, y, bias):
    if bias > y:
        y = x + y
    else:
        for _ in range(3):
            if y > 0:
                return bias
            y = y + 2
    if x > y:
        x = x + y
    else:
        x = x - y
    return x + y


def break_or_return_in_while_in_else(x, y, bias):
    if bias > y:
        y = x + y
    else:
        while x > 0:
            if y > 0:
                break
            return x
    return x + y


def return_in_if_in_else_then_more(x, y, bias):
    out = x
    if bias > y:
        out = out + y
    else:
        if x > 0:
            return bias
        out = out - 1
    out = out * 2
    return out + y


CASES = [return_in_while_in_else, return_in_for_in_else_then_if,
         break_or_return_in_while_in_else, return_in_if_in_else_then_more]
INPUTS = [(4, 1, -5), (4, -3, -5), (-2, 1, -5), (4, 1, 5), (0, -1, -5), (2, -7, -9)]


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("args", INPUTS)
def test_returns_inside_loops_and_branches_agree_with_python(fn, args):
    expect = fn(*args)
    got = ms_function(fn)(*(Tensor(np.array([a], np.int32)) for a in args))
    np.testing.assert_array_equal(got.asnumpy(), np.array([expect], np.int32))
