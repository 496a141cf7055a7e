"""Kernels of the quantization primitives (``quant_ops``, ``fold_ops``) on NumPy: the
formulas are the primitives' own, computed in at least float32. A fake quantizer's
``quant_delay`` counts the calls of its kernel, as MindSpore's GPU kernels do."""

from __future__ import annotations

import itertools

import numpy as np


def _wide(x):
    return x.astype(np.promote_types(x.dtype, np.float32), copy=False)


def _formula(method):
    """A kernel factory: the primitive's ``method(np, *inputs)`` on widened float inputs,
    its outputs in the dtype of the first input; integer inputs (steps) pass as they are."""

    def factory(prim):
        fn = getattr(prim, method)

        def kernel(*inputs):
            dtype = inputs[0].dtype
            out = fn(np, *(_wide(a) if a.dtype.kind == "f" else a for a in inputs))
            if isinstance(out, tuple):
                return tuple(np.asarray(o).astype(dtype, copy=False) for o in out)
            return np.asarray(out).astype(dtype, copy=False)

        return kernel

    return factory


def _delayed(formula, passed):
    """A fake quantizer's kernel factory: ``formula``'s kernel, except that the first
    ``quant_delay`` calls (of a training forward primitive, or of a gradient) return the
    input at position ``passed`` unchanged."""

    def factory(prim):
        kernel = formula(prim)
        if not prim.quant_delay or not getattr(prim, "training", True):
            return kernel
        calls = itertools.count()

        def delayed(*inputs):
            if next(calls) < prim.quant_delay:
                return inputs[passed].copy()
            return kernel(*inputs)

        return delayed

    return factory


def _batch_norm_fold(prim):
    def kernel(x, mean, variance, global_step):
        running_mean, running_std = mean.copy(), np.sqrt(_wide(variance) + prim.epsilon)
        if prim.folding(global_step):
            batch_mean, batch_std, new_mean, new_variance = prim.statistics(
                np, _wide(x), _wide(mean), _wide(variance))
            mean[...], variance[...] = new_mean, new_variance
        else:
            batch_mean, batch_std = np.zeros_like(running_std), np.ones_like(running_std)
        return tuple(a.astype(x.dtype, copy=False)
                     for a in (batch_mean, batch_std, running_mean, running_std))

    return kernel


KERNELS = {
    "FakeQuantPerLayer": _delayed(_formula("quantize"), 0),
    "FakeQuantPerChannel": _delayed(_formula("quantize"), 0),
    "FakeQuantPerLayerGrad": _delayed(_formula("pass_through"), 0),
    "FakeQuantPerChannelGrad": _delayed(_formula("pass_through"), 0),
    "MinMaxUpdatePerLayer": _formula("forward"),
    "MinMaxUpdatePerChannel": _formula("forward"),
    "BatchNormFold": _batch_norm_fold,
    "BatchNormFoldGrad": _formula("backward"),
    "BatchNormFold2": _formula("forward"),
    "BatchNormFold2Grad": _formula("backward"),
    "CorrectionMul": _formula("forward"),
    "CorrectionMulGrad": _formula("backward"),
    "CorrectionMulGradReduce": _formula("forward"),
}
