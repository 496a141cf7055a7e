"""Normalization primitives of MindSpore's ``nn_ops``: LayerNorm, L2Normalize and LRN, each
beside the backward primitive its gradient is written with. (BatchNorm lives in ``nn_ops``.)
"""

from __future__ import annotations

from typing import Any

from ember.common.tensor import Tensor
from ember.communication.management import GlobalComm, get_group_size
from ember.ops import functional as F
from ember.ops._rules import check_tensor, normalize_axis
from ember.ops.operations.nn_ops import (
    _FLOAT,
    BatchNorm,
    BatchNormGrad,
    _check_choice,
    _check_inputs,
    _check_int,
    _check_rank,
)
from ember.ops.primitive import Primitive, Spec

__all__ = ["L2Normalize", "LRN", "LayerNorm"]


def _check_axis_attr(op: str, name: str, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{op}: '{name}' must be an int, but got {value!r}")
    return value


def _begin(op: str, name: str, axis: int, x: Tensor) -> int:
    """``axis`` of ``x`` as a non-negative axis, where [-rank, rank) is accepted."""
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"{op}: '{name}' must be in [{-x.ndim}, {x.ndim}) for x of shape "
                         f"{list(x.shape)}, but got {axis}")
    return axis % x.ndim


class _LayerNormBase(Primitive):
    def __init__(self, begin_norm_axis: int = 1, begin_params_axis: int = 1,
                 epsilon: float = 1e-7) -> None:
        super().__init__()
        op = self.name
        self.begin_norm_axis = _check_axis_attr(op, "begin_norm_axis", begin_norm_axis)
        self.begin_params_axis = _check_axis_attr(op, "begin_params_axis", begin_params_axis)
        if not isinstance(epsilon, float):
            raise TypeError(f"{op}: 'epsilon' must be a float, but got {epsilon!r}")
        self.epsilon = epsilon

    def axes(self, x: Tensor) -> tuple[int, int]:
        """(begin_norm_axis, begin_params_axis) as non-negative axes of ``x``."""
        return (_begin(self.name, "begin_norm_axis", self.begin_norm_axis, x),
                _begin(self.name, "begin_params_axis", self.begin_params_axis, x))

    def _check_params(self, x: Tensor, **params: Tensor) -> tuple[int, ...]:
        """The statistics' shape, after checking the parameters against ``x``."""
        norm, begin = self.axes(x)
        for name, p in params.items():
            if p.shape != x.shape[begin:]:
                raise ValueError(f"{self.name}: '{name}' must have shape "
                                 f"{list(x.shape[begin:])} (x's shape from begin_params_axis "
                                 f"{self.begin_params_axis}), but got {list(p.shape)}")
        return x.shape[:norm] + (1,) * (x.ndim - norm)

    def _check_backward(self, x: Tensor, dy: Tensor, variance: Tensor, mean: Tensor,
                        gamma: Tensor) -> None:
        """Check LayerNormGrad's inputs: ``dy`` like ``x``; the statistics and ``gamma`` of
        LayerNorm's shapes for ``x``."""
        _check_inputs(self.name, ("x", "dy"), (x, dy))
        _check_inputs(self.name, ("x", "variance", "mean", "gamma"), (x, variance, mean, gamma),
                      shape=False)
        stats = self._check_params(x, gamma=gamma)
        for name, t in (("variance", variance), ("mean", mean)):
            if t.shape != stats:
                raise ValueError(f"{self.name}: '{name}' must have shape {list(stats)}, but got "
                                 f"{list(t.shape)}")


