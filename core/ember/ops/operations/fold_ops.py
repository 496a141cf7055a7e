"""Batch-norm folding primitives of MindSpore 1.6's ``_quant_ops``: the statistics a
quantization-aware convolution folds into its weights (BatchNormFold), the correction of the
folded weights (CorrectionMul) and of the output (BatchNormFold2), with the backward
primitives their gradients are written with. Channels are axis 1 of ``x`` (N, C, ...).

``global_step`` is an int32 tensor of shape (1,): from step ``freeze_bn`` on, the folding
uses the running statistics instead of the batch's. Each primitive writes its formula once
with an array namespace ``xp`` (NumPy or TensorFlow's), which the backends' kernels call.
"""

from __future__ import annotations

from typing import Any

from ember._autodiff import needs_grad
from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops._rules import check_tensor
from ember.ops.operations.nn_ops import (
    _FLOAT,
    _check_bool,
    _check_fraction,
    _check_inputs,
    _check_int,
)
from ember.ops.operations.optim_ops import _check_variable
from ember.ops.operations.quant_ops import along
from ember.ops.primitive import Primitive, Spec

__all__ = ["BatchNormFold", "BatchNormFold2", "BatchNormFold2Grad", "BatchNormFoldGrad",
           "CorrectionMul", "CorrectionMulGrad", "CorrectionMulGradReduce"]


def _check_channels(op: str, x: Tensor, axis: int, **vectors: Tensor) -> None:
    if x.ndim <= axis:
        raise ValueError(f"{op}: 'x' must have rank > {axis}, but got shape {list(x.shape)}")
    for name, v in vectors.items():
        if v.shape != (x.shape[axis],):
            raise ValueError(f"{op}: '{name}' must have shape [{x.shape[axis]}] (x's channel "
                             f"axis {axis}, of x of shape {list(x.shape)}), but got "
                             f"{list(v.shape)}")


def _check_step(op: str, global_step: Any) -> None:
    check_tensor(op, "global_step", global_step, (mstype.int32,))
    if global_step.ndim != 1:
        raise ValueError(f"{op}: 'global_step' must have rank 1, but got shape "
                         f"{list(global_step.shape)}")


def _zeros(*tensors: Tensor) -> tuple:
    return tuple(F.zeros_like(t) if needs_grad(t) else None for t in tensors)


def _others(ndim: int, axis: int = 1) -> tuple[int, ...]:
    return tuple(i for i in range(ndim) if i != axis)


class _Freezing(Primitive):
    def __init__(self, freeze_bn: int = 0) -> None:
        super().__init__()
        self.freeze_bn = _check_int(self.name, "freeze_bn", freeze_bn, None)

    def frozen(self, global_step: Any) -> Any:
        """Whether ``global_step`` (an array of either namespace) has reached ``freeze_bn``:
        a boolean array of shape ()."""
        return global_step[0] >= self.freeze_bn


# -- BatchNormFold --------------------------------------------------------------------------
class _BatchNormFoldBase(_Freezing):
    def __init__(self, epsilon: float = 1e-5, is_training: bool = True,
                 freeze_bn: int = 0) -> None:
        super().__init__(freeze_bn)
        op = self.name
        if isinstance(epsilon, bool) or not isinstance(epsilon, float):
            raise TypeError(f"{op}: 'epsilon' must be a float, but got {epsilon!r}")
        if epsilon <= 0:
            raise ValueError(f"{op}: 'epsilon' must be > 0, but got {epsilon}")
        self.epsilon = epsilon
        self.is_training = _check_bool(op, "is_training", is_training)

    def folding(self, global_step: Any) -> Any:
        """Whether this step folds the batch's statistics (training, before ``freeze_bn``)."""
        return (global_step[0] < self.freeze_bn) if self.is_training else False


