"""Watching each primitive as it runs: the Profiler and the data dump observe through here.

Nothing here runs while no observer is active. When one starts, the PyNative executor in effect
is wrapped (``state.eager`` becomes an :class:`ObservedExecutor`, and is fetched again when the
last observer stops), and a compiled graph runs a second compilation of itself whose node
kernels are wrapped (the graph executor's ``compile(graph, wrap=...)``). The primitive call
itself is unchanged, so observing costs nothing while it is off.

An observer has ``before(op, arrays)`` and ``after(op, arrays, result, start_ns, end_ns)``;
``op`` is an :class:`OpInfo`. A profiler also gives ``synchronize``: called after each kernel
so that its time span covers the device's work.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ember import _autodiff
from ember._executor import resolve_kernel, state
from ember.common import dtype as mstype

#: The observers in effect, and the device synchronisations the profilers ask for.
observers: list[Any] = []
_syncs: list[Callable[[], None]] = []


class OpInfo:
    """One execution of a primitive: its full name with scope (``Default/conv1-Conv2d/
    Conv2D-op3``), its type (the primitive), its inputs' :func:`spec_of`, the graph it runs
    in (``""`` in PyNative), the step (an iteration: a call of the outermost cell or of a
    compiled graph) and ``to_host``, which brings the backend's arrays to host memory."""

    __slots__ = ("name", "type", "inputs", "graph", "graph_id", "step", "to_host", "prim")

    def __init__(self, name: str, prim: Any, inputs: list[tuple[Any, Any]],
                 graph: str, graph_id: int, step: int, to_host: Callable[[Any], Any]) -> None:
        self.name, self.type, self.prim, self.inputs = name, prim.name, prim, inputs
        self.graph, self.graph_id, self.step, self.to_host = graph, graph_id, step, to_host

    @property
    def short_name(self) -> str:
        """The name without its scope: ``Conv2D-op3``."""
        return self.name.rpartition("/")[2]


def start(observer: Any) -> None:
    """Begin calling ``observer`` for every primitive run from now on."""
    observers.append(observer)
    sync = getattr(observer, "synchronize", None)
    if sync is not None:
        _syncs.append(sync)
    _refresh()


def stop(observer: Any) -> None:
    """Stop calling ``observer``."""
    observers.remove(observer)
    _scopes.frames.clear()  # no frame kept alive once observing stops
    sync = getattr(observer, "synchronize", None)
    if sync is not None:
        _syncs.remove(sync)
    _refresh()


def _refresh() -> None:
    """Make the next primitive fetch its executor again (observed or plain)."""
    state.observe = ObservedExecutor if observers else None
    state.eager = state.executor = None


def run_watched(kernel: Callable[..., Any], op: OpInfo, arrays: tuple) -> Any:
    """``kernel(*arrays)`` with every observer told before and after."""
    for observer in observers:
        observer.before(op, arrays)
    begin = time.perf_counter_ns()
    result = kernel(*arrays)
    for sync in _syncs:
        sync()
    end = time.perf_counter_ns()
    for observer in observers:
        observer.after(op, arrays, result, begin, end)
    return result


def spec_of(array: Any) -> tuple[Any, Any]:
    """(shape, dtype) of a backend array as the backend gives them, ``((), type name)`` of a
    Python value; :func:`spec_name` turns them into plain values when they are written."""
    dtype = getattr(array, "dtype", None)
    return ((), type(array).__name__) if dtype is None else (array.shape, dtype)


_DTYPE_NAMES: dict[Any, str] = {}


def spec_name(shape: Any, dtype: Any) -> tuple[tuple[int, ...], str]:
    """(shape as ints, ember's dtype name) of a :func:`spec_of` result or a graph value's."""
    if isinstance(dtype, str):  # a Python value's type
        return (), dtype
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        np_dtype = getattr(dtype, "as_numpy_dtype", dtype)  # a tf.DType
        try:
            name = str(mstype.from_numpy(np_dtype))
        except TypeError:
            name = getattr(dtype, "__name__", str(dtype))
        _DTYPE_NAMES[dtype] = name
    return tuple(int(d) for d in shape), name