class LayerNorm(_LayerNormBase):
    """Layer normalization over the axes from ``begin_norm_axis`` on, scaled by ``gamma`` and
    shifted by ``beta`` of shape ``x.shape[begin_params_axis:]``:
    ``LayerNorm(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7)(x, gamma, beta)`` ->
    (y, mean, variance); the statistics keep the normalized axes with size 1."""

    def infer(self, x: Any, gamma: Any, beta: Any) -> list[Spec]:
        _check_inputs(self.name, ("x", "gamma", "beta"), (x, gamma, beta), shape=False)
        stats = (self._check_params(x, gamma=gamma, beta=beta), x.dtype)
        return [(x.shape, x.dtype), stats, stats]

    def bprop(self, x: Tensor, gamma: Tensor, beta: Tensor, out: tuple, dout: tuple) -> tuple:
        grad = self._derived(LayerNormGrad, self.begin_norm_axis, self.begin_params_axis,
                             self.epsilon)
        return grad(x, dout[0], out[2], out[1], gamma)


class LayerNormGrad(_LayerNormBase):
    """The gradients of LayerNorm's ``y`` from the statistics it used:
    ``LayerNormGrad(begin_norm_axis=1, begin_params_axis=1)(x, dy, variance, mean, gamma)``
    -> (dx, dgamma, dbeta)."""

    def infer(self, x: Any, dy: Any, variance: Any, mean: Any, gamma: Any) -> list[Spec]:
        self._check_backward(x, dy, variance, mean, gamma)
        return [(x.shape, x.dtype), (gamma.shape, gamma.dtype), (gamma.shape, gamma.dtype)]

    def bprop(self, x: Tensor, dy: Tensor, variance: Tensor, mean: Tensor, gamma: Tensor,
              out: tuple, dout: tuple) -> tuple:
        grad = self._derived(LayerNormGradGrad, self.begin_norm_axis, self.begin_params_axis,
                             self.epsilon)
        d_x, d_dy, d_gamma = grad(x, dy, variance, mean, gamma, *dout)
        return d_x, d_dy, F.zeros_like(variance), F.zeros_like(mean), d_gamma


class LayerNormGradGrad(_LayerNormBase):
    """The gradient of LayerNormGrad: its outputs' gradients ``(grad_dx, grad_dg, grad_db)``
    carried back to ``x`` (with the mean and variance as functions of ``x``), ``dy`` and
    ``gamma``: ``LayerNormGradGrad(begin_norm_axis=1, begin_params_axis=1)(x, dy, variance,
    mean, gamma, grad_dx, grad_dg, grad_db)`` -> (d_x, d_dy, d_gamma)."""

    def infer(self, x: Any, dy: Any, variance: Any, mean: Any, gamma: Any, grad_dx: Any,
              grad_dg: Any, grad_db: Any) -> list[Spec]:
        self._check_backward(x, dy, variance, mean, gamma)
        _check_inputs(self.name, ("x", "grad_dx"), (x, grad_dx))
        _check_inputs(self.name, ("gamma", "grad_dg", "grad_db"), (gamma, grad_dg, grad_db))
        return [(x.shape, x.dtype), (dy.shape, dy.dtype), (gamma.shape, gamma.dtype)]

    def backward(self, xp: Any, x: Any, dy: Any, variance: Any, mean: Any, gamma: Any,
                 grad_dx: Any, grad_dg: Any, grad_db: Any) -> tuple:
        """(d_x, d_dy, d_gamma), written with an array namespace ``xp``. With r the inverse
        standard deviation, x_hat the normalized x, g = dy * gamma and <.> the mean over the
        normalized axes, LayerNormGrad's dx is P(g) for the self-adjoint
        P(v) = r (v - <v> - x_hat <x_hat v>), and x_hat varies with x as P."""
        norm = tuple(range(self.begin_norm_axis % x.ndim, x.ndim))
        outer = tuple(range(x.ndim - gamma.ndim))

        def avg(t: Any) -> Any:
            return xp.mean(t, axis=norm, keepdims=True)

        def project(v: Any) -> Any:
            return r * (v - avg(v) - x_hat * avg(x_hat * v))

        r = (variance + self.epsilon) ** -0.5
        x_hat = (x - mean) * r
        g = dy * gamma
        a_hat, g_hat = avg(grad_dx * x_hat), avg(g * x_hat)
        inner = avg(grad_dx * g) - avg(g) * avg(grad_dx) - g_hat * a_hat  # <a, dx> / r
        d_x = (project(grad_dg * dy - r * (a_hat * g + g_hat * grad_dx))
               - r * r * inner * x_hat)
        pa = project(grad_dx)
        return d_x, gamma * pa + grad_dg * x_hat + grad_db, xp.sum(dy * pa, axis=outer)


