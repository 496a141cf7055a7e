"""Initializers (``ember.common.initializer``) against MindSpore 1.6's distributions."""

from __future__ import annotations

import math

import numpy as np
import pytest

import ember
from ember.common.initializer import (
    Constant,
    HeNormal,
    HeUniform,
    Initializer,
    Normal,
    One,
    TruncatedNormal,
    Uniform,
    XavierUniform,
    Zero,
    _calculate_fan_in_and_fan_out,
    initializer,
)

N = 200_000  # draws for the statistical checks: standard errors below 0.3% of the scale


def draw(init, shape=(N,), dtype=ember.float32) -> np.ndarray:
    ember.set_seed(7)
    out = initializer(init, shape, dtype)
    assert isinstance(out, ember.Tensor)
    assert out.shape == tuple(shape) and out.dtype is dtype
    return out.asnumpy().astype(np.float64)


def uniform_bound(values: np.ndarray, bound: float) -> None:
    """Values of U(-bound, bound): inside the bounds, reaching them, mean 0, std bound/sqrt 3."""
    assert values.min() >= -bound and values.max() <= bound
    assert values.min() < -0.99 * bound and values.max() > 0.99 * bound
    assert abs(values.mean()) < 0.01 * bound
    assert values.std() == pytest.approx(bound / math.sqrt(3), rel=0.01)


def normal_moments(values: np.ndarray, mean: float, std: float) -> None:
    assert values.mean() == pytest.approx(mean, abs=0.01 * std)
    assert values.std() == pytest.approx(std, rel=0.01)
    # the normal's tails: about 4.55% beyond two standard deviations
    assert np.mean(np.abs(values - mean) > 2 * std) == pytest.approx(0.0455, abs=0.003)


# -- fans ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape, fans", [
    ((4, 3), (3, 4)),                   # Dense weight (out, in)
    ((6, 2, 5, 5), (50, 150)),          # Conv2d weight (out, in, kh, kw)
    ((8, 2, 3, 3, 3), (54, 216)),       # Conv3d weight
    ((5, 7, 2), (14, 10)),              # Conv1d weight
])
def test_fan_in_and_fan_out(shape, fans):
    assert _calculate_fan_in_and_fan_out(shape) == fans


def test_fans_need_two_dimensions():
    with pytest.raises(ValueError, match="fan_in.*fewer than 2 dimensions.*\\[5\\]"):
        _calculate_fan_in_and_fan_out((5,))
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        initializer(XavierUniform(), (5,))


# -- distributions ------------------------------------------------------------------------------
@pytest.mark.parametrize("init, mean, std", [
    ("normal", 0.0, 0.01),
    (Normal(), 0.0, 0.01),
    (Normal(sigma=0.5, mean=2.0), 2.0, 0.5),
    (Normal(3), 0.0, 3.0),
])
def test_normal(init, mean, std):
    normal_moments(draw(init), mean, std)


@pytest.mark.parametrize("init, bound", [
    ("uniform", 0.07), (Uniform(), 0.07), (Uniform(scale=2.5), 2.5),
])
def test_uniform(init, bound):
    uniform_bound(draw(init), bound)


@pytest.mark.parametrize("init, sigma", [
    ("truncatednormal", 0.01), ("TruncatedNormal", 0.01), (TruncatedNormal(sigma=2.0), 2.0),
])
def test_truncated_normal(init, sigma):
    values = draw(init)
    assert np.abs(values).max() <= 2 * sigma
    assert np.abs(values).max() > 1.99 * sigma
    assert abs(values.mean()) < 0.01 * sigma
    # standard deviation of N(0, 1) truncated to [-2, 2]
    assert values.std() == pytest.approx(0.8796 * sigma, rel=0.01)


@pytest.mark.parametrize("shape, gain", [((400, 500), 1.0), ((40, 30, 5, 5), 1.0),
                                         ((400, 500), 2.5)])
def test_xavier_uniform(shape, gain):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
    init = "xavier_uniform" if gain == 1.0 else XavierUniform(gain=gain)
    uniform_bound(draw(init, shape), gain * math.sqrt(6.0 / (fan_in + fan_out)))


HE_CASES = [
    # (kwargs, gain)
    ({}, math.sqrt(2.0)),  # leaky_relu with negative_slope 0
    ({"negative_slope": 0.2}, math.sqrt(2.0 / 1.04)),
    ({"nonlinearity": "relu"}, math.sqrt(2.0)),
    ({"nonlinearity": "tanh"}, 5.0 / 3),
    ({"nonlinearity": "sigmoid"}, 1.0),
    ({"nonlinearity": "conv2d"}, 1.0),
    ({"mode": "fan_out"}, math.sqrt(2.0)),
    ({"mode": "FAN_OUT", "nonlinearity": "linear"}, 1.0),
]


