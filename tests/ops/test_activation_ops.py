"""SeLU, CeLU, Mish, SoftShrink and HShrink: the values MindSpore 1.6's docstrings print, and
the errors for their attributes and inputs (values and gradients: the conformance kit)."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor
from ember.ops import operations as P

X = np.array([[-1.0, 4.0, -8.0], [2.0, -5.0, 9.0]], np.float32)


@pytest.mark.parametrize("make, x, printed, tol", [
    (P.SeLU, X, [[-1.1113307, 4.202804, -1.7575096], [2.101402, -1.7462534, 9.456309]], 1e-6),
    (P.CeLU, np.array([-2.0, -1.0, 1.0, 2.0], np.float32),
     [-0.86466473, -0.63212055, 1.0, 2.0], 1e-6),
    (P.HShrink, np.array([[0.5, 1, 2.0], [0.0533, 0.0776, -2.1233]], np.float32),
     [[0.0, 1.0, 2.0], [0.0, 0.0, -2.1233]], 1e-6),
    (P.SoftShrink, np.array([[0.5297, 0.7871, 1.1754], [0.7836, 0.6218, -1.1542]], np.float16),
     [[0.02979, 0.287, 0.676], [0.2837, 0.1216, -0.6543]], 1e-3),
    # the printout is Ascend's, of low precision: Mish(-8) and Mish(-5) (-0.0027, -0.0336)
    # print as -0.015625 and -0.0293, so they are left out
    (P.Mish, np.array([-1.0, 4.0, 2.0], np.float32), [-0.30273438, 3.9974136, 1.9439697], 1e-3),
])
def test_documented_values(make, x, printed, tol):
    np.testing.assert_allclose(make()(Tensor(x)).asnumpy(), printed, rtol=tol, atol=tol)


@pytest.mark.parametrize("make, error, match", [
    (lambda: P.CeLU(1), TypeError, "CeLU: 'alpha' must be a float"),
    (lambda: P.CeLU(0.0), ValueError, "CeLU: 'alpha' must not be 0"),
    (lambda: P.SoftShrink(1), TypeError, "SoftShrink: 'lambd' must be a float"),
    (lambda: P.SoftShrink(-0.5), ValueError, "SoftShrink: 'lambd' must be >= 0"),
    (lambda: P.HShrink("0.5"), TypeError, "HShrink: 'lambd' must be a float"),
])
def test_attribute_errors(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_hshrink_takes_a_negative_lambd_as_zero():
    assert P.HShrink(-1.0).lambd == 0.0


@pytest.mark.parametrize("prim", [P.SeLU(), P.CeLU(), P.Mish(), P.SoftShrink(), P.HShrink()])
def test_inputs_must_be_float_tensors(prim):
    with pytest.raises(TypeError, match=prim.name):
        prim(Tensor(np.array([1, 2], np.int32)))
    with pytest.raises(TypeError, match=prim.name):
        prim(1.0)
