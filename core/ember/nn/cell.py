"""``Cell``: the base of layers and networks, as ``mindspore.nn.Cell``."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

from ember import _autodiff, _executor, context
from ember.common import dtype as mstype
from ember.common.parameter import Parameter, ParameterTuple
from ember.common.tensor import Tensor
from ember.ops import functional as F

_DEFAULT_PARAMETER_NAME = "Parameter"
_RECOMPUTE_KEYS = ("mp_comm_recompute", "parallel_optimizer_comm_recompute",
                   "recompute_slice_activation")


class Cell:
    """A layer or network: parameters and child cells as attributes, computation in
    ``construct``.

    Assigning a Parameter or a Cell to an attribute registers it; parameter names follow the
    attribute path (``conv1.weight``). Calling the cell runs ``construct``. A subclass may
    define ``bprop(self, *inputs, out, dout)`` to replace the gradient of the whole cell.
    """

    def __init__(self, auto_prefix: bool = True, flags: dict | None = None) -> None:
        object.__setattr__(self, "_params", OrderedDict())
        object.__setattr__(self, "_cells", OrderedDict())
        self._auto_prefix = auto_prefix
        self.training = False
        self.requires_grad = False
        self._backward_hook: Callable | None = None
        self._flags: dict[str, Any] = {}
        if flags:
            self.add_flags(**flags)

    # -- attribute registry -----------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        if "_params" not in self.__dict__:
            raise AttributeError(f"{type(self).__name__}.__init__ must call super().__init__() "
                                 f"before setting attribute '{name}'")
        params, cells = self._params, self._cells
        if isinstance(value, Parameter):
            self.insert_param_to_cell(name, value)
        elif isinstance(value, Cell):
            if name in params:
                raise TypeError(f"{type(self).__name__}.{name} is a Parameter slot; assign a "
                                f"Parameter, a Tensor (its new values) or None, not a Cell")
            self.insert_child_to_cell(name, value)
        elif isinstance(value, ParameterTuple):
            for i, param in enumerate(value):
                self.insert_param_to_cell(f"{name}.{i}" if not param._named else param.name,
                                          param, check_name=False)
            object.__setattr__(self, name, value)
        else:
            if name in params:
                param = params[name]
                if isinstance(value, Tensor) and param is not None:
                    # new values for the same Parameter; in a graph being compiled, an Assign
                    if _executor.state.tracer is not None:
                        F.assign(param, value)
                    else:
                        param.set_data(value)
                    return
                if value is not None:
                    raise TypeError(f"{type(self).__name__}.{name} is a Parameter; assign a "
                                    f"Parameter, a Tensor (its new values) or None, not "
                                    f"{type(value).__name__}")
                params[name] = None  # the slot stays a Parameter's, as MindSpore's does
                return
            if name in cells:
                if value is not None:
                    raise TypeError(f"{type(self).__name__}.{name} is a Cell slot; assign a "
                                    f"Cell or None, not {type(value).__name__}")
                cells[name] = None
                return
            object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        params = self.__dict__.get("_params")
        if params is not None and name in params:
            param = params[name]
            cast = self.__dict__.get("_casting")  # set while construct runs under to_float
            if cast is not None and param is not None and param.requires_grad and (
                    mstype.is_float(param.dtype) and param.dtype is not cast):
                return F.cast(param, cast)  # computes in ``cast``; gradients reach the weight
            return param
        cells = self.__dict__.get("_cells")
        if cells is not None and name in cells:
            return cells[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        if name in self._params:
            del self._params[name]
        elif name in self._cells:
            del self._cells[name]
        else:
            object.__delattr__(self, name)

    def insert_param_to_cell(self, param_name: str, param: Parameter,
                             check_name: bool = True) -> None:
        """Register ``param`` under ``param_name``; it takes that name if it has none."""
        if not isinstance(param, Parameter):
            raise TypeError(f"insert_param_to_cell: '{param_name}' must be a Parameter, but got "
                            f"{type(param).__name__}")
        if check_name and ("." in param_name or not param_name):
            raise KeyError(f"insert_param_to_cell: parameter name '{param_name}' must be "
                           "non-empty and contain no '.'")
        if not param._named:
            param.name = param_name
        self.__dict__.pop(param_name, None)
        self._params[param_name] = param

    def insert_child_to_cell(self, child_name: str, child_cell: Cell | None) -> None:
        """Register ``child_cell`` (or None, a placeholder) under ``child_name`` and prefix its
        parameter names."""
        if not isinstance(child_cell, Cell) and child_cell is not None:
            raise TypeError(f"insert_child_to_cell: '{child_name}' must be a Cell or None, but "
                            f"got {type(child_cell).__name__}")
        if not child_name or "." in child_name:
            raise KeyError(f"insert_child_to_cell: child name '{child_name}' must be "
                           "non-empty and contain no '.'")
        self.__dict__.pop(child_name, None)
        self._cells[child_name] = child_cell
        if self._auto_prefix and child_cell is not None:
            child_cell.update_parameters_name(child_name + ".")

    def update_parameters_name(self, prefix: str = "", recurse: bool = True) -> None:
        """Name every parameter ``prefix`` + its path in this cell."""
        for name, param in self.parameters_and_names(expand=recurse):
            param.name = prefix + name

    # -- traversal --------------------------------------------------------------------------
    def cells_and_names(self, cells: set | None = None,
                        name_prefix: str = "") -> Iterator[tuple[str, Cell]]:
        """This cell and every descendant, each once, with its path."""
        seen = set() if cells is None else cells
        if id(self) in seen:
            return
        seen.add(id(self))
        yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is not None:
                path = f"{name_prefix}.{name}" if name_prefix else name
                yield from cell.cells_and_names(seen, path)

    def parameters_and_names(self, name_prefix: str = "",
                             expand: bool = True) -> Iterator[tuple[str, Parameter]]:
        """Every parameter once, with its path (``conv1.weight``)."""
        seen: set[int] = set()
        cells = self.cells_and_names(name_prefix=name_prefix) if expand else [
            (name_prefix, self)]
        for prefix, cell in cells:
            for name, param in cell._params.items():
                if param is not None and id(param) not in seen:
                    seen.add(id(param))
                    yield (f"{prefix}.{name}" if prefix else name), param

    def get_parameters(self, expand: bool = True) -> Iterator[Parameter]:
        for _, param in self.parameters_and_names(expand=expand):
            yield param

    def trainable_params(self, recurse: bool = True) -> list[Parameter]:
        return [p for p in self.get_parameters(recurse) if p.requires_grad]

    def untrainable_params(self, recurse: bool = True) -> list[Parameter]:
        return [p for p in self.get_parameters(recurse) if not p.requires_grad]

    def parameters_dict(self, recurse: bool = True) -> OrderedDict[str, Parameter]:
        return OrderedDict((p.name, p) for p in self.get_parameters(recurse))

    def cells(self) -> Iterator[Cell]:
        return iter(self._cells.values())

    def name_cells(self) -> OrderedDict[str, Cell]:
        return OrderedDict(self._cells)

    def init_parameters_data(self, auto_parallel_mode: bool = False) -> dict:
        """Materialize every parameter's data (already done at creation in ember)."""
        return {p: p.init_data() for p in self.get_parameters()}

    # -- modes --------------------------------------------------------------------------------
    def set_train(self, mode: bool = True) -> Cell:
        """Training (True) or inference (False) behaviour for this cell and its children."""
        from ember.graph import compiler

        for _, cell in self.cells_and_names():
            cell.training = mode
        compiler.new_phase()
        return self

    def set_auto_parallel(self) -> None:
        """Mark the cell for semi_auto_parallel/auto_parallel compilation (the flag
        ``auto_parallel``): ``_cell_graph_executor.compile`` then checks the shard strategies
        of its primitives against their inputs and device_num. Ember partitions nothing."""
        self.add_flags(auto_parallel=True)

    def set_grad(self, requires_grad: bool = True) -> Cell:
        self.requires_grad = requires_grad
        return self

    # -- calling ------------------------------------------------------------------------------
    def construct(self, *inputs: Any, **kwargs: Any) -> Any:
        raise AttributeError(f"{type(self).__name__} defines no construct method: a Cell "
                             "computes its output in construct(self, *inputs)")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        tracer = _executor.state.tracer
        if tracer is not None:  # part of a graph being compiled
            return tracer.call_cell(self, lambda: self._run_construct(args, kwargs))
        if not _autodiff.state.recording and _executor.graph_mode():
            from ember.graph import compiler

            return compiler.run_cell(self, args, kwargs)
        return self._run_construct(args, kwargs)

    def _run_construct(self, args: tuple, kwargs: dict) -> Any:
        cast = self.__dict__.get("_cast_type")
        if cast is not None:
            args = tuple(F.cast(a, cast) if isinstance(a, Tensor) and mstype.is_float(a.dtype)
                         and a.dtype is not cast else a for a in args)
            outer, self.__dict__["_casting"] = self.__dict__.get("_casting"), cast
            try:
                return self._construct_with_grads(args, kwargs)
            finally:
                self.__dict__["_casting"] = outer
        return self._construct_with_grads(args, kwargs)

    def _construct_with_grads(self, args: tuple, kwargs: dict) -> Any:
        if _autodiff.state.recording and (self._backward_hook is not None
                                          or hasattr(type(self), "bprop")):
            return _autodiff.call_cell_with_custom_grad(self, args, kwargs)
        if _executor.state.tracer is not None:  # compiling: control flow on tensors converted
            from ember.graph.autograph import convert

            return convert(self.construct)(*args, **kwargs)
        return self.construct(*args, **kwargs)

    def add_flags(self, **flags: Any) -> Cell:
        """Set ``flags`` on this cell, each also an attribute (MindSpore's compile flags);
        ``fp16=True`` or ``fp32=True`` computes the cell in that type, as :meth:`to_float`."""
        from ember.graph import compiler

        self._flags.update(flags)
        for name, value in flags.items():
            setattr(self, name, value)
        for flag, dtype in (("fp16", mstype.float16), ("fp32", mstype.float32)):
            if flags.get(flag):
                self.__dict__["_cast_type"] = dtype
        compiler.new_phase()
        return self

    def add_flags_recursive(self, **flags: Any) -> Cell:
        """:meth:`add_flags` on this cell and every cell inside it."""
        for _, cell in self.cells_and_names():
            cell.add_flags(**flags)
        return self

    def get_flags(self) -> dict[str, Any]:
        """The flags set by :meth:`add_flags` (and the constructor's ``flags``)."""
        return dict(self._flags)

    def to_float(self, dst_type: mstype.Type) -> Cell:
        """Compute this cell and its children in ``dst_type`` (float16 or float32): floating
        inputs and trainable weights are cast on use; the weights themselves keep their dtype
        (the float32 master copy of mixed precision). Sets the flags ``fp16`` and ``fp32``."""
        if dst_type not in (mstype.float16, mstype.float32):
            raise ValueError(f"to_float: dst_type must be ember.float16 or ember.float32, but "
                             f"got {dst_type!r}")
        return self.add_flags_recursive(fp16=dst_type == mstype.float16,
                                        fp32=dst_type == mstype.float32)

    def recompute(self, **kwargs: Any) -> None:
        """Mark this cell and every cell inside it for recomputation: MindSpore then frees
        their activations after the forward pass and computes them again in the backward pass.
        Ember keeps the activations, so values and gradients are unchanged and no memory is
        saved; each marked cell's scope (:meth:`get_scope`) becomes ``'recompute_'``.

        Keywords (bool) ``mp_comm_recompute``, ``parallel_optimizer_comm_recompute`` and
        ``recompute_slice_activation`` concern model-parallel communication, which ember does
        not run; they are validated and stored as flags. Raises TypeError in PyNative mode (as
        MindSpore 1.6) or for a non-bool keyword, ValueError for another keyword, and
        RuntimeError when this cell, or a cell holding it, was marked before.
        """
        if context.get_context("mode") == context.PYNATIVE_MODE:
            raise TypeError("Recompute is not supported in pynative mode currently, you can use "
                            "'context.set_context(mode=context.GRAPH_MODE)' to set graph mode.")
        for key, value in kwargs.items():
            if key not in _RECOMPUTE_KEYS:
                raise ValueError(f"Recompute keyword {key} is not recognized!")
            if not isinstance(value, bool):
                raise TypeError(f"The argument '{key}' of recompute must be bool, but got "
                                f"{type(value).__name__}")
        cells = [cell for _, cell in self.cells_and_names()]
        if any(cell.__dict__.get("_scope") is not None for cell in cells):
            raise RuntimeError("The recompute interface can be configured only once. When the "
                               "parent cell is configured, the child cell should not be "
                               "configured")
        for cell in cells:
            cell._scope = "recompute_"
        if kwargs:
            self.add_flags(**kwargs)

    def get_scope(self) -> str | None:
        """The cell's scope prefix: ``'recompute_'`` once :meth:`recompute` marked it, else
        None."""
        return self.__dict__.get("_scope")

    def register_backward_hook(self, hook_fn: Callable) -> None:
        """Call ``hook_fn(cell_id, grad_input, grad_output)`` when gradients pass this cell:
        ``grad_input`` flows into the cell's backward (gradients of its outputs),
        ``grad_output`` is what its backward produces (gradients of its inputs). A return
        value other than None replaces ``grad_output``."""
        if not callable(hook_fn):
            raise TypeError(f"register_backward_hook: hook_fn must be callable, but got "
                            f"{type(hook_fn).__name__}")
        self._backward_hook = hook_fn

    @property
    def cls_name(self) -> str:
        return type(self).__name__

    # -- printing -----------------------------------------------------------------------------
    def extend_repr(self) -> str:
        """The attributes shown between ``<`` and ``>`` in ``repr``."""
        return ""

    def __repr__(self) -> str:
        extra = self.extend_repr()
        if not self._cells:
            return f"{type(self).__name__}<{extra}>"
        body = "\n" + (f"{extra}\n" if extra else "")
        for name, cell in self._cells.items():
            body += f"({name}): {cell!r}\n"
        return f"{type(self).__name__}<" + body.replace("\n", "\n  ") + ">"