@pytest.mark.parametrize("kwargs, gain", HE_CASES)
def test_he_uniform(kwargs, gain):
    shape = (300, 200, 3, 3)
    fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
    fan = fan_out if kwargs.get("mode", "fan_in").lower() == "fan_out" else fan_in
    uniform_bound(draw(HeUniform(**kwargs), shape), gain * math.sqrt(3.0 / fan))


@pytest.mark.parametrize("kwargs, gain", HE_CASES)
def test_he_normal(kwargs, gain):
    shape = (300, 200, 3, 3)
    fan_in, fan_out = _calculate_fan_in_and_fan_out(shape)
    fan = fan_out if kwargs.get("mode", "fan_in").lower() == "fan_out" else fan_in
    normal_moments(draw(HeNormal(**kwargs), shape), 0.0, gain / math.sqrt(fan))


def test_he_names_use_defaults():
    shape = (300, 200, 3, 3)
    fan_in = 200 * 9
    uniform_bound(draw("he_uniform", shape), math.sqrt(6.0 / fan_in))
    normal_moments(draw("HE_NORMAL", shape), 0.0, math.sqrt(2.0 / fan_in))


@pytest.mark.parametrize("init, value", [
    ("ones", 1), ("One", 1), (One(), 1), ("zeros", 0), ("zero", 0), (Zero(), 0),
    (Constant(3.5), 3.5), (2, 2), (-1.25, -1.25), (True, 1),
])
@pytest.mark.parametrize("dtype", [ember.float32, ember.float16, ember.float64, ember.int32])
def test_constants(init, value, dtype):
    out = initializer(init, (2, 3), dtype)
    assert out.dtype is dtype and out.shape == (2, 3)
    expected = np.full((2, 3), value, dtype=dtype.np_dtype)
    np.testing.assert_array_equal(out.asnumpy(), expected)


def test_constant_broadcasts_an_array():
    out = initializer(Constant(np.array([1.0, 2.0, 3.0])), (2, 3))
    np.testing.assert_array_equal(out.asnumpy(), [[1, 2, 3], [1, 2, 3]])


@pytest.mark.parametrize("shape, expected", [(3, (3,)), ([2, 3], (2, 3)), ((4,), (4,)),
                                             ((), ())])
def test_shape_forms(shape, expected):
    assert initializer("ones", shape).shape == expected


def test_scalar_shape_is_filled():
    out = initializer(Constant(4), ())
    assert out.shape == () and out.item() == 4.0


def test_integer_dtype_truncates_draws_as_a_numpy_fill():
    ember.set_seed(3)
    out = initializer(Normal(sigma=10.0), (1000,), ember.int32)
    assert out.dtype is ember.int32 and np.abs(out.asnumpy()).max() >= 10


# -- tensors and arrays as init -----------------------------------------------------------------
def test_tensor_init_is_returned():
    t = ember.Tensor(np.arange(6, dtype=np.float64).reshape(2, 3))
    assert initializer(t, (2, 3)) is t
    assert initializer(t) is t
    assert initializer(t, [2, 3], ember.float32).dtype is ember.float64  # its own dtype


def test_array_init_becomes_tensor():
    a = np.arange(4, dtype=np.int32)
    out = initializer(a, 4)
    assert isinstance(out, ember.Tensor) and out.dtype is ember.int32
    np.testing.assert_array_equal(out.asnumpy(), a)


@pytest.mark.parametrize("init", [ember.Tensor(np.zeros((2, 3), np.float32)),
                                  np.zeros((2, 3))])
def test_init_shape_must_match(init):
    with pytest.raises(ValueError, match=r"initializer: the shape of init \[2, 3\] differs from "
                                         r"the requested shape \[3, 2\]"):
        initializer(init, (3, 2))


# -- reproducibility ----------------------------------------------------------------------------
@pytest.mark.parametrize("init", ["normal", "uniform", "truncatednormal", "xavier_uniform",
                                  "he_uniform", "he_normal"])
def test_set_seed_reproduces_draws(init):
    ember.set_seed(11)
    first = initializer(init, (16, 8)).asnumpy()
    second = initializer(init, (16, 8)).asnumpy()
    ember.set_seed(11)
    again = initializer(init, (16, 8)).asnumpy()
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, second)  # the generator moves on between draws
    ember.set_seed(12)
    assert not np.array_equal(first, initializer(init, (16, 8)).asnumpy())


