"""``python -m ember info``: what to paste into a bug report."""

from __future__ import annotations

import argparse
import platform
import sys

import numpy
import pluggy

import ember
from ember import _plugins


def info() -> str:
    """Version, installed backends with availability, and the current context."""
    lines = [
        f"ember-core {ember.__version__} (backend API {_plugins._core_api()})",
        f"python {platform.python_version()} on {platform.platform()}",
        f"numpy {numpy.__version__}, pluggy {pluggy.__version__}",
        "",
        "backends:",
    ]
    statuses = _plugins.registry().statuses()
    for s in statuses:
        state = f"UNUSABLE: {s.problem}" if s.problem is not None else (
            f"available ({s.note})" if s.note else "available")
        lines.append(f"  {s.device_target:<8} {s.distribution} {s.version}: {state}")
    if not statuses:
        lines.append('  none installed: pip install "ember-core[cpu]"')
    lines += ["", "context:"]
    try:
        current = ember.get_context("device_target")
    except RuntimeError as exc:
        current = f"none ({exc})"
    lines.append(f"  device_target = {current}")
    for key, value in sorted(ember.context._current_values().items()):
        if key != "device_target":
            lines.append(f"  {key} = {value!r}")
    return "\n".join(lines)


def primitives() -> list[str]:
    """The names of every primitive a backend needs a kernel for."""
    from ember.ops.operations.array_ops import _Static
    from ember.ops.primitive import primitive_classes

    return [cls.__name__ for cls in primitive_classes() if not issubclass(cls, _Static)]


def ops_matrix() -> str:
    """The primitive x backend table: ``yes``, ``MISSING``, or ``fallback`` (missing, and run
    by fallback_device_target), for every usable backend that lists its kernels."""
    fallback = ember.get_context("fallback_device_target")
    supported: dict[str, frozenset[str] | None] = {}
    for status in _plugins.registry().statuses():
        if status.problem is None:
            executor = _plugins.registry().plugin_manager.hook.ember_eager_executor(
                device_target=status.device_target, context=ember.context._current_values())
            supported[status.device_target] = frozenset(getattr(executor, "primitives", ()))
    names = primitives()
    width = max(map(len, names)) + 2
    lines = ["primitive".ljust(width) + "".join(f"{t:>10}" for t in supported)]
    for name in names:
        cells = []
        for kernels in supported.values():
            has = name in (kernels or ())
            falls = not has and fallback and name in (supported.get(fallback) or ())
            cells.append("yes" if has else "fallback" if falls else "MISSING")
        lines.append(name.ljust(width) + "".join(f"{c:>10}" for c in cells))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ember", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    info_command = commands.add_parser(
        "info", help="print versions, backends and the current context")
    info_command.add_argument("--ops", action="store_true",
                              help="also print which backend has a kernel for each primitive")
    args = parser.parse_args(argv)
    print(info())
    if args.ops:
        print("\nprimitives:\n" + ops_matrix())
    return 0


if __name__ == "__main__":
    sys.exit(main())
