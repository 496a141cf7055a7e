"""In-place updates of Parameters on TensorFlow, and the overflow check of loss scaling.

A Parameter's data on this backend is a ``tf.Variable`` (``TfDevice.parameter_from_host``), so
these kernels update it with ``assign``: eagerly that changes the Parameter at once; traced
into a graph, the update is part of the compiled step. Each returns its variable(s), as the
CPU kernels return their updated arrays.
"""

from __future__ import annotations

from typing import Any

from ember.ops.operations import apply_ops, fused_optim_ops
from ember_gpu.device import import_tensorflow

tf = import_tensorflow()
tnp = tf.experimental.numpy
raw = tf.raw_ops


def _scalar(value: Any, dtype: Any) -> Any:
    """A hyperparameter (a number or a one-element tensor) as a 0-d tensor of ``dtype``."""
    if isinstance(value, tf.Tensor | tf.Variable):
        return tf.cast(tf.reshape(value, ()), dtype)
    return tf.constant(value, dtype)


def _assign(prim: Any) -> Any:
    def kernel(variable: Any, value: Any) -> Any:
        variable.assign(value, read_value=False)
        return variable

    return kernel


def _assign_add(prim: Any) -> Any:
    def kernel(variable: Any, value: Any) -> Any:
        variable.assign_add(tf.broadcast_to(value, variable.shape), read_value=False)
        return variable

    return kernel


def _assign_sub(prim: Any) -> Any:
    def kernel(variable: Any, value: Any) -> Any:
        variable.assign_sub(tf.broadcast_to(value, variable.shape), read_value=False)
        return variable

    return kernel


def _apply_momentum(prim: Any) -> Any:
    nesterov, scale = prim.use_nesterov, prim.gradient_scale

    def kernel(variable: Any, accumulation: Any, learning_rate: Any, gradient: Any,
               momentum: Any) -> Any:
        dtype = variable.dtype
        if scale != 1.0:
            gradient = gradient * tf.constant(scale, dtype)
        raw.ResourceApplyMomentum(var=variable.handle, accum=accumulation.handle,
                                  lr=_scalar(learning_rate, dtype), grad=gradient,
                                  momentum=_scalar(momentum, dtype), use_nesterov=nesterov)
        return variable

    return kernel


def _sgd(prim: Any) -> Any:
    dampening, weight_decay, nesterov = prim.dampening, prim.weight_decay, prim.nesterov

    def kernel(parameters: Any, gradient: Any, learning_rate: Any, accum: Any, momentum: Any,
               stat: Any) -> Any:
        dtype = parameters.dtype
        if weight_decay > 0:
            gradient = gradient + parameters * tf.constant(weight_decay, dtype)
        momentum = _scalar(momentum, dtype)
        # With momentum 0 the buffers stay as they are (as the CPU kernel leaves them).
        moving = momentum > 0
        first = stat > 0
        new_accum = tf.where(first, gradient,
                             accum * momentum + tf.constant(1 - dampening, dtype) * gradient)
        accum.assign(tf.where(moving, new_accum, accum), read_value=False)
        stat.assign(tf.where(moving & first, tf.zeros_like(stat), stat), read_value=False)
        moved = gradient + new_accum * momentum if nesterov else new_accum
        gradient = tf.where(moving, moved, gradient)
        parameters.assign_sub(_scalar(learning_rate, dtype) * gradient, read_value=False)
        return parameters

    return kernel


def _adam(prim: Any) -> Any:
    nesterov = prim.use_nesterov

    def kernel(var: Any, m: Any, v: Any, beta1_power: Any, beta2_power: Any, lr: Any,
               beta1: Any, beta2: Any, epsilon: Any, gradient: Any) -> Any:
        dtype = var.dtype
        raw.ResourceApplyAdam(
            var=var.handle, m=m.handle, v=v.handle, beta1_power=_scalar(beta1_power, dtype),
            beta2_power=_scalar(beta2_power, dtype), lr=_scalar(lr, dtype),
            beta1=_scalar(beta1, dtype), beta2=_scalar(beta2, dtype),
            epsilon=_scalar(epsilon, dtype), grad=gradient, use_nesterov=nesterov)
        return var, m, v

    return kernel


