"""Backend discovery and selection.

Plugins are modules registered under the entry-point group ``ember.backends``. Discovery imports
each plugin module (cheap by contract) and asks it which backends it provides; a plugin that
fails to import, or that was built for another core API, is remembered and reported by name
when, and only when, its device_target is asked for. Other backends keep working.
"""

from __future__ import annotations

import difflib
import os
import threading
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import pluggy

from ember import hookspecs
from ember.backend import BackendSpec
from ember.version import API_VERSION, __version__

ENTRY_POINT_GROUP = "ember.backends"
ENV_DEVICE_TARGET = "EMBER_DEVICE_TARGET"
#: The device targets of MindSpore and the extra of ember-core that installs each one's backend.
STANDARD_TARGETS = {"Ascend": "ascend", "GPU": "gpu", "CPU": "cpu"}


class BackendError(RuntimeError):
    """A device_target's backend is not installed, not available here, broken or incompatible."""


@dataclass(frozen=True)
class BackendStatus:
    """What ``python -m ember info`` shows of one backend."""

    device_target: str
    distribution: str
    version: str
    problem: str | None  # None: usable
    details: dict[str, str] = field(default_factory=dict)  # BackendSpec.details, if usable


def _api_compatible(declared: str) -> bool:
    try:
        major, minor = (int(part) for part in declared.split("."))
    except ValueError:
        return False
    return major == API_VERSION[0] and minor <= API_VERSION[1]


def _core_api() -> str:
    return f"{API_VERSION[0]}.{API_VERSION[1]}"


class Registry:
    """The plugin manager with every discovered backend, built once per process."""

    def __init__(self) -> None:
        self.plugin_manager = pluggy.PluginManager("ember")
        self.plugin_manager.add_hookspecs(hookspecs)
        self.specs: dict[str, BackendSpec] = {}
        self.versions: dict[str, str] = {}  # device_target -> distribution version
        self.problems: dict[str, BackendStatus] = {}  # lower-case target -> why it is unusable
        self._availability: dict[str, str | None] = {}
        self._lock = threading.Lock()
        for entry_point in entry_points(group=ENTRY_POINT_GROUP):
            self._load(entry_point)

    def _load(self, entry_point: EntryPoint) -> None:
        dist = entry_point.dist
        dist_name = dist.name if dist else entry_point.value
        dist_version = dist.version if dist else "?"

        def broken(target: str, why: str) -> None:
            status = BackendStatus(target, dist_name, dist_version, why)
            self.problems[target.lower()] = status

        module = None
        try:
            module = entry_point.load()
            self.plugin_manager.register(module, name=entry_point.name)
            hook = self.plugin_manager.hook.ember_backends
            impls = [i for i in hook.get_hookimpls() if i.plugin is module]
            specs = [spec for impl in impls for spec in impl.function()]
        except Exception as exc:  # a broken plugin must not break ember or other plugins
            if module is not None and self.plugin_manager.is_registered(module):
                self.plugin_manager.unregister(module)
            broken(
                entry_point.name,
                f"the backend plugin '{entry_point.name}' ({entry_point.value}, from "
                f"{dist_name} {dist_version}) failed to load: {type(exc).__name__}: {exc}",
            )
            return
        for spec in specs:
            if _api_compatible(spec.api_version):
                self.specs[spec.device_target] = spec
                self.versions[spec.device_target] = dist_version
            else:
                broken(
                    spec.device_target,
                    f"the backend for device_target '{spec.device_target}' "
                    f"({spec.distribution} {dist_version}) was built for ember core API "
                    f"{spec.api_version}, but ember-core {__version__} provides core API "
                    f"{_core_api()}: install versions of {spec.distribution} and ember-core "
                    "that match",
                )

    def unavailable_reason(self, target: str) -> str | None:
        """Run the backend's own availability check once and remember the answer."""
        with self._lock:
            if target not in self._availability:
                try:
                    reason = self.specs[target].check_available()
                except Exception as exc:
                    reason = f"its availability check raised {type(exc).__name__}: {exc}"
                self._availability[target] = reason
            return self._availability[target]

    def check(self, target: str) -> None:
        """Raise the one error that says why ``target`` cannot be used, if it cannot."""
        if target in self.specs:
            reason = self.unavailable_reason(target)
            if reason is not None:
                spec = self.specs[target]
                raise BackendError(
                    f"device_target '{target}' is installed ({spec.distribution}) but "
                    f"unavailable: {reason}"
                )
            return
        if target.lower() in self.problems:
            raise BackendError(self.problems[target.lower()].problem)
        if target in STANDARD_TARGETS:
            extra = STANDARD_TARGETS[target]
            raise BackendError(
                f"device_target '{target}' needs the ember-{extra} backend, which is not "
                f'installed: pip install "ember-core[{extra}]"'
            )
        choices = sorted({*STANDARD_TARGETS, *self.specs})
        close = difflib.get_close_matches(target, choices, n=1) or [
            c for c in choices if c.lower() == target.lower()
        ]
        hint = f"; did you mean '{close[0]}'?" if close else ""
        raise ValueError(
            f"device_target must be one of {', '.join(choices)} (or the device_target of an "
            f"installed third-party backend), but got '{target}'{hint}"
        )

    def default_target(self) -> str:
        """Explicit environment choice, else the highest-priority available backend."""
        chosen = os.environ.get(ENV_DEVICE_TARGET)
        if chosen:
            try:
                self.check(chosen)
            except (ValueError, BackendError) as exc:
                raise BackendError(f"{ENV_DEVICE_TARGET}={chosen!r}: {exc}") from None
            return chosen
        ranked = sorted(self.specs.values(), key=lambda spec: -spec.priority)
        for spec in ranked:
            if self.unavailable_reason(spec.device_target) is None:
                return spec.device_target
        raise BackendError(
            "no ember backend is installed and available here: "
            'pip install "ember-core[cpu]" for the NumPy backend'
            + "".join(f"\n  {s.device_target}: {self.unavailable_reason(s.device_target)}"
                      for s in ranked)
        )

    @staticmethod
    def _details(spec: BackendSpec) -> dict[str, str]:
        try:
            return {str(k): str(v) for k, v in spec.details().items()}
        except Exception as exc:
            return {"details": f"unknown: its details hook raised {type(exc).__name__}: {exc}"}

    def statuses(self) -> list[BackendStatus]:
        """Every installed backend, usable or not, for ``python -m ember info``."""
        usable = [
            BackendStatus(t, s.distribution, self.versions[t], reason,
                          {} if reason else self._details(s))
            for t, s in self.specs.items() for reason in [self.unavailable_reason(t)]
        ]
        return sorted([*usable, *self.problems.values()], key=lambda s: s.device_target)


