"""Random kernels on TensorFlow: one ``tf.random.Generator`` per primitive, seeded as
Dropout's (``_OpGenerator``); distributions it lacks draw from TensorFlow's stateless ops with
a seed the generator makes, so compiled graphs draw anew on each run too."""

from __future__ import annotations

import numpy as np

from ember_gpu.device import import_tensorflow
from ember_gpu.kernels.nn import _OpGenerator

tf = import_tensorflow()
tnp = tf.experimental.numpy


def _drawing(draw, xla=True):
    """A kernel factory: ``draw(generator, *inputs)`` with the primitive's generator; ``xla``
    False where TensorFlow's sampler has no XLA kernel (the graph then runs uncompiled)."""

    def factory(prim):
        generator = _OpGenerator(*prim.seeds)

        def kernel(*inputs):
            return draw(generator(), *inputs)

        kernel.xla = xla
        return kernel

    return factory


def _seed(generator):
    return generator.make_seeds(1)[:, 0]


def _laplace(generator, shape):
    u = generator.uniform(shape, minval=np.finfo(np.float32).tiny, maxval=1.0)
    return tf.where(u < 0.5, tf.math.log(2 * u), -tf.math.log(2 * (1 - u)))


def _randperm(prim):
    """Uniform keys for the first n places, 2 for the rest, sorted: the first n positions of
    the order are a permutation of 0 .. n-1; pad after them."""
    generator, size = _OpGenerator(*prim.seeds), prim.max_length
    dtype = tf.as_dtype(prim.dtype.np_dtype)

    def kernel(n):
        if tf.executing_eagerly():
            prim.count(n.numpy())
        else:
            tf.debugging.Assert((0 <= n[0]) & (n[0] <= size), [
                f"Randperm: n must be in [0, max_length={size}], but got", n[0]])
        inside = tf.range(size) < n[0]
        order = tf.argsort(tf.where(inside, generator().uniform((size,)), 2.0))
        return tf.where(inside, tf.cast(order, dtype), tf.cast(prim.pad, dtype))

    kernel.xla = False  # so that a graph checks n too (XLA drops assertions)
    return kernel


def _uniform_int(generator, shape, minval, maxval):
    return generator.uniform(shape, minval=minval, maxval=maxval, dtype=tf.int32)


def _gamma(generator, shape, alpha, beta):
    out = tf.broadcast_static_shape(tf.TensorShape(shape),
                                    tf.broadcast_static_shape(alpha.shape, beta.shape))
    return tf.random.stateless_gamma(out, _seed(generator), tf.broadcast_to(alpha, out),
                                     tf.broadcast_to(beta, out))


def _poisson(generator, shape, mean):
    out = tf.broadcast_static_shape(tf.TensorShape(shape), mean.shape)
    return tf.random.stateless_poisson(out, _seed(generator), tf.broadcast_to(mean, out),
                                       dtype=tf.int32)


