"""``Profiler``: where the time of a network goes, op by op, as ``mindspore.profiler``.

Between ``start()`` and ``stop()`` every primitive that runs is one event: in PyNative each
call, in GRAPH_MODE each node of a compiled graph (then run node by node), named by its scope
and primitive (``Default/conv1-Conv2d/Conv2D-op3``) with its input shapes and dtypes. The
backend's profiler hook (``ember_profiler_start``) lets a backend whose kernels run
asynchronously wait for the device after each op, so the times include the device's work.

``stop()`` writes into ``<output_path>/profiler`` (``<target>`` is ``cpu``, ``gpu``, ...):

- ``<target>_timeline_display_<device_id>.json``: a Chrome trace (open it in ui.perfetto.dev
  or chrome://tracing), one slice per op and one per step;
- ``<target>_op_type_info_<device_id>.csv``: time by primitive type;
- ``<target>_op_detail_info_<device_id>.csv``: time by op (full name);
- ``step_trace_raw_<device_id>_detail_time.csv``: per step (a call of the outermost cell, or
  of a compiled graph) the iteration interval, the forward and backward time from ``fp_point``
  to ``bp_point``, and the tail after it (the optimizer). The points come from the context's
  ``profiling_options`` or are found: the step's first op, and its last op before the first
  optimizer update.

``analyse()`` stops, prints the tables and returns the files. ``set_context(enable_profiling=
True)`` profiles the process into ``profiling_options``' ``output`` (default ``./data``) until
it is set back to False or the process ends.
"""

from __future__ import annotations

import atexit
import csv
import json
import os
from collections import defaultdict
from pathlib import Path
from typing import Any

from ember import _instrument

__all__ = ["Profiler"]

_OPTIONS = {"output_path": str, "profile_communication": bool, "profile_memory": bool,
            "start_profile": bool}
_US = 1000.0  # ns per microsecond