class _L2NormalizeBase(Primitive):
    def __init__(self, axis: int | tuple[int] | list[int] = 0, epsilon: float = 1e-4) -> None:
        super().__init__()
        op = self.name
        axes = [axis] if isinstance(axis, int) and not isinstance(axis, bool) else axis
        if (not isinstance(axes, tuple | list) or len(axes) != 1
                or not isinstance(axes[0], int) or isinstance(axes[0], bool)):
            raise TypeError(f"{op}: 'axis' must be an int or a tuple/list of one int, but got "
                            f"{axis!r}")
        self.axis = tuple(axes)
        if isinstance(epsilon, bool) or not isinstance(epsilon, int | float):
            raise TypeError(f"{op}: 'epsilon' must be a float, but got {epsilon!r}")
        self.epsilon = float(epsilon)

    def check_axis(self, x: Tensor) -> int:
        return normalize_axis(self.name, self.axis[0], x.ndim)[0]


class L2Normalize(_L2NormalizeBase):
    """``x / sqrt(max(sum(x ** 2, axis), epsilon))``:
    ``L2Normalize(axis=0, epsilon=1e-4)(x)``."""

    def infer(self, x: Any) -> Spec:
        check_tensor(self.name, "x", x, _FLOAT)
        self.check_axis(x)
        return x.shape, x.dtype

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        grad = self._derived(L2NormalizeGrad, self.axis, self.epsilon)
        return (grad(x, out, dout),)


class L2NormalizeGrad(_L2NormalizeBase):
    """The gradient of L2Normalize: ``L2NormalizeGrad(axis, epsilon)(x, out, dout)``."""

    def infer(self, x: Any, out: Any, dout: Any) -> Spec:
        _check_inputs(self.name, ("x", "out", "dout"), (x, out, dout))
        self.check_axis(x)
        return x.shape, x.dtype


class _LRNBase(Primitive):
    def __init__(self, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0,
                 beta: float = 0.5) -> None:
        super().__init__()
        op = self.name
        self.depth_radius = _check_int(op, "depth_radius", depth_radius, 0)
        for name, value in (("bias", bias), ("alpha", alpha), ("beta", beta)):
            if not isinstance(value, float):
                raise TypeError(f"{op}: '{name}' must be a float, but got {value!r}")
        self.bias, self.alpha, self.beta = bias, alpha, beta

    def window_sum(self, xp: Any, a: Any) -> Any:
        """The sum of NCHW ``a`` over the channels c - r .. c + r, for each channel c, as a
        difference of cumulative sums (written with an array namespace ``xp``)."""
        r, channels = self.depth_radius, a.shape[1]
        total = xp.cumsum(xp.pad(a, [(0, 0), (r + 1, r), (0, 0), (0, 0)], mode="constant"),
                          axis=1)
        return total[:, 2 * r + 1:2 * r + 1 + channels] - total[:, :channels]

    def scale(self, xp: Any, x: Any) -> Any:
        """``bias + alpha * window_sum(x ** 2)``."""
        return self.bias + self.alpha * self.window_sum(xp, x * x)


