"""Checkers users call on their own networks: mode parity and backend comparison.

Each runs a cell's forward pass and the gradients of its outputs with respect to its inputs
and trainable parameters in several configurations, restoring the parameters' values between
runs, and reports the largest differences.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ember import context
from ember.common.parameter import ParameterTuple
from ember.common.seed import set_seed
from ember.common.tensor import Tensor
from ember.nn.cell import Cell

__all__ = ["ComparisonReport", "check_mode_parity", "compare_backends"]


@dataclass
class Run:
    """What one configuration produced: named arrays, and the hook calls it made."""

    values: dict[str, np.ndarray]
    hook_calls: dict[str, int]


@dataclass
class ComparisonReport:
    """The largest differences of each output and gradient between runs and a reference."""

    reference: str
    rtol: float
    atol: float
    #: (run, name) -> largest absolute difference (inf when shapes or dtypes differ).
    differences: dict[tuple[str, str], float] = field(default_factory=dict)
    #: run -> problems found besides values (hook calls, missing outputs).
    problems: dict[str, list[str]] = field(default_factory=dict)
    #: (run, name) -> whether the difference is within rtol/atol.
    within: dict[tuple[str, str], bool] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(self.within.values()) and not any(self.problems.values())

    @property
    def max_difference(self) -> float:
        return max(self.differences.values(), default=0.0)

    def __str__(self) -> str:
        lines = [f"{'OK' if self.ok else 'DIFFERENT'} against {self.reference} "
                 f"(rtol={self.rtol}, atol={self.atol})"]
        for (run, name), diff in sorted(self.differences.items()):
            mark = "" if self.within[(run, name)] else "   <-- differs"
            lines.append(f"  {run:>10}  {name:<32} max |diff| = {diff:.3g}{mark}")
        for run, problems in self.problems.items():
            lines.extend(f"  {run:>10}  {p}" for p in problems)
        return "\n".join(lines)

    def add(self, name: str, run: Run, reference: Run) -> None:
        problems = self.problems.setdefault(name, [])
        for key, want in reference.values.items():
            got = run.values.get(key)
            if got is None:
                problems.append(f"{key}: missing")
                continue
            if got.shape != want.shape or got.dtype != want.dtype:
                self.differences[(name, key)] = float("inf")
                self.within[(name, key)] = False
                continue
            a, b = got.astype(np.float64), want.astype(np.float64)
            same_nan = np.array_equal(np.isnan(a), np.isnan(b))
            diff = np.abs(np.where(np.isnan(a), 0, a) - np.where(np.isnan(b), 0, b))
            self.differences[(name, key)] = float(diff.max(initial=0.0))
            self.within[(name, key)] = same_nan and bool(
                np.all(diff <= self.atol + self.rtol * np.abs(b)))
        if run.hook_calls != reference.hook_calls:
            problems.append(f"backward hooks called {run.hook_calls}, but "
                            f"{reference.hook_calls} in {self.reference}")


def _flat(name: str, value: Any) -> dict[str, np.ndarray]:
    if isinstance(value, Tensor):
        return {name: value.asnumpy()}
    if isinstance(value, tuple | list):
        found: dict[str, np.ndarray] = {}
        for i, item in enumerate(value):
            found.update(_flat(f"{name}[{i}]", item))
        return found
    return {}


@contextlib.contextmanager
def _restoring(cell: Cell, **options: Any) -> Iterator[None]:
    """Run with ``options`` set in the context, then put back the context and every
    parameter's values."""
    saved_params = [(p, p.asnumpy()) for p in cell.get_parameters()]
    saved_options = {key: context.get_context(key) for key in options}
    context.set_context(**options)
    try:
        yield
    finally:
        context.set_context(**saved_options)
        for param, values in saved_params:
            param.set_data(Tensor(values))


@contextlib.contextmanager
def _counting_hooks(cell: Cell) -> Iterator[dict[str, int]]:
    """Count the calls of every backward hook registered on ``cell`` and its children."""
    counts: dict[str, int] = {}
    hooked = [(path or type(c).__name__, c, c._backward_hook) for path, c in
              cell.cells_and_names() if c._backward_hook is not None]
    for path, child, hook in hooked:
        def counted(*args: Any, _hook: Any = hook, _path: str = path) -> Any:
            counts[_path] = counts.get(_path, 0) + 1
            return _hook(*args)

        child._backward_hook = counted
    try:
        yield counts
    finally:
        for _, child, hook in hooked:
            child._backward_hook = hook


def _run(cell: Cell, inputs: Sequence[Any], seed: int) -> Run:
    from ember.ops.composite import GradOperation

    set_seed(seed)
    values = _flat("output", cell(*inputs))
    params = ParameterTuple(cell.trainable_params())
    if any(isinstance(x, Tensor) for x in inputs) or params:
        set_seed(seed)
        with _counting_hooks(cell) as calls:
            input_grads, param_grads = GradOperation(get_all=True, get_by_list=True)(
                cell, params)(*inputs)
        values.update(_flat("grad(input)", input_grads))
        values.update({f"grad({p.name})": g.asnumpy() for p, g in zip(params, param_grads)})
        return Run(values, calls)
    return Run(values, {})


def check_mode_parity(cell: Cell, *inputs: Any, rtol: float = 1e-5, atol: float = 1e-6,
                      seed: int = 0) -> ComparisonReport:
    """Run ``cell`` in PYNATIVE_MODE and in GRAPH_MODE on the same inputs and parameters and
    report differences in outputs, gradients (inputs and trainable parameters) and backward
    hook calls. ``print(report)`` shows them; ``report.ok`` says whether they agree."""
    runs = {}
    for name, mode in (("PYNATIVE", context.PYNATIVE_MODE), ("GRAPH", context.GRAPH_MODE)):
        with _restoring(cell, mode=mode):
            runs[name] = _run(cell, inputs, seed)
    report = ComparisonReport("PYNATIVE", rtol, atol)
    report.add("GRAPH", runs["GRAPH"], runs["PYNATIVE"])
    return report


def compare_backends(cell: Cell, *inputs: Any, targets: Sequence[str] = ("CPU",),
                     oracle: str = "CPU", rtol: float = 1e-4, atol: float = 1e-5,
                     seed: int = 0) -> ComparisonReport:
    """Run ``cell`` on each device_target of ``targets`` and on ``oracle`` (the NumPy backend
    by default) and report the largest differences of outputs and gradients."""
    if isinstance(targets, str):
        raise TypeError("compare_backends: targets must be a list of device_target names, "
                        f"such as ['GPU'], but got the string {targets!r}")
    runs = {}
    for target in dict.fromkeys([oracle, *targets]):
        with _restoring(cell, device_target=target):
            runs[target] = _run(cell, inputs, seed)
    report = ComparisonReport(oracle, rtol, atol)
    for target in targets:
        if target != oracle:
            report.add(target, runs[target], runs[oracle])
    return report
