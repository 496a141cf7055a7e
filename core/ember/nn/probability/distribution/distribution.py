"""``Distribution``: the base of the probability distributions, a Cell whose ``construct``
calls the function it is named (``dist('prob', value)``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember._checkparam import Validator
from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.ops import functional as F

from .._utils import (
    broadcast_all,
    cast_to_tensor,
    check_tensor,
    check_tuple,
    exp_generic,
    log_generic,
    raise_none_error,
    raise_not_implemented,
    set_param_type,
)

__all__ = ["Distribution"]


def _wrap(fn: Callable, method: Callable) -> Callable:
    """``method`` followed by ``fn``."""
    return lambda *args, **kwargs: fn(method(*args, **kwargs))


def _exp_of(method: Callable) -> Callable:
    return _wrap(exp_generic, method)


def _log_of(method: Callable) -> Callable:
    return _wrap(log_generic, method)


def _one_minus(method: Callable) -> Callable:
    return _wrap(lambda x: F.sub(1.0, x), method)


class Distribution(Cell):
    """Base class of the distributions.

    Args:
        seed (int): the seed of sampling; 0 when None.
        dtype (ember.dtype): the type of the event samples.
        name (str): the name of the distribution.
        param (dict): the arguments the distribution was built with (``locals()``), its
            parameters under ``'param_dict'``.

    A subclass defines the private functions it has (``_mean``, ``_prob`` or ``_log_prob``,
    ``_cdf``, ``_sd`` or ``_var``, ...); the public ones fall back on each other: ``prob`` is
    ``exp(_log_prob)`` where only ``_log_prob`` is defined, ``survival_function`` is
    ``1 - cdf``, ``sd`` is ``sqrt(_var)``, and so on. Every function takes the distribution's
    parameters (``dist_spec_args``, e.g. ``mean`` and ``sd`` of a Normal) as optional trailing
    Tensors that replace, for that call only, the ones given at construction.
    ``dist(name, *args)`` calls the function ``name``.
    """

    _dist_type: str | None = None  # what get_dist_type returns
    #: the parameters (``dist_spec_args``) in order, each with the check (``check(tensor,
    #: name)``) that a value given at construction must pass, or None
    _param_checks: dict[str, Callable[[Tensor, str], None] | None] = {}
    _dtypes: tuple = mstype.float_type  # the event dtypes accepted
    _repr_labels: dict[str, str] = {}  # a parameter's label in repr, where not its name

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Each parameter that the subclass does not name otherwise becomes a read-only
        property holding its default (``Exponential(0.5).rate``)."""
        super().__init_subclass__(**kwargs)
        for name in cls._param_checks:
            if not hasattr(cls, name):
                setattr(cls, name, property(lambda self, n=name: self._default(n)))

    def __init__(self, seed: int | None, dtype: mstype.Type, name: str, param: dict) -> None:
        if "distribution" not in param:
            Validator.check_type_name("dtype", dtype, self._dtypes, type(self).__name__)
            param["param_dict"] = {n: param[n] for n in self._param_checks}
        super().__init__()
        seed = 0 if seed is None else seed
        Validator.check_value_type("name", name, [str], type(self).__name__)
        Validator.check_non_negative_int(seed, "seed", name)
        self._name = name
        self._seed = seed
        self._dtype = dtype
        self._parameters = {k: v for k, v in param.items()
                            if k != "self" and not k.startswith("_")}
        self.default_parameters: list = []
        self.parameter_names: list = []
        if "distribution" not in self._parameters:
            self.parameter_type = set_param_type(self._parameters.get("param_dict", {}), dtype)
            self._batch_shape = self._calc_batch_shape()
            self._is_scalar_batch = self._check_is_scalar_batch()
            self._broadcast_shape = self._batch_shape
            self._reset_parameters(**param["param_dict"])
        self._set_calls()

    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self) -> mstype.Type:
        return self._dtype

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def parameters(self) -> dict:
        return self._parameters

    @property
    def is_scalar_batch(self) -> bool:
        return self._is_scalar_batch

    @property
    def batch_shape(self) -> tuple | None:
        return self._batch_shape

    @property
    def broadcast_shape(self) -> tuple | None:
        return self._broadcast_shape

    # -- parameters ---------------------------------------------------------------------------
    def _reset_parameters(self, **values: Any) -> None:
        """Make ``values`` (given at construction, by parameter name) the parameters'
        defaults, each checked by its ``_param_checks`` entry."""
        self.default_parameters = []
        self.parameter_names = []
        for name, value in values.items():
            default = self._add_parameter(value, name)
            check = self._param_checks.get(name)
            if default is not None and check is not None:
                check(default, name)

    def _default(self, name: str) -> Tensor | None:
        return self.default_parameters[self.parameter_names.index(name)]

    def extend_repr(self) -> str:
        if not self._param_checks:
            return super().extend_repr()
        if not self.is_scalar_batch:
            return f"batch_shape = {self._broadcast_shape}"
        return ", ".join(f"{self._repr_labels.get(n, n)} = {v}"
                         for n, v in zip(self.parameter_names, self.default_parameters))

    def _add_parameter(self, value: Any, name: str) -> Tensor | None:
        """Record ``value`` (as a Tensor of ``parameter_type``) as the default of the
        parameter ``name``."""
        value_t = None if value is None else cast_to_tensor(value, self.parameter_type)
        self.default_parameters.append(value_t)
        self.parameter_names.append(name)
        return value_t

    def _check_param_type(self, *args: Any) -> Any:
        """The parameters of one call: each given Tensor, else the default; broadcast to one
        shape and cast to ``parameter_type`` (a single parameter is returned alone)."""
        out = []
        for arg, name, default in zip(args, self.parameter_names, self.default_parameters):
            if arg is not None:
                check_tensor(arg, name)
            elif default is not None:
                arg = default
            else:
                raise_none_error(name)
            if out and arg.dtype != out[0][1]:
                raise TypeError(f"For {self.name}, {name} should have the same dtype as "
                                f"{self.parameter_names[0]}, but got {arg.dtype} and "
                                f"{out[0][1]}.")
            out.append((arg, arg.dtype))
        tensors = broadcast_all(*(F.cast(a, self.parameter_type) for a, _ in out))
        return tensors[0] if len(tensors) == 1 else tensors

    def _check_value(self, value: Any, name: str) -> Tensor:
        return check_tensor(value, name)

    def _cast_value(self, value: Any, dtype: mstype.Type | None = None) -> Tensor:
        """The ``value`` argument (a Tensor) in ``dtype``, the distribution's by default."""
        return F.cast(check_tensor(value, "value"), dtype or self.dtype)

    def _cast_other(self, value: Any, name: str) -> Tensor:
        """A parameter of distribution b (of ``kl_loss``) in ``parameter_type``."""
        return F.cast(check_tensor(value, name), self.parameter_type)

    def _sample_shape(self, shape: Any, *params: Tensor) -> tuple:
        """``shape + batch shape`` of a sample drawn with ``params``."""
        check_tuple(shape, "shape")
        return tuple(shape) + tuple(np.broadcast_shapes(*(tuple(p.shape) for p in params)))

    def _check_is_scalar_batch(self) -> bool:
        return all(v is None or isinstance(v, (int, float))
                   for v in self._parameters["param_dict"].values())

    def _calc_batch_shape(self) -> tuple | None:
        values = list(self._parameters["param_dict"].values())
        if not values or any(v is None for v in values):
            return None
        return tuple(np.broadcast_shapes(*(tuple(v.shape) if isinstance(v, Tensor)
                                           else np.shape(v) for v in values)))

    # -- which private function serves each public one ---------------------------------------
    def _first(self, func: str, rules: list[tuple[str, Callable | None]]) -> Callable:
        for attr, wrap in rules:
            method = getattr(self, attr, None)
            if method is not None:
                return method if wrap is None else wrap(method)
        return self._missing(func)

    def _missing(self, func: str) -> Callable:
        name = self.name

        def missing(*args: Any, **kwargs: Any) -> Any:
            raise_not_implemented(func, name)
        return missing

    def _set_calls(self) -> None:
        has = lambda *names: any(hasattr(self, n) for n in names)  # noqa: E731
        self._call_prob = self._first("prob", [("_prob", None), ("_log_prob", _exp_of)])
        self._call_log_prob = self._first("log_prob", [("_log_prob", None), ("_prob", _log_of)])
        self._call_cdf = self._first("cdf", [
            ("_cdf", None), ("_log_cdf", _exp_of), ("_survival_function", _one_minus),
            ("_log_survival", lambda m: _one_minus(_exp_of(m)))])
        cdf_known = has("_cdf", "_log_cdf", "_survival_function", "_log_survival")
        call_cdf = [("_call_cdf", None)] if cdf_known else []
        self._call_survival = self._first("survival_function", [
            ("_survival_function", None), ("_log_survival", _exp_of),
            *[(a, _one_minus) for a, _ in call_cdf]])
        self._call_log_cdf = self._first("log_cdf", [
            ("_log_cdf", None), *[(a, _log_of) for a, _ in call_cdf]])
        self._call_log_survival = self._first("log_survival", [
            ("_log_survival", None), *([("_call_survival", _log_of)] if cdf_known else [])])
        self._call_sd = self._first("sd", [("_sd", None), ("_var", lambda m: _wrap(F.sqrt, m))])
        self._call_var = self._first("var", [("_var", None),
                                             ("_sd", lambda m: _wrap(F.square, m))])
        self._call_cross_entropy = self._first("cross_entropy", [("_cross_entropy", None)])

    # -- the public functions -----------------------------------------------------------------
    def _get_dist_args(self, *args: Any, **kwargs: Any) -> tuple:
        names = self.parameter_names
        unknown = set(kwargs) - set(names)
        if len(args) > len(names) or unknown:
            raise TypeError(f"{self.name}.get_dist_args takes the parameters {names}, but got "
                            f"{len(args)} positional and {sorted(kwargs)} keyword arguments")
        given = list(args) + [None] * (len(names) - len(args))
        out = []
        for i, (name, default) in enumerate(zip(names, self.default_parameters)):
            value = kwargs.get(name, given[i])
            out.append(default if value is None else check_tensor(value, name))
        return tuple(out)

    def get_dist_args(self, *args: Any, **kwargs: Any) -> tuple:
        """The parameters given (Tensors), the defaults in place of those not given."""
        return self._get_dist_args(*args, **kwargs)

    def _get_dist_type(self) -> str:
        if self._dist_type is None:
            raise_not_implemented("get_dist_type", self.name)
        return self._dist_type

    def get_dist_type(self) -> str:
        """The type of the distribution (``'Normal'``)."""
        return self._get_dist_type()

    def log_prob(self, value: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        """The log of the probability (density or mass) at ``value``."""
        return self._call_log_prob(value, *args, **kwargs)

    def prob(self, value: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        """The probability (density or mass) at ``value``."""
        return self._call_prob(value, *args, **kwargs)

    def cdf(self, value: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        """The cumulative distribution function at ``value``."""
        return self._call_cdf(value, *args, **kwargs)

    def log_cdf(self, value: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        """The log of the cumulative distribution function at ``value``."""
        return self._call_log_cdf(value, *args, **kwargs)

    def survival_function(self, value: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        """``1 - cdf(value)``."""
        return self._call_survival(value, *args, **kwargs)

    def log_survival(self, value: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        """The log of the survival function at ``value``."""
        return self._call_log_survival(value, *args, **kwargs)

    def _kl_loss(self, *args: Any, **kwargs: Any) -> Tensor:
        raise_not_implemented("kl_loss", self.name)

    def kl_loss(self, dist: str, *args: Any, **kwargs: Any) -> Tensor:
        """KL(a||b): ``dist`` names the type of b, whose parameters come next; a's are
        optional after them."""
        return self._kl_loss(dist, *args, **kwargs)

    def _mean(self, *args: Any, **kwargs: Any) -> Tensor:
        raise_not_implemented("mean", self.name)

    def mean(self, *args: Any, **kwargs: Any) -> Tensor:
        return self._mean(*args, **kwargs)

    def _mode(self, *args: Any, **kwargs: Any) -> Tensor:
        raise_not_implemented("mode", self.name)

    def mode(self, *args: Any, **kwargs: Any) -> Tensor:
        return self._mode(*args, **kwargs)

    def sd(self, *args: Any, **kwargs: Any) -> Tensor:
        """The standard deviation."""
        return self._call_sd(*args, **kwargs)

    def var(self, *args: Any, **kwargs: Any) -> Tensor:
        """The variance."""
        return self._call_var(*args, **kwargs)

    def _entropy(self, *args: Any, **kwargs: Any) -> Tensor:
        raise_not_implemented("entropy", self.name)

    def entropy(self, *args: Any, **kwargs: Any) -> Tensor:
        return self._entropy(*args, **kwargs)

    def cross_entropy(self, dist: str, *args: Any, **kwargs: Any) -> Tensor:
        """H(a, b) = H(a) + KL(a||b), arguments as ``kl_loss``'s."""
        return self._call_cross_entropy(dist, *args, **kwargs)

    def _sample(self, *args: Any, **kwargs: Any) -> Tensor:
        raise_not_implemented("sample", self.name)

    def sample(self, *args: Any, **kwargs: Any) -> Tensor:
        """Draws of shape ``shape + batch_shape`` (``shape`` a tuple, default ``()``)."""
        return self._sample(*args, **kwargs)

    _CALLS = {"log_prob": "_call_log_prob", "prob": "_call_prob", "cdf": "_call_cdf",
              "log_cdf": "_call_log_cdf", "survival_function": "_call_survival",
              "log_survival": "_call_log_survival", "kl_loss": "_kl_loss", "mean": "_mean",
              "mode": "_mode", "sd": "_call_sd", "var": "_call_var", "entropy": "_entropy",
              "cross_entropy": "_call_cross_entropy", "sample": "_sample",
              "get_dist_args": "_get_dist_args", "get_dist_type": "_get_dist_type"}

    def construct(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Call the function ``name`` ('prob', 'log_prob', 'cdf', 'log_cdf',
        'survival_function', 'log_survival', 'mean', 'mode', 'sd', 'var', 'entropy',
        'kl_loss', 'cross_entropy', 'sample', 'get_dist_args', 'get_dist_type')."""
        attr = self._CALLS.get(name) if isinstance(name, str) else None
        if attr is None:
            raise_not_implemented(name, self.name)
        return getattr(self, attr)(*args, **kwargs)