class BatchNormFoldGrad(_BatchNormFoldBase):
    """The gradient of BatchNormFold's batch mean and std with respect to ``x``:
    ``BatchNormFoldGrad(epsilon=1e-5, is_training=True, freeze_bn=0)(d_batch_mean,
    d_batch_std, x, batch_mean, batch_std, global_step)`` is ``(d_batch_mean + d_batch_std *
    (x - batch_mean) / batch_std) / n`` (n the values per channel), 0 when not folding."""

    def infer(self, d_batch_mean: Any, d_batch_std: Any, x: Any, batch_mean: Any,
              batch_std: Any, global_step: Any) -> Spec:
        names = ("x", "d_batch_mean", "d_batch_std", "batch_mean", "batch_std")
        _check_inputs(self.name, names, (x, d_batch_mean, d_batch_std, batch_mean, batch_std),
                      shape=False)
        _check_channels(self.name, x, 1, d_batch_mean=d_batch_mean, d_batch_std=d_batch_std,
                        batch_mean=batch_mean, batch_std=batch_std)
        _check_step(self.name, global_step)
        return x.shape, x.dtype

    def backward(self, xp: Any, d_mean: Any, d_std: Any, x: Any, mean: Any, std: Any,
                 global_step: Any) -> Any:
        n, ndim = _size(x.shape) // int(x.shape[1]), len(x.shape)
        centered = x - along(xp, mean, 1, ndim)
        dx = (along(xp, d_mean, 1, ndim) + along(xp, d_std / std, 1, ndim) * centered) / n
        return xp.where(self.folding(global_step), dx, 0 * dx)


def _size(shape: Any) -> int:
    size = 1
    for n in shape:
        size *= int(n)
    return size


class BatchNormFold(_BatchNormFoldBase):
    """The statistics a quantization-aware convolution folds into its weights:
    ``BatchNormFold(momentum=0.9, epsilon=1e-5, is_training=True, freeze_bn=0)(x, mean,
    variance, global_step)`` -> (batch_mean, batch_std, running_mean, running_std).

    When folding (training, before ``freeze_bn``): the batch's mean and ``sqrt(variance +
    epsilon)`` over all axes but 1; the Parameters ``mean`` and ``variance`` are updated in
    place to ``momentum * old + (1 - momentum) * batch`` (the batch's unbiased variance).
    Otherwise the batch outputs are 0 and 1 and nothing is updated. ``running_mean`` and
    ``running_std`` are ``mean`` and ``sqrt(variance + epsilon)`` before the update."""

    pure = False
    updates_parameters = True

    def __init__(self, momentum: float = 0.9, epsilon: float = 1e-5, is_training: bool = True,
                 freeze_bn: int = 0) -> None:
        super().__init__(epsilon, is_training, freeze_bn)
        self.momentum = _check_fraction(self.name, "momentum", momentum, zero_ok=True)

    def infer(self, x: Any, mean: Any, variance: Any, global_step: Any) -> list[Spec]:
        op = self.name
        _check_inputs(op, ("x", "mean", "variance"), (x, mean, variance), shape=False)
        _check_channels(op, x, 1, mean=mean, variance=variance)
        _check_step(op, global_step)
        if self.is_training:
            _check_variable(op, mean, "mean")
            _check_variable(op, variance, "variance")
        return [(mean.shape, x.dtype)] * 4

    def statistics(self, xp: Any, x: Any, mean: Any, variance: Any) -> tuple:
        """(batch mean, batch std, new mean, new variance) of a folding step."""
        axes = _others(len(x.shape))
        n = _size(x.shape) // int(x.shape[1])
        batch_mean = xp.mean(x, axis=axes)
        batch_var = xp.mean((x - along(xp, batch_mean, 1, len(x.shape))) ** 2, axis=axes)
        m = self.momentum
        return (batch_mean, xp.sqrt(batch_var + self.epsilon),
                m * mean + (1 - m) * batch_mean,
                m * variance + (1 - m) * batch_var * (n / max(n - 1, 1)))

    def bprop(self, x: Tensor, mean: Tensor, variance: Tensor, global_step: Tensor,
              out: tuple, dout: tuple) -> tuple:
        grad = self._derived(BatchNormFoldGrad, self.epsilon, self.is_training, self.freeze_bn)
        return (grad(dout[0], dout[1], x, out[0], out[1], global_step),
                *_zeros(mean, variance), None)


