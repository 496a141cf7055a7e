"""The optimizers MindSpore 1.6 added to ``nn`` (ASGD, Rprop, AdaFactor) against NumPy
re-implementations of their update rules in float64, over several steps, in PyNative and
Graph mode, called directly and through a TrainOneStepCell."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Parameter, Tensor, context, nn
from ember.nn.wrap import TrainOneStepCell
from ember.ops import operations as P
from ember.ops.operations.math_ops import ReduceSum

MODES = {"pynative": context.PYNATIVE_MODE, "graph": context.GRAPH_MODE}
SHAPES = {"conv.weight": (2, 3), "conv.bias": (3,), "bn.gamma": (3,)}
DECAYS = (True, True, False)  # MindSpore's default filter: no decay on beta and gamma
STEPS = 5
EPS = Tensor(np.array([1e-30, 1e-3], np.float32))


def grads_for(step: int) -> list[np.ndarray]:
    rng = np.random.default_rng(100 + step)
    grads = [rng.standard_normal(shape).astype(np.float32) for shape in SHAPES.values()]
    if step == 2:  # an element whose gradient is 0: neither sign
        grads[1][0] = 0.0
    return grads


def initial() -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    return [rng.standard_normal(shape).astype(np.float32) for shape in SHAPES.values()]


class GradIsInput(nn.Cell):
    """``sum(p * g)`` over the parameters: the gradient of each parameter is its input."""

    def __init__(self, params: list[Parameter]) -> None:
        super().__init__()
        self.p0, self.p1, self.p2 = params
        self.sum = ReduceSum()

    def construct(self, g0, g1, g2):
        return self.sum(self.p0 * g0) + self.sum(self.p1 * g1) + self.sum(self.p2 * g2)


def run(make_optimizer, mode: str, via: str):
    """The parameters after each update, and the optimizer."""
    context.set_context(mode=MODES[mode])
    params = [Parameter(Tensor(v), name=n) for n, v in zip(SHAPES, initial())]
    opt = make_optimizer(params)
    train = TrainOneStepCell(GradIsInput(params), opt) if via == "train" else None
    history = []
    for step in range(STEPS):
        grads = [Tensor(g) for g in grads_for(step)]
        if train is None:
            opt(tuple(grads))
        else:
            train(*grads)
        history.append([p.asnumpy().copy() for p in params])
    return history, opt


def reference(update, state, weight_decay=0.0):
    """``update(step, i, param, grad, state_i)`` over the steps, from float64 copies of the
    initial parameters; each state starts as ``state(param)``. Returns the parameters after
    each step and the final states."""
    params = [p.astype(np.float64) for p in initial()]
    states = [state(p) for p in params]
    history = []
    for step in range(STEPS):
        for i, (g, decays) in enumerate(zip(grads_for(step), DECAYS)):
            g = g.astype(np.float64) + (weight_decay * params[i] if decays else 0.0)
            params[i] = update(step, params[i], g, states[i])
        history.append([p.copy() for p in params])
    return history, states


# -- ASGD ---------------------------------------------------------------------------------------
def ref_asgd(lr=0.1, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0):
    def update(step, p, g, s):
        t = step + 1  # MindSpore's step counts from 1
        eta = lr if t == 1 else s["eta"]
        p = p * (1 - lambd * eta) - eta * g
        s["ax"] = p if s["mu"] == 1 else s["ax"] + (p - s["ax"]) * s["mu"]
        s["eta"] = lr / (1 + lambd * lr * t) ** alpha
        s["mu"] = 1 / max(1.0, t - t0)
        return p

    return reference(update, lambda p: {"eta": 0.0, "mu": 1.0, "ax": np.zeros_like(p)},
                     weight_decay)


# -- Rprop --------------------------------------------------------------------------------------
def ref_rprop(lr=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.0), weight_decay=0.0):
    etaminus, etaplus = etas

    def update(step, p, g, s):
        size = np.full_like(p, lr) if step == 0 else s["size"]
        product = g * s["prev"]
        factor = np.where(product > 0, etaplus, np.where(product < 0, etaminus, 1.0))
        s["size"] = np.clip(size * factor, *step_sizes)
        g = np.where(product < 0, 0.0, g)
        s["prev"] = g
        return p - np.sign(g) * s["size"]

    return reference(update, lambda p: {"prev": np.zeros_like(p)}, weight_decay)


# -- AdaFactor ----------------------------------------------------------------------------------
def ref_adafactor(lr=None, eps=(1e-30, 1e-3), clip=1.0, decay_rate=0.8, beta1=0.9,
                  weight_decay=0.0, scale=True, warmup=False):
    eps1, eps2 = eps

    def rms(x):
        return np.sqrt(np.mean(x * x))

    def update(step, p, g, s):
        t = step + 1
        beta2t = 1 - t ** -decay_rate
        rate = min(1e-6 * t if warmup else 1e-2, 1 / np.sqrt(t)) if lr is None else lr
        u = g * g + eps1
        if p.ndim >= 2:  # factored: moving means of the rows and the columns
            s["row"] = beta2t * s.get("row", 0.0) + (1 - beta2t) * u.mean(-1)
            s["col"] = beta2t * s.get("col", 0.0) + (1 - beta2t) * u.mean(-2)
            v = np.outer(s["row"], s["col"]) / s["row"].mean()
        else:
            v = s["sq"] = beta2t * s.get("sq", 0.0) + (1 - beta2t) * u
        if scale:
            rate = rate * max(eps2, rms(p))
        step_ = g / np.sqrt(v)
        step_ = step_ * rate / max(1.0, rms(step_) / clip)
        if beta1:
            step_ = s["m"] = beta1 * s.get("m", 0.0) + (1 - beta1) * step_
        return p - step_ - weight_decay * rate * p

    return reference(update, lambda p: {})


CASES = {
    "asgd": (lambda ps: nn.ASGD(ps), ref_asgd()),
    "asgd_averaging_decay": (
        lambda ps: nn.ASGD(ps, 0.05, lambd=0.1, alpha=0.5, t0=2.0, weight_decay=0.01),
        ref_asgd(0.05, 0.1, 0.5, 2.0, 0.01)),
    "rprop": (lambda ps: nn.Rprop(ps), ref_rprop()),
    "rprop_clipped_decay": (
        lambda ps: nn.Rprop(ps, 0.05, etas=(0.3, 1.5), step_sizes=(0.02, 0.08),
                            weight_decay=0.01),
        ref_rprop(0.05, (0.3, 1.5), (0.02, 0.08), 0.01)),
    "adafactor": (lambda ps: nn.AdaFactor(ps), ref_adafactor()),
    "adafactor_warmup_decay": (
        lambda ps: nn.AdaFactor(ps, warmup_init=True, weight_decay=0.1, clip_threshold=0.5,
                                decay_rate=0.5),
        ref_adafactor(warmup=True, weight_decay=0.1, clip=0.5, decay_rate=0.5)),
    "adafactor_manual_lr": (
        lambda ps: nn.AdaFactor(ps, learning_rate=0.05, relative_step=False,
                                scale_parameter=False, beta1=None),
        ref_adafactor(lr=0.05, beta1=0.0, scale=False)),
}


@pytest.mark.parametrize("via", ["call", "train"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", CASES)
def test_updates_follow_mindspore_formulas(case, mode, via):
    make, (expected, _) = CASES[case]
    history, _ = run(make, mode, via)
    for step, (got, want) in enumerate(zip(history, expected)):
        for name, g, w in zip(SHAPES, got, want):
            np.testing.assert_allclose(g, w, rtol=2e-5, atol=1e-6,
                                       err_msg=f"{case}, step {step}, {name}")


@pytest.mark.parametrize("mode", MODES)
def test_asgd_averages_the_parameters_from_t0(mode):
    _, opt = run(CASES["asgd_averaging_decay"][0], mode, "call")
    _, states = CASES["asgd_averaging_decay"][1]
    for ax, state in zip(opt.ax, states):
        np.testing.assert_allclose(ax.asnumpy(), state["ax"], rtol=2e-5, atol=1e-6)
    assert opt.step.asnumpy() == STEPS + 1


def test_adafactor_factors_the_second_moment_of_matrices():
    params = [Parameter(Tensor(v), name=n) for n, v in zip(SHAPES, initial())]
    opt = nn.AdaFactor(params)
    assert [p.shape for p in opt.exp_avg_sq_row] == [(2,), (1,), (1,)]
    assert [p.shape for p in opt.exp_avg_sq_col] == [(3,), (1,), (1,)]
    assert [p.shape for p in opt.exp_avg_sq] == [(1,), (3,), (3,)]
    assert [p.name for p in opt.exp_avg] == [f"exp_avg.{n}" for n in SHAPES]
    assert opt.step.name == "afactor_step"


@pytest.mark.parametrize("call, error, match", [
    (lambda g, p, s: P.FusedAdaFactor(enable_first_moment=1), TypeError,
     "enable_first_moment must be a bool"),
    (lambda g, p, s: P.FusedAdaFactor()(Tensor(np.ones(3, np.float32)), 1.0, 0.9, 0.5, 0.0,
                                        0.1, g, p, *s), ValueError, "epsilon must hold 2"),
    (lambda g, p, s: P.FusedAdaFactor()(EPS, 1.0, 0.9, 0.5, 0.0, 0.1, g[:1], p, *s),
     ValueError, "grad has shape"),
    (lambda g, p, s: P.FusedAdaFactor()(EPS, 1.0, 0.9, 0.5, 0.0, 0.1, g, p, s[0], s[2], s[1],
                                        s[3]), ValueError, r"exp_avg_sq_row must have shape"),
    (lambda g, p, s: P.FusedAdaFactor()(EPS, 1.0, 0.9, 0.5, 0.0, 0.1, g, g, *s),
     TypeError, "param must be a Parameter"),
])
def test_fused_ada_factor_names_bad_inputs(call, error, match):
    g = Tensor(np.ones((2, 3), np.float32))
    p = Parameter(Tensor(np.ones((2, 3), np.float32)), "p")
    states = [Parameter(Tensor(np.zeros(shape, np.float32)), f"s{i}")
              for i, shape in enumerate([(2, 3), (2,), (3,), (1,)])]
    with pytest.raises(error, match=match):
        call(g, p, states)


@pytest.mark.parametrize("mode", MODES)
def test_fused_ada_factor_takes_epsilon_as_a_pair_of_floats(mode):
    context.set_context(mode=MODES[mode])
    p = Parameter(Tensor(np.ones((2, 3), np.float32)), "p")
    states = [Parameter(Tensor(np.zeros(shape, np.float32)), f"s{i}")
              for i, shape in enumerate([(2, 3), (2,), (3,), (1,)])]
    P.FusedAdaFactor()((1e-30, 1e-3), 1.0, 0.9, 0.8, 0.0, 0.03, Tensor(np.ones((2, 3),
                       np.float32)), p, *states)
    # a constant gradient: every element of the step is alike, its root mean square is clipped
    # to 1, so each element moves by lr
    np.testing.assert_allclose(p.asnumpy(), np.full((2, 3), 0.97), rtol=1e-6)


def test_state_parameters_have_mindspore_names():
    params = [Parameter(Tensor(v), name=n) for n, v in zip(SHAPES, initial())]
    names = [p.name for p in nn.ASGD(params).get_parameters()][len(SHAPES):]
    assert names == ["learning_rate", *(f"mu_{n}" for n in SHAPES),
                     *(f"eta_{n}" for n in SHAPES), "step", *(f"ax_.{n}" for n in SHAPES)]
    names = [p.name for p in nn.Rprop(params).get_parameters()][len(SHAPES):]
    assert names == ["learning_rate", *(f"prev.{n}" for n in SHAPES),
                     *(f"step_size.{n}" for n in SHAPES), "step"]


@pytest.mark.parametrize("build, error, match", [
    (lambda ps: nn.ASGD(ps, lambd=1), TypeError, "ASGD: lambd must be a float"),
    (lambda ps: nn.ASGD(ps, t0=10), TypeError, "ASGD: t0 must be a float"),
    (lambda ps: nn.ASGD(ps, weight_decay=-1.0), ValueError, "weight_decay"),
    (lambda ps: nn.Rprop(ps, etas=[0.5, 1.2]), TypeError, "Rprop: etas must be a tuple"),
    (lambda ps: nn.Rprop(ps, etas=(0.5,)), ValueError, "Rprop: etas must be a tuple of 2"),
    (lambda ps: nn.Rprop(ps, step_sizes=(1.0, 0.1)), ValueError, "maximal step size"),
    (lambda ps: nn.Rprop(ps, etas=(1.0, 1.2)), ValueError, r"etaminus must be in \(0.0"),
    (lambda ps: nn.Rprop(ps, etas=(0.5, 1.0)), ValueError, "etaplus must be greater than 1"),
    (lambda ps: nn.Rprop(ps, etas=(0.5, 2)), TypeError, "etaplus must be a float"),
    (lambda ps: nn.AdaFactor(ps, learning_rate=0.1), ValueError, "relative_step"),
    (lambda ps: nn.AdaFactor(ps, relative_step=False), ValueError, "learning_rate must be"),
    (lambda ps: nn.AdaFactor(ps, 0.1, relative_step=False, warmup_init=True), ValueError,
     "warmup_init requires relative_step"),
    (lambda ps: nn.AdaFactor(ps, eps=1e-30), TypeError, "eps must be a list or tuple"),
    (lambda ps: nn.AdaFactor(ps, eps=(1e-30,)), ValueError, "eps must have 2 values"),
    (lambda ps: nn.AdaFactor(ps, eps=(1e-30, -1.0)), ValueError, "eps1 must be >= 0"),
    (lambda ps: nn.AdaFactor(ps, decay_rate=1.0), ValueError, "decay_rate must be a float in"),
    (lambda ps: nn.AdaFactor(ps, weight_decay=1.0), ValueError, r"weight_decay must be in"),
    (lambda ps: nn.AdaFactor(ps, compression=1), TypeError, "compression must be a bool"),
])
def test_bad_arguments_are_named(build, error, match):
    params = [Parameter(Tensor(v), name=n) for n, v in zip(SHAPES, initial())]
    with pytest.raises(error, match=match):
        build(params)


# -- the update primitives 1.6 added: the values printed in MindSpore's documentation ----------
def _held(*rows):
    return [Parameter(Tensor(np.array(r, np.float32)), f"s{i}") for i, r in enumerate(rows)]


def _f32(values):
    return Tensor(np.array(values, np.float32))


DOCUMENTED = {
    "ApplyKerasMomentum": (
        lambda s: P.ApplyKerasMomentum()(*s, _f32(0.001), _f32([[0.3, 0.2], [0.4, 0.1]]),
                                         _f32(0.99)),
        _held([[0.2, 0.3], [0.1, 0.4]], [[0.2, 0.3], [0.1, 0.4]]),
        [[[0.3977, 0.5968], [0.1986, 0.7959]], [[0.1977, 0.2968], [0.0986, 0.3959]]]),
    "ApplyAdamWithAmsgrad": (
        lambda s: P.ApplyAdamWithAmsgrad(0.1, 0.1, 0.001)(
            *s, _f32(0.3), _f32(0.3), _f32(0.3), _f32([[0.3, 0.2], [0.4, 0.1]])),
        _held(*[[[0.2, 0.3], [0.1, 0.4]]] * 4),
        [[[-3.19985598e-02, 1.62773281e-01], [-2.37216085e-01, 3.26413274e-01]],
         [[0.29, 0.21], [0.37, 0.13]], [[0.101, 0.066], [0.154, 0.049]],
         [[0.2, 0.3], [0.154, 0.4]]]),
    "SparseApplyRMSProp": (
        lambda s: P.SparseApplyRMSProp(0.2, 0.01, 1e-6)(
            *s, 0.01, _f32([[0.3, 0.7], [0.1, 0.8]]), Tensor(np.array([0, 1], np.int32))),
        _held([[0.6, 0.3], [0.1, 0.5]], [[0.2, 0.4], [0.1, 0.3]], [[0.3, 0.1], [0.3, 0.6]]),
        [[[5.88035822e-01, 2.88811117e-01], [9.10239667e-02, 4.83422279e-01]],
         [[0.112, 0.472], [0.028, 0.572]],
         [[1.19641740e-02, 1.11888833e-02], [8.97603668e-03, 1.65777095e-02]]]),
    "SparseApplyAdadelta": (
        lambda s: P.SparseApplyAdadelta(1e-6)(
            *s, 0.01, 0.2, _f32([[0.3, 0.7], [0.1, 0.8]]), Tensor(np.array([0, 1], np.int32))),
        _held([[1.0, 2.0], [2.0, 3.0]], [[1.5, 2.5], [3.5, 4.5]], [[1.2, 2.4], [1.8, 0.6]]),
        [[[9.94611859e-01, 1.98851788e+00], [1.99840558e+00, 2.99478507e+00]],
         [[0.372, 0.892], [0.708, 1.412]],
         [[4.72257614e-01, 1.53470778e+00], [3.80338937e-01, 3.37563992e-01]]]),
}


@pytest.mark.parametrize("name", DOCUMENTED)
def test_update_primitives_print_mindspore_documented_values(name):
    call, states, printed = DOCUMENTED[name]
    out = call(states)
    for got, want in zip(out, printed, strict=True):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("build, error, match", [
    (lambda: P.ApplyKerasMomentum(use_nesterov=1), TypeError, "use_nesterov must be a bool"),
    (lambda: P.ApplyAdamWithAmsgrad(0.9, "0.999", 1e-8), TypeError, "beta2 must be a float"),
    (lambda: P.SparseApplyRMSProp(1.5, 0.0, 1e-6), ValueError, r"'rho' must be in \[0.0, 1.0\]"),
    (lambda: P.SparseApplyRMSProp(0.9, -0.1, 1e-6), ValueError, "momentum must be >= 0"),
    (lambda: P.SparseApplyRMSProp(0.9, 0.0, 0.0), ValueError, "'epsilon' > 0"),
    (lambda: P.SparseApplyAdadelta(-1e-6), ValueError, "epsilon must be >= 0"),
])
def test_update_primitives_name_bad_attributes(build, error, match):
    with pytest.raises(error, match=match):
        build()