class Profiler:
    """``Profiler(output_path="./data", start_profile=True)``: collect what runs between
    ``start()`` (at construction unless ``start_profile=False``) and ``stop()`` or
    ``analyse()``, into ``<output_path>/profiler``.

    ``profile_communication`` and ``profile_memory`` are accepted for MindSpore scripts; only
    False is honoured (they collect Ascend data).
    """

    def __init__(self, **kwargs: Any) -> None:
        for key, value in kwargs.items():
            if key not in _OPTIONS:
                raise TypeError(f"Profiler got an unknown option {key!r}; it accepts "
                                f"{', '.join(_OPTIONS)}")
            if not isinstance(value, _OPTIONS[key]):
                raise TypeError(f"Profiler option {key} must be a {_OPTIONS[key].__name__}, "
                                f"but got {value!r}")
        for key in ("profile_communication", "profile_memory"):
            if kwargs.get(key):
                raise ValueError(f"Profiler: {key}=True collects Ascend data, which ember's "
                                 "backends do not provide; leave it False")
        self.output_path = Path(kwargs.get("output_path", "./data")) / "profiler"
        self.files: list[str] = []
        #: (name, type, inputs, graph, step, begin_ns, end_ns, is an optimizer update)
        self.events: list[tuple] = []
        self.synchronize: Any = None
        self._session: Any = None
        self._target = ""
        if kwargs.get("start_profile", True):
            self.start()

    # -- collecting ---------------------------------------------------------------------------
    def start(self) -> None:
        """Start collecting on the device_target in effect."""
        from ember import _plugins, context

        if self._session is not None:
            raise RuntimeError("Profiler.start: the profiler is already collecting; call "
                               "stop() first")
        target = context.get_context("device_target")
        session = _plugins.registry().call(target, "ember_profiler_start", device_target=target,
                                          output_path=str(self.output_path))
        if session is None:
            raise RuntimeError(f"device_target {target!r} has no profiler: its backend "
                               "implements no ember_profiler_start hook")
        self._session, self._target = session, target
        self.synchronize = getattr(session, "synchronize", None)
        self.events = []
        _instrument.new_session()
        _instrument.start(self)

    def before(self, op: _instrument.OpInfo, arrays: tuple) -> None:
        pass

    def after(self, op: _instrument.OpInfo, arrays: tuple, result: Any, begin: int,
              end: int) -> None:
        self.events.append((op.name, op.type, op.inputs, op.graph, op.step, begin, end,
                            _is_update(op.prim)))

    def _named(self) -> None:
        """Input specs as plain shapes and dtype names (kept raw while collecting)."""
        self.events = [(*e[:2], [_instrument.spec_name(*i) for i in e[2]], *e[3:])
                       for e in self.events]

    def stop(self) -> None:
        """Stop collecting and write the trace and the tables."""
        if self._session is None:
            raise RuntimeError("Profiler.stop: the profiler is not collecting; call start() "
                               "first")
        _instrument.stop(self)
        self._named()
        session, self._session = self._session, None
        self.output_path.mkdir(parents=True, exist_ok=True)
        self.files.extend(self._write())
        self.files.extend(session.stop())

    def analyse(self) -> list[str]:
        """Stop collecting if the profiler still is, print the op type, op detail and step
        trace tables, and return the files written."""
        if self._session is not None:
            self.stop()
        print(self.report())
        return list(self.files)

    # -- the results --------------------------------------------------------------------------
    def op_types(self) -> list[dict[str, Any]]:
        """Time by primitive type, costliest first."""
        return _table(self.events, 1, "op_type", "type_occurrences", "")

    def op_details(self) -> list[dict[str, Any]]:
        """Time by op (full name with scope), costliest first."""
        rows = _table(self.events, 0, "op_full_name", "op_occurrences", "op_")
        first = {e[0]: e for e in reversed(self.events)}
        for row in rows:
            event = first[row["op_full_name"]]
            row["op_type"] = event[1]
            row["input_shapes"] = ";".join(str(list(s)) for s, _ in event[2])
            row["input_dtypes"] = ";".join(d for _, d in event[2])
        return rows

    def step_trace(self) -> list[dict[str, Any]]:
        """One row per step: its span, fp_point/bp_point and the split they make."""

        options = _context_options()
        steps: dict[tuple[str, int], list[tuple]] = defaultdict(list)
        for event in self.events:
            if event[4] > 0:
                steps[(event[3], event[4])].append(event)
        rows, previous_end = [], None
        for number, ops in enumerate(steps.values(), 1):
            fp = _find(ops, options.get("fp_point")) or ops[0]
            updates = [i for i, e in enumerate(ops) if e[7]]
            found_bp = ops[updates[0] - 1] if updates and updates[0] > 0 else ops[-1]
            bp = _find(ops, options.get("bp_point"), last=True) or found_bp
            start, end = ops[0][5], max(e[6] for e in ops)
            rows.append({
                "step_num": number, "start_point(us)": _us(start - self._origin()),
                "end_point(us)": _us(end - self._origin()), "total(us)": _us(end - start),
                "fp_point": fp[0], "bp_point": bp[0],
                "iteration_interval(us)": _us(start - previous_end) if previous_end else 0.0,
                "fp_and_bp(us)": _us(bp[6] - fp[5]), "tail(us)": _us(end - bp[6])})
            previous_end = end
        return rows

    def report(self) -> str:
        """The tables as text: op types, the 20 costliest ops, the step trace summary."""
        parts = [_text("Op type statistics", self.op_types(),
                       ["op_type", "type_occurrences", "total_time(us)", "avg_time(us)",
                        "total_proportion(%)"]),
                 _text("Op detail (top 20)", self.op_details()[:20],
                       ["op_full_name", "op_occurrences", "op_total_time(us)", "op_avg_time(us)",
                        "total_proportion(%)"])]
        steps = self.step_trace()
        if steps:
            parts.append(_text("Step trace", steps,
                               ["step_num", "total(us)", "iteration_interval(us)",
                                "fp_and_bp(us)", "tail(us)", "fp_point", "bp_point"]))
        return "\n\n".join(parts)

    def _origin(self) -> int:
        return self.events[0][5] if self.events else 0

    def _write(self) -> list[str]:
        if not self.events:
            return []
        from ember import context

        device = context.get_context("device_id")
        target = self._target.lower()
        files = [self.output_path / f"{target}_timeline_display_{device}.json"]
        files[0].write_text(json.dumps(self.trace()), encoding="utf-8")
        for name, rows in ((f"{target}_op_type_info_{device}.csv", self.op_types()),
                           (f"{target}_op_detail_info_{device}.csv", self.op_details()),
                           (f"step_trace_raw_{device}_detail_time.csv", self.step_trace())):
            files.append(self.output_path / name)
            _write_csv(files[-1], rows)
        return [str(f) for f in files]

    def trace(self) -> dict[str, Any]:
        """The events in the Chrome trace event format (``ph: "X"`` complete events, in
        microseconds): ops on thread 0, steps on thread 1."""
        pid = os.getpid()
        origin = self._origin()
        events: list[dict[str, Any]] = [
            {"ph": "M", "name": "process_name", "pid": pid,
             "args": {"name": f"ember {self._target}"}},
            {"ph": "M", "name": "thread_name", "pid": pid, "tid": 0, "args": {"name": "ops"}},
            {"ph": "M", "name": "thread_name", "pid": pid, "tid": 1, "args": {"name": "steps"}},
        ]
        for name, kind, inputs, graph, step, begin, end, _ in self.events:
            events.append({
                "ph": "X", "name": name, "cat": kind, "pid": pid, "tid": 0,
                "ts": _us(begin - origin), "dur": _us(end - begin),
                "args": {"op_type": kind, "input_shapes": [list(s) for s, _ in inputs],
                         "input_dtypes": [d for _, d in inputs], "graph": graph or "PyNative",
                         "step": step}})
        for row in self.step_trace():
            events.append({"ph": "X", "name": f"step {row['step_num']}", "cat": "step",
                           "pid": pid, "tid": 1, "ts": row["start_point(us)"],
                           "dur": row["total(us)"], "args": {
                               k: row[k] for k in ("fp_point", "bp_point", "fp_and_bp(us)",
                                                   "tail(us)")}})
        return {"traceEvents": events, "displayTimeUnit": "ns"}