# -- CorrectionMul --------------------------------------------------------------------------
class _Correction(Primitive):
    def __init__(self, channel_axis: int = 0) -> None:
        super().__init__()
        self.channel_axis = _check_int(self.name, "channel_axis", channel_axis, 0)


class CorrectionMulGrad(_Correction):
    """The gradients of CorrectionMul: ``CorrectionMulGrad(channel_axis=0)(dout, x,
    batch_std, running_std)`` -> (dx, d_batch_std): ``dout * batch_std / running_std`` and
    the sum of ``dout * x`` over all axes but ``channel_axis``, divided by running_std."""

    def infer(self, dout: Any, x: Any, batch_std: Any, running_std: Any) -> list[Spec]:
        _check_inputs(self.name, ("dout", "x"), (dout, x))
        _check_inputs(self.name, ("x", "batch_std", "running_std"), (x, batch_std, running_std),
                      shape=False)
        _check_channels(self.name, x, self.channel_axis, batch_std=batch_std,
                        running_std=running_std)
        return [(x.shape, x.dtype), (batch_std.shape, batch_std.dtype)]

    def backward(self, xp: Any, dout: Any, x: Any, batch_std: Any, running_std: Any) -> tuple:
        axis, ndim = self.channel_axis, len(x.shape)
        dx = dout * along(xp, batch_std / running_std, axis, ndim)
        return dx, xp.sum(dout * x, axis=_others(ndim, axis)) / running_std


class CorrectionMul(_Correction):
    """Scale ``x`` by ``batch_std / running_std`` along ``channel_axis``, so that folded
    weights follow the running statistics: ``CorrectionMul(channel_axis=0)(x, batch_std,
    running_std)``."""

    def infer(self, x: Any, batch_std: Any, running_std: Any) -> Spec:
        _check_inputs(self.name, ("x", "batch_std", "running_std"), (x, batch_std, running_std),
                      shape=False)
        _check_channels(self.name, x, self.channel_axis, batch_std=batch_std,
                        running_std=running_std)
        return x.shape, x.dtype

    def forward(self, xp: Any, x: Any, batch_std: Any, running_std: Any) -> Any:
        return x * along(xp, batch_std / running_std, self.channel_axis, len(x.shape))

    def bprop(self, x: Tensor, batch_std: Tensor, running_std: Tensor, out: Tensor,
              dout: Tensor) -> tuple:
        dx, d_batch_std = self._derived(CorrectionMulGrad, self.channel_axis)(
            dout, x, batch_std, running_std)
        return (dx, d_batch_std, *_zeros(running_std))


class CorrectionMulGradReduce(_Correction):
    """The sum of ``mul_dx`` over all axes but ``channel_axis``:
    ``CorrectionMulGradReduce(channel_axis=0)(mul_dx)`` (the second half of CorrectionMul's
    gradient of batch_std where the first half leaves the products unsummed)."""

    def infer(self, mul_dx: Any) -> Spec:
        check_tensor(self.name, "mul_dx", mul_dx, _FLOAT)
        _check_channels(self.name, mul_dx, self.channel_axis)
        return (mul_dx.shape[self.channel_axis],), mul_dx.dtype

    def forward(self, xp: Any, mul_dx: Any) -> Any:
        return xp.sum(mul_dx, axis=_others(len(mul_dx.shape), self.channel_axis))


# -- BatchNormFold2 -------------------------------------------------------------------------
_FOLD2 = ("gamma", "batch_std", "batch_mean", "running_std", "running_mean")


