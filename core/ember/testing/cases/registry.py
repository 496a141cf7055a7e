"""The whole table of the conformance kit: the cases of every primitive family.

Each family is a module ``ember.testing.cases.<family>`` exporting ``CASES: list[OpCase]``;
a family whose module does not exist (yet) is left out, a module that fails to import is an
error. The table is checked once, when first read: ids are unique and of the form
``Primitive/label``, and a case with ``grad`` runs in float64 (the dtype its gradients are
checked in).
"""

from __future__ import annotations

import functools
import importlib

import numpy as np

from ember.testing.cases import OpCase

FAMILIES = ("math", "elementwise", "reduce", "array", "nn", "activation", "norm", "spatial",
            "scatter", "index", "dynamic", "layout", "image", "random", "sparse", "loss", "optim",
            "topk", "conv3d", "rnn", "cache", "dropout", "special",
            "pnorm", "search", "fused_optim", "sequence", "inner", "quant")


class CaseTableError(ValueError):
    """The table of cases is inconsistent (a duplicate id, a gradient that cannot be checked)."""


def _load(family: str) -> list[OpCase]:
    module_name = f"ember.testing.cases.{family}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return []
        raise
    return list(module.CASES)


def _check(family: str, case: OpCase, seen: dict[str, str]) -> None:
    where = f"case {case.id!r} (family {family})"
    if not case.id.startswith(f"{case.primitive}/") or case.id == f"{case.primitive}/":
        raise CaseTableError(f"{where}: ids must read '<primitive>/<label>' with primitive "
                             f"{case.primitive!r}")
    if case.id in seen:
        raise CaseTableError(f"{where}: the id is used twice (also in family {seen[case.id]})")
    if not case.dtypes:
        raise CaseTableError(f"{where}: dtypes is empty")
    if case.grad and np.float64 not in case.dtypes:
        raise CaseTableError(f"{where}: grad {case.grad} is checked in float64, which is not "
                             f"among its dtypes {[np.dtype(d).name for d in case.dtypes]}")
    seen[case.id] = family


@functools.cache
def families() -> dict[str, tuple[OpCase, ...]]:
    """Family name -> its cases, in table order, for the families that exist."""
    seen: dict[str, str] = {}
    table: dict[str, tuple[OpCase, ...]] = {}
    for family in FAMILIES:
        cases = _load(family)
        for case in cases:
            _check(family, case, seen)
        if cases:
            table[family] = tuple(cases)
    return table


def all_cases() -> list[OpCase]:
    """Every case of every family."""
    return [case for cases in families().values() for case in cases]


def case_families() -> dict[str, str]:
    """Case id -> the family it belongs to."""
    return {case.id: family for family, cases in families().items() for case in cases}
