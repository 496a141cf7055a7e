"""MindSpore 1.6 losses (values of MindSpore's documentation examples), optimizers (NumPy
replays of their update rules), metrics, initializers and the LearningRateScheduler."""

from __future__ import annotations

import numpy as np
import pytest

import ember as ms
from ember import Parameter, Tensor, context, nn
from ember.common.initializer import (
    Dirac,
    Identity,
    Orthogonal,
    Sparse,
    VarianceScaling,
    initializer,
)
from ember.train.callback import LearningRateScheduler, RunContext


@pytest.fixture(autouse=True)
def _pynative():
    context.set_context(mode=context.PYNATIVE_MODE)


def t(values, dtype=np.float32):
    return Tensor(np.array(values, dtype))


# -- losses: the examples of MindSpore 1.6's documentation ------------------------------------
def test_loss_values_of_mindspore_examples():
    focal = nn.FocalLoss(weight=t([1, 2]), gamma=2.0, reduction="mean")
    np.testing.assert_allclose(focal(t([[0.8, 1.4], [0.5, 0.9], [1.2, 0.9]]),
                                     t([[1], [1], [0]], np.int32)).asnumpy(), 0.12516622,
                               rtol=1e-6)
    bce = nn.BCELoss(weight=t([[1.0, 2.0, 3.0], [4.0, 3.3, 2.2]]), reduction="mean")
    np.testing.assert_allclose(bce(t([[0.1, 0.2, 0.3], [0.5, 0.7, 0.9]]),
                                   t([[0, 1, 0], [0, 0, 1]])).asnumpy(), 1.8952923, rtol=1e-6)
    np.testing.assert_allclose(nn.DiceLoss(smooth=1e-5)(t([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]),
                                                        t([[0, 1], [1, 0], [0, 1]])).asnumpy(),
                               0.38596618, rtol=1e-6)
    cosine = nn.CosineEmbeddingLoss()(t([[0.3, 0.8], [0.4, 0.3]]), t([[0.4, 1.2], [-0.4, -0.9]]),
                                      t([1, -1], np.int32))
    np.testing.assert_allclose(cosine.asnumpy(), 0.0003426075, rtol=1e-5)
    np.testing.assert_allclose(nn.RMSELoss()(t([1, 2, 3]), t([1, 2, 2])).asnumpy(), 0.57735026,
                               rtol=1e-6)
    np.testing.assert_allclose(nn.MAELoss()(t([1, 2, 3]), t([1, 2, 2])).asnumpy(), 0.33333334,
                               rtol=1e-6)
    multi = nn.MultiClassDiceLoss(weights=None, ignore_indiex=None, activation="softmax")
    np.testing.assert_allclose(multi(t([[0.2, 0.5, 0.7], [0.3, 0.1, 0.5], [0.9, 0.6, 0.3]]),
                                     t([[0, 1, 0], [1, 0, 0], [0, 0, 1]])).asnumpy(),
                               0.54958105, rtol=1e-6)
    soft_margin = nn.SoftMarginLoss()(t([[0.3, 0.7], [0.5, 0.5]]), t([[-1, 1], [1, -1]]))
    np.testing.assert_allclose(soft_margin.asnumpy(), 0.6764238, rtol=1e-6)


