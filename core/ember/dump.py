"""Synchronous data dump: the inputs and outputs of chosen ops as ``.npy`` files, as MindSpore.

Configured by the JSON file that the environment variable ``MINDSPORE_DUMP_CONFIG`` names (read
when ember is imported, or by :func:`start`)::

    {"common_dump_settings": {"dump_mode": 0, "path": "/abs/dump", "net_name": "LeNet",
                              "iteration": "0|5-8", "input_output": 0, "kernels": [],
                              "support_device": [0, 1, 2, 3, 4, 5, 6, 7]},
     "e2e_dump_settings": {"enable": true, "trans_flag": true}}

``dump_mode`` 0 dumps every op, 1 the ops named in ``kernels`` (full scope names such as
``Default/conv1-Conv2d/Conv2D-op0``, or the name after the scope, ``Conv2D-op0``), 2 the ops
whose primitive :func:`set_dump` marked;
``iteration`` is ``"all"`` or steps and ranges joined by ``|``; ``input_output`` 0 dumps
inputs and outputs, 1 inputs only, 2 outputs only; ``support_device`` lists the device_ids
that dump. ``set_context(enable_dump=True)`` dumps too: with the file's settings when
``MINDSPORE_DUMP_CONFIG`` is set, else every op of every step into ``save_dump_path``.

Each tensor is one file, in MindSpore's layout::

    {path}/rank_{rank}/{net_name}/{graph_id}/{iteration}/
        {op_type}.{op_name}.{task_id}.{stream_id}.{timestamp}.{input|output}.{slot}.DefaultFormat.npy

``graph_id`` numbers the compiled graphs of the process from 1 (0 in PyNative), ``iteration`` the
steps from 0 (a call of the compiled graph, or of the outermost cell in PyNative), ``op_name``
is the op's name after its scope, task and stream ids are 0, the timestamp is in microseconds.
Inputs are saved as the op received them (before an in-place update), in host memory.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from ember import _instrument
from ember._options import Option, absolute_path, fields, in_range, one_of, sequence_of

__all__ = ["DumpConfig", "set_dump", "start", "stop"]

ENV = "MINDSPORE_DUMP_CONFIG"

_COMMON = fields(
    Option("dump_mode", int, 0, "0: every op; 1: the ops in kernels; 2: the ops set_dump marked.",
           one_of(0, 1, 2)),
    Option("path", str, "", "Absolute directory of the dump.", absolute_path),
    Option("net_name", str, "Net", "Name of the network, a directory level."),
    Option("iteration", str, "all", "'all', or steps and ranges such as '0|5-8'."),
    Option("input_output", int, 0, "0: inputs and outputs; 1: inputs; 2: outputs.",
           one_of(0, 1, 2)),
    Option("kernels", list, [], "Op names dumped in dump_mode 1.",
           sequence_of(Option("kernel", str, "", "An op name."))),
    Option("support_device", list, list(range(8)), "The device_ids that dump.",
           sequence_of(Option("device", int, 0, "A device_id.", in_range(0, 4095)))),
    Option("op_debug_mode", int, 0, "Ascend overflow detection; 0 only.", one_of(0)),
)
_E2E = fields(Option("enable", bool, False, "Synchronous dump."),
              Option("trans_flag", bool, True, "Host format (always the default format)."))
_SCHEMA = fields(Option("common_dump_settings", dict, {}, "", _COMMON),
                 Option("e2e_dump_settings", dict, {}, "", _E2E))


class DumpConfig:
    """A validated dump configuration (the JSON above, as a dict)."""

    def __init__(self, settings: Any, label: str = "dump config") -> None:
        settings = _SCHEMA(label, settings)
        common = settings.get("common_dump_settings")
        if common is None or "path" not in common:
            raise ValueError(f"{label}: common_dump_settings must give 'path' (an absolute "
                             "directory)")
        if not settings.get("e2e_dump_settings", {}).get("enable", False):
            raise ValueError(f"{label}: e2e_dump_settings['enable'] must be true: ember dumps "
                             "synchronously (the asynchronous dump is Ascend's)")
        self.path = Path(common["path"])
        self.net_name = common.get("net_name", "Net")
        self.mode = common.get("dump_mode", 0)
        self.kernels = set(common.get("kernels", []))
        self.input_output = common.get("input_output", 0)
        self.devices = common.get("support_device", list(range(8)))
        self.iterations = _iterations(common.get("iteration", "all"), f"{label}: iteration")
        if self.mode == 1 and not self.kernels:
            raise ValueError(f"{label}: dump_mode 1 dumps the ops listed in kernels, but "
                             "kernels is empty")

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> DumpConfig:
        label = f"dump config {str(path)!r}"
        try:
            with open(path, encoding="utf-8") as f:
                settings = json.load(f)
        except OSError as exc:
            raise ValueError(f"{label} cannot be read: {exc}") from None
        except json.JSONDecodeError as exc:
            raise ValueError(f"{label} is not valid JSON: {exc}") from None
        return cls(settings, label)

    def selects(self, op: _instrument.OpInfo, iteration: int) -> bool:
        if self.iterations is not None and iteration not in self.iterations:
            return False
        if self.mode == 2:
            return getattr(op.prim, "dump", "false") == "true"
        return self.mode == 0 or op.name in self.kernels or op.short_name in self.kernels


def _iterations(text: str, label: str) -> set[int] | None:
    """None for 'all'; else the steps of ``0|5-8``."""
    if text == "all":
        return None
    steps: set[int] = set()
    for part in text.split("|"):
        low, _, high = part.partition("-")
        if not low.isdigit() or (high and not high.isdigit()) or (high and int(high) < int(low)):
            raise ValueError(f"{label} must be 'all' or steps and ranges joined by '|' (such as "
                             f"'0|5-8'), but got {text!r}")
        steps.update(range(int(low), int(high or low) + 1))
    return steps


class _Dump:
    """The observer that writes the files."""

    def __init__(self, config: DumpConfig) -> None:
        from ember import context

        self.config = config
        self.rank = context.get_auto_parallel_context("global_rank")
        self.device_id = context.get_context("device_id")
        self.inputs: list[np.ndarray] | None = None
        self.files = 0

    def _iteration(self, op: _instrument.OpInfo) -> int:
        return max(op.step - 1, 0)

    def _wanted(self, op: _instrument.OpInfo) -> bool:
        return self.device_id in self.config.devices and self.config.selects(
            op, self._iteration(op))

    def before(self, op: _instrument.OpInfo, arrays: tuple) -> None:
        self.inputs = None
        if self.config.input_output != 2 and self._wanted(op):
            self.inputs = [np.array(op.to_host(a)) for a in arrays if _is_array(a)]

    def after(self, op: _instrument.OpInfo, arrays: tuple, result: Any, begin: int,
              end: int) -> None:
        if not self._wanted(op):
            return
        folder = (self.config.path / f"rank_{self.rank}" / self.config.net_name /
                  str(op.graph_id) / str(self._iteration(op)))
        folder.mkdir(parents=True, exist_ok=True)
        stem = f"{op.type}.{op.short_name}.0.0.{time.time_ns() // 1000}"
        if self.inputs is not None:
            for slot, array in enumerate(self.inputs):
                np.save(folder / f"{stem}.input.{slot}.DefaultFormat.npy", array)
        if self.config.input_output != 1:
            outputs = result if isinstance(result, tuple) else (result,)
            for slot, array in enumerate(o for o in outputs if _is_array(o)):
                np.save(folder / f"{stem}.output.{slot}.DefaultFormat.npy",
                        np.asarray(op.to_host(array)))
        self.inputs = None


def set_dump(target: Any, enabled: bool = True) -> None:
    """Mark (or, ``enabled=False``, unmark) ``target`` for ``dump_mode`` 2: a Primitive, or
    a Cell with the primitives held in its attributes and those of its cells, recursively.
    The mark is the primitive attribute ``dump`` (``"true"``/``"false"``); primitives made
    inside ``construct`` (``ops.functional``) and those of backward rules are not marked."""
    from ember.nn import Cell
    from ember.ops.primitive import Primitive

    if not isinstance(target, (Cell, Primitive)):
        raise ValueError("set_dump: 'target' must be a Cell or a Primitive, but got "
                         f"{type(target).__name__}")
    if not isinstance(enabled, bool):
        raise ValueError(f"set_dump: 'enabled' must be a bool, but got {enabled!r}")
    mark = "true" if enabled else "false"
    if isinstance(target, Primitive):
        target.add_prim_attr("dump", mark)
        return
    for _, cell in target.cells_and_names():
        for value in vars(cell).values():
            if isinstance(value, Primitive):
                value.add_prim_attr("dump", mark)


def _is_array(value: Any) -> bool:
    return hasattr(value, "shape") and hasattr(value, "dtype")


_ACTIVE: list[_Dump] = []


def start(config: DumpConfig | None = None) -> None:
    """Start dumping with ``config`` (default: the file named by ``MINDSPORE_DUMP_CONFIG``);
    a dump already running is replaced."""
    if config is None:
        if not os.environ.get(ENV):
            raise ValueError(f"dump: no configuration given and the environment variable {ENV} "
                             "is not set")
        config = DumpConfig.from_file(os.environ[ENV])
    stop()
    _ACTIVE.append(_Dump(config))
    _instrument.start(_ACTIVE[0])


def stop() -> None:
    """Stop dumping (nothing happens when no dump runs)."""
    if _ACTIVE:
        _instrument.stop(_ACTIVE.pop())


def context_dump(enable: bool) -> None:
    """``set_context(enable_dump=...)``: start or stop the dump."""
    if not enable:
        stop()
        return
    if os.environ.get(ENV):
        start()
        return
    from ember import context

    path = os.path.abspath(context.get_context("save_dump_path"))
    start(DumpConfig({"common_dump_settings": {"path": path},
                      "e2e_dump_settings": {"enable": True}}))