class LRN(_LRNBase):
    """Local response normalization across channels of NCHW ``x``: ``x / (bias + alpha *
    sum(x ** 2 over the 2 * depth_radius + 1 nearest channels)) ** beta``:
    ``LRN(depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS")(x)``."""

    def __init__(self, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0,
                 beta: float = 0.5, norm_region: str = "ACROSS_CHANNELS") -> None:
        super().__init__(depth_radius, bias, alpha, beta)
        self.norm_region = _check_choice(self.name, "norm_region", norm_region,
                                         ("ACROSS_CHANNELS",))

    def infer(self, x: Any) -> Spec:
        check_tensor(self.name, "x", x, _FLOAT)
        _check_rank(self.name, "x", x, (4,))
        return x.shape, x.dtype

    def bprop(self, x: Tensor, out: Tensor, dout: Tensor) -> tuple:
        grad = self._derived(LRNGrad, self.depth_radius, self.bias, self.alpha, self.beta)
        return (grad(dout, x, out),)

    def forward(self, xp: Any, x: Any) -> Any:
        return x * self.scale(xp, x) ** -self.beta


class LRNGrad(_LRNBase):
    """The gradient of LRN: ``LRNGrad(depth_radius, bias, alpha, beta)(grads, x, y)``."""

    def infer(self, grads: Any, x: Any, y: Any) -> Spec:
        _check_inputs(self.name, ("grads", "x", "y"), (grads, x, y))
        _check_rank(self.name, "x", x, (4,))
        return x.shape, x.dtype

    def backward(self, xp: Any, grads: Any, x: Any) -> Any:
        """``grads * s ** -beta - 2 alpha beta x * window_sum(grads * x * s ** (-beta - 1))``,
        the window sum over the same channels (a window is symmetric)."""
        s = self.scale(xp, x)
        window = self.window_sum(xp, grads * x * s ** (-self.beta - 1))
        return grads * s ** -self.beta - 2 * self.alpha * self.beta * x * window


# -- MindSpore's cross-device batch normalization (``_inner_ops``, ``_grad_ops``) -----------
def _check_group(op: str, group: Any, device_num: Any) -> None:
    if not isinstance(group, str):
        raise TypeError(f"{op}: 'group' must be a str, but got {group!r}")
    _check_int(op, "device_num", device_num, 2)


class SyncBatchNorm(BatchNorm):
    """BatchNorm in training mode whose statistics are those of the whole batch spread over
    the ``device_num`` devices of ``group``: ``SyncBatchNorm(epsilon=1e-5, momentum=0.1,
    group="sync_bn_group0", device_num=2)(x, scale, bias, mean, variance)``, outputs as
    ``BatchNorm``'s. Ember runs it on one device, where the group's statistics are the local
    batch's; in a launch of several processes it raises, pointing to ``nn.SyncBatchNorm``
    (whose statistics are all-reduced over the group)."""

    def __init__(self, epsilon: float = 1e-5, momentum: float = 0.1,
                 group: str = "sync_bn_group0", device_num: int = 2) -> None:
        super().__init__(True, epsilon, momentum)
        _check_group(self.name, group, device_num)
        self.group, self.device_num = group, device_num
        self._grad = SyncBatchNormGrad(epsilon, group, device_num)

    def infer(self, *args: Any) -> list[Spec]:
        if GlobalComm.INITED and get_group_size() > 1:
            raise RuntimeError(f"{self.name}: ember runs it on one device only, but this launch "
                               f"has {get_group_size()} processes; use nn.SyncBatchNorm")
        return super().infer(*args)


class SyncBatchNormGrad(BatchNormGrad):
    """SyncBatchNorm's gradients, as ``BatchNormGrad(is_training=True)``'s on one device:
    ``SyncBatchNormGrad(epsilon=1e-5, group="sync_bn_group0", device_num=2)(dy, x, scale,
    save_mean, save_variance)`` -> (dx, dscale, dbias)."""

    def __init__(self, epsilon: float = 1e-5, group: str = "sync_bn_group0",
                 device_num: int = 2) -> None:
        super().__init__(True, epsilon)
        _check_group(self.name, group, device_num)
        self.group, self.device_num = group, device_num
