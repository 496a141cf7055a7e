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
        state = "available" if s.problem is None else f"UNUSABLE: {s.problem}"
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ember", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("info", help="print versions, backends and the current context")
    parser.parse_args(argv)
    print(info())
    return 0


if __name__ == "__main__":
    sys.exit(main())
