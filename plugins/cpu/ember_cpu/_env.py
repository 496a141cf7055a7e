"""The CPU backend's on/off settings in the environment."""

from __future__ import annotations

import os


def switched_on(name: str) -> bool:
    """Whether the environment variable ``name`` is ``1`` (the default) rather than ``0``."""
    setting = os.environ.get(name, "1")
    if setting not in ("0", "1"):
        raise ValueError(f"{name} must be 0 or 1, but got {setting!r}")
    return setting == "1"
