"""ember.nn.probability.bijector: MindSpore 1.6's docstring values, float64 closed forms,
both modes, transformed distributions."""

from __future__ import annotations

import math

import numpy as np
import pytest

import ember
import ember.nn.probability.bijector as msb
import ember.nn.probability.distribution as msd
from ember import Tensor, context, nn

V = np.array([1.0, 2.0, 3.0])


def _softplus(x):
    return np.log1p(np.exp(x))


# (bijector factory, forward, inverse, forward log-Jacobian, inverse log-Jacobian), float64
CASES = [
    (msb.Exp, np.exp, np.log, lambda x: x, lambda y: -np.log(y)),
    (lambda: msb.PowerTransform(0.5), lambda x: (1 + 0.5 * x) ** 2,
     lambda y: (y ** 0.5 - 1) / 0.5, lambda x: np.log1p(0.5 * x),
     lambda y: -0.5 * np.log(y)),
    (lambda: msb.ScalarAffine(-2.0, 1.0), lambda x: -2 * x + 1, lambda y: (y - 1) / -2,
     lambda x: math.log(2.0), lambda y: -math.log(2.0)),
    (lambda: msb.Softplus(2.0), lambda x: _softplus(2 * x) / 2,
     lambda y: np.log(np.expm1(2 * y)) / 2, lambda x: -_softplus(-2 * x),
     lambda y: 2 * y - np.log(np.expm1(2 * y))),
    (lambda: msb.GumbelCDF(1.0, 2.0), lambda x: np.exp(-np.exp(-(x - 1) / 2)),
     lambda y: 1 - 2 * np.log(-np.log(y)),
     lambda x: -(x - 1) / 2 - np.exp(-(x - 1) / 2) - math.log(2),
     lambda y: np.log(2 / (-y * np.log(y)))),
    (lambda: msb.Invert(msb.Exp()), np.log, np.exp, lambda x: -np.log(x), lambda y: y),
]


class _Call(nn.Cell):
    def __init__(self, bijector, func):
        super().__init__()
        self.bijector = bijector
        self.func = func

    def construct(self, x):
        return self.bijector(self.func, x)


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
@pytest.mark.parametrize("case", CASES, ids=["Exp", "PowerTransform", "ScalarAffine",
                                             "Softplus", "GumbelCDF", "Invert"])
def test_functions(mode, case):
    context.set_context(mode=mode)
    make, *refs = case
    funcs = ["forward", "inverse", "forward_log_jacobian", "inverse_log_jacobian"]
    # GumbelCDF's inverse takes probabilities
    arg = V / 4 if make().name == "GumbelCDF" else V
    for func, ref in zip(funcs, refs):
        x = arg if func.startswith("inverse") else V
        got = _Call(make(), func)(Tensor(x, ember.float32)).asnumpy()
        np.testing.assert_allclose(got, np.broadcast_to(ref(x), got.shape), rtol=2e-5,
                                   atol=1e-6, err_msg=func)


def test_docstring_values():
    """The printed values of MindSpore 1.6's bijector docstrings."""
    x = Tensor([1, 2, 3], ember.float32)
    np.testing.assert_allclose(msb.Exp().forward(x).asnumpy(), [2.7182817, 7.389056, 20.085537],
                               rtol=1e-6)
    np.testing.assert_allclose(msb.PowerTransform(0.5).forward(x).asnumpy(), [2.25, 4., 6.25])
    np.testing.assert_allclose(msb.ScalarAffine(1.0, 2.0).forward(x).asnumpy(), [3., 4., 5.])
    np.testing.assert_allclose(msb.Softplus(2.0).forward(x).asnumpy(),
                               [1.063464, 2.009075, 3.0012379], rtol=1e-6)
    np.testing.assert_allclose(msb.GumbelCDF(1.0, 2.0).forward(x).asnumpy(),
                               [0.36787945, 0.54523915, 0.6922006], rtol=1e-6)


def test_bijector_of_a_distribution_is_a_transformed_distribution():
    lognormal = msb.Exp()(msd.Normal(0.5, 0.8))
    assert isinstance(lognormal, msd.TransformedDistribution)
    x = np.array([0.5, 1.0, 2.5])
    want = np.exp(-(np.log(x) - 0.5) ** 2 / 1.28) / (x * 0.8 * math.sqrt(2 * math.pi))
    np.testing.assert_allclose(lognormal.prob(Tensor(x, ember.float32)).asnumpy(), want,
                               rtol=1e-5)
    np.testing.assert_allclose(lognormal.cdf(Tensor(x, ember.float32)).asnumpy(),
                               msd.LogNormal(0.5, 0.8).cdf(Tensor(x, ember.float32)).asnumpy(),
                               rtol=1e-6)
    affine = msd.TransformedDistribution(msb.ScalarAffine(2.0, 1.0), msd.Normal(0.5, 1.0))
    np.testing.assert_allclose(affine.mean().asnumpy(), 2.0)
    assert affine.sample((4,)).shape == (4,)


def test_errors():
    with pytest.raises(ValueError, match="Power should be greater than or equal to zero"):
        msb.PowerTransform(-1.0)
    with pytest.raises(ValueError, match="scale should be greater than zero"):
        msb.GumbelCDF(0.0, -1.0)
    with pytest.raises(TypeError, match="sharpness cannot be type"):
        msb.Softplus(None)
    with pytest.raises(TypeError, match="'bijector'"):
        msb.Invert(msd.Normal(0.0, 1.0))
    with pytest.raises(TypeError, match="input type should be a Tensor"):
        msb.Exp().forward(1.0)
    with pytest.raises(TypeError, match="should be or be subclass of Float"):
        msb.Exp().forward(Tensor([1, 2], ember.int32))
    with pytest.raises(NotImplementedError, match="'forward', 'inverse'"):
        msb.Exp()("backward", Tensor([1.0]))
    assert msb.Invert(msb.Exp()).name == "InvertExp"
    assert msb.ScalarAffine(2.0, 1.0).is_constant_jacobian