def _is_update(prim: Any) -> bool:
    """Whether ``prim`` is an optimizer's in-place update (it starts a step's tail)."""
    return type(prim).__module__.endswith("optim_ops")


def _find(ops: list[tuple], name: str | None, last: bool = False) -> tuple | None:
    found = [e for e in ops if name and e[0] == name]
    return (found[-1] if last else found[0]) if found else None


def _us(ns: float) -> float:
    return round(ns / _US, 3)


def _table(events: list[tuple], key: int, label: str, count: str,
           prefix: str) -> list[dict[str, Any]]:
    """Events grouped by field ``key``: occurrences, total and mean time, share of the time."""
    total = sum(e[6] - e[5] for e in events) or 1
    times: dict[str, list[int]] = defaultdict(list)
    for event in events:
        times[event[key]].append(event[6] - event[5])
    rows = [{label: name, count: len(spans), f"{prefix}total_time(us)": _us(sum(spans)),
             f"{prefix}avg_time(us)": _us(sum(spans) / len(spans)),
             "total_proportion(%)": round(100.0 * sum(spans) / total, 2)}
            for name, spans in times.items()]
    return sorted(rows, key=lambda r: -r["total_proportion(%)"])


def _write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        if rows:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)


def _text(title: str, rows: list[dict[str, Any]], columns: list[str]) -> str:
    cells = [[str(row[c]) for c in columns] for row in rows]
    widths = [max([len(c), *(len(r[i]) for r in cells)]) for i, c in enumerate(columns)]
    def line(texts: list[str]) -> str:
        return "  ".join(t.ljust(w) for t, w in zip(texts, widths)).rstrip()

    return "\n".join([title, line(columns), *map(line, cells)])


# -- set_context(enable_profiling=...) ------------------------------------------------------
_CONTEXT_PROFILER: list[Profiler] = []


def _context_options() -> dict[str, Any]:
    """profiling_options as a dict; {} when it is not set or not valid (it may be stored
    unchecked while enable_profiling is False)."""
    from ember import context

    try:
        options = json.loads(context.get_context("profiling_options") or "{}")
    except ValueError:
        return {}
    return options if isinstance(options, dict) else {}


def context_profiling(enable: bool) -> None:
    """Start (``enable``) or stop and write the profiler that ``enable_profiling`` runs."""

    if enable and not _CONTEXT_PROFILER:
        options = _context_options()
        _CONTEXT_PROFILER.append(Profiler(output_path=options.get("output") or "./data"))
        atexit.register(context_profiling, False)
    elif not enable and _CONTEXT_PROFILER:
        atexit.unregister(context_profiling)
        _CONTEXT_PROFILER.pop().stop()
