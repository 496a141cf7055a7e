"""In-place updates of Parameters on NumPy, and the overflow check of loss scaling."""

from __future__ import annotations

import numpy as np


def _scalar(value, dtype):
    """A hyperparameter (a number or a one-element array) as a 0-d array of ``dtype``."""
    return np.asarray(value, dtype).reshape(())


def _assign(prim):
    def kernel(variable, value):
        np.copyto(variable, value)
        return variable

    return kernel


def _assign_add(prim):
    def kernel(variable, value):
        variable += value
        return variable

    return kernel


def _assign_sub(prim):
    def kernel(variable, value):
        variable -= value
        return variable

    return kernel


def _apply_momentum(prim):
    nesterov, scale = prim.use_nesterov, prim.gradient_scale

    def kernel(variable, accumulation, learning_rate, gradient, momentum):
        if scale != 1.0:
            gradient = gradient * scale
        momentum = _scalar(momentum, variable.dtype)
        accumulation *= momentum
        accumulation += gradient
        step = gradient + momentum * accumulation if nesterov else accumulation
        variable -= _scalar(learning_rate, variable.dtype) * step
        return variable

    return kernel


def _sgd(prim):
    dampening, weight_decay, nesterov = prim.dampening, prim.weight_decay, prim.nesterov

    def kernel(parameters, gradient, learning_rate, accum, momentum, stat):
        dtype = parameters.dtype
        if weight_decay > 0:
            gradient = gradient + parameters * _scalar(weight_decay, dtype)
        momentum = _scalar(momentum, dtype)
        if momentum > 0:
            first = stat > 0
            np.copyto(accum, np.where(
                first, gradient, accum * momentum + _scalar(1 - dampening, dtype) * gradient))
            stat[first] = 0
            gradient = gradient + accum * momentum if nesterov else accum
        parameters -= _scalar(learning_rate, dtype) * gradient
        return parameters

    return kernel


def _adam(prim):
    nesterov = prim.use_nesterov

    def kernel(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient):
        dtype = var.dtype
        b1p, b2p = _scalar(beta1_power, np.float32), _scalar(beta2_power, np.float32)
        if b1p == 1:
            raise ValueError("beta1_power must not be 1 (it is beta1 ** step, step >= 1)")
        lr_t = _scalar(_scalar(lr, np.float32) * np.sqrt(1 - b2p) / (1 - b1p), dtype)
        beta1, beta2 = _scalar(beta1, dtype), _scalar(beta2, dtype)
        one = _scalar(1, dtype)
        m += (gradient - m) * (one - beta1)
        v += (gradient * gradient - v) * (one - beta2)
        step = m * beta1 + (one - beta1) * gradient if nesterov else m
        var -= lr_t * step / (np.sqrt(v) + _scalar(epsilon, dtype))
        return var, m, v

    return kernel


def _adam_weight_decay(prim):
    def kernel(var, m, v, lr, beta1, beta2, epsilon, decay, gradient):
        dtype = var.dtype
        beta1, beta2 = _scalar(beta1, dtype), _scalar(beta2, dtype)
        one = _scalar(1, dtype)
        m *= beta1
        m += (one - beta1) * gradient
        v *= beta2
        v += (one - beta2) * gradient * gradient
        update = m / (np.sqrt(v) + _scalar(epsilon, dtype)) + _scalar(decay, dtype) * var
        var -= _scalar(lr, dtype) * update
        return var, m, v

    return kernel


def _float_status(prim):
    def kernel(x):
        return np.array([0 if np.isfinite(x).all() else 1], x.dtype)

    return kernel


KERNELS = {
    "Assign": _assign,
    "AssignAdd": _assign_add,
    "AssignSub": _assign_sub,
    "ApplyMomentum": _apply_momentum,
    "SGD": _sgd,
    "Adam": _adam,
    "AdamWeightDecay": _adam_weight_decay,
    "FloatStatus": _float_status,
}
