"""``Primitive``: one operation, defined once for every backend and both modes.

A primitive subclass holds, in one block, its attributes (validated in ``__init__``), its
shape/dtype rule (``infer``) and its backward rule (``bprop``, written with other primitives).
Backends supply only kernels, looked up by the primitive's name.
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable
from typing import Any

from ember import _autodiff, context, log
from ember._executor import load_eager, resolve_kernel, state, to_device, to_host
from ember.common import dtype as mstype
from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.ops.signature import convert_inputs

#: What ``infer`` returns for one output: (shape, dtype).
Spec = tuple[tuple[int, ...], mstype.Type]

class Primitive:
    """Base class of primitives, as ``mindspore.ops.Primitive``.

    Subclasses override ``infer(*inputs)``, returning a :data:`Spec` (or a list of them for
    several outputs) and raising TypeError/ValueError for inputs the primitive does not accept,
    and ``bprop(*inputs, out, dout)``, returning one gradient per input (None where an input
    has none). Tensor inputs arrive as Tensors; other inputs (axes, shapes) as Python values.
    """

    #: False for primitives that update Parameters in place or draw random numbers: graph
    #: passes never remove, merge or precompute them.
    pure = True
    #: True for primitives that update a Parameter input in place (Assign, ApplyMomentum): the
    #: update must happen where the Parameter lives, so fallback_device_target never runs them.
    updates_parameters = False

    #: The primitive's name: its class name (a plain class attribute, read on every call), or
    #: the name given to ``Primitive(name)`` as MindSpore's user-defined primitives do.
    name = "Primitive"
    #: True where ``infer`` reads nothing but its inputs' types, shapes and dtypes, the values
    #: of its other inputs and the primitive's attributes: a call that repeats an earlier
    #: signature then reuses its result (as MindSpore's PyNative caches inferred outputs).
    #: Subclasses defined outside ember say False unless they set it themselves.
    cache_infer = True
    #: False where ``bprop`` reads no values of the tensor inputs, or of the output (only
    #: their shapes and dtypes, and whether they need gradients): the PyNative tape then
    #: keeps no values of them alive for the backward pass.
    bprop_reads_inputs = True
    bprop_reads_out = True
    #: How ``prepare`` converts the inputs (``ops.signature``); None: it leaves them alone.
    __mindspore_signature__: tuple | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.name = cls.__name__
        if "cache_infer" not in cls.__dict__ and not cls.__module__.startswith("ember."):
            cls.cache_infer = False

    def __init__(self, name: str | None = None) -> None:
        self._kernel: Any = None
        self._kernel_owner: Any = None
        if name is not None:  # MindSpore's Primitive(name), PrimitiveWithInfer(name)
            if not isinstance(name, str) or not name:
                raise TypeError(f"Primitive: name must be a non-empty str, but got {name!r}")
            self.__dict__["name"] = name

    def prepare(self, args: tuple) -> tuple:
        """Convert inputs before ``infer`` (binary ops turn scalars into tensors here); by
        default, as the class's ``__mindspore_signature__`` declares (``ops.signature``)."""
        signatures = type(self).__mindspore_signature__
        return args if signatures is None else convert_inputs(self.name, signatures, args)

    def infer(self, *args: Any) -> Spec | list[Spec]:
        raise TypeError(f"primitive {self.name} defines no shape/dtype rule (infer)")

    def bprop(self, *args: Any) -> tuple:
        get_bprop = getattr(self, "get_bprop", None)
        if get_bprop is not None:  # MindSpore's way for a user primitive to give its rule
            return tuple(get_bprop()(*args))
        raise RuntimeError(f"primitive {self.name} has no backward rule: it is not "
                           "differentiable in ember")

    @property
    def attrs(self) -> dict[str, Any]:
        """The primitive's attributes (a new dict), as shown in errors and graph dumps."""
        return {k: v for k, v in vars(self).items() if not k.startswith("_") and k != "name"}

    def add_prim_attr(self, name: str, value: Any) -> Primitive:
        """Set attribute ``name`` (shown in graph dumps and errors); returns the primitive."""
        setattr(self, name, value)
        return self

    def shard(self, in_strategy: tuple | None = None,
              out_strategy: tuple | None = None) -> Primitive:
        """Record how model parallelism would split the inputs (``in_strategy``: one tuple of
        ints per input) and outputs, as the attributes ``in_strategy`` and ``out_strategy``;
        returns the primitive. Ember runs no operator-level model parallelism: the strategies
        never change what the primitive computes, and outside semi-auto/auto parallel a
        warning says they are not used, as MindSpore's does."""
        for label, strategy in (("in_strategy", in_strategy), ("out_strategy", out_strategy)):
            if strategy is None:
                continue
            if not isinstance(strategy, tuple):
                raise TypeError(f"{self.name}.shard: {label} must be a tuple, but got "
                                f"{type(strategy).__name__}")
            for element in strategy:
                if not isinstance(element, tuple):
                    raise TypeError(f"{self.name}.shard: each element of {label} must be a "
                                    f"tuple, but got {type(element).__name__}")
                if not all(isinstance(v, int) and not isinstance(v, bool) for v in element):
                    raise TypeError(f"{self.name}.shard: the {label} {strategy} is not valid: "
                                    "its values must be int")
        if in_strategy is None and out_strategy is not None:
            raise ValueError(f"{self.name}.shard: the out_strategy {out_strategy} needs an "
                             "in_strategy, but got None")
        mode = context.get_auto_parallel_context("parallel_mode")
        if mode not in ("semi_auto_parallel", "auto_parallel"):
            _warn_shard_unused(mode)
        self.add_prim_attr("in_strategy", in_strategy)
        return self.add_prim_attr("out_strategy", out_strategy)

    def recompute(self, mode: bool = True) -> Primitive:
        """Set the attribute ``recompute`` (MindSpore recomputes such a primitive in the
        backward pass instead of keeping its output); returns the primitive. Ember keeps the
        output: values and gradients are the same either way. PyNative mode raises TypeError,
        as MindSpore 1.6 does."""
        if context.get_context("mode") == context.PYNATIVE_MODE:
            raise TypeError("Recompute is not supported in pynative mode currently.")
        if not isinstance(mode, bool):
            raise TypeError(f"{self.name}.recompute: mode must be bool, but got "
                            f"{type(mode).__name__}")
        return self.add_prim_attr("recompute", mode)

    def init_prim_io_names(self, inputs: list[str], outputs: list[str]) -> None:
        """Name the inputs and outputs (MindSpore's ``input_names``/``output_names``)."""
        self.input_names, self.output_names = list(inputs), list(outputs)

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if not name.startswith("_"):  # an attribute changed (add_prim_attr): infer again
            self.__dict__.pop("_specs", None)
            self.__dict__.pop("_made", None)

    def _derived(self, cls: type[Primitive], *args: Any) -> Any:
        """``cls(*args)`` (hashable ``args``), made once for this primitive until one of its
        attributes changes: a backward rule's primitive, whose kernel and inferred outputs are
        then made once too."""
        made = self.__dict__.get("_made")
        if made is None:
            made = self.__dict__["_made"] = {}
        prim = made.get((cls, args))
        if prim is None:
            prim = made[cls, args] = cls(*args)
        return prim

    def __call__(self, *args: Any) -> Any:
        args = self.prepare(args)
        key = signature(args) if self.cache_infer else None
        if key is None:
            return run(self, args, self.infer(*args))
        specs = self.__dict__.get("_specs")
        if specs is None:
            specs = self.__dict__["_specs"] = {}
        spec = specs.get(key)
        if spec is None:
            if len(specs) >= _SPECS_KEPT:
                specs.clear()
            spec = specs[key] = self.infer(*args)
        return run(self, args, spec)

    def __repr__(self) -> str:
        attrs = ", ".join(f"{k}={v!r}" for k, v in self.attrs.items())
        return f"Prim[{self.name}]" + (f"<{attrs}>" if attrs else "")


