"""ember.nn.probability.distribution against float64 closed forms, in both modes."""

from __future__ import annotations

import math

import numpy as np
import pytest

import ember
import ember.nn.probability.distribution as msd
from ember import Tensor, context, nn
from ember.ops import composite as C

EULER = 0.5772156649015329


def _digamma_int(n: int) -> float:
    """digamma at a positive integer: -gamma + H_(n-1)."""
    return -EULER + sum(1.0 / k for k in range(1, n))


def _erf(x):
    return np.vectorize(math.erf)(x)


def _lgamma(x):
    return np.vectorize(math.lgamma)(x)


def _poisson_cdf(k, lam):
    return np.array([sum(math.exp(-lam) * lam ** i / math.factorial(i)
                         for i in range(int(math.floor(v)) + 1)) if v >= 0 else 0.0
                     for v in np.ravel(k)])


def _gamma_cdf_int(x, shape, rate):
    """cdf of Gamma(integer shape, rate): 1 - exp(-rx) sum_{i<shape} (rx)^i / i!."""
    rx = rate * np.asarray(x, np.float64)
    return 1.0 - np.exp(-rx) * sum(rx ** i / math.factorial(i) for i in range(shape))


X = np.array([0.5, 1.0, 2.5], np.float64)
COUNTS = np.array([0.0, 1.0, 3.0], np.float64)