@pytest.mark.parametrize("call, error, match", [
    (lambda: nn.SoftMarginLoss("avg"), ValueError, "SoftMarginLoss: reduction must be one of"),
    (lambda: nn.SoftMarginLoss()(t([1.0, 2.0]), t([1.0])), ValueError, "SoftMarginLoss"),
    (lambda: nn.SoftMarginLoss()(t([1, 2], np.int32), t([1, 1], np.int32)), TypeError,
     "SoftMarginLoss: input 'logits' must have dtype"),
])
def test_soft_margin_loss_names_bad_inputs(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_focal_loss_takes_one_hot_labels_and_bce_defaults_to_none():
    logits = t([[0.8, 1.4], [0.5, 0.9], [1.2, 0.9]])
    by_index = nn.FocalLoss()(logits, t([[1], [1], [0]], np.int32))
    by_one_hot = nn.FocalLoss()(logits, t([[0, 1], [0, 1], [1, 0]]))
    np.testing.assert_allclose(by_index.asnumpy(), by_one_hot.asnumpy(), rtol=1e-6)
    assert nn.BCELoss()(t([0.5, 0.5]), t([1, 0])).shape == (2,)
    with pytest.raises(ValueError, match="FocalLoss: labels must be"):
        nn.FocalLoss()(logits, t([1, 1, 0], np.int32))


# -- optimizers: two steps against NumPy -------------------------------------------------------
W0 = np.array([1.0, -2.0, 3.0])
G = np.array([0.5, -1.0, 2.0])


def _two_steps(cls, **kwargs):
    p = Parameter(Tensor(W0.astype(np.float32)), "w")
    opt = cls([p], **kwargs)
    for _ in range(2):
        opt((Tensor(G.astype(np.float32)),))
    return p.asnumpy()


def _adagrad(lr=0.01, accum=0.1):
    a, w = np.full(3, accum), W0.copy()
    for _ in range(2):
        a += G * G
        w -= lr * G / np.sqrt(a)
    return w


def _proximal(lr=0.01, l1=0.1, l2=0.2):
    a, w = np.full(3, 0.1), W0.copy()
    for _ in range(2):
        a += G * G
        v = w - lr * G / np.sqrt(a)
        w = np.sign(v) * np.maximum(np.abs(v) - lr * l1, 0) / (1 + lr * l2)
    return w


def _rmsprop(lr=0.01, decay=0.9, momentum=0.5, eps=1e-10, centered=False):
    ms_, mom, mg, w = np.ones(3), np.zeros(3), np.zeros(3), W0.copy()
    for _ in range(2):
        ms_ = decay * ms_ + (1 - decay) * G * G
        mg = decay * mg + (1 - decay) * G
        mom = momentum * mom + lr * G / np.sqrt(ms_ - (mg * mg if centered else 0) + eps)
        w -= mom
    return w


def _ftrl(lr=0.01, l1=0.1, l2=0.05, power=-0.5):
    accum, linear, w = np.full(3, 0.1), np.zeros(3), W0.copy()
    for _ in range(2):
        n = accum + G * G
        linear += G - (n ** -power - accum ** -power) / lr * w
        quadratic = n ** -power / lr + 2 * l2
        w = np.where(np.abs(linear) > l1, (np.sign(linear) * l1 - linear) / quadratic, 0)
        accum = n
    return w


def _lamb(lr=0.01, b1=0.9, b2=0.999, eps=1e-6):
    m, v, w = np.zeros(3), np.zeros(3), W0.copy()
    for step in (1, 2):
        m = b1 * m + (1 - b1) * G
        v = b2 * v + (1 - b2) * G * G
        update = (m / (1 - b1 ** step)) / (np.sqrt(v / (1 - b2 ** step)) + eps)
        ratio = np.clip(np.linalg.norm(w) / np.linalg.norm(update), 0, 10)
        w = w - lr * ratio * update
    return w


@pytest.mark.parametrize("cls, kwargs, oracle", [
    (nn.Adagrad, {"learning_rate": 0.01}, _adagrad),
    (nn.ProximalAdagrad, {"learning_rate": 0.01, "l1": 0.1, "l2": 0.2}, _proximal),
    (nn.RMSProp, {"learning_rate": 0.01, "momentum": 0.5}, _rmsprop),
    (nn.RMSProp, {"learning_rate": 0.01, "momentum": 0.5, "centered": True},
     lambda: _rmsprop(centered=True)),
    (nn.FTRL, {"learning_rate": 0.01, "l1": 0.1, "l2": 0.05}, _ftrl),
    (nn.Lamb, {"learning_rate": 0.01}, _lamb),
])
def test_optimizer_updates_match_numpy(cls, kwargs, oracle):
    np.testing.assert_allclose(_two_steps(cls, **kwargs), oracle(), rtol=1e-5, atol=1e-6)


def test_optimizer_state_names_follow_mindspore():
    p = Parameter(Tensor(W0.astype(np.float32)), "w")
    assert [q.name for q in nn.RMSProp([p], centered=True).get_parameters()] == [
        "w", "learning_rate", "mean_square.w", "moment.w", "mean_grad.w"]
    assert [q.name for q in nn.FTRL([p]).get_parameters()] == [
        "w", "learning_rate", "moments.w", "linear.w"]
    assert nn.LazyAdam([p]).moment1[0].name == "moment1.w"


def test_lars_scales_the_gradient_by_the_trust_ratio():
    p = Parameter(Tensor(W0.astype(np.float32)), "w")
    bias = Parameter(Tensor(W0.astype(np.float32)), "fc.bias")
    opt = nn.LARS(nn.Momentum([p, bias], 0.1, 0.0, weight_decay=0.01), coefficient=0.001)
    opt((Tensor(G.astype(np.float32)),) * 2)
    w_norm, g_norm = np.linalg.norm(W0), np.linalg.norm(G)
    ratio = 0.001 * w_norm / (g_norm + 0.01 * w_norm + 1e-5)
    np.testing.assert_allclose(p.asnumpy(), W0 - 0.1 * ratio * (G + 0.01 * W0), rtol=1e-5)
    # filtered out: its gradient is left as it is, and LARS took over the weight decay
    np.testing.assert_allclose(bias.asnumpy(), W0 - 0.1 * G, rtol=1e-5)


def test_learning_rate_scheduler_callback():
    p = Parameter(Tensor(W0.astype(np.float32)), "w")
    opt = nn.Momentum([p], 0.1, 0.9)
    scheduler = LearningRateScheduler(lambda lr, step: lr * 0.5 if step % 2 == 0 else lr)
    from ember.train.callback import CallbackParams

    params = CallbackParams(optimizer=opt, cur_step_num=2)
    scheduler.step_end(RunContext(params))
    np.testing.assert_allclose(opt.learning_rate.asnumpy(), 0.05)
    with pytest.raises(TypeError, match="learning_rate_function must be callable"):
        LearningRateScheduler(0.1)


# -- metrics: the examples of MindSpore 1.6's documentation -----------------------------------
def test_metric_values_of_mindspore_examples():
    x = t([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]], np.float64)
    y = t([1, 0, 1], np.int64)
    f = nn.Fbeta(1)
    f.update(x, y)
    np.testing.assert_allclose(f.eval(), [0.66666667, 0.66666667])
    f1 = nn.F1()
    f1.update(x, y)
    np.testing.assert_allclose(f1.eval(average=True), 0.6666666666666666)
    dice = nn.Dice(smooth=1e-5)
    dice.update(x, t([[0, 1], [1, 0], [0, 1]]))
    np.testing.assert_allclose(dice.eval(), 0.20467791371802546)
    perplexity = nn.Perplexity(ignore_label=None)
    perplexity.update(x, y)
    np.testing.assert_allclose(perplexity.eval(), 2.231443166940565)
    similarity = nn.CosineSimilarity()
    similarity.update(np.array([[1, 3, 4, 7], [2, 4, 2, 5], [3, 1, 5, 8]]))
    np.testing.assert_allclose(similarity.eval(), [[0, 0.94025615, 0.95162452],
                                                   [0.94025615, 0, 0.86146098],
                                                   [0.95162452, 0.86146098, 0]], rtol=1e-7)
    matrix = nn.ConfusionMatrix(num_classes=2, normalize="no_norm", threshold=0.5)
    matrix.update(t([1, 0, 1, 0], np.int64), t([1, 0, 0, 1], np.int64))
    np.testing.assert_array_equal(matrix.eval(), [[1, 1], [1, 1]])
    roc = nn.ROC(pos_label=2)
    roc.update(t([3, 1, 4, 2], np.int64), t([0, 1, 2, 3], np.int64))
    fpr, tpr, thresholds = roc.eval()
    np.testing.assert_allclose(fpr, [0, 0, 1 / 3, 2 / 3, 1])
    np.testing.assert_allclose(tpr, [0, 1, 1, 1, 1])
    np.testing.assert_array_equal(thresholds, [5, 4, 3, 2, 1])
    np.testing.assert_allclose(nn.auc(fpr, tpr), 1.0)
    bleu = nn.BleuScore()
    bleu.update([["i", "have", "a", "pen", "on", "my", "desk"]],
                [[["i", "have", "a", "pen", "in", "my", "desk"],
                  ["there", "is", "a", "pen", "on", "the", "desk"]]])
    np.testing.assert_allclose(bleu.eval(), 0.5946035575013605)


