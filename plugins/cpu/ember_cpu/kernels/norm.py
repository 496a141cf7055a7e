"""Kernels of LayerNorm and L2Normalize and their gradients, on NumPy; statistics in at least
float32."""

from __future__ import annotations

import numpy as np


def _wide(x):
    return x.astype(np.promote_types(x.dtype, np.float32), copy=False)


def _layer_norm(prim):
    epsilon = prim.epsilon

    def kernel(x, gamma, beta):
        axes = tuple(range(prim.begin_norm_axis % max(x.ndim, 1), x.ndim))
        xw = _wide(x)
        mean = np.mean(xw, axis=axes, keepdims=True)
        variance = np.var(xw, axis=axes, keepdims=True)
        y = (xw - mean) / np.sqrt(variance + epsilon) * gamma + beta
        return tuple(a.astype(x.dtype, copy=False) for a in (y, mean, variance))

    return kernel


def _layer_norm_grad(prim):
    epsilon = prim.epsilon

    def kernel(x, dy, variance, mean, gamma):
        norm = tuple(range(prim.begin_norm_axis % max(x.ndim, 1), x.ndim))
        outer = tuple(range(x.ndim - gamma.ndim))
        rstd = 1 / np.sqrt(_wide(variance) + epsilon)
        x_hat = (_wide(x) - mean) * rstd
        dyw = _wide(dy)
        g = dyw * gamma
        dx = rstd * (g - np.mean(g, axis=norm, keepdims=True)
                     - x_hat * np.mean(g * x_hat, axis=norm, keepdims=True))
        dgamma = np.sum(dyw * x_hat, axis=outer)
        dbeta = np.sum(dyw, axis=outer)
        return (dx.astype(x.dtype, copy=False), dgamma.astype(gamma.dtype, copy=False),
                dbeta.astype(gamma.dtype, copy=False))

    return kernel


def _layer_norm_grad_grad(prim):
    def kernel(x, dy, variance, mean, gamma, *grads):
        outs = prim.backward(np, *(_wide(a) for a in (x, dy, variance, mean, gamma, *grads)))
        return tuple(o.astype(t.dtype, copy=False) for o, t in zip(outs, (x, dy, gamma)))

    return kernel


def _l2_norm(x, axis, epsilon):
    """(sum of squares over ``axis`` (kept), the norm used: sqrt(max(that, epsilon)))."""
    squares = np.sum(np.square(_wide(x)), axis=axis, keepdims=True)
    return squares, np.sqrt(np.maximum(squares, epsilon))


def _l2_normalize(prim):
    axis, epsilon = prim.axis, prim.epsilon

    def kernel(x):
        return (x / _l2_norm(x, axis, epsilon)[1]).astype(x.dtype, copy=False)

    return kernel


def _l2_normalize_grad(prim):
    axis, epsilon = prim.axis, prim.epsilon

    def kernel(x, out, dout):
        squares, norm = _l2_norm(x, axis, epsilon)
        xw, dw = _wide(x), _wide(dout)
        inner = np.sum(xw * dw, axis=axis, keepdims=True) * (squares >= epsilon)
        return ((dw - xw * inner / (norm * norm)) / norm).astype(x.dtype, copy=False)

    return kernel


def _lrn(prim):
    return lambda x: prim.forward(np, _wide(x)).astype(x.dtype, copy=False)


def _lrn_grad(prim):
    return lambda grads, x, y: prim.backward(np, _wide(grads), _wide(x)).astype(x.dtype,
                                                                               copy=False)


KERNELS = {
    "LayerNorm": _layer_norm,
    "LayerNormGrad": _layer_norm_grad,
    "LayerNormGradGrad": _layer_norm_grad_grad,
    "L2Normalize": _l2_normalize,
    "L2NormalizeGrad": _l2_normalize_grad,
    "LRN": _lrn,
    "LRNGrad": _lrn_grad,
}
