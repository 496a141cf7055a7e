"""Higher-order composites: ``MultitypeFuncGraph``, ``HyperMap``, ``Map``, ``add_flags``; with
``GradOperation`` re-exported, as ``mindspore.ops.composite.base`` has it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ember.common.tensor import Tensor
from ember.ops.composite.grad import GradOperation  # noqa: F401  (MindSpore's path)

#: MindSpore's type names in ``MultitypeFuncGraph.register``, as Python predicates.
_TYPE_TESTS: dict[str, Callable[[Any], bool]] = {
    "Tensor": lambda v: isinstance(v, Tensor),
    "Number": lambda v: isinstance(v, int | float) and not isinstance(v, Tensor),
    "Int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "Float": lambda v: isinstance(v, float),
    # a Python int is an Int64 scalar to MindSpore's graph compiler, a float a Float32 one
    "Int64": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "Float32": lambda v: isinstance(v, float),
    "Bool": lambda v: isinstance(v, bool),
    "String": lambda v: isinstance(v, str),
    "Tuple": lambda v: isinstance(v, tuple),
    "List": lambda v: isinstance(v, list),
    "Dictionary": lambda v: isinstance(v, dict),
    "None": lambda v: v is None,
    "Function": callable,
    "RowTensor": lambda v: type(v).__name__ == "RowTensor",
    "SparseTensor": lambda v: type(v).__name__ == "SparseTensor",
}


class MultitypeFuncGraph:
    """A function with one implementation per tuple of argument types, as MindSpore's.

    ``add = MultitypeFuncGraph('add')``; ``@add.register("Tensor", "Number")`` registers an
    implementation; ``add(x, 1)`` calls the first registered one whose types all match.
    """

    def __init__(self, name: str, read_value: bool = False) -> None:
        if not isinstance(name, str):
            raise TypeError(f"MultitypeFuncGraph: name must be a str, but got {name!r}")
        self.name = name
        self.entries: list[tuple[tuple[str, ...], Callable]] = []

    def register(self, *type_names: str) -> Callable[[Callable], Callable]:
        unknown = [t for t in type_names if t not in _TYPE_TESTS]
        if unknown:
            raise TypeError(f"MultitypeFuncGraph '{self.name}'.register: unknown type names "
                            f"{unknown}; accepted: {sorted(_TYPE_TESTS)}")

        def deco(fn: Callable) -> Callable:
            self.entries.append((type_names, fn))
            return fn

        return deco

    def __call__(self, *args: Any) -> Any:
        for types, fn in self.entries:
            if len(types) == len(args) and all(_TYPE_TESTS[t](a) for t, a in zip(types, args)):
                return fn(*args)
        got = ", ".join(type(a).__name__ for a in args)
        have = "; ".join(", ".join(t) for t, _ in self.entries) or "none"
        raise TypeError(f"MultitypeFuncGraph '{self.name}' has no implementation for the "
                        f"argument types ({got}); registered: {have}")


def _like(sequence: tuple | list, items: Any) -> tuple | list:
    """``items`` as a list if ``sequence`` is one, else as a tuple (a ParameterTuple's mapped
    values are not Parameters)."""
    return list(items) if isinstance(sequence, list) else tuple(items)


class HyperMap:
    """Apply ``ops`` to corresponding leaves of (nested) tuples and lists of arguments.

    ``HyperMap()(fn, xs, ys)`` or ``HyperMap(fn)(xs, ys)``; leaves are non-sequences.
    """

    def __init__(self, ops: Callable | None = None, reverse: bool = False) -> None:
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args: Any) -> Any:
        fn, seqs = (self.ops, args) if self.ops is not None else (args[0], args[1:])
        if not callable(fn):
            raise TypeError(f"HyperMap: the function must be callable, but got {fn!r}")
        return self._map(fn, seqs)

    def _map(self, fn: Callable, args: tuple) -> Any:
        sequences = [a for a in args if isinstance(a, tuple | list)]
        if not sequences:
            return fn(*args)
        first = sequences[0]
        if any(isinstance(s, list) is not isinstance(first, list) or len(s) != len(first)
               for s in sequences):  # a ParameterTuple is a tuple
            raise ValueError(f"HyperMap: the sequences must have the same type and length, but "
                             f"got {[(type(s).__name__, len(s)) for s in sequences]}")
        order = range(len(first) - 1, -1, -1) if self.reverse else range(len(first))
        items = {i: self._map(fn, tuple(a[i] if isinstance(a, tuple | list) else a
                                        for a in args)) for i in order}
        return _like(first, (items[i] for i in range(len(first))))


class Map(HyperMap):
    """Apply ``ops`` to corresponding items of sequences (one level, not recursive)."""

    def _map(self, fn: Callable, args: tuple) -> Any:
        if not args or not all(isinstance(a, tuple | list) for a in args):
            raise TypeError("Map: every argument after the function must be a tuple or list")
        if len({len(a) for a in args}) != 1:
            raise ValueError(f"Map: the sequences must have the same length, but got "
                             f"{[len(a) for a in args]}")
        order = range(len(args[0]) - 1, -1, -1) if self.reverse else range(len(args[0]))
        items = {i: fn(*(a[i] for a in args)) for i in order}
        return _like(args[0], (items[i] for i in range(len(args[0]))))


def add_flags(fn: Callable | None = None, **flags: Any) -> Any:
    """Attach graph flags to a function (``@add_flags(has_effect=True)``); they are kept
    in ``fn._ember_flags`` (ember compiles every function the same way)."""
    def deco(f: Callable) -> Callable:
        f.__dict__.setdefault("_ember_flags", {}).update(flags)
        return f

    return deco if fn is None else deco(fn)


def core(fn: Callable | None = None, **flags: Any) -> Any:
    """MindSpore's ``@core`` flag (a function the graph optimizer must not inline)."""
    return add_flags(fn, core=True, **flags)