# (distribution factory, function, argument, float64 reference)
CASES = [
    (lambda: msd.Normal(3.0, 4.0), "prob", X,
     np.exp(-(X - 3) ** 2 / 32) / (4 * math.sqrt(2 * math.pi))),
    (lambda: msd.Normal(3.0, 4.0), "cdf", X, 0.5 * (1 + _erf((X - 3) / (4 * math.sqrt(2))))),
    (lambda: msd.Normal(3.0, 4.0), "log_survival", X,
     np.log(0.5 * (1 - _erf((X - 3) / (4 * math.sqrt(2)))))),
    (lambda: msd.Normal(3.0, 4.0), "entropy", None, 0.5 * math.log(2 * math.pi * math.e * 16)),
    (lambda: msd.Normal(3.0, 4.0), "var", None, 16.0),
    (lambda: msd.Bernoulli(0.7), "prob", np.array([0.0, 1.0]), np.array([0.3, 0.7])),
    (lambda: msd.Bernoulli(0.7), "cdf", np.array([-1.0, 0.0, 0.5, 1.0]),
     np.array([0.0, 0.3, 0.3, 1.0])),
    (lambda: msd.Bernoulli(0.7), "entropy", None, -(0.3 * math.log(0.3) + 0.7 * math.log(0.7))),
    (lambda: msd.Bernoulli(0.7), "var", None, 0.21),
    (lambda: msd.Geometric(0.3), "prob", np.array([-1.0, 0.0, 2.0]),
     np.array([0.0, 0.3, 0.49 * 0.3])),
    (lambda: msd.Geometric(0.3), "cdf", np.array([-1.0, 0.0, 2.0]),
     np.array([0.0, 0.3, 1 - 0.7 ** 3])),
    (lambda: msd.Geometric(0.3), "mean", None, 0.7 / 0.3),
    (lambda: msd.Geometric(0.3), "entropy", None,
     -(0.7 * math.log(0.7) + 0.3 * math.log(0.3)) / 0.3),
    (lambda: msd.Uniform(-1.0, 3.0), "prob", np.array([-2.0, 0.0, 3.0, 4.0]),
     np.array([0.0, 0.25, 0.25, 0.0])),
    (lambda: msd.Uniform(-1.0, 3.0), "cdf", np.array([-2.0, 0.0, 3.5]),
     np.array([0.0, 0.25, 1.0])),
    (lambda: msd.Uniform(-1.0, 3.0), "var", None, 16.0 / 12),
    (lambda: msd.Exponential(1.5), "log_prob", np.array([-1.0, 0.5, 2.0]),
     np.array([-np.inf, math.log(1.5) - 0.75, math.log(1.5) - 3.0])),
    (lambda: msd.Exponential(1.5), "cdf", X, 1 - np.exp(-1.5 * X)),
    (lambda: msd.Exponential(1.5), "entropy", None, 1 - math.log(1.5)),
    (lambda: msd.Cauchy(1.0, 2.0), "prob", X, 1 / (math.pi * 2 * (1 + ((X - 1) / 2) ** 2))),
    (lambda: msd.Cauchy(1.0, 2.0), "cdf", X, np.arctan((X - 1) / 2) / math.pi + 0.5),
    (lambda: msd.Cauchy(1.0, 2.0), "entropy", None, math.log(4 * math.pi * 2)),
    (lambda: msd.Logistic(1.0, 2.0), "prob", X,
     np.exp(-(X - 1) / 2) / (2 * (1 + np.exp(-(X - 1) / 2)) ** 2)),
    (lambda: msd.Logistic(1.0, 2.0), "log_cdf", X, -np.log1p(np.exp(-(X - 1) / 2))),
    (lambda: msd.Logistic(1.0, 2.0), "sd", None, 2 * math.pi / math.sqrt(3)),
    (lambda: msd.Gamma([3.0], [2.0]), "prob", X,
     2.0 ** 3 * X ** 2 * np.exp(-2 * X) / math.gamma(3)),
    (lambda: msd.Gamma([3.0], [2.0]), "cdf", X, _gamma_cdf_int(X, 3, 2.0)),
    (lambda: msd.Gamma([3.0], [2.0]), "entropy", None,
     np.array([3 - math.log(2) + math.lgamma(3) - 2 * _digamma_int(3)])),
    (lambda: msd.Beta([2.0], [3.0]), "prob", np.array([0.1, 0.5, 0.9]),
     12 * np.array([0.1, 0.5, 0.9]) * (1 - np.array([0.1, 0.5, 0.9])) ** 2),
    (lambda: msd.Beta([2.0], [3.0]), "var", None, np.array([6 / (25 * 6)])),
    (lambda: msd.Beta([2.0], [3.0]), "entropy", None,
     np.array([math.log(1 / 12) - _digamma_int(2) - 2 * _digamma_int(3)
               + 3 * _digamma_int(5)])),
    (lambda: msd.Poisson([2.5]), "prob", COUNTS,
     np.exp(-2.5) * 2.5 ** COUNTS / np.array([1.0, 1.0, 6.0])),
    (lambda: msd.Poisson([2.5]), "cdf", np.array([-1.0, 0.0, 1.0, 3.0]),
     _poisson_cdf(np.array([-1.0, 0.0, 1.0, 3.0]), 2.5)),
    (lambda: msd.Categorical([0.2, 0.3, 0.5]), "prob", np.array([0.0, 1.0, 2.0]),
     np.array([0.2, 0.3, 0.5])),
    (lambda: msd.Categorical([0.2, 0.3, 0.5]), "cdf", np.array([-1.0, 0.0, 1.0, 2.0]),
     np.array([0.0, 0.2, 0.5, 1.0])),
    (lambda: msd.Categorical([0.2, 0.3, 0.5]), "var", None, 0.3 + 2.0 - 1.3 ** 2),
    (lambda: msd.Categorical([0.2, 0.3, 0.5]), "entropy", None,
     -sum(p * math.log(p) for p in (0.2, 0.3, 0.5))),
    (lambda: msd.LogNormal(0.5, 0.8), "prob", X,
     np.exp(-(np.log(X) - 0.5) ** 2 / (2 * 0.64)) / (X * 0.8 * math.sqrt(2 * math.pi))),
    (lambda: msd.LogNormal(0.5, 0.8), "cdf", np.array([-1.0, 0.5, 2.0]),
     np.concatenate([[0.0], 0.5 * (1 + _erf((np.log([0.5, 2.0]) - 0.5) / (0.8 * math.sqrt(2))))])),
    (lambda: msd.LogNormal(0.5, 0.8), "mean", None, math.exp(0.5 + 0.32)),
    (lambda: msd.LogNormal(0.5, 0.8), "var", None, math.expm1(0.64) * math.exp(1.0 + 0.64)),
    (lambda: msd.Gumbel(1.0, 2.0), "prob", X,
     np.exp(-((X - 1) / 2 + np.exp(-(X - 1) / 2))) / 2),
    (lambda: msd.Gumbel(1.0, 2.0), "cdf", X, np.exp(-np.exp(-(X - 1) / 2))),
    (lambda: msd.Gumbel(1.0, 2.0), "mean", None, 1 + 2 * EULER),
    (lambda: msd.Gumbel(1.0, 2.0), "entropy", None, math.log(2) + EULER + 1),
]


