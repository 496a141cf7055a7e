"""Every public name of MindSpore 1.6 (tests/api/mindspore16_names.py) exists in ember, or is
left out with a reason."""

from __future__ import annotations

import importlib
import importlib.util

import pytest
from mindspore16_names import EXCLUDED, NAMES


def _qualified() -> list[str]:
    return [f"{module}.{name}" for module, names in NAMES.items() for name in names]


def _exists(qualified: str) -> bool:
    module, _, name = qualified.rpartition(".")
    try:
        return hasattr(importlib.import_module(module), name) or importlib.util.find_spec(
            qualified) is not None
    except ModuleNotFoundError:
        return False


@pytest.mark.parametrize("module", sorted(NAMES))
def test_every_mindspore16_name_exists_or_is_excluded(module):
    missing = [q for q in _qualified() if q.startswith(module + ".")
               and q.rpartition(".")[0] == module and q not in EXCLUDED and not _exists(q)]
    assert not missing, f"missing from {module} and not excluded: {missing}"


def test_exclusions_are_names_of_the_table_and_still_missing():
    table = set(_qualified())
    assert not [q for q in EXCLUDED if q not in table], "an exclusion names no table entry"
    present = [q for q in EXCLUDED if _exists(q)]
    assert not present, f"excluded but present now (drop the exclusion): {present}"
