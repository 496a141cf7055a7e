"""Losses against NumPy formulas and MindSpore 1.6's documented values, every reduction, both
modes, and their gradients against finite differences in float64."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Parameter, Tensor, context, nn
from ember.common import dtype as mstype
from ember.nn.loss import (
    BCEWithLogitsLoss,
    L1Loss,
    LossBase,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
    SoftmaxCrossEntropyWithLogits,
)
from ember.nn.wrap import WithEvalCell
from ember.ops import GradOperation
from ember.ops import functional as F

MODES = {"pynative": context.PYNATIVE_MODE, "graph": context.GRAPH_MODE}
REDUCE = {"none": lambda x: x, "mean": np.mean, "sum": np.sum}
RNG = np.random.default_rng(0)


def randn(*shape, dtype=np.float64):
    return RNG.standard_normal(shape).astype(dtype)


def _softplus_neg(x):
    return np.log1p(np.exp(-np.abs(x))) + np.maximum(-x, 0)


def ref_bce(x, y, weight=None, pos_weight=None):
    p = 1.0 if pos_weight is None else pos_weight
    sig = 1 / (1 + np.exp(-x))
    loss = -(p * y * np.log(sig) + (1 - y) * np.log(1 - sig))
    return loss * (1.0 if weight is None else weight)


def ref_smooth_l1(x, y, beta):
    d = np.abs(x - y)
    return np.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta)


def ref_softmax_ce(logits, onehot):
    shifted = logits - logits.max(-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))
    return -(onehot * log_p).sum(-1)


W3 = randn(3)
P3 = np.abs(randn(3)) + 0.5
# name -> (make(reduction), make inputs(dtype), elementwise NumPy loss)
ELEMENTWISE = {
    "l1": (lambda r: L1Loss(r), lambda d: (randn(4, 3, dtype=d), randn(4, 3, dtype=d)),
           lambda x, y: np.abs(x - y)),
    "mse": (lambda r: MSELoss(r), lambda d: (randn(4, 3, dtype=d), randn(4, 3, dtype=d)),
            lambda x, y: (x - y) ** 2),
    "smooth_l1": (lambda r: SmoothL1Loss(0.7, r),
                  lambda d: (randn(4, 3, dtype=d), randn(4, 3, dtype=d)),
                  lambda x, y: ref_smooth_l1(x, y, 0.7)),
    "bce": (lambda r: BCEWithLogitsLoss(r),
            lambda d: (randn(4, 3, dtype=d) * 3, RNG.uniform(size=(4, 3)).astype(d)),
            ref_bce),
    "bce_weighted": (
        lambda r: BCEWithLogitsLoss(r, Tensor(W3.astype(np.float32)),
                                    Tensor(P3.astype(np.float32))),
        lambda d: (randn(4, 3, dtype=d) * 3, RNG.uniform(size=(4, 3)).astype(d)),
        lambda x, y: ref_bce(x, y, W3.astype(np.float32), P3.astype(np.float32))),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("reduction", REDUCE)
@pytest.mark.parametrize("name", ELEMENTWISE)
def test_elementwise_losses_against_numpy(name, reduction, dtype, mode):
    context.set_context(mode=MODES[mode])
    make, inputs, formula = ELEMENTWISE[name]
    x, y = inputs(dtype)
    out = make(reduction)(Tensor(x), Tensor(y))
    want = REDUCE[reduction](formula(x.astype(np.float64), y.astype(np.float64)))
    assert out.dtype is mstype.pytype_to_dtype(dtype)
    assert out.shape == np.shape(want)
    tol = 1e-6 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(out.asnumpy(), want, rtol=tol * 10, atol=tol)


BCE_LOGITS = [[-0.8, 1.2, 0.7], [-0.1, -0.4, 0.7]]
BCE_LABELS = [[0.3, 0.8, 1.2], [-0.6, 0.1, 2.2]]


@pytest.mark.parametrize(("loss", "logits", "labels", "printed"), [
    # the examples of MindSpore 1.6's documentation
    (L1Loss(), [1, 2, 3], [1, 2, 2], 0.33333334),
    (MSELoss(), [1, 2, 3], [1, 1, 1], 1.6666667),
    (SmoothL1Loss(), [1, 2, 3], [1, 2, 2], [0, 0, 0.5]),
    (BCEWithLogitsLoss(), BCE_LOGITS, BCE_LABELS, 0.3463612),
    (BCEWithLogitsLoss("sum", Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, np.float32))),
     BCE_LOGITS, BCE_LABELS, 2.0781672),
    (BCEWithLogitsLoss("none"), BCE_LOGITS, BCE_LABELS,
     [[0.6111006, 0.5032824, 0.26318598], [0.58439666, 0.55301523, -0.436814]]),
])
def test_losses_print_mindspore_documented_values(loss, logits, labels, printed):
    context.set_context(mode=context.PYNATIVE_MODE)
    out = loss(Tensor(np.array(logits, np.float32)), Tensor(np.array(labels, np.float32)))
    np.testing.assert_allclose(out.asnumpy(), printed, rtol=1e-6)


def test_sparse_softmax_cross_entropy_documented_value():
    context.set_context(mode=context.PYNATIVE_MODE)
    logits = Tensor(np.array([[3, 5, 6, 9, 12, 33, 42, 12, 32, 72]], np.float32))
    out = SoftmaxCrossEntropyWithLogits(sparse=True)(logits, Tensor(np.array([1], np.int32)))
    assert out.shape == (1,) and out.asnumpy().tolist() == [67.0]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("reduction", REDUCE)
def test_softmax_cross_entropy_every_reduction(reduction, sparse, mode):
    context.set_context(mode=MODES[mode])
    logits = randn(5, 4, dtype=np.float32)
    classes = RNG.integers(0, 4, 5)
    onehot = np.eye(4, dtype=np.float32)[classes]
    labels = Tensor(classes.astype(np.int32)) if sparse else Tensor(onehot)
    out = SoftmaxCrossEntropyWithLogits(sparse, reduction)(Tensor(logits), labels)
    want = REDUCE[reduction](ref_softmax_ce(logits.astype(np.float64), onehot))
    assert out.shape == np.shape(want) and out.dtype is mstype.float32
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5)


def ref_nll(logits, labels, weight=None, ignore_index=-100):
    classes = logits.shape[1]
    w = np.ones(classes) if weight is None else weight
    moved = np.moveaxis(logits, 1, -1)
    counted = labels != ignore_index
    safe = np.where(counted, labels, 0)
    picked = np.take_along_axis(moved, safe[..., None], -1)[..., 0]
    w_t = w[safe] * counted
    return -picked * w_t, w_t


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("reduction", REDUCE)
@pytest.mark.parametrize("shape", [(5, 4), (3, 4, 2, 2)])
@pytest.mark.parametrize("weighted", [False, True])
def test_nll_loss_against_numpy(weighted, shape, reduction, mode):
    context.set_context(mode=MODES[mode])
    logits = randn(*shape)
    labels = RNG.integers(0, 4, (shape[0], *shape[2:]))
    labels.flat[0] = 1  # ignored below
    weight = np.abs(randn(4)) + 0.1 if weighted else None
    loss = NLLLoss(None if weight is None else Tensor(weight), ignore_index=1,
                   reduction=reduction)
    out = loss(Tensor(logits), Tensor(labels.astype(np.int32)))
    each, w_t = ref_nll(logits, labels, weight, ignore_index=1)
    want = each.sum() / w_t.sum() if reduction == "mean" else REDUCE[reduction](each)
    assert out.shape == np.shape(want) and out.dtype is mstype.float64
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-12)
    if reduction == "none":
        assert out.asnumpy().flat[0] == 0 and not np.signbit(out.asnumpy().flat[0])


def test_nll_loss_default_ignore_index_skips_minus_100():
    context.set_context(mode=context.PYNATIVE_MODE)
    logits = np.log(np.array([[0.2, 0.8], [0.6, 0.4], [0.5, 0.5]]))
    out = NLLLoss()(Tensor(logits), Tensor(np.array([1, -100, 0], np.int64)))
    assert float(out.asnumpy()) == pytest.approx(-(np.log(0.8) + np.log(0.5)) / 2)


# -- gradients by finite differences ----------------------------------------------------------
def check_loss_grad(loss, *inputs, eps=1e-6):
    """The gradients of ``sum(loss(*inputs) * sens)`` with respect to the float inputs, from
    GradOperation against central differences."""
    tensors = [Tensor(a) for a in inputs]
    out = loss(*tensors)
    sens = RNG.standard_normal(out.shape)
    grads = GradOperation(get_all=True, sens_param=True)(loss)(*tensors, Tensor(sens))
    for i, array in enumerate(inputs):
        if array.dtype.kind != "f":
            continue
        numeric = np.zeros_like(array)
        for index in np.ndindex(array.shape):
            values = []
            for step in (eps, -eps):
                moved = [a.copy() for a in inputs]
                moved[i][index] += step
                values.append(np.sum(loss(*map(Tensor, moved)).asnumpy() * sens))
            numeric[index] = (values[0] - values[1]) / (2 * eps)
        np.testing.assert_allclose(grads[i].asnumpy(), numeric, rtol=1e-6, atol=1e-8,
                                   err_msg=f"gradient of input {i}")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("reduction", REDUCE)
@pytest.mark.parametrize("name", ELEMENTWISE)
def test_elementwise_loss_gradients(name, reduction, mode):
    context.set_context(mode=MODES[mode])
    make, inputs, _ = ELEMENTWISE[name]
    check_loss_grad(make(reduction), *inputs(np.float64))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("reduction", REDUCE)
def test_nll_and_softmax_cross_entropy_gradients(reduction, mode):
    context.set_context(mode=MODES[mode])
    labels = RNG.integers(0, 3, (4, 2)).astype(np.int32)
    check_loss_grad(NLLLoss(Tensor(np.array([0.5, 1.0, 2.0])), ignore_index=2,
                            reduction=reduction), randn(4, 3, 2), labels)
    check_loss_grad(SoftmaxCrossEntropyWithLogits(reduction=reduction), randn(4, 3),
                    np.eye(3)[RNG.integers(0, 3, 4)])
    check_loss_grad(SoftmaxCrossEntropyWithLogits(True, reduction), randn(4, 3),
                    RNG.integers(0, 3, 4).astype(np.int32))


# -- base, wrappers, errors -------------------------------------------------------------------
def test_loss_base_reduces_weighted_losses_and_float16_in_float32():
    context.set_context(mode=context.PYNATIVE_MODE)

    class Weighted(LossBase):
        def construct(self, logits, labels):
            return self.get_loss(logits - labels, Tensor(np.array([1.0, 3.0], np.float32)))

    x, y = np.array([[1.0, 2.0]], np.float32), np.zeros((1, 2), np.float32)
    assert float(Weighted("sum")(Tensor(x), Tensor(y)).asnumpy()) == 7.0
    assert Weighted("none")(Tensor(x), Tensor(y)).asnumpy().tolist() == [[1.0, 6.0]]
    assert Weighted().get_axis(Tensor(x)) == (0, 1)
    big = np.array([60000, 60000, -60000, -60000], np.float16)  # partial sums exceed Float16
    zeros = Tensor(np.zeros(4, np.float16))
    for reduction in ("sum", "mean"):
        class Plain(LossBase):
            def construct(self, logits, labels):
                return self.get_loss(logits - labels)

        out = Plain(reduction)(Tensor(big), zeros)
        assert out.dtype is mstype.float16 and float(out.asnumpy()) == 0.0


class HalfDouble(nn.Cell):
    """``2 * x`` in Float16: a network computing in half precision."""

    def construct(self, x):
        return F.cast(F.mul(x, 2.0), mstype.float16)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("cast", [False, True])
def test_with_eval_cell_returns_loss_outputs_and_label(cast, mode):
    context.set_context(mode=MODES[mode])
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    label = np.ones((2, 3), np.float16)
    cell = WithEvalCell(HalfDouble(), MSELoss(), add_cast_fp32=cast)
    loss, outputs, got_label = cell(Tensor(data), Tensor(label))
    dtype = mstype.float32 if cast else mstype.float16
    assert outputs.dtype is dtype and got_label.dtype is dtype and loss.dtype is dtype
    np.testing.assert_allclose(outputs.asnumpy(), 2 * data)
    assert got_label.asnumpy().tolist() == label.tolist()
    assert float(loss.asnumpy()) == pytest.approx(((2 * data - 1) ** 2).mean(), rel=1e-3)
    int_label = Tensor(np.ones((2, 3), np.int32))
    assert WithEvalCell(HalfDouble(), L1Loss(),
                        add_cast_fp32=cast)(Tensor(data), int_label)[2].dtype is mstype.int32
    with pytest.raises(TypeError, match="WithEvalCell: add_cast_fp32 must be a bool"):
        WithEvalCell(HalfDouble(), MSELoss(), add_cast_fp32=1)


@pytest.mark.parametrize(("build", "error", "match"), [
    (lambda: MSELoss("avg"), ValueError,
     "MSELoss: reduction must be one of mean, sum, none, but got 'avg'"),
    (lambda: SmoothL1Loss(1), TypeError, "SmoothL1Loss: beta must be a float, but got int"),
    (lambda: SmoothL1Loss(0.0), ValueError, "SmoothL1Loss: beta must be > 0"),
    (lambda: BCEWithLogitsLoss(weight=Parameter(Tensor([1.0]), name="w")), TypeError,
     "BCEWithLogitsLoss: weight must be a Tensor, not a Parameter"),
    (lambda: BCEWithLogitsLoss(pos_weight=[1.0]), TypeError,
     "BCEWithLogitsLoss: pos_weight must be a Tensor, but got list"),
    (lambda: NLLLoss(Tensor(np.ones((2, 2), np.float32))), ValueError,
     "NLLLoss: weight must be 1-D"),
    (lambda: NLLLoss(ignore_index=1.0), TypeError, "NLLLoss: ignore_index must be an int"),
    (lambda: SoftmaxCrossEntropyWithLogits(sparse=1), TypeError, "sparse must be a bool"),
])
def test_bad_loss_arguments_are_named(build, error, match):
    with pytest.raises(error, match=match):
        build()


F32 = np.float32


@pytest.mark.parametrize(("loss", "logits", "labels", "error", "match"), [
    (SmoothL1Loss(), np.ones(3, F32), np.ones(2, F32), ValueError,
     r"SmoothL1Loss: logits and labels must have the same shape and dtype, but got logits "
     r"\[3\] Float32 and labels \[2\] Float32"),
    (BCEWithLogitsLoss(), np.ones(3, F32), np.ones(3, np.int32), TypeError,
     "BCEWithLogitsLoss: labels must have dtype in"),
    (BCEWithLogitsLoss(weight=Tensor(np.ones(4, F32))), np.ones((2, 3), F32),
     np.ones((2, 3), F32), ValueError, "BCEWithLogitsLoss: shapes .* cannot be broadcast"),
    (NLLLoss(), np.ones((2, 3), F32), np.ones(2, F32), TypeError,
     "NLLLoss: labels must have dtype in"),
    (NLLLoss(), np.ones((2, 3), F32), np.ones(3, np.int32), ValueError,
     r"NLLLoss: logits must be \(N, C\) or \(N, C, d1, ...\) and labels \(N\)"),
    (NLLLoss(Tensor(np.ones(2, F32))), np.ones((2, 3), F32), np.ones(2, np.int32), ValueError,
     r"NLLLoss: weight must have one value per class \(3\)"),
    (MSELoss(), [1.0], np.ones(1, F32), TypeError, "MSELoss: logits must be a Tensor"),
])
def test_bad_loss_inputs_are_named(loss, logits, labels, error, match):
    context.set_context(mode=context.PYNATIVE_MODE)
    logits = Tensor(logits) if isinstance(logits, np.ndarray) else logits
    with pytest.raises(error, match=match):
        loss(logits, Tensor(labels))
