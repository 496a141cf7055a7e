"""Erfinv, Trunc, Addcmul, Addcdiv: the values MindSpore 1.6's docstrings print, and the
errors for their inputs (values and gradients: the conformance kit)."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor
from ember.ops import operations as P


def f32(*values):
    return Tensor(np.array(values, np.float32))


def test_documented_values():
    # the printout is Ascend's, good to 4 digits: erfinv(0.5) is 0.4769362762...
    np.testing.assert_allclose(P.Erfinv()(f32(0, 0.5, -0.9)).asnumpy(),
                               [0.0, 0.47695306, -1.1630805], rtol=1e-4)
    np.testing.assert_array_equal(P.Trunc()(f32(3.4742, 0.5466, -0.8008, -3.9079)).asnumpy(),
                                  [3.0, 0.0, 0.0, -3.0])
    out = P.Addcdiv()(f32(1, 1, 1, 1), f32(1, 2, 3, 4), f32(4, 3, 2, 1), f32(1))
    np.testing.assert_allclose(out.asnumpy(), [1.25, 1.6666667, 2.5, 5.0], rtol=1e-6)
    out = P.Addcmul()(f32(1, 1, 1), Tensor(np.array([[1], [2], [3]], np.float32)),
                      Tensor(np.array([[1, 2, 3]], np.float32)), f32(1))
    np.testing.assert_array_equal(out.asnumpy(), [[2, 3, 4], [3, 5, 7], [4, 7, 10]])


def test_input_errors():
    with pytest.raises(TypeError, match="Trunc"):
        P.Trunc()(Tensor(np.array([1], np.int64)))
    with pytest.raises(TypeError, match="Erfinv"):
        P.Erfinv()(Tensor(np.array([1], np.int32)))
    for name in ("BesselI0", "BesselI1", "BesselI0e", "BesselI1e"):
        with pytest.raises(TypeError, match=name):
            getattr(P, name)()(Tensor(np.array([1], np.int32)))
    with pytest.raises(TypeError, match="Addcmul: inputs must have one dtype"):
        P.Addcmul()(f32(1), f32(1), f32(1), Tensor(np.array([1], np.int32)))
    with pytest.raises(TypeError, match="Addcdiv: input 'x2'"):
        P.Addcdiv()(f32(1), f32(1), Tensor(np.array([1], np.int32)), f32(1))
    with pytest.raises(ValueError, match="Addcmul"):
        P.Addcmul()(f32(1, 2), f32(1, 2, 3), f32(1), f32(1))
    with pytest.raises(TypeError, match="Addcdiv takes 4 inputs"):
        P.Addcdiv()(f32(1), f32(1), f32(1))