def test_metrics_raise_before_update():
    for metric in (nn.F1(), nn.Dice(), nn.Perplexity(), nn.ConfusionMatrix(2), nn.ROC(),
                   nn.BleuScore(), nn.CosineSimilarity()):
        with pytest.raises(RuntimeError, match="must have at least one example"):
            metric.eval()


# -- initializers ------------------------------------------------------------------------------
def test_new_initializers():
    ms.set_seed(1)
    np.testing.assert_array_equal(initializer(Identity(), (2, 3)).asnumpy(), np.eye(2, 3))
    q = initializer(Orthogonal(gain=2.0), (3, 5)).asnumpy()
    np.testing.assert_allclose(q @ q.T, 4 * np.eye(3), atol=1e-5)
    kernel = initializer(Dirac(), (2, 2, 3, 3)).asnumpy()
    np.testing.assert_array_equal(kernel[:, :, 1, 1], np.eye(2))
    assert kernel.sum() == 2
    sparse = initializer(Sparse(0.5, sigma=1.0), (4, 6)).asnumpy()
    assert ((sparse == 0).sum(0) == 2).all()
    values = initializer(VarianceScaling(2.0, "fan_in", "untruncated_normal"),
                         (400, 200)).asnumpy()
    np.testing.assert_allclose(values.var(), 2.0 / 200, rtol=0.05)
    with pytest.raises(ValueError, match="Identity: needs a tensor of rank 2"):
        initializer("identity", (2, 2, 2))