_registry: Registry | None = None
_registry_lock = threading.Lock()


def registry() -> Registry:
    """The process's registry, discovered on first use."""
    global _registry
    if _registry is None:
        with _registry_lock:
            if _registry is None:
                _registry = Registry()
    return _registry


def check_device_target(target: str) -> None:
    """Raise ValueError for an unknown target, BackendError for one that cannot be used."""
    registry().check(target)


def default_device_target() -> str:
    """The device_target in effect when the user never set one."""
    return registry().default_target()


def apply_context(changes: dict[str, Any], device_target: str) -> None:
    """Let the plugins apply, or reject by raising, validated context changes."""
    registry().plugin_manager.hook.ember_context_changed(
        device_target=device_target, changes=changes
    )


#: The context keys an executor is made for: a change of one makes new executors.
EXECUTOR_KEYS = ("device_target", "mode", "pynative_synchronize")


def context_committed(changes: dict[str, Any]) -> None:
    """Forget the executors made for context values no longer in effect (``changes``: the keys
    whose value changed)."""
    if any(key in changes for key in EXECUTOR_KEYS):
        from ember._executor import forget_executors

        forget_executors()
    if "enable_profiling" in changes:
        from ember import profiler

        profiler.context_profiling(changes["enable_profiling"])
    if "enable_dump" in changes or "save_dump_path" in changes:
        from ember import context, dump

        dump.context_dump(context.get_context("enable_dump"))
    if "env_config_path" in changes:
        from ember import rdr

        rdr.configure(changes["env_config_path"])
