"""MindSpore 1.6's composite math and image layers (``LGamma``, ``DiGamma``, ``IGamma``,
``LBeta``, ``MatDet``, ``SSIM``, ``MSSSIM``) against float64 references written here, the values
MindSpore's docstrings print, finite-difference gradients, both execution modes, and argument
errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ember import Tensor, context, nn, ops
from ember.common import dtype as mstype

MODES = pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE],
                                ids=["pynative", "graph"])


# -- float64 references -------------------------------------------------------------------------
def lgamma_ref(x: np.ndarray) -> np.ndarray:
    return np.array([math.lgamma(v) if not (v <= 0 and v == int(v)) else np.inf
                     for v in x.astype(float).ravel()]).reshape(x.shape)


def digamma_ref(x: float) -> float:
    """psi(x) by recurrence up to x >= 10, then its asymptotic series; reflection below 0.5."""
    if x < 0.5:
        return digamma_ref(1 - x) - math.pi / math.tan(math.pi * x)
    shift = 0.0
    while x < 10:
        shift -= 1 / x
        x += 1
    inv2 = 1 / (x * x)
    return shift + math.log(x) - 0.5 / x - inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 / 252))


def igamma_ref(a: float, x: float) -> float:
    """P(a, x) by its power series in float64, summed until the terms vanish."""
    if x == 0:
        return 0.0
    term = total = 1.0 / a
    n = 0
    while term > 1e-17 * total:
        n += 1
        term *= x / (a + n)
        total += term
    return math.exp(a * math.log(x) - x - math.lgamma(a)) * total


# -- LGamma / DiGamma ---------------------------------------------------------------------------
@MODES
def test_lgamma_docstring_and_reference(mode):
    context.set_context(mode=mode)
    out = nn.LGamma()(Tensor(np.array([2, 3, 4], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [3.5762787e-07, 6.9314754e-01, 1.7917603e+00],
                               rtol=1e-5, atol=1e-6)
    x = np.array([-7.3, -2.5, -0.5, 1e-3, 0.3, 0.5, 1.0, 1.5, 2.7, 7.7, 30.0, 1e3, 3e5],
                 np.float32)
    out = nn.LGamma()(Tensor(x))
    assert out.dtype == mstype.float32
    np.testing.assert_allclose(out.asnumpy(), lgamma_ref(x), rtol=3e-6, atol=3e-6)


def test_lgamma_poles_infinities_and_float16():
    x = np.array([-3.0, -1.0, 0.0, np.inf, -np.inf], np.float32)
    assert np.all(np.isposinf(nn.LGamma()(Tensor(x)).asnumpy()))
    half = nn.LGamma()(Tensor(np.array([0.25, 3.5, 12.0], np.float16)))
    assert half.asnumpy().dtype == np.float16
    np.testing.assert_allclose(half.asnumpy().astype(float),
                               lgamma_ref(np.array([0.25, 3.5, 12.0])), rtol=2e-3)


@MODES
def test_lgamma_gradient_is_finite_difference(mode):
    context.set_context(mode=mode)
    x = np.array([-2.5, -0.4, 0.3, 0.7, 1.0, 2.0, 5.5, 20.0])
    grad = ops.GradOperation()(nn.LGamma())(Tensor(x.astype(np.float32))).asnumpy()
    h = 1e-6
    fd = [(math.lgamma(v + h) - math.lgamma(v - h)) / (2 * h) for v in x]
    np.testing.assert_allclose(grad, fd, rtol=1e-4, atol=1e-5)


@MODES
def test_digamma_docstring_and_reference(mode):
    context.set_context(mode=mode)
    out = nn.DiGamma()(Tensor(np.array([2, 3, 4], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [0.42278463, 0.92278427, 1.2561178], rtol=1e-6)
    x = np.array([-4.6, -1.5, -0.3, 0.1, 0.5, 1.0, 3.3, 12.0, 250.0], np.float32)
    ref = [digamma_ref(float(v)) for v in x]
    np.testing.assert_allclose(nn.DiGamma()(Tensor(x)).asnumpy(), ref, rtol=2e-5, atol=2e-5)
    # and it is the derivative of log Gamma: a central difference of math.lgamma
    fd = [(math.lgamma(v + 1e-6) - math.lgamma(v - 1e-6)) / 2e-6 for v in (0.7, 4.2)]
    np.testing.assert_allclose(nn.DiGamma()(Tensor(np.array([0.7, 4.2], np.float32)))
                               .asnumpy(), fd, rtol=1e-5)


def test_digamma_negative_integers_are_nan():
    out = nn.DiGamma()(Tensor(np.array([-1.0, -4.0, 2.0], np.float32))).asnumpy()
    assert np.isnan(out[:2]).all() and np.isfinite(out[2])


# -- IGamma -------------------------------------------------------------------------------------
@MODES
def test_igamma_docstring_and_series_reference(mode):
    context.set_context(mode=mode)
    a = Tensor(np.array([2.0, 4.0, 6.0, 8.0], np.float32))
    x = Tensor(np.array([2.0, 3.0, 4.0, 5.0], np.float32))
    np.testing.assert_allclose(nn.IGamma()(a, x).asnumpy(),
                               [0.593994, 0.35276785, 0.21486944, 0.13337152], rtol=1e-5)
    # both regimes: the series (x <= max(1, a)) and the continued fraction (x > 1, x > a)
    a = np.array([[0.5], [1.0], [3.0], [12.5]], np.float32)
    x = np.array([0.0, 0.01, 0.7, 2.0, 6.0, 15.0, 40.0], np.float32)
    out = nn.IGamma()(Tensor(a), Tensor(x)).asnumpy()
    assert out.shape == (4, 7)
    ref = [[igamma_ref(float(ai), float(xi)) for xi in x] for ai in a[:, 0]]
    np.testing.assert_allclose(out, ref, rtol=2e-5, atol=2e-6)


def test_igamma_domain_and_dtype_errors():
    out = nn.IGamma()(Tensor(np.array([-1.0, 2.0], np.float32)),
                      Tensor(np.array([1.0, -1.0], np.float32))).asnumpy()
    assert np.isnan(out).all()
    with pytest.raises(TypeError, match="'a'"):
        nn.IGamma()(Tensor(np.ones(2, np.float16)), Tensor(np.ones(2, np.float32)))
    with pytest.raises(TypeError, match="'x'"):
        nn.IGamma()(Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.int32)))


# -- LBeta --------------------------------------------------------------------------------------
@MODES
def test_lbeta_docstring_and_reference(mode):
    context.set_context(mode=mode)
    x = np.array([2.0, 4.0, 6.0, 8.0], np.float32)
    y = np.array([2.0, 3.0, 14.0, 15.0], np.float32)
    np.testing.assert_allclose(nn.LBeta()(Tensor(y), Tensor(x)).asnumpy(),
                               [-1.7917596, -4.094345, -12.000229, -14.754799], rtol=1e-6)
    # every regime: both < 8, one >= 8, both >= 8 (where the naive sum loses its digits)
    x = np.array([[0.5], [3.0], [9.0], [150.0]], np.float32)
    y = np.array([0.3, 2.5, 8.0, 40.0, 1e4], np.float32)
    ref = [[math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b) for b in y.astype(float)]
           for a in x[:, 0].astype(float)]
    np.testing.assert_allclose(nn.LBeta()(Tensor(x), Tensor(y)).asnumpy(), ref, rtol=1e-5,
                               atol=1e-4)


def test_lbeta_dtype_errors():
    with pytest.raises(TypeError, match="'x'"):
        nn.LBeta()(Tensor(np.ones(2, np.int32)), Tensor(np.ones(2, np.float32)))
    with pytest.raises(TypeError, match="'y'"):
        nn.LBeta()(Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.float16)))


# -- MatDet -------------------------------------------------------------------------------------
def spd(rng, *shape: int) -> np.ndarray:
    m = rng.standard_normal(shape)
    return m @ np.swapaxes(m, -1, -2) + shape[-1] * np.eye(shape[-1])


@MODES
def test_matdet_docstring_and_numpy(mode):
    context.set_context(mode=mode)
    a = np.array([[4, 12, -16], [12, 37, -43], [-16, -43, 98]], np.float32)
    np.testing.assert_allclose(nn.MatDet()(Tensor(a)).asnumpy(), 35.999996, rtol=1e-5)
    batch = spd(np.random.default_rng(1), 2, 3, 5, 5)
    out = nn.MatDet()(Tensor(batch.astype(np.float32)))
    assert out.shape == (2, 3)
    np.testing.assert_allclose(out.asnumpy(), np.linalg.det(batch), rtol=1e-4)


@MODES
def test_matdet_gradient_is_finite_difference(mode):
    context.set_context(mode=mode)
    a = spd(np.random.default_rng(2), 4, 4)
    grad = ops.GradOperation()(nn.MatDet())(Tensor(a.astype(np.float32))).asnumpy()
    h = 1e-6
    fd = np.zeros_like(a)
    for i in range(4):
        for j in range(4):
            d = np.zeros_like(a)
            d[i, j] = h
            fd[i, j] = (np.linalg.det(a + d) - np.linalg.det(a - d)) / (2 * h)
    np.testing.assert_allclose(grad, fd, rtol=2e-4)


def test_matdet_errors():
    with pytest.raises(TypeError, match="'input_a'"):
        nn.MatDet()(Tensor(np.eye(3, dtype=np.int32)))
    with pytest.raises(ValueError, match="'input_a'"):
        nn.MatDet()(Tensor(np.ones((2, 3), np.float32)))


# -- SSIM / MSSSIM ------------------------------------------------------------------------------
def gaussian_window(size: int, sigma: float) -> np.ndarray:
    offsets = np.arange(size) - (size - 1) // 2
    g = np.exp(-(offsets[:, None] ** 2 + offsets[None, :] ** 2) / (2 * sigma ** 2))
    return g / g.sum()


def valid_filter(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    k = w.shape[0]
    h, wd = x.shape[-2] - k + 1, x.shape[-1] - k + 1
    return sum(w[i, j] * x[..., i:i + h, j:j + wd] for i in range(k) for j in range(k))


def ssim_ref(a, b, size=11, sigma=1.5, k1=0.01, k2=0.03, max_val=1.0):
    """Per-channel means (N, C) of the SSIM map and its contrast-structure part, in float64."""
    w = gaussian_window(size, sigma)
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    mu1, mu2 = valid_filter(a, w), valid_filter(b, w)
    var1 = valid_filter(a * a, w) - mu1 ** 2
    var2 = valid_filter(b * b, w) - mu2 ** 2
    cov = valid_filter(a * b, w) - mu1 * mu2
    cs = (2 * cov + c2) / (var1 + var2 + c2)
    ssim = (2 * mu1 * mu2 + c1) / (mu1 ** 2 + mu2 ** 2 + c1) * cs
    return ssim.mean((-2, -1)), cs.mean((-2, -1))


def msssim_ref(a, b, factors, **kw):
    parts = []
    for i in range(len(factors)):
        ssim, cs = ssim_ref(a, b, **kw)
        parts.append(np.maximum(ssim if i == len(factors) - 1 else cs, 0))
        n, c, h, w = a.shape
        a = a[:, :, :h // 2 * 2, :w // 2 * 2].reshape(n, c, h // 2, 2, w // 2, 2).mean((3, 5))
        b = b[:, :, :h // 2 * 2, :w // 2 * 2].reshape(n, c, h // 2, 2, w // 2, 2).mean((3, 5))
    return np.prod(np.stack(parts, -1) ** np.array(factors), -1).mean(-1)


def image_pair(rng, shape, noise=0.1):
    a = rng.random(shape)
    return a, np.clip(a + noise * rng.standard_normal(shape), 0, 1)


@MODES
def test_ssim_matches_float64_gaussian_window_formula(mode):
    context.set_context(mode=mode)
    rng = np.random.default_rng(3)
    a, b = image_pair(rng, (2, 3, 20, 17))
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    out = nn.SSIM()(Tensor(a32), Tensor(b32))
    assert out.shape == (2,)
    np.testing.assert_allclose(out.asnumpy(), ssim_ref(a32, b32)[0].mean(-1), atol=2e-5)
    # other window, constants and range (max_val 255 on a 0..255 float image)
    net = nn.SSIM(max_val=255, filter_size=4, filter_sigma=0.8, k1=0.02, k2=0.05)
    out = net(Tensor(a32 * 255), Tensor(b32 * 255))
    ref = ssim_ref(a * 255, b * 255, 4, 0.8, 0.02, 0.05, 255.0)[0].mean(-1)
    np.testing.assert_allclose(out.asnumpy(), ref, atol=2e-5)
    # an image with itself is 1
    np.testing.assert_allclose(nn.SSIM()(Tensor(a32), Tensor(a32)).asnumpy(), 1.0, atol=1e-5)


def test_ssim_parameters_and_gradient():
    net = nn.SSIM()
    assert [name for name, _ in net.parameters_and_names()] == ["conv.weight"]
    assert not net.conv.weight.requires_grad
    np.testing.assert_allclose(net.conv.weight.asnumpy()[0, 0], gaussian_window(11, 1.5),
                               rtol=1e-6)
    rng = np.random.default_rng(4)
    a, b = image_pair(rng, (1, 1, 6, 6), noise=0.3)
    net = nn.SSIM(filter_size=3)
    grad = ops.GradOperation()(net)(Tensor(a.astype(np.float32)),
                                    Tensor(b.astype(np.float32))).asnumpy()
    h = 1e-6
    fd = np.zeros_like(a)
    for idx in np.ndindex(a.shape):
        d = np.zeros_like(a)
        d[idx] = h
        fd[idx] = (ssim_ref(a + d, b, 3)[0].mean() - ssim_ref(a - d, b, 3)[0].mean()) / (2 * h)
    np.testing.assert_allclose(grad, fd, atol=2e-4)


@MODES
def test_msssim_matches_float64_reference(mode):
    context.set_context(mode=mode)
    rng = np.random.default_rng(5)
    a, b = image_pair(rng, (2, 3, 64, 64), noise=0.2)
    factors = (0.2, 0.3, 0.5)
    net = nn.MSSSIM(power_factors=factors, filter_size=7)
    assert [name for name, _ in net.parameters_and_names()] == [
        f"multi_convs_list.{i}.weight" for i in range(3)]
    out = net(Tensor(a), Tensor(b))  # float64 images are accepted and computed in float32
    np.testing.assert_allclose(out.asnumpy(), msssim_ref(a, b, factors, size=7), atol=5e-5)
    # uint8 images are scaled to [0, 1] with max_val
    a8, b8 = (a * 255).round().astype(np.uint8), (b * 255).round().astype(np.uint8)
    out = nn.MSSSIM(max_val=255, power_factors=factors, filter_size=7)(Tensor(a8), Tensor(b8))
    ref = msssim_ref(a8 / 255.0, b8 / 255.0, factors, size=7)
    np.testing.assert_allclose(out.asnumpy(), ref, atol=5e-5)


@pytest.mark.parametrize("kwargs, error, name", [
    ({"max_val": "1"}, TypeError, "max_val"),
    ({"max_val": 0}, ValueError, "max_val"),
    ({"filter_size": 1.5}, TypeError, "filter_size"),
    ({"filter_size": 0}, ValueError, "filter_size"),
    ({"filter_sigma": 1}, TypeError, "filter_sigma"),
    ({"filter_sigma": -1.0}, ValueError, "filter_sigma"),
    ({"k1": 1}, TypeError, "k1"),
    ({"k2": None}, TypeError, "k2"),
])
def test_ssim_argument_errors(kwargs, error, name):
    for layer in (nn.SSIM, nn.MSSSIM):
        with pytest.raises(error, match=f"'{name}'"):
            layer(**kwargs)
    with pytest.raises(TypeError, match="'power_factors'"):
        nn.MSSSIM(power_factors=0.5)


def test_ssim_input_errors():
    img = Tensor(np.zeros((1, 1, 12, 12), np.float32))
    with pytest.raises(ValueError, match="img1 shape\\[2\\]"):
        nn.SSIM()(Tensor(np.zeros((1, 1, 8, 12), np.float32)),
                  Tensor(np.zeros((1, 1, 8, 12), np.float32)))
    with pytest.raises(ValueError, match="'img1'"):
        nn.SSIM()(Tensor(np.zeros((12, 12), np.float32)), img)
    with pytest.raises(TypeError, match="'img1'"):
        nn.SSIM()(Tensor(np.zeros((1, 1, 12, 12), np.int32)), img)
    with pytest.raises(TypeError, match="'img2'"):
        nn.SSIM()(img, Tensor(np.zeros((1, 1, 12, 13), np.float32)))