# -- PyNative ---------------------------------------------------------------------------------
class ObservedExecutor:
    """The PyNative executor while observers are active: the same kernels, each run through
    :func:`run_watched` with the scope of the cell that called it."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.device = inner.device
        self.name = getattr(inner, "name", "?")
        self.primitives = getattr(inner, "primitives", frozenset())

    def kernel(self, prim: Any) -> Callable[..., Any]:
        kernel = resolve_kernel(self.inner, prim)
        to_host = self.inner.to_host

        def watched(*arrays: Any) -> Any:
            op = OpInfo(_scopes.name_of(prim), prim, [spec_of(a) for a in arrays], "", 0,
                        _scopes.step, to_host)
            return run_watched(kernel, op, arrays)

        return watched

    def to_host(self, array: Any) -> np.ndarray:
        return self.inner.to_host(array)

    def from_host(self, array: np.ndarray) -> Any:
        return self.inner.from_host(array)


class _Scopes:
    """Names PyNative primitive calls after the cells on the Python stack, as GRAPH_MODE names
    its nodes: ``Default/<attr>-<Class>/.../<Prim>-op<N>``, where N numbers each call site once
    (so a step's ops have the same names in every step). Ops run by the autodiff backward pass
    are under ``Gradients/``. A new call of the outermost cell starts a new step.

    What lies above the innermost cell's frame is worked out once per frame (``frames``, kept
    for the step), so an op walks only the few frames between it and its cell."""

    def __init__(self) -> None:
        self.sites: dict[tuple, str] = {}
        self.frames: dict[Any, tuple[tuple, list[Any]]] = {}  # cell frame -> (key, cells)
        self.root_frame: Any = None
        self.step = 0
        self.construct: Any = None  # the code of Cell._run_construct

    def reset(self) -> None:
        self.__init__()  # type: ignore[misc]

    def name_of(self, prim: Any) -> str:
        if self.construct is None:
            from ember.nn.cell import Cell

            self.construct = Cell._run_construct.__code__
        construct = self.construct
        sites: list[tuple[int, int]] = []  # the call sites inside the innermost cell
        frame = sys._getframe(2)
        while frame is not None and frame.f_code is not construct:
            sites.append((id(frame.f_code), frame.f_lasti))
            frame = frame.f_back
        if frame is None:  # not called by a cell
            outer: tuple[tuple, list[Any]] = ((), [])
            sites = []
        else:
            outer = self.frames.get(frame) or self._outer(frame)
        key = (_autodiff.state.backward > 0, prim.name, *outer[0], *sites)
        name = self.sites.get(key)
        if name is None:
            prefix = "Gradients/" if key[0] else ""
            name = self.sites[key] = (f"{prefix}{_scope_path(outer[1])}/{prim.name}"
                                      f"-op{len(self.sites)}")
        return name

    def _outer(self, cell_frame: Any) -> tuple[tuple, list[Any]]:
        """The cells from the outermost to the one of ``cell_frame``, and a key of them and
        of the call sites between them; a new outermost call starts a step."""
        cells: list[Any] = []
        sites: list[tuple[int, int]] = []
        inside = 0
        root = frame = cell_frame
        while frame is not None:
            if frame.f_code is self.construct:
                cells.append(frame.f_locals["self"])
                root = frame
                inside = len(sites)
            sites.append((id(frame.f_code), frame.f_lasti))
            frame = frame.f_back
        if root is not self.root_frame:
            self.root_frame = root
            self.step += 1
            self.frames.clear()  # the frames of the last step are done
        cells.reverse()
        found = self.frames[cell_frame] = ((*map(id, cells), *sites[:inside]), cells)
        return found


def _scope_path(cells: list[Any]) -> str:
    from ember import context

    with_class = context.get_context("reserve_class_name_in_scope")
    path = "Default"
    for parent, child in zip(cells, cells[1:]):
        attr = next((k for k, c in parent._cells.items() if c is child), type(child).__name__)
        path += f"/{attr}-{type(child).__name__}" if with_class else f"/{attr}"
    return path


_scopes = _Scopes()


def new_session() -> None:
    """Number PyNative call sites and steps afresh (a new profile or dump)."""
    _scopes.reset()


# -- graphs -----------------------------------------------------------------------------------
class GraphWatch:
    """Wraps the node kernels of one compiled graph: each node's OpInfo is fixed, its step
    is the graph's call count."""

    def __init__(self, graph: Any, graph_id: int, to_host: Callable[[Any], Any]) -> None:
        self.graph, self.graph_id, self.to_host = graph, graph_id, to_host
        self.step = 0

    def __call__(self, node: Any, kernel: Callable[..., Any]) -> Callable[..., Any]:
        inputs = [(v.shape, v.dtype.np_dtype) if hasattr(v, "kind") else spec_of(v)
                  for v in node.inputs]

        def watched(*arrays: Any) -> Any:
            op = OpInfo(node.scope, node.prim, inputs, self.graph.name, self.graph_id,
                        self.step, self.to_host)
            return run_watched(kernel, op, arrays)

        return watched
