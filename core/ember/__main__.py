"""``python -m ember info``: what to paste into a bug report."""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import sys

import numpy
import pluggy

import ember
from ember import _plugins


def _blas() -> str:
    try:
        blas = numpy.show_config(mode="dicts")["Build Dependencies"]["blas"]
        return f"{blas['name']} {blas['version']}"
    except Exception:  # NumPy < 1.25 has no dict form of its build configuration
        return "unknown"


def _shown(key: str, value: object) -> object:
    """A context value as info shows it: the mode by its name."""
    if key == "mode":
        return {ember.context.GRAPH_MODE: "GRAPH_MODE",
                ember.context.PYNATIVE_MODE: "PYNATIVE_MODE"}.get(value, value)
    return value


def report() -> dict:
    """What ``info`` prints, as data (``--json``). Imports no backend library."""
    try:
        current = ember.get_context("device_target")
    except RuntimeError as exc:
        current = f"none ({exc})"
    context = {k: _shown(k, v) for k, v in sorted(ember.context._current_values().items())}
    context["device_target"] = current
    return {
        "ember_core": ember.__version__,
        "backend_api": _plugins._core_api(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "versions": {"numpy": numpy.__version__, "blas": _blas(),
                     "pluggy": pluggy.__version__, "protobuf": _version("protobuf")},
        "backends": [{"device_target": s.device_target, "distribution": s.distribution,
                      "version": s.version, "available": s.problem is None,
                      "problem": s.problem, "details": s.details}
                     for s in _plugins.registry().statuses()],
        "context": context,
    }


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def info() -> str:
    """Version, installed backends with availability, and the current context."""
    data = report()
    versions = ", ".join(f"{k} {v}" for k, v in data["versions"].items())
    lines = [
        f"ember-core {data['ember_core']} (backend API {data['backend_api']})",
        f"python {data['python']} on {data['platform']}",
        versions,
        "",
        "backends:",
    ]
    for b in data["backends"]:
        state = "available" if b["available"] else f"UNUSABLE: {b['problem']}"
        details = "".join(f"; {k}: {v}" for k, v in b["details"].items())
        lines.append(f"  {b['device_target']:<8} {b['distribution']} {b['version']}: "
                     f"{state}{details}")
    if not data["backends"]:
        lines.append('  none installed: pip install "ember-core[cpu]"')
    lines += ["", "context:", f"  device_target = {data['context']['device_target']}"]
    lines += [f"  {key} = {value!r}" if key != "mode" else f"  mode = {value}"
              for key, value in data["context"].items() if key != "device_target"]
    return "\n".join(lines)


def primitives() -> list[str]:
    """The names of every primitive a backend needs a kernel for."""
    return list(_primitive_classes())


def _primitive_classes() -> dict[str, type]:
    from ember.ops.operations.array_ops import _Static
    from ember.ops.primitive import primitive_classes

    return {cls.__name__: cls for cls in primitive_classes() if not issubclass(cls, _Static)}


def _kernel_sets() -> dict[str, frozenset[str]]:
    """The primitives each usable backend has kernels for (as its executor lists them)."""
    supported = {}
    for status in _plugins.registry().statuses():
        if status.problem is None:
            executor = _plugins.registry().call(
                status.device_target, "ember_eager_executor",
                device_target=status.device_target, context=ember.context._current_values())
            supported[status.device_target] = frozenset(getattr(executor, "primitives", ()))
    return supported


def ops_matrix() -> str:
    """The primitive x backend table: ``yes``, ``MISSING``, or ``fallback`` (missing, and run
    by fallback_device_target; never an in-place update), for every usable backend that lists
    its kernels."""
    fallback = ember.get_context("fallback_device_target")
    supported = _kernel_sets()
    classes = _primitive_classes()
    names = list(classes)
    width = max(map(len, names)) + 2
    lines = ["primitive".ljust(width) + "".join(f"{t:>10}" for t in supported)]
    for name in names:
        cells = []
        for kernels in supported.values():
            has = name in (kernels or ())
            falls = (not has and fallback and name in (supported.get(fallback) or ())
                     and not classes[name].updates_parameters)
            cells.append("yes" if has else "fallback" if falls else "MISSING")
        lines.append(name.ljust(width) + "".join(f"{c:>10}" for c in cells))
    return "\n".join(lines)


def mindspore16_coverage() -> str:
    """How many of MindSpore 1.6's CPU primitives ember defines, and each usable backend runs
    (a kernel, or none needed: shapes and dtypes are folded), with the missing ones named."""
    from ember.ops import operations as P
    from ember.ops._mindspore16 import CPU_PRIMITIVES

    defined = {name: getattr(P, name) for name in CPU_PRIMITIVES if hasattr(P, name)}
    kernel_needed = _primitive_classes()  # not Shape (folded), nor Print (Python, by PyFunc)
    lines = [f"MindSpore 1.6 CPU primitives: {len(defined)} of {len(CPU_PRIMITIVES)} defined; "
             f"not defined: {', '.join(sorted(CPU_PRIMITIVES - set(defined))) or 'none'}"]
    for target, kernels in _kernel_sets().items():
        missing = sorted(name for name, cls in defined.items()
                         if cls.__name__ in kernel_needed and cls.__name__ not in kernels)
        lines.append(f"  {target}: {len(defined) - len(missing)} of {len(CPU_PRIMITIVES)} run"
                     + (f"; no kernel: {', '.join(missing)}" if missing else ""))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ember", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    info_command = commands.add_parser(
        "info", help="print versions, backends and the current context")
    info_command.add_argument("--ops", action="store_true",
                              help="also print which backend has a kernel for each primitive")
    info_command.add_argument("--json", action="store_true",
                              help="print the report as one JSON object")
    args = parser.parse_args(argv)
    try:
        if args.json:
            print(json.dumps(report(), indent=2, default=str))
        else:
            print(info())
        if args.ops:
            print("\nprimitives:\n" + ops_matrix() + "\n\n" + mindspore16_coverage())
        sys.stdout.flush()
    except BrokenPipeError:  # `python -m ember info | head`: the reader left, not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