class _Call(nn.Cell):
    def __init__(self, dist, func):
        super().__init__()
        self.dist = dist
        self.func = func

    def construct(self, *args):
        return self.dist(self.func, *args)


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
@pytest.mark.parametrize("make, func, arg, want", CASES,
                         ids=[f"{i}-{c[1]}" for i, c in enumerate(CASES)])
def test_values(mode, make, func, arg, want):
    context.set_context(mode=mode)
    args = () if arg is None else (Tensor(arg, ember.float32),)
    got = _Call(make(), func)(*args).asnumpy()
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-6)


def test_derived_functions_follow_each_other():
    """survival = 1 - cdf, log_cdf = log(cdf), prob = exp(log_prob), sd = sqrt(var)."""
    n = msd.Normal(0.0, 1.0)
    v = Tensor(X, ember.float32)
    np.testing.assert_allclose(n.survival_function(v).asnumpy(), 1 - n.cdf(v).asnumpy(),
                               rtol=1e-6)
    np.testing.assert_allclose(n.log_cdf(v).asnumpy(), np.log(n.cdf(v).asnumpy()), rtol=1e-6)
    e = msd.Exponential(2.0)
    np.testing.assert_allclose(e.prob(v).asnumpy(), 2 * np.exp(-2 * X), rtol=1e-6)
    np.testing.assert_allclose(e.var().asnumpy(), 0.25, rtol=1e-6)


def test_dist_spec_args_replace_defaults_per_call():
    n1 = msd.Normal(3.0, 4.0)
    n2 = msd.Normal()
    v = Tensor([1.0, 2.0, 3.0], ember.float32)
    mean_b, sd_b = Tensor([1.0], ember.float32), Tensor([1.0, 1.5, 2.0], ember.float32)
    want = np.exp(-(np.array([0.0, 1.0, 2.0])) ** 2 / (2 * np.array([1.0, 2.25, 4.0]))) / (
        np.array([1.0, 1.5, 2.0]) * math.sqrt(2 * math.pi))
    np.testing.assert_allclose(n1.prob(v, mean_b, sd_b).asnumpy(), want, rtol=1e-6)
    np.testing.assert_allclose(n2.prob(v, mean_b, sd_b).asnumpy(), want, rtol=1e-6)
    np.testing.assert_allclose(n1.prob(v, sd=sd_b, mean=mean_b).asnumpy(), want, rtol=1e-6)
    # the shapes of MindSpore 1.6's docstring
    assert n1.mean().shape == ()
    assert n1.mean(mean_b, sd_b).shape == (3,)
    assert n1.sample((2, 3)).shape == (2, 3)
    assert n1.sample((2, 3), mean_b, sd_b).shape == (2, 3, 3)
    assert n2.get_dist_args(mean_b, sd_b) == (mean_b, sd_b)
    assert n1.get_dist_type() == "Normal"
    with pytest.raises(TypeError, match="mean should be subclass of Tensor. It should not be "
                                        "None since it is not specified"):
        n2.prob(v)


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_kl_and_cross_entropy(mode):
    context.set_context(mode=mode)
    ma, sa, mb, sb = 0.5, 1.5, -1.0, 2.0
    kl = math.log(sb / sa) + (sa ** 2 + (ma - mb) ** 2) / (2 * sb ** 2) - 0.5
    n = msd.Normal(ma, sa)
    b = (Tensor(mb, ember.float32), Tensor(sb, ember.float32))
    np.testing.assert_allclose(_Call(n, "kl_loss")("Normal", *b).asnumpy(), kl, rtol=1e-5)
    h = 0.5 * math.log(2 * math.pi * math.e * sa ** 2)
    np.testing.assert_allclose(_Call(n, "cross_entropy")("Normal", *b).asnumpy(), h + kl,
                               rtol=1e-5)
    ra, rb = 1.5, 0.5
    e = _Call(msd.Exponential(ra), "kl_loss")("Exponential", Tensor(rb, ember.float32))
    np.testing.assert_allclose(e.asnumpy(), math.log(ra / rb) + rb / ra - 1, rtol=1e-5)
    pa, pb = 0.3, 0.6
    kl_b = pa * math.log(pa / pb) + (1 - pa) * math.log((1 - pa) / (1 - pb))
    got = _Call(msd.Bernoulli(pa), "kl_loss")("Bernoulli", Tensor(pb, ember.float32))
    np.testing.assert_allclose(got.asnumpy(), kl_b, rtol=1e-5)
    # Gamma(a, r) || Gamma(b, s) with integer shapes
    a, r, bb, s = 3, 2.0, 2, 1.0
    kl_g = ((a - bb) * _digamma_int(a) - math.lgamma(a) + math.lgamma(bb)
            + bb * (math.log(r) - math.log(s)) + a * (s - r) / r)
    got = _Call(msd.Gamma([float(a)], [r]), "kl_loss")(
        "Gamma", Tensor([float(bb)], ember.float32), Tensor([s], ember.float32))
    np.testing.assert_allclose(got.asnumpy(), [kl_g], rtol=1e-4)
    probs_a, probs_b = np.array([0.2, 0.3, 0.5]), np.array([0.5, 0.25, 0.25])
    got = _Call(msd.Categorical(probs_a.tolist()), "kl_loss")(
        "Categorical", Tensor(probs_b, ember.float32))
    np.testing.assert_allclose(got.asnumpy(), np.sum(probs_a * np.log(probs_a / probs_b)),
                               rtol=1e-5)