def test_tensor_and_parameter_call_sites():
    ember.set_seed(5)
    t = ember.Tensor(shape=(3, 4), dtype=ember.float16, init=Normal(1.0))
    ember.set_seed(5)
    np.testing.assert_array_equal(t.asnumpy(), initializer(Normal(1.0), (3, 4),
                                                           ember.float16).asnumpy())
    assert t.dtype is ember.float16
    p = ember.Parameter(initializer("ones", (2,)), name="w")
    assert p.name == "w" and p.asnumpy().tolist() == [1.0, 1.0]
    clone = p.clone(init="zeros")
    assert clone.asnumpy().tolist() == [0.0, 0.0] and clone.dtype is ember.float32


# -- the Initializer protocol -------------------------------------------------------------------
def test_call_fills_in_place():
    arr = np.zeros((3, 4), np.float32)
    assert One()(arr) is arr
    assert (arr == 1).all()


def test_subclass_defines_initialize():
    class Arange(Initializer):
        def _initialize(self, arr):
            arr[...] = np.arange(arr.size).reshape(arr.shape)

    np.testing.assert_array_equal(initializer(Arange(), (2, 2)).asnumpy(), [[0, 1], [2, 3]])
    with pytest.raises(TypeError):
        Initializer()  # abstract: a subclass must define _initialize


def test_repr_shows_arguments():
    assert repr(Normal(0.5)) == "Normal(sigma=0.5, mean=0.0)"
    assert repr(HeUniform()) == ("HeUniform(negative_slope=0, mode='fan_in', "
                                 "nonlinearity='leaky_relu')")


# -- errors -------------------------------------------------------------------------------------
def test_unknown_name_lists_the_accepted_names():
    with pytest.raises(ValueError, match="unknown initializer name 'gaussian'; accepted "
                                         r"\(case-insensitive\): .*he_normal.*normal.*zeros"):
        initializer("gaussian", (2,))


@pytest.mark.parametrize("init", [None, [1.0, 2.0], object()])
def test_bad_init_type(init):
    with pytest.raises(TypeError, match="initializer: init must be an Initializer, a str, a "
                                        "number, a Tensor or a NumPy array, but got"):
        initializer(init, (2,))


@pytest.mark.parametrize("shape", [0, (2, 0), (-1,), (2.0,), "3", (True,)])
def test_bad_shape(shape):
    with pytest.raises(ValueError, match="initializer: shape must be a positive int or a "
                                         "tuple/list of positive ints"):
        initializer("ones", shape)


def test_shape_is_needed():
    with pytest.raises(ValueError, match="initializer: shape is needed to initialize with "
                                         r"Normal\(sigma=0.01, mean=0.0\)"):
        initializer(Normal())


def test_bad_dtype():
    with pytest.raises(TypeError, match="initializer: dtype must be an ember dtype"):
        initializer("ones", (2,), np.float32)


def test_call_needs_an_array():
    with pytest.raises(TypeError, match="One: fills a NumPy array in place, but got list"):
        One()([0.0, 0.0])


@pytest.mark.parametrize("make, error, message", [
    (lambda: Normal(sigma="1"), TypeError, "Normal: sigma must be a real number"),
    (lambda: Normal(sigma=-1.0), ValueError, "Normal: sigma must be >= 0, but got -1.0"),
    (lambda: Normal(mean=None), TypeError, "Normal: mean must be a real number"),
    (lambda: Uniform(scale=True), TypeError, "Uniform: scale must be a real number"),
    (lambda: TruncatedNormal(sigma=-0.1), ValueError, "TruncatedNormal: sigma must be >= 0"),
    (lambda: XavierUniform(gain="2"), TypeError, "XavierUniform: gain must be a real number"),
    (lambda: HeUniform(mode="fan_avg"), ValueError,
     "HeUniform: mode must be 'fan_in' or 'fan_out', but got 'fan_avg'"),
    (lambda: HeNormal(nonlinearity="swish"), ValueError,
     r"HeNormal: nonlinearity must be one of \['linear', .*'leaky_relu'\], but got 'swish'"),
    (lambda: HeNormal(negative_slope=True), TypeError,
     "HeNormal: negative_slope must be a real number"),
])
def test_bad_initializer_arguments(make, error, message):
    with pytest.raises(error, match=message):
        make()
