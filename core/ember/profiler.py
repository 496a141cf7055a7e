"""``Profiler``: a performance profile of the backend in use, as ``mindspore.profiler``.

The backend collects it (its ``ember_profiler_start`` hook): the CPU backend profiles the host
with cProfile, the GPU backend runs TensorFlow's profiler (host and device traces, for
TensorBoard's profile plugin).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["Profiler"]

_OPTIONS = {"output_path": str, "profile_communication": bool, "profile_memory": bool,
            "start_profile": bool}


class Profiler:
    """``Profiler(output_path="./data", start_profile=True)``: collect a profile of what runs
    between ``start()`` (at construction unless ``start_profile=False``) and ``stop()`` or
    ``analyse()``, into ``<output_path>/profiler``.

    ``profile_communication`` and ``profile_memory`` are accepted for MindSpore scripts; only
    False is honoured (they collect Ascend data). ``analyse()`` stops a running collection and
    returns the files written.
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
        self._session: Any = None
        if kwargs.get("start_profile", True):
            self.start()

    def start(self) -> None:
        """Start collecting on the device_target in effect."""
        from ember import _plugins, context

        if self._session is not None:
            raise RuntimeError("Profiler.start: the profiler is already collecting; call "
                               "stop() first")
        target = context.get_context("device_target")
        self.output_path.mkdir(parents=True, exist_ok=True)
        session = _plugins.registry().plugin_manager.hook.ember_profiler_start(
            device_target=target, output_path=str(self.output_path))
        if session is None:
            raise RuntimeError(f"device_target {target!r} has no profiler: its backend "
                               "implements no ember_profiler_start hook")
        self._session = session

    def stop(self) -> None:
        """Stop collecting and write the profile."""
        if self._session is None:
            raise RuntimeError("Profiler.stop: the profiler is not collecting; call start() "
                               "first")
        session, self._session = self._session, None
        self.files.extend(session.stop())

    def analyse(self) -> list[str]:
        """Stop collecting if the profiler still is; the files written so far."""
        if self._session is not None:
            self.stop()
        return list(self.files)