def _grads(fn, *params):
    """d sum(fn(*params)) / d params, by ember."""
    tensors = [Tensor(np.asarray(p, np.float32)) for p in params]
    return [g.asnumpy() for g in C.GradOperation(get_all=True)(fn)(*tensors)]


def _numeric(ref, *params, eps=1e-6):
    out = []
    for i, p in enumerate(params):
        p = np.asarray(p, np.float64)
        g = np.zeros_like(p)
        for j in np.ndindex(p.shape):
            up, down = [np.asarray(q, np.float64).copy() for q in params], \
                [np.asarray(q, np.float64).copy() for q in params]
            up[i][j] += eps
            down[i][j] -= eps
            g[j] = (np.sum(ref(*up)) - np.sum(ref(*down))) / (2 * eps)
        out.append(g)
    return out


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_gradients_against_finite_differences(mode):
    context.set_context(mode=mode)
    value = Tensor(X, ember.float32)
    normal = msd.Normal()

    def normal_log_prob(mean, sd):
        return normal.log_prob(value, mean, sd)

    def ref(mean, sd):
        return -(X - mean) ** 2 / (2 * sd ** 2) - np.log(sd) - 0.5 * math.log(2 * math.pi)

    params = ([0.3, -0.2, 1.0], [1.2, 0.7, 2.0])
    for got, want in zip(_grads(normal_log_prob, *params), _numeric(ref, *params)):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)

    gamma = msd.Gamma()

    def gamma_log_prob(rate):
        return gamma.log_prob(value, Tensor([2.0], ember.float32), rate)

    def gamma_ref(rate):
        return 2 * np.log(rate) + np.log(X) - rate * X - math.lgamma(2.0)

    got, = _grads(gamma_log_prob, [1.5])
    np.testing.assert_allclose(got, _numeric(gamma_ref, [1.5])[0], rtol=1e-4)

    uniform = msd.Uniform()

    def uniform_entropy(low, high):
        return uniform.entropy(low, high)

    got = _grads(uniform_entropy, [0.0, 1.0], [2.0, 5.0])  # d log(high - low)
    np.testing.assert_allclose(got[0], [-0.5, -0.25], rtol=1e-5)
    np.testing.assert_allclose(got[1], [0.5, 0.25], rtol=1e-5)


