"""MindSpore's fused optimizer primitives of ``inner_ops`` (the host-side updates its CPU
optimizers call): ``FusedAdaFactor``.

As the primitives of ``apply_ops``, each writes its rule once, as ``update(xp, *inputs)``
returning the new values of the Parameters it changes, ``xp`` an array namespace (NumPy on
the CPU backend, ``tf.experimental.numpy`` on the GPU backend) on float32 arrays (the
hyperparameters at the positions ``hyper`` as 0-d arrays), as MindSpore's kernels compute;
the backends write its results into the Parameters at the positions ``written``.
"""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops._rules import check_tensor
from ember.ops.operations.optim_ops import (
    _check_bools,
    _check_like,
    _check_scalars,
    _check_variable,
    _Update,
)
from ember.ops.primitive import Spec

__all__ = ["FusedAdaFactor"]

#: the floor of MindSpore's FusedAdaFactor kernel under the second moments and their factors
_TINY = 1e-30


def _rms(xp: Any, x: Any) -> Any:
    return xp.sqrt(xp.mean(x * x))


class FusedAdaFactor(_Update):
    """One Adafactor step of ``param`` (Shazeer and Stern, 2018), in place:
    ``FusedAdaFactor(enable_scale_parameter=False, enable_first_moment=False,
    enable_weight_decay=False)(epsilon, clip_threshold, beta1, beta2t, weight_decay,
    learning_rate, grad, param, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq)``.

    With ``u = grad ** 2 + epsilon[0]``: a parameter of rank >= 2 keeps the moving means of
    ``u`` over its last axis (``exp_avg_sq_row``, shape ``param.shape[:-1]``) and over its
    second-to-last (``exp_avg_sq_col``), and ``update = grad / (sqrt(row / mean(row)) *
    sqrt(col))``; a vector keeps the moving mean of ``u`` itself (``exp_avg_sq``) and
    ``update = grad / sqrt(exp_avg_sq)`` (moving means with weight ``beta2t`` on the old
    value). The learning rate is scaled by ``max(epsilon[1], rms(param))`` where
    ``enable_scale_parameter``; ``update *= lr / max(1, rms(update) / clip_threshold)``;
    with ``enable_first_moment`` it is averaged into ``exp_avg`` (weight ``beta1``), and
    ``param -= update`` (``+ weight_decay * lr * param`` where ``enable_weight_decay``).
    The states a parameter does not use are placeholders left as they are. Returns the
    updated ``param``."""

    hyper, written = (1, 2, 3, 4, 5), (7, 8, 9, 10, 11)  # scalar inputs; updated inputs

    def __init__(self, enable_scale_parameter: bool = False, enable_first_moment: bool = False,
                 enable_weight_decay: bool = False) -> None:
        super().__init__()
        _check_bools(self.name, enable_scale_parameter=enable_scale_parameter,
                     enable_first_moment=enable_first_moment,
                     enable_weight_decay=enable_weight_decay)
        self.enable_scale_parameter = enable_scale_parameter
        self.enable_first_moment = enable_first_moment
        self.enable_weight_decay = enable_weight_decay

    def prepare(self, args: tuple) -> tuple:
        epsilon = args[0]  # as MindSpore, the pair may be a tuple or list of two numbers
        if isinstance(epsilon, tuple | list) and all(
                isinstance(e, int | float) and not isinstance(e, bool) for e in epsilon):
            return (Tensor(epsilon, mstype.float32), *args[1:])
        return args

    def infer(self, epsilon: Any, clip_threshold: Any, beta1: Any, beta2t: Any,
              weight_decay: Any, learning_rate: Any, grad: Any, param: Any, exp_avg: Any,
              exp_avg_sq_row: Any, exp_avg_sq_col: Any, exp_avg_sq: Any) -> Spec:
        op = self.name
        check_tensor(op, "epsilon", epsilon, mstype.float_type)
        if epsilon.size != 2:
            raise ValueError(f"{op}: epsilon must hold 2 values (eps1, eps2), but has shape "
                             f"{list(epsilon.shape)}")
        _check_scalars(op, clip_threshold=clip_threshold, beta1=beta1, beta2t=beta2t,
                       weight_decay=weight_decay, learning_rate=learning_rate)
        check_tensor(op, "param", _check_variable(op, param, "param"), mstype.float_type)
        _check_like(op, "grad", grad, param)
        shape = param.shape
        factored = len(shape) >= 2
        used = {"exp_avg": shape if self.enable_first_moment else None,
                "exp_avg_sq_row": shape[:-1] if factored else None,
                "exp_avg_sq_col": shape[:-2] + shape[-1:] if factored else None,
                "exp_avg_sq": None if factored else shape}
        for name, state in zip(used, (exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq)):
            check_tensor(op, name, _check_variable(op, state, name), mstype.float_type)
            if used[name] is not None and state.shape != used[name]:
                raise ValueError(f"{op}: {name} must have shape {list(used[name])} for param "
                                 f"of shape {list(shape)}, but got {list(state.shape)}")
        return shape, param.dtype

    def update(self, xp: Any, epsilon: Any, clip_threshold: Any, beta1: Any, beta2t: Any,
               weight_decay: Any, lr: Any, grad: Any, param: Any, exp_avg: Any, row: Any,
               col: Any, sq: Any) -> tuple:
        """The new (param, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq), from float32
        arrays and 0-d hyperparameters (``epsilon`` a pair)."""
        eps1, eps2 = epsilon[0], epsilon[1]
        u = grad * grad + eps1
        if param.ndim >= 2:
            row = row * beta2t + xp.mean(u, axis=-1) * (1 - beta2t)
            mean_row = xp.maximum(xp.mean(row, axis=-1, keepdims=True), _TINY)
            col = xp.maximum(col * beta2t + xp.mean(u, axis=-2) * (1 - beta2t), _TINY)
            norm = xp.sqrt(row / mean_row)[..., :, None] * xp.sqrt(col)[..., None, :]
            step = grad / xp.maximum(norm, _TINY)
        else:
            sq = xp.maximum(sq * beta2t + u * (1 - beta2t), _TINY)
            step = grad / xp.sqrt(sq)
        if self.enable_scale_parameter:
            lr = lr * xp.maximum(eps2, _rms(xp, param))
        step = step * (lr / xp.maximum(_rms(xp, step) / clip_threshold, 1.0))
        if self.enable_first_moment:
            exp_avg = exp_avg * beta1 + step * (1 - beta1)
            step = exp_avg
        new_param = param - step
        if self.enable_weight_decay:
            new_param = new_param - param * weight_decay * lr
        return new_param, exp_avg, row, col, sq
