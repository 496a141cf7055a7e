"""The Running Data Recorder (RDR): what was running when a run failed, as MindSpore's RDR.

Enabled by the JSON file of ``set_context(env_config_path=...)``::

    {"rdr": {"enable": true, "mode": 1, "path": "/absolute/rdr/path"}}

When a compiled graph or a training step of ``Model.train`` raises, one folder
``{path}/rank_{rank}/rdr/<time>_<pid>_fault/`` receives:

- ``graph_<name>.ir``: the graph that failed, or the last graph run (the ``save_graphs`` text);
- ``inputs.txt``: the shapes and dtypes of that call's inputs;
- ``context.json``: the values of ``set_context``;
- ``stack.txt``: the exception and its traceback.

``mode`` 2 also records at the normal end of the process (a ``..._normal_end`` folder, without
``stack.txt``); mode 1 (the default) records faults only.
"""

from __future__ import annotations

import atexit
import json
import os
import time
import traceback
from pathlib import Path
from typing import Any

__all__ = ["record"]


class _State:
    def __init__(self) -> None:
        self.path: Path | None = None  # None: disabled
        self.mode = 1
        self.graph: Any = None  # the last graph run, and its inputs' specs
        self.inputs: list[str] = []


state = _State()


def configure(env_config_path: str) -> None:
    """Read the ``rdr`` settings of the env_config file (already validated by the context)."""
    settings: dict[str, Any] = {}
    if env_config_path:
        with open(env_config_path, encoding="utf-8") as f:
            settings = json.load(f).get("rdr", {})
    enabled = settings.get("enable", False) and settings.get("path")
    state.path = Path(settings["path"]) if enabled else None
    state.mode = settings.get("mode", 1)
    atexit.unregister(_normal_end)
    if state.path is not None and state.mode == 2:
        atexit.register(_normal_end)


def note_call(graph: Any, tensors: list[Any]) -> None:
    """A compiled graph is about to run on ``tensors`` (kept as specs only)."""
    state.graph = graph
    state.inputs = [f"input {i}: shape={list(t.shape)}, dtype={t.dtype}"
                    for i, t in enumerate(tensors)]


def fault(exc: BaseException, graph: Any = None, inputs: Any = None) -> None:
    """Record a failure once (the innermost place that sees it records it)."""
    if state.path is None or getattr(exc, "_ember_rdr_recorded", False):
        return
    if graph is not None:
        state.graph = graph
    if inputs is not None:
        note_call(state.graph, [t for t in inputs if hasattr(t, "shape")])
    record("fault", exc)
    try:
        exc._ember_rdr_recorded = True  # type: ignore[attr-defined]
    except AttributeError:
        pass


def record(reason: str, exc: BaseException | None = None) -> Path | None:
    """Write the key data into a new folder under the RDR path; its path (None: disabled)."""
    from ember import context
    from ember.graph.dump import render_text

    if state.path is None:
        return None
    rank = context.get_auto_parallel_context("global_rank")
    stamp = time.strftime("%Y%m%d%H%M%S")
    folder = state.path / f"rank_{rank}" / "rdr" / f"{stamp}_{os.getpid()}_{reason}"
    folder.mkdir(parents=True, exist_ok=True)
    if state.graph is not None:
        name = "".join(c if c.isalnum() or c in "._-" else "_" for c in state.graph.name)
        (folder / f"graph_{name}.ir").write_text(render_text(state.graph), encoding="utf-8")
    (folder / "inputs.txt").write_text("".join(f"{line}\n" for line in state.inputs),
                                       encoding="utf-8")
    values = context._current_values()
    (folder / "context.json").write_text(json.dumps(values, indent=1, default=repr),
                                         encoding="utf-8")
    if exc is not None:
        (folder / "stack.txt").write_text("".join(traceback.format_exception(exc)),
                                          encoding="utf-8")
    return folder


def _normal_end() -> None:
    record("normal_end")