def _choice_with_mask(prim):
    count, generator = prim.count, _OpGenerator(*prim.seeds)

    def kernel(x):
        flat = tf.reshape(x, [-1])
        if flat.shape[0] < count:  # pad with False so that count positions can be taken
            flat = tf.concat([flat, tf.zeros([count - flat.shape[0]], tf.bool)], 0)
        keys = tf.where(flat, generator().uniform(flat.shape), 2.0)  # True ones first
        order = tf.argsort(keys)[:count]
        mask = tf.gather(flat, order)
        strides = np.cumprod((1,) + tuple(x.shape)[:0:-1])[::-1]  # of x's C-order layout
        index = (order[:, None] // strides) % np.array(x.shape)
        index = tf.where(mask[:, None], tf.cast(index, tf.int32), 0)
        return index, mask

    return kernel


def _gumbel_max(generator, logits, num_sample, dtype):
    """``num_sample`` draws per row of 2-d ``logits`` (the Gumbel-max trick: XLA compiles it,
    where it has no kernel for TensorFlow's categorical sampler)."""
    u = generator.uniform((logits.shape[0], num_sample, logits.shape[1]),
                          minval=np.finfo(np.float32).tiny, maxval=1.0)
    noisy = tf.cast(logits, tf.float32)[:, None, :] - tf.math.log(-tf.math.log(u))
    return tf.argmax(noisy, axis=-1, output_type=tf.int64 if dtype == tf.int64 else tf.int32)


def _categorical(prim):
    dtype, generators = tf.as_dtype(prim.dtype.np_dtype), {}

    def kernel(logits, num_sample, seed=0):
        if seed not in generators:
            generators[seed] = _OpGenerator(seed, 0)
        return tf.cast(_gumbel_max(generators[seed](), logits, num_sample, dtype), dtype)

    return kernel


def _multinomial(generator, x, num_sample):
    rows = tf.reshape(tf.math.log(tf.cast(x, tf.float32)), (-1, x.shape[-1]))
    out = _gumbel_max(generator, rows, num_sample, tf.int32)
    return tf.reshape(out, tuple(x.shape[:-1]) + (num_sample,))


def _uniform_class(generator, n, range_max):
    return generator.uniform((n,), maxval=range_max, dtype=tf.int64)


def _log_uniform_class(generator, n, range_max):
    """Class ``floor(exp(u * log(range_max + 1))) - 1`` for u uniform in [0, 1)."""
    u = generator.uniform((n,), dtype=tf.float64)
    return (tf.cast(tf.exp(u * np.log1p(range_max)), tf.int64) - 1) % range_max


@tf.function
def _unique_classes(generator, draw, n, range_max, banned):
    """Draws one class at a time until ``n`` distinct classes outside ``banned`` are found:
    (them, draws made). A tf.function, so that PyNative runs the loop as a graph too."""
    places = tf.range(n)

    def body(kept, tries, out):
        c = draw(generator, 1, range_max)[0]
        seen = tf.reduce_any(tf.equal(out, c) & (places < kept))
        fresh = ~(seen | tf.reduce_any(tf.equal(banned, c)))
        out = tf.where(fresh & tf.equal(places, kept), c, out)
        return kept + tf.cast(fresh, tf.int32), tries + 1, out

    _, tries, out = tf.while_loop(lambda kept, tries, out: kept < n, body,
                                  (tf.constant(0), tf.constant(0), tf.zeros([n], tf.int64)))
    return out, tries


def _candidate_sampler(draw):
    """A kernel factory of a candidate sampler drawing classes with ``draw(generator, n,
    range_max)``; the primitive gives the expected counts."""

    def factory(prim):
        generator = _OpGenerator(*prim.seeds)
        n, range_max = prim.num_sampled, prim.range_max

        def kernel(true_classes):
            if prim.unique:
                avoid = prim.remove_accidental_hits and n + true_classes.shape.num_elements() \
                    <= range_max
                banned = tf.reshape(tf.cast(true_classes, tf.int64), [-1]) if avoid else \
                    tf.zeros([0], tf.int64)
                sampled, tries = _unique_classes(generator(), draw, n, range_max, banned)
            else:
                sampled, tries = draw(generator(), n, range_max), tf.constant(n)
            tries = tf.cast(tries, tf.float64)
            return (tf.cast(sampled, true_classes.dtype),
                    prim.expected_count(tnp, true_classes, tries),
                    prim.expected_count(tnp, sampled, tries))

        kernel.xla = False  # the draws of unique sampling stop at a count known when run
        return kernel

    return factory


KERNELS = {
    "StandardNormal": _drawing(lambda generator, shape: generator.normal(shape)),
    "StandardLaplace": _drawing(_laplace),
    "UniformReal": _drawing(lambda generator, shape: generator.uniform(shape)),
    "TruncatedNormal": lambda p: _drawing(lambda generator, shape: generator.truncated_normal(
        shape, dtype=tf.as_dtype(p.dtype.np_dtype)))(p),
    "Randperm": _randperm,
    "UniformInt": _drawing(_uniform_int),
    "Gamma": _drawing(_gamma, xla=False),
    "Poisson": _drawing(_poisson, xla=False),
    "RandomChoiceWithMask": _choice_with_mask,
    "RandomCategorical": _categorical,
    "Multinomial": _drawing(_multinomial),
    "UniformCandidateSampler": _candidate_sampler(_uniform_class),
    "LogUniformCandidateSampler": _candidate_sampler(_log_uniform_class),
}
