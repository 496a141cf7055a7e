"""MindSpore's operator modules as import paths: names MindSpore defines in one of them
(``array_ops.DepthToSpace``) that ember defines in a module of another kind."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def forwarding(module: str, names: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` (PEP 562) for ``module`` that finds ``names`` (space-separated)
    on ``ember.ops.operations``, where every primitive is gathered."""
    wanted = frozenset(names.split())

    def __getattr__(name: str) -> Any:
        if name in wanted:  # the package imports this module, so it is loaded by now
            return getattr(sys.modules["ember.ops.operations"], name)
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__
