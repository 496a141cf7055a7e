"""Argument checks shared by datasets and their operations: each error names the method, the
argument and what is accepted."""

from __future__ import annotations

import glob
import os
from typing import Any


def check_int(value: Any, where: str, name: str, *, minimum: int,
              also: int | None = None) -> int:
    """``value`` as an int >= ``minimum`` (or equal to ``also``, such as -1 for "all")."""
    if minimum == 1:
        accepted = "a positive int"
    elif minimum == 0:
        accepted = "a non-negative int"
    else:
        accepted = f"an int >= {minimum}"
    if also is not None:
        accepted += f" or {also}"
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{where}: {name} must be {accepted}, but got {type(value).__name__} "
                        f"{value!r}")
    if value < minimum and value != also:
        raise ValueError(f"{where}: {name} must be {accepted}, but got {value}")
    return value


def check_bool(value: Any, where: str, name: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{where}: {name} must be a bool, but got {type(value).__name__} "
                        f"{value!r}")
    return value


_INT32_MAX = 2**31 - 1
_default_workers = 1  # ds.config.set_num_parallel_workers changes it
_workers_set = False  # whether it did


def check_workers(value: Any, where: str) -> int:
    """``num_parallel_workers``: None (``ds.config.get_num_parallel_workers()``) or a positive
    int."""
    if value is None:
        return _default_workers
    return check_int(value, where, "num_parallel_workers", minimum=1)


def check_names(value: Any, where: str, name: str) -> list[str]:
    """A column name or a non-empty list of distinct column names, as a list."""
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
        raise TypeError(f"{where}: {name} must be a non-empty str or a non-empty list of "
                        f"non-empty str, but got {value!r}")
    if not names or not all(names):
        raise ValueError(f"{where}: {name} must be a non-empty str or a non-empty list of "
                         f"non-empty str, but got {value!r}")
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"{where}: {name} must not repeat a name, but {duplicates} repeat")
    return list(names)


def check_present(names: list[str], columns: list[str], where: str, name: str) -> list[int]:
    """The positions of ``names`` among ``columns``; ValueError for a name that is not a column."""
    missing = [n for n in names if n not in columns]
    if missing:
        raise ValueError(f"{where}: {name} {missing} not among the dataset's columns {columns}")
    return [columns.index(n) for n in names]


def check_shards(num_shards: Any, shard_id: Any, where: str) -> tuple[int, int] | None:
    """``(num_shards, shard_id)``, both given and ``0 <= shard_id < num_shards``, or None when
    neither is given."""
    if num_shards is None and shard_id is None:
        return None
    if shard_id is None:  # RuntimeErrors, as MindSpore's
        raise RuntimeError(f"{where}: num_shards is specified and currently requires shard_id "
                           f"as well (num_shards and shard_id go together).")
    if num_shards is None:
        raise RuntimeError(f"{where}: shard_id is specified but num_shards is not (num_shards "
                           "and shard_id go together).")
    check_int(num_shards, where, "num_shards", minimum=1)
    check_int(shard_id, where, "shard_id", minimum=0)
    if num_shards > _INT32_MAX:
        raise ValueError(f"{where}: num_shards must be at most {_INT32_MAX}, but got "
                         f"{num_shards}")
    if shard_id >= num_shards:
        raise ValueError(f"{where}: shard_id must be in [0, num_shards={num_shards}), but got "
                         f"{shard_id}")
    return num_shards, shard_id


def check_process_options(python_multiprocessing: Any, max_rowsize: Any, where: str) -> None:
    """MindSpore's ``python_multiprocessing`` and ``max_rowsize`` (shared memory per row, MB),
    checked; ember's workers are threads either way, which give the same rows."""
    check_bool(python_multiprocessing, where, "python_multiprocessing")
    check_int(max_rowsize, where, "max_rowsize", minimum=1)


def find_files(patterns: Any, where: str) -> list[str]:
    """The files that ``patterns`` (a path or glob pattern, or a list of them) match, as
    MindSpore's file readers find them: a pattern that matches no file is a ValueError."""
    listed = [patterns] if isinstance(patterns, str) else patterns
    if not isinstance(listed, list) or not all(isinstance(p, str) for p in listed):
        raise TypeError(f"{where}: dataset_files should be type str or a list of strings, but "
                        f"got {patterns!r:.120}")
    files, unmatched = [], []
    for pattern in listed:
        matches = [m for m in glob.glob(pattern, recursive=True) if os.path.isfile(m)]
        files.extend(matches)
        if not matches:
            unmatched.append(pattern)
    if unmatched:
        raise ValueError(f"{where}: The following patterns did not match any files: "
                         f"{unmatched}.")
    if not files:
        raise ValueError(f"{where}: The list of path names matching the patterns is empty.")
    return files


def check_dir(dataset_dir: Any, where: str) -> str:
    """``dataset_dir`` if it is a readable directory; TypeError or ValueError in 1.6's words."""
    type_check(dataset_dir, (str,), "dataset_dir", where)
    if not os.path.isdir(dataset_dir) or not os.access(dataset_dir, os.R_OK):
        raise ValueError(f"{where}: The folder {dataset_dir} does not exist or is not a "
                         "directory or permission denied!")
    return dataset_dir


def check_usage(usage: Any, valid: Any, where: str, default: str = "all") -> str:
    """A reader's ``usage``: ``default`` for None, else a str among ``valid``; TypeError or
    ValueError in MindSpore 1.6's words."""
    if usage is None:
        return default
    type_check(usage, (str,), "usage", where)
    if usage not in valid:
        raise ValueError(f"{where}: Input usage is not within the valid set of {list(valid)}, "
                         f"but got {usage!r}")
    return usage


def type_check(value: Any, types: Any, name: str, where: str = "") -> Any:
    """``value`` if it is one of ``types`` (a bool is not an int unless bool is listed; an Enum
    class as ``types`` lists its members, as MindSpore's ``Dither`` does); else a TypeError in
    MindSpore 1.6's words, after ``where: `` when given."""
    prefix = f"{where}: " if where else ""
    shown = '""' if repr(value) == repr("") else value
    if isinstance(value, bool) and isinstance(types, tuple) and int in types \
            and bool not in types:
        raise TypeError(f"{prefix}Argument {name} with value {shown} is not of type {types}, "
                        f"but got {type(value)}.")
    if not isinstance(value, types):
        raise TypeError(f"{prefix}Argument {name} with value {shown} is not of type "
                        f"{list(types)}, but got {type(value)}.")
    return value


def check_value(value: Any, low: float, high: float, name: str = "", where: str = "", *,
                left_open: bool = False, right_open: bool = False) -> Any:
    """``value`` if it lies from ``low`` to ``high`` (each end closed unless ``*_open``); else a
    ValueError in MindSpore 1.6's words, after ``where: `` when given."""
    below = value <= low if left_open else value < low
    above = value >= high if right_open else value > high
    if below or above:
        prefix = f"{where}: " if where else ""
        interval = f"{'(' if left_open else '['}{low}, {high}{')' if right_open else ']'}"
        raise ValueError(f"{prefix}Input {name + ' ' if name else ''}is not within the required "
                         f"interval of {interval}.")
    return value
