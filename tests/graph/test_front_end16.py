"""GRAPH_MODE front end as MindSpore 1.6's: lists come back as tuples, ``super()`` reads the
instance's attributes, errors raised while compiling name the user's line, loop variables
start from Parameters, dtypes are inputs."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import ember
from ember import Parameter, ParameterTuple, Tensor, context, ms_function, nn, ops


@pytest.fixture(autouse=True)
def graph_mode():
    context.set_context(mode=context.GRAPH_MODE)
    yield
    context.set_context(mode=context.PYNATIVE_MODE)


def f32(value):
    return Tensor(np.array(value, np.float32))


def test_a_returned_list_is_a_tuple_and_lists_inside_it_stay_lists():
    @ms_function
    def squares(x):
        return [x * x, [1, 2], {"k": [x]}]

    got = squares(f32([1.0, 2.0]))
    assert type(got) is tuple and type(got[1]) is list and type(got[2]["k"]) is list
    np.testing.assert_allclose(got[0].asnumpy(), [1.0, 4.0])
    assert got[1] == [1, 2]


class Base(nn.Cell):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def construct(self, x):
        return x * self.scale

    def shifted(self, x):
        return x + self.scale


class Child(Base):
    def construct(self, x):
        return super().construct(x), super(Child, self).shifted(x), super().scale  # noqa: UP008


def test_super_reads_methods_of_the_parent_and_attributes_of_the_instance():
    doubled, shifted, scale = Child(3.0)(f32([1.0, 2.0]))
    np.testing.assert_allclose(doubled.asnumpy(), [3.0, 6.0])
    np.testing.assert_allclose(shifted.asnumpy(), [4.0, 5.0])
    assert scale == 3.0


def test_super_of_a_missing_attribute_still_raises():
    class Lost(Base):
        def construct(self, x):
            return super().nowhere

    with pytest.raises(AttributeError, match="nowhere"):
        Lost(1.0)(f32([1.0]))


def test_an_undefined_name_is_named_with_the_line_that_reads_it():
    class Net(nn.Cell):
        def construct(self, x):
            if x.shape[0] > 1:
                x = x + not_defined_anywhere  # noqa: F821
            return x

    with pytest.raises(NameError) as err:
        Net()(f32([1.0, 2.0]))
    line = inspect.getsourcelines(Net.construct)[1] + 2
    assert "The name 'not_defined_anywhere' is not defined" in str(err.value)
    assert f"{__file__}({line})" in str(err.value)
    assert "x = x + not_defined_anywhere" in str(err.value)


def test_a_type_error_while_compiling_names_the_users_line():
    class Net(nn.Cell):
        def construct(self, x):
            return x[1.5:]

    with pytest.raises(TypeError) as err:
        Net()(f32([1.0, 2.0]))
    assert "return x[1.5:]" in str(err.value)
    assert str(err.value).count("# In file") == 1


class CountFromWeight(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.float32(1.5)), "w")

    def construct(self, x, n):
        start = self.w
        kept = self.w
        while x < n:
            start = start * 2
            x = x + 1
        return start, kept


def test_a_loop_variable_first_bound_to_a_parameter_carries_its_value():
    net = CountFromWeight()
    x, n = Tensor(np.float32(0)), Tensor(np.float32(3))
    start, kept = net(x, n)
    assert start.asnumpy() == 1.5 * 2 ** 3 and kept.asnumpy() == 1.5
    assert net.w.asnumpy() == 1.5  # rebinding the name leaves the Parameter alone
    grad = ops.GradOperation(get_by_list=True)(lambda a, b: net(a, b)[0], ParameterTuple([net.w]))
    assert grad(x, n)[0].asnumpy() == 2 ** 3


def test_a_dtype_is_an_input_of_a_compiled_network():
    class Cast(nn.Cell):
        def construct(self, x, dtype):
            return ops.cast(x, dtype)

    net = Cast()
    assert net(f32([1.5]), ember.int32).dtype is ember.int32
    half = net(f32([1.5]), ember.float16)  # another dtype, another graph
    assert half.dtype is ember.float16 and half.asnumpy().tolist() == [1.5]


class Guarded(nn.Cell):
    def __init__(self, limit):
        super().__init__()
        self.limit = limit

    def construct(self, x):
        if self.limit < 0:  # a Python value: raises while compiling, as Python would
            raise ValueError("limit must be >= 0")
        if x.sum() > self.limit:  # a Tensor's value: known only when the graph runs
            raise ValueError("too large")
        return x * 2


def test_a_raise_in_a_branch_on_a_tensor_is_an_unsupported_statement():
    with pytest.raises(RuntimeError, match="Unsupported statement 'Raise'.*too large"):
        Guarded(10)(f32([1.0, 2.0]))


def test_a_raise_under_a_python_condition_raises_the_users_error():
    with pytest.raises(ValueError, match="limit must be >= 0"):
        Guarded(-1)(f32([1.0]))


def test_a_raise_in_a_branch_on_a_tensor_runs_in_pynative_mode():
    context.set_context(mode=context.PYNATIVE_MODE)
    np.testing.assert_array_equal(Guarded(10)(f32([1.0, 2.0])).asnumpy(), [2.0, 4.0])
    with pytest.raises(ValueError, match="too large"):
        Guarded(1)(f32([1.0, 2.0]))
