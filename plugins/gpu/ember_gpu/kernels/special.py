"""The inverse error function, Bessel I0/I1, truncation and Addcmul/Addcdiv on TensorFlow."""

from __future__ import annotations

from ember_gpu.device import import_tensorflow

tf = import_tensorflow()


def _in_float32(fn):
    """``fn``, which TensorFlow runs eagerly on float32 and float64 only: float16 goes through
    float32."""

    def kernel(x):
        if x.dtype == tf.float16:
            return tf.cast(fn(tf.cast(x, tf.float32)), tf.float16)
        return fn(x)

    return kernel


def _unscaled(scaled):
    """I0 or I1 from its scaled form (XLA compiles those, not TensorFlow's I0 and I1)."""
    return lambda x: scaled(x) * tf.exp(tf.abs(x))


def _trunc(x):
    if not x.dtype.is_floating:
        return tf.identity(x)
    return tf.where(x < 0, tf.math.ceil(x), tf.math.floor(x))


KERNELS = {
    "Erfinv": lambda p: _in_float32(tf.math.erfinv),
    "BesselI0": lambda p: _in_float32(_unscaled(tf.math.special.bessel_i0e)),
    "BesselI1": lambda p: _in_float32(_unscaled(tf.math.special.bessel_i1e)),
    "BesselI0e": lambda p: _in_float32(tf.math.special.bessel_i0e),
    "BesselI1e": lambda p: _in_float32(tf.math.special.bessel_i1e),
    "Trunc": lambda p: _trunc,
    "Addcmul": lambda p: lambda data, x1, x2, value: data + value * (x1 * x2),
    "Addcdiv": lambda p: lambda data, x1, x2, value: data + value * (x1 / x2),
}