@pytest.mark.parametrize("make, mean, var", [
    (lambda s: msd.Normal(2.0, 3.0, seed=s), 2.0, 9.0),
    (lambda s: msd.Uniform(-1.0, 3.0, seed=s), 1.0, 16 / 12),
    (lambda s: msd.Exponential(2.0, seed=s), 0.5, 0.25),
    (lambda s: msd.Bernoulli(0.3, seed=s), 0.3, 0.21),
    (lambda s: msd.Geometric(0.4, seed=s), 1.5, 0.6 / 0.16),
    (lambda s: msd.Logistic(1.0, 0.5, seed=s), 1.0, (0.5 * math.pi) ** 2 / 3),
    (lambda s: msd.Gamma([3.0], [2.0], seed=s), 1.5, 0.75),
    (lambda s: msd.Beta([2.0], [3.0], seed=s), 0.4, 0.04),
    (lambda s: msd.Poisson([3.0], seed=s), 3.0, 3.0),
    (lambda s: msd.Categorical([0.2, 0.3, 0.5], seed=s), 1.3, 0.61),
    (lambda s: msd.LogNormal(0.0, 0.5, seed=s), math.exp(0.125),
     math.expm1(0.25) * math.exp(0.25)),
    (lambda s: msd.Gumbel(1.0, 2.0, seed=s), 1 + 2 * EULER, (2 * math.pi) ** 2 / 6),
])
def test_sample_statistics_and_seeds(make, mean, var):
    n = 20000
    ember.set_seed(7)
    dist = make(5)
    draws = dist.sample((n,)).asnumpy().astype(np.float64).reshape(n)
    # the sample mean within 5 standard errors, the variance within 10%
    assert abs(draws.mean() - mean) < 5 * math.sqrt(var / n)
    assert abs(draws.var() - var) < 0.1 * var
    again = dist.sample((n,)).asnumpy().reshape(n)
    assert not np.array_equal(again, draws), "a second call draws anew"
    ember.set_seed(7)
    np.testing.assert_array_equal(make(5).sample((n,)).asnumpy().reshape(n),
                                  draws.astype(again.dtype))


def test_sample_shapes_and_dtypes():
    assert msd.Normal(0.0, 1.0).sample().shape == ()
    assert msd.Bernoulli(0.5).sample((4,)).dtype == ember.int32
    assert msd.Bernoulli(0.5, dtype=ember.float32).sample((4,)).dtype == ember.float32
    assert msd.Categorical([[0.5, 0.5], [0.1, 0.9]]).sample((3, 2)).shape == (3, 2, 2)
    assert msd.Poisson([1.0, 2.0]).sample((5,)).shape == (5, 2)
    assert msd.Gumbel([0.0, 1.0], 2.0).sample((3,)).shape == (3, 2)


def test_errors():
    with pytest.raises(ValueError, match="Standard deviation should be greater than zero"):
        msd.Normal(0.0, -1.0)
    with pytest.raises(TypeError, match="'dtype'"):
        msd.Normal(0.0, 1.0, dtype=ember.int32)
    with pytest.raises(ValueError, match="Probabilities should be less than one"):
        msd.Bernoulli(1.5)
    with pytest.raises(ValueError, match="low should be less than high"):
        msd.Uniform(2.0, 1.0)
    with pytest.raises(ValueError, match="should sum to one"):
        msd.Categorical([0.2, 0.2])
    with pytest.raises(TypeError, match="can't be scalar"):
        msd.Gamma(2.0, [1.0])
    with pytest.raises(ValueError, match="seed"):
        msd.Normal(0.0, 1.0, seed=-1)
    n = msd.Normal(0.0, 1.0)
    with pytest.raises(ValueError, match="Expected dist input is Normal, but got Uniform"):
        n.kl_loss("Uniform", Tensor(0.0), Tensor(1.0))
    with pytest.raises(TypeError, match="For value, input type should be a Tensor"):
        n.prob(1.0)
    with pytest.raises(TypeError, match="For shape, input type should be a tuple"):
        n.sample([2])
    with pytest.raises(ValueError, match="mean is undefined for Cauchy distribution"):
        msd.Cauchy(0.0, 1.0).mean()
    with pytest.raises(NotImplementedError, match="cdf is not implemented for Beta"):
        msd.Beta([1.0], [2.0]).cdf(Tensor([0.5]))
    with pytest.raises(NotImplementedError, match="median is not implemented for Normal"):
        n("median")
    with pytest.raises(ValueError, match="mean function should be implemented for non-linear"):
        import ember.nn.probability.bijector as msb
        msd.TransformedDistribution(msb.Exp(), msd.Normal(0.0, 1.0)).mean()
