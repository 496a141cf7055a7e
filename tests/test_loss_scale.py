"""Loss scaling: the managers, the update cells, TrainOneStepWithLossScaleCell (overflow skips
the update in both modes) and the FloatStatus overflow check."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from ember import Parameter, Tensor, context, nn
from ember.common import dtype as mstype
from ember.nn.loss import MSELoss
from ember.nn.optim import Adam, Momentum
from ember.nn.wrap import (
    DynamicLossScaleUpdateCell,
    FixedLossScaleUpdateCell,
    TrainOneStepCell,
    TrainOneStepWithLossScaleCell,
    WithLossCell,
)
from ember.ops import functional as F
from ember.ops.operations.optim_ops import FloatStatus
from ember.train.loss_scale_manager import (
    DynamicLossScaleManager,
    FixedLossScaleManager,
    LossScaleManager,
)

MODES = {"pynative": context.PYNATIVE_MODE, "graph": context.GRAPH_MODE}
X = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4) * 100
Y = np.ones((3, 2), np.float32)


class Linear(nn.Cell):
    """``x @ w`` in ``dtype``: the weight is Float32, the computation Float16 when asked."""

    def __init__(self, dtype=mstype.float32) -> None:
        super().__init__()
        self.w = Parameter(Tensor(np.linspace(-0.5, 0.5, 8, dtype=np.float32).reshape(4, 2)),
                           name="w")
        self.dtype = dtype

    def construct(self, x):
        return F.matmul(F.cast(x, self.dtype), F.cast(self.w, self.dtype))


class HalfMSE(nn.Cell):
    def construct(self, logits, labels):
        return F.reduce_mean(F.square(F.sub(logits, F.cast(labels, logits.dtype))), ())


# -- managers ---------------------------------------------------------------------------------
def test_fixed_manager_keeps_its_scale_and_makes_the_fixed_cell():
    manager = FixedLossScaleManager()
    assert manager.get_loss_scale() == 128.0 and manager.get_drop_overflow_update() is True
    manager.update_loss_scale(True)
    assert manager.get_loss_scale() == 128.0
    cell = manager.get_update_cell()
    assert isinstance(cell, FixedLossScaleUpdateCell) and cell.get_loss_scale() == 128.0
    assert FixedLossScaleManager(1024, False).get_update_cell() is None
    assert isinstance(manager, LossScaleManager)


def dynamic_reference(overflows, scale, factor, window):
    """The dynamic rule written out: halve (not below 1) on overflow, grow after ``window``
    clean steps in a row."""
    scales, clean = [], 0
    for overflow in overflows:
        if overflow:
            scale, clean = max(scale / factor, 1), 0
        else:
            clean += 1
            if clean == window:
                scale, clean = scale * factor, 0
        scales.append(scale)
    return scales


OVERFLOWS = [False, False, True, False, False, False, False, True, True, False, False, False]


def test_dynamic_manager_follows_the_dynamic_rule():
    manager = DynamicLossScaleManager(64, 2, 3)
    got = []
    for overflow in OVERFLOWS:
        manager.update_loss_scale(overflow)
        got.append(manager.get_loss_scale())
    assert got == dynamic_reference(OVERFLOWS, 64, 2, 3)
    assert manager.get_drop_overflow_update() is True
    defaults = DynamicLossScaleManager()
    assert (defaults.get_loss_scale(), defaults.scale_factor, defaults.scale_window) == (
        2 ** 24, 2, 2000)
    cell = defaults.get_update_cell()
    assert isinstance(cell, DynamicLossScaleUpdateCell) and cell.get_loss_scale() == 2 ** 24


def test_dynamic_manager_gives_up_after_too_many_overflows_in_a_row():
    manager = DynamicLossScaleManager(2, 2, 10)
    for _ in range(manager.bad_step_max):
        manager.update_loss_scale(True)
    assert manager.get_loss_scale() == 1
    with pytest.raises(RuntimeError, match="overflowed 1001 steps in a row"):
        manager.update_loss_scale(True)


@pytest.mark.parametrize(("build", "error", "match"), [
    (lambda: FixedLossScaleManager(0.5), ValueError,
     "FixedLossScaleManager: loss_scale must be >= 1"),
    (lambda: FixedLossScaleManager(128, 1), TypeError, "drop_overflow_update must be a bool"),
    (lambda: DynamicLossScaleManager(0.5), ValueError, "init_loss_scale must be >= 1"),
    (lambda: DynamicLossScaleManager(scale_factor=0), ValueError, "scale_factor must be > 0"),
    (lambda: DynamicLossScaleManager(scale_window=0), ValueError, "scale_window must be > 0"),
    (lambda: DynamicLossScaleManager(scale_window=2.0), TypeError,
     "scale_window must be an int"),
    (lambda: DynamicLossScaleUpdateCell(-1.0, 2, 10), ValueError,
     "DynamicLossScaleUpdateCell: loss_scale_value must be > 0"),
    (lambda: DynamicLossScaleUpdateCell(8.0, 2, 0), ValueError,
     "scale_window must be an int >= 1"),
    (lambda: FixedLossScaleUpdateCell("8"), TypeError, "loss_scale_value must be a number"),
])
def test_bad_loss_scale_arguments_are_named(build, error, match):
    with pytest.raises(error, match=match):
        build()


# -- update cells -----------------------------------------------------------------------------
class ScaleHolder(nn.Cell):
    """Holds the scale Parameter and calls the update cell with it, as the training step does
    (in GRAPH_MODE this is compiled whole)."""

    def __init__(self, update, scale) -> None:
        super().__init__()
        self.update = update
        self.scale = Parameter(Tensor(scale), name="scale")

    def construct(self, overflow):
        return self.update(self.scale, overflow)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape", [(), (1,)])
def test_dynamic_update_cell_follows_the_dynamic_rule(shape, mode):
    context.set_context(mode=MODES[mode])
    cell = DynamicLossScaleUpdateCell(64.0, 2, 3)
    holder = ScaleHolder(cell, np.full(shape, 64.0, np.float32))
    got = []
    for overflow in OVERFLOWS:
        out = holder(Tensor(overflow))
        assert bool(out.asnumpy()) is overflow
        got.append(float(holder.scale.asnumpy().reshape(())))
    assert got == dynamic_reference(OVERFLOWS, 64.0, 2, 3)
    assert cell.cur_iter.asnumpy() == len(OVERFLOWS) + 1
    fresh = DynamicLossScaleUpdateCell(64.0, 2, 3)
    assert [p.name for p in fresh.get_parameters()] == ["current_iterator_step",
                                                        "last_overflow_iterator_step"]


@pytest.mark.parametrize("mode", MODES)
def test_update_cells_keep_scale_at_least_one_and_fixed_never_changes(mode):
    context.set_context(mode=MODES[mode])
    dynamic = ScaleHolder(DynamicLossScaleUpdateCell(3.0, 2, 100), np.float32(3.0))
    for _ in range(3):
        dynamic(Tensor(True))
    assert float(dynamic.scale.asnumpy()) == 1.0
    fixed = ScaleHolder(FixedLossScaleUpdateCell(3.0), np.float32(3.0))
    for _ in range(3):
        assert bool(fixed(Tensor(np.array([True]))).asnumpy()) is True
    assert float(fixed.scale.asnumpy()) == 3.0


def test_update_cells_need_a_boolean_overflow():
    context.set_context(mode=context.PYNATIVE_MODE)
    scale = Parameter(Tensor(3.0), name="scale")
    with pytest.raises(TypeError, match="DynamicLossScaleUpdateCell: overflow must be a Bool "
                                        r"Tensor of one element, but got shape \[\], dtype "
                                        "Float32"):
        DynamicLossScaleUpdateCell(3.0, 2, 100)(scale, Tensor(1.0))
    with pytest.raises(TypeError, match="FixedLossScaleUpdateCell: overflow must be a Bool"):
        FixedLossScaleUpdateCell(3.0)(scale, True)


# -- the training step ------------------------------------------------------------------------
def train_steps(mode, make_cell, steps, dtype=mstype.float32, x=X):
    context.set_context(mode=MODES[mode])
    net = Linear(dtype)
    loss = WithLossCell(net, HalfMSE() if dtype is mstype.float16 else MSELoss())
    opt = Adam(net.trainable_params(), [0.1, 0.05, 0.02, 0.01, 0.01, 0.01])
    cell = make_cell(loss, opt)
    outputs = []
    for _ in range(steps):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # an overflow is reported, not warned about
            loss_value, cond, scale = cell(Tensor(x), Tensor(Y))
        outputs.append((float(loss_value.asnumpy()), bool(cond.asnumpy()),
                        float(scale.asnumpy().reshape(())), net.w.asnumpy().copy(),
                        [p.asnumpy().copy() for p in opt.get_parameters()]))
    return outputs, cell, opt


def plain_steps(mode, steps):
    context.set_context(mode=MODES[mode])
    net = Linear()
    opt = Adam(net.trainable_params(), [0.1, 0.05, 0.02, 0.01, 0.01, 0.01])
    step = TrainOneStepCell(WithLossCell(net, MSELoss()), opt)
    return [(float(step(Tensor(X), Tensor(Y)).asnumpy()), net.w.asnumpy().copy())
            for _ in range(steps)]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("sense", ["tensor", "fixed", "dynamic"])
def test_without_overflow_it_trains_as_the_plain_step(sense, mode):
    make = {
        "tensor": lambda n, o: TrainOneStepWithLossScaleCell(n, o, Tensor([1024.0])),
        "fixed": lambda n, o: TrainOneStepWithLossScaleCell(n, o, FixedLossScaleUpdateCell(64)),
        "dynamic": lambda n, o: TrainOneStepWithLossScaleCell(
            n, o, DynamicLossScaleUpdateCell(2.0 ** 10, 2, 2)),
    }[sense]
    outputs, _, opt = train_steps(mode, make, 4)
    expected = plain_steps(mode, 4)
    scales = {"tensor": [1024.0] * 4, "fixed": [64.0] * 4,
              "dynamic": [2.0 ** 10, 2.0 ** 10, 2.0 ** 11, 2.0 ** 11]}[sense]
    for (loss, cond, scale, weight, _), (want_loss, want_weight), want_scale in zip(
            outputs, expected, scales):
        assert cond is False and scale == want_scale
        assert loss == pytest.approx(want_loss, rel=1e-6)
        np.testing.assert_allclose(weight, want_weight, rtol=1e-5, atol=1e-7)
    assert opt.global_step.asnumpy().tolist() == [4]


@pytest.mark.parametrize("mode", MODES)
def test_overflow_skips_the_update_and_lowers_the_scale(mode):
    # 2 ** 127 times gradients in the thousands is beyond Float32: the first step overflows
    def make(n, o):
        return TrainOneStepWithLossScaleCell(n, o, DynamicLossScaleUpdateCell(
            2.0 ** 127, 2.0 ** 64, 1000))

    outputs, cell, opt = train_steps(mode, make, 3)
    context.set_context(mode=context.PYNATIVE_MODE)
    initial = Adam(Linear().trainable_params(), [0.1, 0.05, 0.02, 0.01, 0.01, 0.01])
    start = [p.asnumpy() for p in initial.get_parameters()]
    loss, cond, scale, weight, state = outputs[0]
    assert cond is True and scale == 2.0 ** 127
    for got, want in zip(state, start):  # weights, moments, step, beta powers: untouched
        np.testing.assert_array_equal(got, want)
    expected = plain_steps(mode, 2)
    for (loss, cond, scale, weight, _), (want_loss, want_weight) in zip(outputs[1:], expected):
        assert cond is False and scale == 2.0 ** 63
        assert loss == pytest.approx(want_loss, rel=1e-6)
        np.testing.assert_allclose(weight, want_weight, rtol=1e-5, atol=1e-7)
    assert float(cell.scale_sense.asnumpy()) == 2.0 ** 63
    assert opt.global_step.asnumpy().tolist() == [2]
    np.testing.assert_allclose(opt.beta1_power.asnumpy(), [0.81], rtol=1e-6)


@pytest.mark.parametrize("mode", MODES)
def test_float16_network_overflows_until_the_scale_fits(mode):
    def make(n, o):
        return TrainOneStepWithLossScaleCell(n, o, DynamicLossScaleUpdateCell(
            2.0 ** 24, 2, 1000))

    outputs, _, _ = train_steps(mode, make, 12, mstype.float16, X / 100)
    conds = [o[1] for o in outputs]
    scales = [o[2] for o in outputs]
    first = conds.index(False)
    assert first > 0 and all(conds[:first]) and not any(conds[first:])
    assert scales[:first + 1] == [2.0 ** (24 - i) for i in range(first + 1)]
    assert scales[first] < 65504  # the scale itself must fit Float16
    start = Linear().w.asnumpy()
    for _, _, _, weight, _ in outputs[:first]:
        np.testing.assert_array_equal(weight, start)
    assert not np.array_equal(outputs[first][3], start)


def test_both_modes_give_the_same_steps():
    def make(n, o):
        return TrainOneStepWithLossScaleCell(n, o, DynamicLossScaleUpdateCell(
            2.0 ** 127, 2.0 ** 60, 2))

    pynative, _, _ = train_steps("pynative", make, 5)
    graph, _, _ = train_steps("graph", make, 5)
    for a, b in zip(pynative, graph):
        assert a[:3] == b[:3]
        np.testing.assert_allclose(a[3], b[3], rtol=1e-6)


def test_set_sense_scale_and_bad_scale_sense():
    context.set_context(mode=context.PYNATIVE_MODE)
    net = Linear()
    loss = WithLossCell(net, MSELoss())
    opt = Momentum(net.trainable_params(), 0.1, 0.9)
    cell = TrainOneStepWithLossScaleCell(loss, opt, Tensor(8.0))
    cell.set_sense_scale(Tensor(16.0))
    assert float(cell(Tensor(X), Tensor(Y))[2].asnumpy()) == 16.0
    assert cell.scale_sense.name == "scale_sense"
    with pytest.raises(TypeError, match="set_sense_scale takes a Tensor, but got float"):
        cell.set_sense_scale(2.0)
    with pytest.raises(ValueError, match=r"scale_sense must have shape \(\) or \(1,\), but got "
                                         r"\[2\]"):
        TrainOneStepWithLossScaleCell(loss, opt, Tensor([1.0, 2.0]))
    with pytest.raises(TypeError, match="scale_sense must be a Cell .* or a Tensor, but got "
                                        "float"):
        TrainOneStepWithLossScaleCell(loss, opt, 1024.0)


# -- FloatStatus ------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_float_status_flags_infinities_and_nans(dtype, mode):
    context.set_context(mode=MODES[mode])
    status = FloatStatus()
    for values, flag in (([1.0, -2.0], 0), ([1.0, np.inf], 1), ([-np.inf, 0.0], 1),
                         ([np.nan, 0.0], 1)):
        out = status(Tensor(np.array(values, dtype)))
        assert out.shape == (1,) and out.dtype is mstype.pytype_to_dtype(dtype)
        assert out.asnumpy().tolist() == [flag]
    with pytest.raises(TypeError, match="FloatStatus: input 'x' must have dtype in"):
        status(Tensor(np.array([1, 2], np.int32)))


class _ScaledStep(TrainOneStepCell):
    """MindSpore 1.6's programming guide: a subclass that scales the loss by ``sens`` through
    the inherited ``grad``, ``weights`` and ``grad_reducer``, and divides the gradients back."""

    def __init__(self, network, optimizer, sens):
        super().__init__(network, optimizer, sens)
        self.reciprocal_sense = Tensor(1 / sens, mstype.float32)

    def construct(self, *inputs):
        loss = self.network(*inputs)
        sens = F.fill(loss.dtype, loss.shape, self.sens)
        grads = self.grad(self.network, self.weights)(*inputs, sens)
        grads = tuple(g * F.cast(self.reciprocal_sense, F.dtype(g)) for g in grads)
        grads = self.grad_reducer(grads)
        return F.depend(loss, self.optimizer(grads))


@pytest.mark.parametrize("mode", MODES)
def test_a_subclass_built_on_the_inherited_grad_trains_as_the_plain_step(mode):
    context.set_context(mode=MODES[mode])
    net = Linear()
    opt = Adam(net.trainable_params(), [0.1, 0.05, 0.02, 0.01, 0.01, 0.01])
    step = _ScaledStep(WithLossCell(net, MSELoss()), opt, 1024.0)
    assert step.reducer_flag is False
    got = [(float(step(Tensor(X), Tensor(Y)).asnumpy()), net.w.asnumpy().copy())
           for _ in range(3)]
    for (loss, weight), (want_loss, want_weight) in zip(got, plain_steps(mode, 3)):
        assert loss == pytest.approx(want_loss, rel=1e-5)
        np.testing.assert_allclose(weight, want_weight, rtol=1e-5, atol=1e-6)
