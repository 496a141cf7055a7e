"""Debugging operations: ``HookBackward`` and ``Print``."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from ember import _autodiff
from ember.common.tensor import Tensor

__all__ = ["HookBackward", "Print"]


class HookBackward:
    """Identity whose backward calls ``hook_fn(grad)`` with the tuple of incoming gradients;
    a return value other than None replaces them: ``z = HookBackward(hook_fn)(z)``."""

    name = "HookBackward"

    def __init__(self, hook_fn: Callable, cell_id: str = "") -> None:
        if not callable(hook_fn):
            raise TypeError(f"HookBackward: hook_fn must be callable, but got "
                            f"{type(hook_fn).__name__}")
        self.hook_fn = hook_fn
        self.cell_id = cell_id

    def __call__(self, *inputs: Any) -> Any:
        for i, x in enumerate(inputs):
            if not isinstance(x, Tensor):
                raise TypeError(f"HookBackward: input {i} must be a Tensor, but got "
                                f"{type(x).__name__}")
        if not _autodiff.state.recording:
            return inputs[0] if len(inputs) == 1 else inputs
        aliases = _autodiff.record_alias(self, inputs, inputs)
        return aliases[0] if len(aliases) == 1 else aliases

    def bprop(self, *args: Any) -> tuple:
        grads = args[-1] if isinstance(args[-1], tuple) else (args[-1],)
        result = self.hook_fn(grads)
        if result is None:
            return grads
        return result if isinstance(result, tuple) else (result,)


class Print:
    """Print tensors and strings to stdout (or ``print_file_path``), as ``ops.Print()``."""

    name = "Print"

    def __call__(self, *inputs: Any) -> None:
        from ember import context

        for i, x in enumerate(inputs):
            if not isinstance(x, Tensor | str | int | float | bool):
                raise TypeError(f"Print: input {i} must be a Tensor, str or number, but got "
                                f"{type(x).__name__}")
        text = "\n".join(str(x) if not isinstance(x, Tensor) else repr(x) for x in inputs)
        path = context.get_context("print_file_path")
        if path:
            with open(path, "a", encoding="utf-8") as f:
                f.write(text + "\n")
        else:
            sys.stdout.write(text + "\n")
