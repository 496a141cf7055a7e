"""``SummaryRecord``: scalars, images, histograms and tensors written to an event file that
TensorBoard and MindInsight read; values come from ``add_value`` and from the summary
operators (``ops.ScalarSummary``...) that ran since the last ``record``."""

from __future__ import annotations

import os
import re
import socket
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ember.ops.operations.summary_ops import (  # noqa: F401 (1.6's import path)
    _cache_summary_tensor_data,
    _get_summary_tensor_data,
)
from ember.train.summary._summary_adapter import VALUE_ENCODERS, checked_array, event, record

__all__ = ["SummaryRecord"]

_UNSUPPORTED_PLUGINS = ("graph", "train_lineage", "eval_lineage", "dataset_graph",
                        "custom_lineage_data", "landscape")


class SummaryRecord:
    """Writes summaries to ``log_dir/{file_prefix}.out.tfevents.summary.{time}.{host}{suffix}``
    (MindSpore writes ``.out.events.summary.``; "tfevents" lets TensorBoard find the file, and
    MindInsight still matches ``summary.{time}``): ``add_value(plugin, name, value)`` stages a
    value, ``record(step)`` writes the staged values, and in 'train' mode those the summary
    operators staged, as the event of ``step``. Use it as a context manager, or call
    ``close()``."""

    def __init__(self, log_dir: str | os.PathLike, file_prefix: str = "events",
                 file_suffix: str = "_MS", network: Any = None,
                 max_file_size: int | None = None, raise_exception: bool = False,
                 export_options: Any = None) -> None:
        if not isinstance(log_dir, str | os.PathLike) or not os.fspath(log_dir):
            raise ValueError(f"SummaryRecord: log_dir must be a non-empty path, but got "
                             f"{log_dir!r}")
        for name, value in (("file_prefix", file_prefix), ("file_suffix", file_suffix)):
            if not isinstance(value, str):
                raise TypeError(f"SummaryRecord: {name} must be a str, but got {value!r}")
        if isinstance(max_file_size, bool) or not isinstance(max_file_size, int | None):
            raise TypeError(f"SummaryRecord: max_file_size must be an int or None, but got "
                            f"{max_file_size!r}")
        if not isinstance(raise_exception, bool):
            raise TypeError(f"SummaryRecord: raise_exception must be a bool, but got "
                            f"{raise_exception!r}")
        if export_options is not None:
            raise ValueError("SummaryRecord: export_options (tensor export) is not supported by "
                             "ember; pass None")
        os.makedirs(log_dir, exist_ok=True)
        name = (f"{file_prefix}.out.tfevents.summary.{int(time.time())}."
                f"{socket.gethostname()}{file_suffix}")
        self.file_path = os.path.join(os.fspath(log_dir), name)
        self.network = network
        self.max_file_size = max_file_size
        self._staged: dict[str, dict[str, np.ndarray]] = {p: {} for p in VALUE_ENCODERS}
        self._mode = "train"
        _get_summary_tensor_data()  # values staged before this record existed are not its
        self._file: Any = open(self.file_path, "wb")  # noqa: SIM115 (closed by close())
        self._write(event(time.time(), 0, file_version="brain.Event:2"))

    @property
    def log_dir(self) -> str:
        """The event file's full path (as MindSpore 1.6 names it)."""
        return self.file_path

    def _write(self, data: bytes) -> None:
        if self._file is None:
            raise RuntimeError(f"SummaryRecord: {self.file_path} is closed")
        framed = record(data)
        if self.max_file_size is not None and self._file.tell() + len(framed) > (
                self.max_file_size):
            raise RuntimeError(f"SummaryRecord: writing {self.file_path} past max_file_size="
                               f"{self.max_file_size} bytes")
        self._file.write(framed)

    def set_mode(self, mode: str) -> None:
        """'train' or 'eval'; in 'eval' mode ``record`` leaves the summary operators' values
        out."""
        if mode not in ("train", "eval"):
            raise ValueError(f"SummaryRecord.set_mode: mode must be 'train' or 'eval', but got "
                             f"{mode!r}")
        self._mode = mode

    def add_value(self, plugin: str, name: str, value: Any) -> None:
        """Stage the Tensor ``value`` under the tag ``name`` for ``plugin``: 'scalar' (one
        value), 'image' (NCHW, 1 or 3 channels), 'histogram' or 'tensor' (rank 1 or more).
        A later value of the same tag and plugin replaces the staged one, with a warning."""
        if plugin in _UNSUPPORTED_PLUGINS:
            raise ValueError(f"SummaryRecord.add_value: plugin {plugin!r} is not supported by "
                             f"ember; supported: {list(VALUE_ENCODERS)}")
        if plugin not in VALUE_ENCODERS:
            raise ValueError(f"SummaryRecord.add_value: no such plugin {plugin!r}; supported: "
                             f"{list(VALUE_ENCODERS)}")
        if not isinstance(name, str) or not name:
            raise ValueError(f"SummaryRecord.add_value: {name!r} is not a valid tag name: it "
                             "must be a non-empty str")
        array = checked_array(plugin, name, value)
        if name in self._staged[plugin]:
            warnings.warn(f"SummaryRecord.add_value: '{name}/{plugin}' has duplicate values; "
                          "only the newest one will be recorded", stacklevel=2)
        self._staged[plugin][name] = array

    def record(self, step: int, train_network: Any = None,
               plugin_filter: Callable[[str], bool] | None = None) -> bool:
        """Write the staged values (those of the plugins ``plugin_filter`` accepts; the others
        are dropped) as the event of ``step``. Returns True."""
        if isinstance(step, bool) or not isinstance(step, int):
            raise TypeError(f"SummaryRecord.record: step must be an int, but got {step!r}")
        if step < 0:
            raise ValueError(f"SummaryRecord.record: step must be >= 0, but got {step}")
        if self._file is None:
            raise RuntimeError(f"SummaryRecord: {self.file_path} is closed")
        if self._mode == "train":
            for name, tensor in _get_summary_tensor_data().items():
                match = re.fullmatch(r"(.+)\[:(.+)\]", name)
                if match is None:
                    raise ValueError(f"SummaryRecord.record: the staged name {name!r} is not "
                                     "'TAG[:TYPE]'")
                self.add_value(match[2].lower(), match[1], tensor)
        staged, self._staged = self._staged, {p: {} for p in VALUE_ENCODERS}
        values = [VALUE_ENCODERS[plugin](tag, array)
                  for plugin, entries in staged.items()
                  if plugin_filter is None or plugin_filter(plugin)
                  for tag, array in entries.items()]
        if values:
            self._write(event(time.time(), step, values=values))
        return True

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def close(self) -> None:
        if getattr(self, "_file", None) is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> SummaryRecord:
        if self._file is None:
            raise ValueError("SummaryRecord has been closed.")
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()