class PrimitiveWithInfer(Primitive):
    """A primitive whose rule is written as ``infer_shape(*shapes)`` and
    ``infer_dtype(*dtypes)``, as MindSpore's: Tensor inputs give their shape (a list) and
    dtype, other inputs their value; a tuple of shapes and of dtypes means several outputs."""

    def infer_shape(self, *shapes: Any) -> Any:
        raise TypeError(f"primitive {self.name} defines no infer_shape")

    def infer_dtype(self, *dtypes: Any) -> Any:
        raise TypeError(f"primitive {self.name} defines no infer_dtype")

    def infer(self, *args: Any) -> Spec | list[Spec]:
        shape = self.infer_shape(*(list(a.shape) if isinstance(a, Tensor) else a for a in args))
        dtype = self.infer_dtype(*(a.dtype if isinstance(a, Tensor) else a for a in args))
        if isinstance(dtype, tuple | list):
            return [(tuple(s), d) for s, d in zip(shape, dtype)]
        return tuple(shape), dtype


class PrimitiveWithCheck(Primitive):
    """A primitive that checks its inputs with ``check_shape(*shapes)`` and
    ``check_dtype(*dtypes)`` before its own ``infer`` computes the output."""

    def check_shape(self, *shapes: Any) -> None:
        return None

    def check_dtype(self, *dtypes: Any) -> None:
        return None

    def __call__(self, *args: Any) -> Any:
        args = self.prepare(args)
        self.check_shape(*(list(a.shape) if isinstance(a, Tensor) else a for a in args))
        self.check_dtype(*(a.dtype if isinstance(a, Tensor) else a for a in args))
        return run(self, args, self.infer(*args))


@functools.cache
def _warn_shard_unused(mode: str) -> None:
    """Warn once per parallel mode (a transformer shards hundreds of primitives) that shard
    strategies are not used outside semi-auto/auto parallel."""
    log.warning(f"Shard strategies are not valid in {mode}: they are recorded, and the "
                "primitives compute unsharded. Please use semi auto or auto parallel mode.")


