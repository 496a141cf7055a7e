"""Kernels of the quantization primitives (``quant_ops``, ``fold_ops``) on TensorFlow: the
formulas are the primitives' own, written with ``tf.experimental.numpy`` and computed in at
least float32. A fake quantizer's ``quant_delay`` counts the calls of its kernel in a
variable, so that compiled graphs count too."""

from __future__ import annotations

from ember_gpu.device import import_tensorflow

tf = import_tensorflow()
tnp = tf.experimental.numpy


def _wide(x):
    return tf.cast(x, tf.float64 if x.dtype == tf.float64 else tf.float32)


def _read(a):
    return a.value() if isinstance(a, tf.Variable) else a


def _formula(method):
    """A kernel factory: the primitive's ``method(tnp, *inputs)`` on widened float inputs,
    its outputs in the dtype of the first input; integer inputs (steps) pass as they are."""

    def factory(prim):
        fn = getattr(prim, method)

        def kernel(*inputs):
            dtype = inputs[0].dtype
            out = fn(tnp, *(_wide(a) if a.dtype.is_floating else _read(a) for a in inputs))
            if isinstance(out, tuple):
                return tuple(tf.cast(o, dtype) for o in out)
            return tf.cast(out, dtype)

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
        with tf.init_scope():  # now, also while a graph is traced
            calls = tf.Variable(0, dtype=tf.int64, trainable=False)

        def delayed(*inputs):
            before = calls.assign_add(1) <= prim.quant_delay
            return tf.where(before, _read(inputs[passed]), kernel(*inputs))

        return delayed

    return factory


def _batch_norm_fold(prim):
    def kernel(x, mean, variance, global_step):
        old_mean, old_variance = _wide(_read(mean)), _wide(_read(variance))
        running_std = tf.sqrt(old_variance + prim.epsilon)
        batch_mean, batch_std, new_mean, new_variance = (  # sums of many values: in float64
            tf.cast(a, old_mean.dtype) for a in prim.statistics(
                tnp, tf.cast(x, tf.float64), tf.cast(old_mean, tf.float64),
                tf.cast(old_variance, tf.float64)))
        folding = prim.folding(global_step)
        if prim.is_training:
            mean.assign(tf.cast(tf.where(folding, new_mean, old_mean), mean.dtype),
                        read_value=False)
            variance.assign(tf.cast(tf.where(folding, new_variance, old_variance),
                                    variance.dtype), read_value=False)
        outputs = (tf.where(folding, batch_mean, tf.zeros_like(batch_mean)),
                   tf.where(folding, batch_std, tf.ones_like(batch_std)), old_mean, running_std)
        return tuple(tf.cast(a, x.dtype) for a in outputs)

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
