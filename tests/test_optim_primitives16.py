"""MindSpore 1.6's LARSUpdate, ApplyAdagradDA, SparseApplyFtrlV2 and fused optimizer updates:
the values MindSpore's documentation prints, and the errors that name bad arguments."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Parameter, Tensor
from ember import dtype as mstype
from ember.ops import operations as P


def _f32(values):
    return Tensor(np.array(values, np.float32))


def _held(*rows, dtype=np.float32):
    return [Parameter(Tensor(np.array(r, dtype)), f"s{i}") for i, r in enumerate(rows)]


def test_lars_update_prints_the_documented_gradient():
    weight = _f32([[0.5, 0.8, 0.2], [0.6, 0.4, 0.2]])
    gradient = _f32([[0.4, 0.4, 0.5], [0.2, 0.4, 0.3]])
    sums = [Tensor(np.sum(x.asnumpy() ** 2)) for x in (weight, gradient)]
    out = P.LARSUpdate()(weight, gradient, *sums, 0.0, 1.0)
    np.testing.assert_allclose(out.asnumpy(), [[0.0005265, 0.0005265, 0.00065813],
                                               [0.00026325, 0.0005265, 0.00039488]], rtol=1e-4)


def test_apply_adagrad_da_prints_the_documented_values():
    states = _held([[0.6, 0.4], [0.1, 0.5]], [[0.1, 0.3], [0.1, 0.5]], [[0.2, 0.1], [0.1, 0.2]])
    scalar = Tensor(0.001, mstype.float32)
    out = P.ApplyAdagradDA()(*states, _f32([[0.3, 0.4], [0.1, 0.2]]), scalar, scalar, scalar,
                             Tensor(2, mstype.int32))
    printed = [[[-7.39064650e-04, -1.36888528e-03], [-5.96988888e-04, -1.42478070e-03]],
               [[0.4, 0.7], [0.2, 0.7]], [[0.29, 0.26], [0.11, 0.24]]]
    for got, want in zip(out, printed, strict=True):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5)


def test_adam_no_update_param_prints_the_documented_change():
    m, v = _held([[0.1] * 3, [0.2] * 3], [[0.1] * 3, [0.2] * 3])
    scalars = [Tensor(s, mstype.float32) for s in (0.9, 0.999, 0.001, 0.9, 0.999, 1e-8)]
    out = P.AdamNoUpdateParam()(m, v, *scalars, _f32(np.full((2, 3), 0.1)))
    np.testing.assert_allclose(out.asnumpy(), [[-0.00010004] * 3, [-0.00013441] * 3],
                               rtol=1e-4)


def test_fused_cast_adam_weight_decay_updates_a_float16_variable():
    var, = _held(np.ones((2, 2)), dtype=np.float16)
    m, v = _held(np.ones((2, 2)), np.ones((2, 2)))
    grad = Tensor(np.full((2, 2), 4.0), mstype.float16)
    var_out, m_out, v_out = P.FusedCastAdamWeightDecay()(var, m, v, 0.001, 0.9, 0.999, 1e-8,
                                                         0.0, grad, 4.0)
    assert var_out.dtype == mstype.float16 and m_out.dtype == mstype.float32
    np.testing.assert_allclose(m.asnumpy(), 1.0)  # the gradient 4 divided by global_norm 4
    np.testing.assert_allclose(var.asnumpy(), 1 - 0.001, rtol=1e-3)


def test_sparse_apply_ftrl_v2_shrinks_only_the_rows_it_updates():
    var, accum, linear = _held([[1.0], [1.0]], [[1.0], [1.0]], [[0.0], [0.0]])
    P.SparseApplyFtrlV2(lr=1.0, l1=0.0, l2=0.0, l2_shrinkage=0.5, lr_power=0.0)(
        var, accum, linear, _f32([[0.0]]), Tensor(np.array([1], np.int32)))
    # lr_power 0: linear += grad + 2 * 0.5 * var; var = -linear / (1 / lr)
    np.testing.assert_allclose(linear.asnumpy(), [[0.0], [1.0]])
    np.testing.assert_allclose(var.asnumpy(), [[1.0], [-1.0]])


F16 = Tensor(np.ones((2, 2)), mstype.float16)


@pytest.mark.parametrize("build, error, match", [
    (lambda: P.LARSUpdate(epsilon=1), TypeError, "LARSUpdate: epsilon must be a float"),
    (lambda: P.LARSUpdate(use_clip=1), TypeError, "use_clip must be a bool"),
    (lambda: P.LARSUpdate()(_f32([1.0, 2.0]), _f32([1.0]), _f32(1.0), _f32(1.0), 0.0, 1.0),
     ValueError, "gradient must have the shape"),
    (lambda: P.LARSUpdate()(_f32([1.0]), _f32([1.0]), _f32(1.0), _f32(1.0), "0", 1.0),
     TypeError, "weight_decay must be a float"),
    (lambda: P.SparseApplyFtrlV2(0.1, 0.0, 0.0, "0", -0.5), TypeError,
     "l2_shrinkage must be a float"),
    (lambda: P.SparseApplyFtrlV2(0.1, 0.0, 0.0, 0.0, 0.5), ValueError, "'lr_power' <= 0"),
    (lambda: P.ApplyAdagradDA()(*_held([1.0], [1.0], [1.0]), _f32([1.0]), 0.1, 0.1, 0.1, 2.0),
     TypeError, "ApplyAdagradDA: global_step must be an int"),
    (lambda: P.ApplyAdagradDA()(*_held([1.0], [1.0], [1.0]), _f32([1.0]), 0.1, 0.1, 0.1,
                                Tensor(np.array([1, 2], np.int32))),
     ValueError, "global_step must be a scalar"),
    (lambda: P.AdamNoUpdateParam(use_nesterov=0), TypeError, "use_nesterov must be a bool"),
    (lambda: P.AdamNoUpdateParam()(_f32([1.0]), *_held([1.0]), *(0.5,) * 6, _f32([1.0])),
     TypeError, "m must be a Parameter"),
    (lambda: P.FusedCastAdamWeightDecay()(*_held(np.ones((2, 2)), np.ones((2, 2)),
                                                 np.ones((2, 2))),
                                          0.1, 0.9, 0.99, 1e-8, 0.0, F16.astype(mstype.float32),
                                          1.0),
     TypeError, "gradient"),
    (lambda: P.FusedWeightScaleApplyMomentum()(0.0, 1.0, *_held([1.0], [1.0, 2.0]), 0.1,
                                               _f32([1.0]), 0.9),
     ValueError, "accumulation"),
])
def test_bad_arguments_are_named(build, error, match):
    with pytest.raises(error, match=match):
        build()


def test_make_range_is_a_tuple_of_ints_as_pythons_range():
    from ember.ops import functional as F
    assert F.make_range(3) == (0, 1, 2)
    assert F.make_range(1, 7, 2) == (1, 3, 5)
    with pytest.raises(ValueError, match="step must not be 0"):
        F.make_range(0, 3, 0)
    with pytest.raises(TypeError, match="must be ints"):
        F.make_range(0, 2.0)