def prim_attr_register(fn: Callable[..., None]) -> Callable[..., None]:
    """Decorate a primitive's ``__init__``: initialise the primitive, then record every
    argument (defaults included) as an attribute of the same name."""
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def init(self: Primitive, *args: Any, **kwargs: Any) -> None:
        Primitive.__init__(self)
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        for name, value in list(bound.arguments.items())[1:]:
            self.add_prim_attr(name, value)
        fn(self, *args, **kwargs)

    return init


def constexpr(fn: Callable | None = None, get_instance: bool = True, name: str | None = None,
              reuse_result: bool = True) -> Any:
    """Mark a function evaluated on constant (Python) values while a graph is built, as
    MindSpore's ``@constexpr``; it runs as plain Python in either mode."""
    if fn is None:
        return functools.partial(constexpr, get_instance=get_instance, name=name)
    if not callable(fn):
        raise TypeError(f"constexpr: expects a function, but got {type(fn).__name__}")
    return fn


def primitive_classes() -> list[type[Primitive]]:
    """Every public primitive class of ember (the ones a backend may need kernels for)."""
    import ember.ops  # noqa: F401  (defines them all)

    found: dict[str, type[Primitive]] = {}
    todo = [Primitive]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if (not sub.__name__.startswith("_") and sub.__module__.startswith("ember.")
                    and sub.__module__ != __name__  # PrimitiveWithInfer/Check are bases
                    and not hasattr(sub, "graphs")):  # control flow: run by graph executors
                found.setdefault(sub.__name__, sub)
    return sorted(found.values(), key=lambda cls: cls.__name__)


#: How many signatures a primitive keeps the inferred outputs of (then it starts again).
_SPECS_KEPT = 64
_VALUES = frozenset((int, bool, str, type(None)))


def signature(args: tuple) -> tuple | None:
    """What ``infer`` may read of ``args``: the type, shape and dtype of each Tensor, the type
    and value of each int, bool, str or None, tuples of ints; None if an input is another
    kind (a float, a list, a tuple of Tensors), whose inference is not reused."""
    key = []
    for a in args:
        kind = type(a)
        if kind in _VALUES:
            key.append((kind, a))
        elif isinstance(a, Tensor):
            key.append((kind, a._shape, a._dtype))
        elif kind is tuple and all(type(n) is int for n in a):
            key.append(a)
        elif isinstance(a, mstype.Type):
            key.append((mstype.Type, a))
        else:
            return None
    return tuple(key)


def run(prim: Primitive, args: tuple, spec: Spec | list[Spec]) -> Any:
    """Execute ``prim`` on the current executor and record it for autodiff when asked."""
    executor = state.eager or load_eager()
    if prim._kernel_owner is not executor:
        prim._kernel = resolve_kernel(executor, prim)
        prim._kernel_owner = executor
    device = executor.device
    recording = _autodiff.state.recording
    eager = device is not state.tracer or device is None
    if recording and eager and getattr(prim, "updates_parameters", False):
        _rehome(args, device)
    arrays = []
    for a in args:
        if isinstance(a, Tensor):
            arrays.append(a._data if a._device is device else to_device(a, device))
        else:
            arrays.append(a)
    try:
        result = prim._kernel(*arrays)
    except Exception as exc:
        raise _op_error(prim, args, exc) from None
    if type(spec) is list:
        out: Any = tuple(_wrap(r, s, device) for r, s in zip(result, spec))
    else:
        out = _new_tensor(Tensor)
        out._data = result
        out._device = device
        out._shape, out._dtype = spec
        out._node = None
    if recording:
        if not eager:
            _autodiff.record(prim, device.taped(args, out), out)
            return out
        node = _autodiff.record(prim, args, out)
        if node is not None:
            for a in node.inputs:
                if isinstance(a, Parameter):
                    _autodiff.read_by(a, node)
    return out


def _rehome(args: tuple, device: Any) -> None:
    """Before a primitive updates a Parameter among ``args`` in place while a gradient is
    recorded: the nodes that read it keep its storage, and it moves to a copy."""
    for a in args:
        if isinstance(a, Parameter) and a._device is device and _autodiff.keep_reads(
                a, a._data, device):
            host = to_host(a)
            a._data = (host.copy() if device is None else
                       getattr(device, "parameter_from_host", device.from_host)(host))


_new_tensor = object.__new__


def _wrap(data: Any, spec: Spec, device: Any) -> Tensor:
    return Tensor._make(data, spec[1], spec[0], device)


def describe(args: tuple) -> str:
    """Inputs as errors show them: shapes and dtypes of tensors, values of the rest."""
    return ", ".join(f"Tensor(shape={list(a.shape)}, dtype={a.dtype})" if isinstance(a, Tensor)
                     else repr(a) for a in args)


def user_frame() -> str:
    """``file:line`` of the innermost caller outside ember, for error messages."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").partition(".")[0] == "ember":
        frame = frame.f_back
    return "<unknown>" if frame is None else f"{frame.f_code.co_filename}:{frame.f_lineno}"


def _op_error(prim: Primitive, args: tuple, exc: Exception) -> RuntimeError:
    return RuntimeError(f"{prim.name} failed at {user_frame()} on inputs ({describe(args)}): "
                        f"{type(exc).__name__}: {exc}")
