"""Backend discovery and selection.

Plugins are modules registered under the entry-point group ``ember.backends``, each entry point
named after its device_target in lower case. A plugin is imported (cheap by contract) when its
device_target is first asked for, and every plugin only to choose the default target or to list
them; it is asked which backends it provides. A plugin that fails to import (even by raising
SystemExit), declares a malformed BackendSpec, was built for another core API, or registers a
device_target another distribution registers too, is remembered and reported by name when, and
only when, its device_target is asked for. Only the plugin that declared a device_target is
called for it, so no plugin can break or replace another backend.
"""

from __future__ import annotations

import difflib
import os
import re
import threading
import warnings
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


def _canonical(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()


#: The distribution of ember's own backend for each standard target, by entry point name.
BUILTIN = {target.lower(): f"ember-{extra}" for target, extra in STANDARD_TARGETS.items()}


def _own_spec(specs: list[Any], name: str, names: set[str]) -> BackendSpec:
    """The spec of entry point ``name`` among those its ``ember_backends`` returned; any other
    must have an entry point of its own among ``names`` (its distribution's)."""
    for spec in specs:
        if not isinstance(spec, BackendSpec):
            raise TypeError(f"ember_backends returned {spec!r}, not an ember.backend.BackendSpec")
        for key in ("device_target", "api_version", "distribution"):
            if not isinstance(getattr(spec, key), str):
                raise TypeError(f"BackendSpec.{key} must be a str, but got "
                                f"{getattr(spec, key)!r}")
        if isinstance(spec.priority, bool) or not isinstance(spec.priority, int):
            raise TypeError(f"BackendSpec.priority must be an int, but got {spec.priority!r}")
        if spec.device_target.lower() not in names:
            raise ValueError(f"it declares device_target {spec.device_target!r} without an "
                             f"entry point '{spec.device_target.lower()}' in the group "
                             f"{ENTRY_POINT_GROUP}")
    mine = [spec for spec in specs if spec.device_target.lower() == name]
    if len(mine) != 1:
        raise ValueError(f"its ember_backends must declare one device_target named after its "
                         f"entry point '{name}', but declares "
                         f"{[spec.device_target for spec in specs]}")
    return mine[0]


class Registry:
    """Every installed backend plugin; each is imported when its device_target is first
    asked for (its entry point is named after it in lower case), all of them only to choose
    the default or to list them. Each plugin's hooks are called only for its own target."""

    def __init__(self) -> None:
        self.plugin_manager = pluggy.PluginManager("ember")
        self.plugin_manager.add_hookspecs(hookspecs)
        self._specs: dict[str, BackendSpec] = {}  # device_target -> spec, of loaded plugins
        self.versions: dict[str, str] = {}  # device_target -> distribution version
        self.plugins: dict[str, object] = {}  # device_target -> its plugin module
        self.problems: list[BackendStatus] = []  # the plugins that cannot be used, and why
        self._availability: dict[str, str | None] = {}
        self._lock = threading.RLock()
        self._pending: dict[str, list[EntryPoint]] = {}  # entry point name -> not loaded yet
        for entry_point in entry_points(group=ENTRY_POINT_GROUP):
            self._pending.setdefault(entry_point.name.lower(), []).append(entry_point)
        for name in list(self._pending):
            if len(self._pending[name]) > 1:
                self._refuse_rivals(name)

    def _refuse_rivals(self, name: str) -> None:
        """Several distributions claim one device_target: ember's own backend keeps it, with a
        warning; without it, none of them is used."""
        rivals = self._pending[name]
        dists = {_canonical(_distribution(ep)[0]): ep for ep in rivals}
        builtin = dists.get(BUILTIN.get(name, ""))
        names = " and ".join(sorted(_distribution(ep)[0] for ep in rivals))
        if builtin is not None:
            target = next(t for t in STANDARD_TARGETS if t.lower() == name)
            why = (f"it claims device_target '{target}', which ember's own "
                   f"{_distribution(builtin)[0]} serves: uninstall it, or ask its authors "
                   "for another device_target")
            warnings.warn(f"ember: {names} all register device_target '{target}'; "
                          f"{_distribution(builtin)[0]} serves it", RuntimeWarning,
                          stacklevel=2)
            self._pending[name] = [builtin]
        else:
            target = name
            why = (f"{names} all register device_target '{name}' (entry point '{name}' of "
                   f"the group {ENTRY_POINT_GROUP}), so ember uses none of them: uninstall "
                   "all but one")
            self._pending[name] = []
        for entry_point in rivals:
            if entry_point is not builtin:
                dist, version = _distribution(entry_point)
                self.problems.append(BackendStatus(target, dist, version, why))

    @property
    def specs(self) -> dict[str, BackendSpec]:
        """Every installed backend that can be loaded, by device_target (loads every plugin)."""
        self.discover()
        return self._specs

    def _discover(self, name: str) -> None:
        """Load the plugins registered under entry point ``name``, if not yet loaded (another
        thread asking meanwhile waits for them)."""
        with self._lock:
            for entry_point in self._pending.pop(name, []):
                self._load(entry_point)

    def discover(self) -> None:
        """Load every plugin not loaded yet."""
        with self._lock:
            for name in sorted(self._pending):
                self._discover(name)

    def _load(self, entry_point: EntryPoint) -> None:
        dist_name, dist_version = _distribution(entry_point)
        name = entry_point.name.lower()
        dist = entry_point.dist
        names = {ep.name.lower() for ep in dist.entry_points
                 if ep.group == ENTRY_POINT_GROUP} if dist else {name}
        module = registered = None
        try:
            module = entry_point.load()
            if not self.plugin_manager.is_registered(module):  # one module, several targets
                registered = self.plugin_manager.register(module, name=entry_point.name)
            hook = self.plugin_manager.hook.ember_backends
            impls = [i for i in hook.get_hookimpls() if i.plugin is module]
            spec = _own_spec([s for impl in impls for s in impl.function()], name, names)
        # A broken plugin must not break ember or other plugins, nor end the process.
        except BaseException as exc:  # noqa: B036
            problem = (f"the backend plugin '{entry_point.name}' ({entry_point.value}, from "
                       f"{dist_name} {dist_version}) failed to load: "
                       f"{type(exc).__name__}: {exc}")
        else:
            if _api_compatible(spec.api_version):
                self._specs[spec.device_target] = spec
                self.versions[spec.device_target] = dist_version
                self.plugins[spec.device_target] = module
                return
            name = spec.device_target
            problem = (f"the backend for device_target '{name}' ({spec.distribution} "
                       f"{dist_version}) was built for ember core API {spec.api_version}, but "
                       f"ember-core {__version__} provides core API {_core_api()}: install "
                       f"versions of {spec.distribution} and ember-core that match")
        if registered is not None:  # its hooks must never be called
            self.plugin_manager.unregister(module)
        self.problems.append(BackendStatus(name, dist_name, dist_version, problem))

    def call(self, target: str, hook_name: str, **kwargs: Any) -> Any:
        """Call the hook ``hook_name`` of the plugin that declared ``target`` alone (None
        when there is none, or it does not implement the hook)."""
        self._discover(target.lower())
        plugin = self.plugins.get(target)
        if plugin is None:
            return None
        others = [p for p in self.plugin_manager.get_plugins() if p is not plugin]
        return self.plugin_manager.subset_hook_caller(hook_name, others)(**kwargs)

    def executor(self, target: str, hook_name: str, context: dict[str, Any]) -> Any:
        """The executor the plugin of ``target`` creates with ``hook_name``."""
        what, needs = {"ember_eager_executor": ("a PyNative executor", "kernel"),
                       "ember_graph_executor": ("a graph executor", "compile")}[hook_name]
        executor = self.call(target, hook_name, device_target=target, context=context)
        spec = self._specs[target]
        plugin = f"{spec.distribution} {self.versions[target]}"
        if executor is None:
            raise BackendError(f"the backend for device_target '{target}' ({plugin}) "
                               f"provides no {what} (its plugin implements no {hook_name} "
                               "hook)")
        if not callable(getattr(executor, needs, None)):
            raise BackendError(f"the {hook_name} hook of {plugin} (device_target '{target}') "
                               f"returned {executor!r}, which has no {needs}() method")
        return executor

    def unavailable_reason(self, target: str) -> str | None:
        """Run the backend's own availability check once and remember the answer."""
        with self._lock:
            if target not in self._availability:
                try:
                    reason = self._specs[target].check_available()
                except Exception as exc:
                    reason = f"its availability check raised {type(exc).__name__}: {exc}"
                self._availability[target] = reason
            return self._availability[target]

    def check(self, target: str) -> None:
        """Raise the one error that says why ``target`` cannot be used, if it cannot."""
        self._discover(target.lower())
        if target in self._specs:
            reason = self.unavailable_reason(target)
            if reason is not None:
                spec = self._specs[target]
                raise BackendError(
                    f"device_target '{target}' is installed ({spec.distribution}) but "
                    f"unavailable: {reason}"
                )
            return
        served = {t.lower() for t in self._specs}  # a rival refused in favour of ember's own
        problem = next((p for p in self.problems if p.device_target.lower() == target.lower()
                        and target.lower() not in served), None)
        if problem is not None:
            raise BackendError(problem.problem)
        if target in STANDARD_TARGETS:
            extra = STANDARD_TARGETS[target]
            raise BackendError(
                f"device_target '{target}' needs the ember-{extra} backend, which is not "
                f'installed: pip install "ember-core[{extra}]"'
            )
        self.discover()
        choices = sorted({*STANDARD_TARGETS, *self._specs})
        close = difflib.get_close_matches(target, choices, n=1) or [
            c for c in choices if c.lower() == target.lower()
        ]
        hint = f"; did you mean '{close[0]}'?" if close else ""
        raise ValueError(
            f"device_target must be one of {', '.join(choices)} (or the device_target of an "
            f"installed third-party backend), but got '{target}'{hint}"
        )

    def default_target(self) -> str:
        """Explicit environment choice, else the highest-priority available backend (on a
        tie: ember's own, in the order of STANDARD_TARGETS, then by name)."""
        chosen = os.environ.get(ENV_DEVICE_TARGET)
        if chosen:
            try:
                self.check(chosen)
            except (ValueError, BackendError) as exc:
                raise BackendError(f"{ENV_DEVICE_TARGET}={chosen!r}: {exc}") from None
            return chosen
        self.discover()
        order = list(STANDARD_TARGETS)
        ranked = sorted(self._specs.values(), key=lambda spec: (
            -spec.priority, order.index(spec.device_target) if spec.device_target in order
            else len(order), spec.device_target))
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
        self.discover()
        usable = [
            BackendStatus(t, s.distribution, self.versions[t], reason,
                          {} if reason else self._details(s))
            for t, s in self._specs.items() for reason in [self.unavailable_reason(t)]
        ]
        return sorted([*usable, *self.problems], key=lambda s: s.device_target)


def _distribution(entry_point: EntryPoint) -> tuple[str, str]:
    """The name and version of the distribution that registers ``entry_point``."""
    dist = entry_point.dist
    return (dist.name, dist.version) if dist else (entry_point.value, "?")


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
    """Let the plugin of ``device_target`` (in effect after the change) apply, or reject by
    raising, validated context changes."""
    registry().call(device_target, "ember_context_changed", device_target=device_target,
                    changes=changes)


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
