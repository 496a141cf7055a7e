"""Registries of backward rules, as MindSpore 1.6's ``ops._grad.grad_base``.

``@bprop_getters.register(P.Mul)`` registers ``getter(prim) -> bprop(*inputs, out, dout)``,
``@bprops.register(P.Mul)`` the ``bprop`` itself. A rule registered for a primitive class
(or the name of one of ``ember.ops.operations``' primitives) replaces that class's ``bprop``
from then on, in PyNative and Graph mode alike, as MindSpore's registries do.
"""

from __future__ import annotations

from collections import UserDict
from collections.abc import Callable
from typing import Any

from ember.ops.primitive import Primitive


def _primitive_class(prim: Any) -> type | None:
    if isinstance(prim, type) and issubclass(prim, Primitive):
        return prim
    if isinstance(prim, str):
        from ember.ops import operations
        from ember.ops.operations import _grad_ops

        found = getattr(operations, prim, None) or getattr(_grad_ops, prim, None)
        return found if isinstance(found, type) and issubclass(found, Primitive) else None
    return None


class BpropRegistry(UserDict):
    """Backward rules by primitive name; ``register(prim)`` decorates the rule. ``getters``
    says whether a rule takes the primitive and returns the bprop (``bprop_getters``)."""

    def __init__(self, getters: bool) -> None:
        super().__init__()
        self.getters = getters

    def register(self, prim: type | str) -> Callable:
        cls = _primitive_class(prim)
        if cls is None and not isinstance(prim, str):
            raise TypeError(f"register: 'prim' must be a Primitive class or a name, but got "
                            f"{prim!r}")

        def deco(fn: Callable) -> Callable:
            self[prim if isinstance(prim, str) else prim.__name__] = fn
            if cls is not None:
                rule = fn if self.getters else (lambda _prim: fn)
                cls.bprop = lambda p, *args: rule(p)(*args)
                cls.bprop_reads_inputs = cls.bprop_reads_out = True
            return fn

        return deco

    def get(self, prim: Any, default: Any = None) -> Any:
        """The rule registered for a primitive instance or name, else ``default``."""
        name = prim if isinstance(prim, str) else getattr(prim, "name", None)
        return self.data.get(name, default)


bprop_getters = BpropRegistry(getters=True)
bprops = BpropRegistry(getters=False)


def get_bprop_fn(prim: Primitive) -> Callable | None:
    """The registered backward rule of ``prim`` (an instance or name), or None."""
    getter = bprop_getters.get(prim)
    if getter is not None:
        return getter(prim)
    return bprops.get(prim)