class BatchNormFold2Grad(_Freezing):
    """The gradients of BatchNormFold2: ``BatchNormFold2Grad(freeze_bn=0)(dout, x, gamma,
    batch_std, batch_mean, running_std, running_mean, global_step)`` -> (d_batch_std,
    d_batch_mean, d_beta, d_gamma, dx); after ``freeze_bn``, d_batch_std and d_batch_mean
    are 0."""

    def infer(self, dout: Any, x: Any, *rest: Any) -> list[Spec]:
        *vectors, global_step = rest
        _check_inputs(self.name, ("dout", "x"), (dout, x))
        _check_inputs(self.name, ("x", *_FOLD2), (x, *vectors), shape=False)
        _check_channels(self.name, x, 1, **dict(zip(_FOLD2, vectors)))
        _check_step(self.name, global_step)
        return [(vectors[0].shape, x.dtype)] * 4 + [(x.shape, x.dtype)]

    def backward(self, xp: Any, dout: Any, x: Any, gamma: Any, batch_std: Any,
                 batch_mean: Any, running_std: Any, running_mean: Any,
                 global_step: Any) -> tuple:
        axes, ndim, frozen = _others(len(x.shape)), len(x.shape), self.frozen(global_step)
        d_beta = xp.sum(dout, axis=axes)
        d_batch_std = (d_beta * gamma * batch_mean
                       - xp.sum(dout * x, axis=axes) * running_std) / batch_std / batch_std
        zeros = 0 * d_beta
        return (xp.where(frozen, zeros, d_batch_std),
                xp.where(frozen, zeros, -d_beta * gamma / batch_std), d_beta,
                -d_beta * xp.where(frozen, running_mean / running_std, batch_mean / batch_std),
                xp.where(frozen, dout, dout * along(xp, running_std / batch_std, 1, ndim)))


class BatchNormFold2(_Freezing):
    """The folded convolution's output corrected to the running statistics:
    ``BatchNormFold2(freeze_bn=0)(x, beta, gamma, batch_std, batch_mean, running_std,
    running_mean, global_step)`` is ``x * running_std / batch_std + beta - gamma *
    batch_mean / batch_std`` per channel before ``freeze_bn``, then ``x + beta - gamma *
    running_mean / running_std``."""

    def infer(self, x: Any, beta: Any, *rest: Any) -> Spec:
        *vectors, global_step = rest
        names = ("beta", *_FOLD2)
        _check_inputs(self.name, ("x", *names), (x, beta, *vectors), shape=False)
        _check_channels(self.name, x, 1, **dict(zip(names, (beta, *vectors))))
        _check_step(self.name, global_step)
        return x.shape, x.dtype

    def forward(self, xp: Any, x: Any, beta: Any, gamma: Any, batch_std: Any,
                batch_mean: Any, running_std: Any, running_mean: Any, global_step: Any) -> Any:
        frozen = self.frozen(global_step)
        scale = xp.where(frozen, 1 + 0 * running_std, running_std / batch_std)
        shift = beta - gamma * xp.where(frozen, running_mean / running_std,
                                        batch_mean / batch_std)
        ndim = len(x.shape)
        return x * along(xp, scale, 1, ndim) + along(xp, shift, 1, ndim)

    def bprop(self, x: Tensor, beta: Tensor, gamma: Tensor, batch_std: Tensor,
              batch_mean: Tensor, running_std: Tensor, running_mean: Tensor,
              global_step: Tensor, out: Tensor, dout: Tensor) -> tuple:
        grad = self._derived(BatchNormFold2Grad, self.freeze_bn)
        d_batch_std, d_batch_mean, d_beta, d_gamma, dx = grad(
            dout, x, gamma, batch_std, batch_mean, running_std, running_mean, global_step)
        return (dx, d_beta, d_gamma, d_batch_std, d_batch_mean,
                *_zeros(running_std, running_mean), None)
