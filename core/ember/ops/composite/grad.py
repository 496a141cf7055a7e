"""``GradOperation`` and the gradient machinery it shares with the training wrappers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ember import _autodiff, _executor
from ember.common.parameter import Parameter
from ember.common.tensor import Tensor


def _check_bool(owner: str, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{owner}: {name} must be a bool, but got {value!r}")
    return value


class GradOperation:
    """A higher-order function returning the gradient function of a function or Cell.

    ``GradOperation(get_all=False, get_by_list=False, sens_param=False)(fn, weights)``
    returns ``grad_fn(*inputs)``: the gradient with respect to the first input; with
    ``get_all`` a tuple for every input; with ``get_by_list`` a tuple for every Parameter of
    ``weights`` (a ParameterTuple); with both, ``(input_grads, weight_grads)``. With
    ``sens_param`` the last input scales the output's gradient (default: ones).
    """

    def __init__(self, get_all: bool = False, get_by_list: bool = False,
                 sens_param: bool = False) -> None:
        self.get_all = _check_bool("GradOperation", "get_all", get_all)
        self.get_by_list = _check_bool("GradOperation", "get_by_list", get_by_list)
        self.sens_param = _check_bool("GradOperation", "sens_param", sens_param)

    def __call__(self, fn: Callable, weights: Any = None) -> Callable:
        if not callable(fn):
            raise TypeError(f"GradOperation: fn must be a function or a Cell, but got "
                            f"{type(fn).__name__}")
        params = self._weights(weights)
        from ember._executor import graph_mode
        from ember.graph import compiler

        compiled = compiler.GraphCache(lambda *args: self._grad(fn, params, args),
                                  f"Grad_{getattr(fn, '__name__', type(fn).__name__)}",
                                  fn if hasattr(fn, "cells_and_names") else None)

        def grad_fn(*args: Any) -> Any:
            if graph_mode() and not compiler.in_graph_context():
                return compiled(*args)
            return self._grad(fn, params, args)

        return grad_fn

    def _weights(self, weights: Any) -> list[Parameter]:
        if not self.get_by_list:
            return []
        items = [weights] if isinstance(weights, Parameter) else weights
        if items is None or not all(isinstance(w, Parameter) for w in items):
            raise TypeError("GradOperation(get_by_list=True) needs weights: a ParameterTuple "
                            "or list of Parameters (such as ParameterTuple("
                            f"net.trainable_params())), but got {type(weights).__name__}")
        return list(items)

    def _grad(self, fn: Callable, params: list[Parameter], args: tuple) -> Any:
        sens = None
        if self.sens_param:
            if not args:
                raise TypeError("GradOperation(sens_param=True): the gradient function needs "
                                "the sensitivity as its last input")
            args, sens = args[:-1], args[-1]
        # inputs are watched only when their gradients are returned (then the tape skips
        # the gradients of the data flowing into a network)
        _, input_grads, param_grads = value_and_grad(
            fn, args, params, sens, wrt_inputs=self.get_all or not self.get_by_list)
        return self.select(input_grads, param_grads, bool(args) and _differentiable(args[0]))

    def select(self, input_grads: tuple, param_grads: tuple, first: bool = True) -> Any:
        """What the gradient function returns, from the gradients of the Tensor inputs and of
        the parameters; ``first``: whether the first input is one of those Tensors. As in
        MindSpore, inputs that are not (Python numbers unless ``grad_for_scalar``) have no
        gradient: ``get_all`` leaves them out, the gradient of a first one is ``()``."""
        if self.get_by_list:
            return (input_grads, param_grads) if self.get_all else param_grads
        if self.get_all:
            return input_grads
        return input_grads[0] if first and input_grads else ()


def _differentiable(arg: Any) -> bool:
    """Whether gradients are taken with respect to the input ``arg``: a Tensor, or a Python
    number with the context's ``grad_for_scalar``."""
    from ember import context

    return isinstance(arg, Tensor) or (_scalar(arg) and context.get_context("grad_for_scalar"))


def _scalar(arg: Any) -> bool:
    return isinstance(arg, int | float) and not isinstance(arg, bool)


def _kind(value: Any) -> str:
    if isinstance(value, tuple | list):
        return f"a {type(value).__name__} of {len(value)}"
    return type(value).__name__


def value_and_grad(fn: Callable, args: tuple, params: list[Parameter] = (),
                   sens: Any = None, wrt_inputs: bool = True
                   ) -> tuple[Any, tuple[Tensor, ...], tuple[Tensor, ...]]:
    """Run ``fn(*args)`` once; return its output and the gradients of every Tensor input (none
    without ``wrt_inputs``) and of ``params``. ``sens`` is the output's gradient: a Tensor (a
    tuple for several outputs), or a number that fills each output's shape; default 1."""
    from ember import context
    from ember.ops import functional as F

    if context.get_context("grad_for_scalar"):
        args = tuple(Tensor(a) if _scalar(a) else a for a in args)
    inputs = [_autodiff.watch(a) for a in args] if wrt_inputs else list(args)
    if _executor.state.tracer is not None and not hasattr(fn, "cells_and_names"):
        from ember.graph.autograph import convert  # ops sits below graph: imported on use

        fn = convert(fn)  # compiling: control flow on tensors converted (a Cell does it)
    with _autodiff.recording():
        out = fn(*inputs)
    outs = out if isinstance(out, tuple) else (out,)
    if sens is None or isinstance(sens, int | float):
        scale = 1 if sens is None else sens
        senses: Any = tuple(
            (F.ones_like(o) if scale == 1 else F.mul(F.ones_like(o), scale))
            if isinstance(o, Tensor) else None for o in outs)
    else:
        one = not isinstance(out, tuple) or (len(out) == 1 and isinstance(sens, Tensor))
        senses = (sens,) if one else sens
        if not (isinstance(senses, tuple | list) and len(senses) == len(outs)
                and all(isinstance(s, Tensor) for s in senses)):
            shape = ("a Tensor" if not isinstance(out, tuple)
                     else f"a tuple of {len(outs)} Tensors")
            raise TypeError(f"GradOperation: the function returned {shape}, so sens must be "
                            f"{shape} too, but got {_kind(sens)}")
    # an output that is a Python number (mul(1, 2)) depends on no tensor: no gradient flows
    roots = [(o, s) for o, s in zip(outs, senses) if isinstance(o, Tensor)]
    targets = [x for x in inputs if isinstance(x, Tensor) and wrt_inputs] + list(params)
    grads = _autodiff.backward([o for o, _ in roots], [s for _, s in roots], targets)
    grads = [F.zeros_like(t) if g is None else g for t, g in zip(targets, grads)]
    split = len(targets) - len(params)
    return out, tuple(grads[:split]), tuple(grads[split:])