def _adam_weight_decay(prim: Any) -> Any:
    def kernel(var: Any, m: Any, v: Any, lr: Any, beta1: Any, beta2: Any, epsilon: Any,
               decay: Any, gradient: Any) -> Any:
        dtype = var.dtype
        beta1, beta2 = _scalar(beta1, dtype), _scalar(beta2, dtype)
        one = tf.constant(1, dtype)
        new_m = beta1 * m + (one - beta1) * gradient
        new_v = beta2 * v + (one - beta2) * gradient * gradient
        update = new_m / (tf.sqrt(new_v) + _scalar(epsilon, dtype)) + _scalar(decay, dtype) * var
        m.assign(new_m, read_value=False)
        v.assign(new_v, read_value=False)
        var.assign_sub(_scalar(lr, dtype) * update, read_value=False)
        return var, m, v

    return kernel


def _lars_update(prim: Any) -> Any:
    def kernel(weight: Any, gradient: Any, *scalars: Any) -> Any:  # float32 for a float16 weight
        out = prim.forward(tnp, tf.cast(weight, tf.float32), tf.cast(gradient, tf.float32),
                           *(_scalar(s, tf.float32) for s in scalars))
        return tf.cast(out, weight.dtype)

    return kernel


def _float_status(prim: Any) -> Any:
    def kernel(x: Any) -> Any:
        finite = tf.reduce_all(tf.math.is_finite(x))
        return tf.reshape(tf.where(finite, tf.zeros((), x.dtype), tf.ones((), x.dtype)), (1,))

    return kernel


# -- the Apply*/SparseApply*/FusedSparse* updates: each primitive's own rule, in TensorFlow's
# NumPy API. The sparse ones keep static shapes (XLA needs them): the gradient is scattered
# over all rows (summing repeated indices), and a lazy update keeps the rows no index names.
def _apply(prim: Any) -> Any:
    states = prim._states
    scalars = [i for i, name in enumerate(prim._inputs) if name in prim._scalars]
    at_grad = prim._inputs.index("grad") - states if prim.sparse else -1

    def kernel(*args: Any) -> Any:
        variables, dtype = args[:states], args[0].dtype
        rest = [_scalar(a, dtype) if i in scalars else a for i, a in enumerate(args)][states:]
        touched = None
        if prim.sparse:
            *rest, indices = rest
            at = tf.reshape(tf.cast(indices, tf.int64), (-1, 1))
            shape = tf.shape(args[0], out_type=tf.int64)
            rest[at_grad] = tf.scatter_nd(at, rest[at_grad], shape)
            if prim.lazy:
                ones = tf.ones(tf.shape(indices), dtype)
                rows = tf.scatter_nd(at, ones, shape[:1]) > 0
                touched = tf.reshape(rows, [-1] + [1] * (len(args[0].shape) - 1))
        new = prim.update(tnp, *(v.value() for v in variables), *rest)
        for variable, value in zip(variables, new):
            value = tf.cast(value, dtype)
            if touched is not None:
                value = tf.where(touched, value, variable.value())
            variable.assign(value, read_value=False)
        if prim.placeholders:
            return tuple(tf.zeros((1,), dtype) for _ in range(prim._returns))
        return variables[0] if prim._returns == 1 else tuple(variables[:prim._returns])

    return kernel


# -- the fused updates of ``fused_optim_ops``: each primitive's own rule, in float32 ----------
def _fused(prim: Any) -> Any:
    hyper, written, returned = prim.hyper, prim.written, prim.returned

    def kernel(*args: Any) -> Any:
        inputs = [tf.cast(a.value() if isinstance(a, tf.Variable) else a, tf.float32)
                  for a in args]
        inputs = [tf.reshape(a, ()) if i in hyper else a for i, a in enumerate(inputs)]
        new = prim.update(tnp, *inputs)
        for i, value in zip(written, new):
            args[i].assign(tf.cast(value, args[i].dtype), read_value=False)
        if not returned:
            return new[len(written)]
        return args[returned[0]] if len(returned) == 1 else tuple(args[i] for i in returned)

    return kernel


KERNELS = {
    "Assign": _assign,
    "DynamicAssign": _assign,
    "AssignAdd": _assign_add,
    "AssignSub": _assign_sub,
    "ApplyMomentum": _apply_momentum,
    "SGD": _sgd,
    "Adam": _adam,
    "AdamWeightDecay": _adam_weight_decay,
    "FloatStatus": _float_status,
    "LARSUpdate": _lars_update,
    **dict.fromkeys(apply_ops.__all__, _apply),
    **dict.fromkeys(fused_optim_ops.__all__, _fused),
}
