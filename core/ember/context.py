"""The process-wide configuration: execution mode, device, parallelism and parameter server.

MindSpore 1.6's ``mindspore.context``: ``set_context``/``get_context``,
``set_auto_parallel_context``/``get_auto_parallel_context``/``reset_auto_parallel_context`` and
``set_ps_context``/``get_ps_context``/``reset_ps_context``, plus ``reset_context``. Every key, with
its type, default, accepted values and the device_targets that honour it, comes from the tables of
:mod:`ember._options`, and so do the key lists in these functions' docs.

A call is validated whole before anything is stored: one bad key, a conflict between keys, or a
backend that rejects a value leaves every context as it was. The contexts are process-global and
guarded by one lock, so threads may read and write them concurrently. A key that the current
device_target does not honour is stored, and a UserWarning says so once per key and
device_target; deprecated keys warn with DeprecationWarning. Passwords are never shown.
"""

from __future__ import annotations

import copy
import textwrap
import threading
import warnings
from collections.abc import Mapping
from typing import Any

from ember._options import (
    AUTO_PARALLEL,
    CONTEXT,
    GRAPH_MODE,
    PS,
    PYNATIVE_MODE,
    RULES,
    Option,
    ParallelMode,
    type_name,
    unknown_key,
)

__all__ = [
    "GRAPH_MODE",
    "PYNATIVE_MODE",
    "ParallelMode",
    "get_auto_parallel_context",
    "get_context",
    "get_ps_context",
    "reset_auto_parallel_context",
    "reset_context",
    "reset_ps_context",
    "set_auto_parallel_context",
    "set_context",
    "set_ps_context",
]

_LOCK = threading.RLock()
_UNRESOLVED = object()  # a default_factory default not computed yet
_Note = tuple[type[Warning], str]


class _Secret:
    """A stored password, whose repr does not show it."""

    __slots__ = ("value",)

    def __init__(self, value: str) -> None:
        self.value = value

    def __repr__(self) -> str:
        return "<secret>"


def _view(option: Option, stored: Any) -> Any:
    """What ``option`` reads from the value stored for it."""
    return option.decode(stored) if option.decode else stored


class _Context:
    """The values of one option table. Callers hold ``_LOCK``."""

    def __init__(self, api: str, options: Mapping[str, Option]) -> None:
        self.api = api
        self.options = options
        self.values: dict[str, Any] = {}
        self.given: set[str] = set()  # stored keys the user set since the last reset
        self.reset()

    def reset(self) -> None:
        self.given = set()
        self.values = {
            name: _UNRESOLVED if option.default_factory else copy.deepcopy(option.default)
            for name, option in self.options.items()
            if not (option.stores or option.env)
        }

    def option(self, key: Any) -> Option:
        if not isinstance(key, str):
            raise TypeError(f"{self.api} keys must be str, but got {type(key).__name__}")
        if key not in self.options:
            raise unknown_key(self.api, key, self.options)
        return self.options[key]

    def stored(self, name: str) -> Any:
        """The stored value of ``name``, computing a default_factory default on first read."""
        if self.values[name] is _UNRESOLVED:
            self.values[name] = self.options[name].default_factory()  # type: ignore[misc]
        return self.values[name]

    def get(self, key: Any) -> Any:
        option = self.option(key)
        if option.env:
            return option.read_env()
        value = self.stored(option.stores or key)
        if isinstance(value, _Secret):
            return value.value
        return copy.deepcopy(_view(option, value))

    def prepare(self, kwargs: Mapping[str, Any]) -> tuple[dict[str, Any], list[_Note]]:
        """Validate a whole call: the values to store, by stored key, and the warnings due."""
        options = {key: self.option(key) for key in kwargs}
        given: dict[str, Any] = {}
        changes: dict[str, Any] = {}
        writers: dict[str, list[str]] = {}
        notes: list[_Note] = []
        # Aliases and views first, so that a key given directly wins; conflicts are caught below.
        for key in sorted(kwargs, key=lambda key: not options[key].stores):
            option = options[key]
            if option.env:
                raise ValueError(
                    f"{key} is read from the environment variable {option.env}; set {option.env} "
                    f"instead of passing {key} to {self.api}"
                )
            given[key] = option.validate(kwargs[key])
            name = option.stores or key
            value = option.encode(given[key]) if option.encode else given[key]
            if isinstance(value, dict):  # a dict option updates the keys it is given
                value = {**changes.get(name, self.values[name]), **value}
            changes[name] = _Secret(value) if option.secret else value
            writers.setdefault(name, []).append(key)
            if option.deprecated:
                message = f"{self.api}: {key} is deprecated: {option.deprecated}"
                notes.append((DeprecationWarning, message))
        for name, keys in writers.items():
            if len(keys) > 1 and any(_view(options[k], changes[name]) != given[k] for k in keys):
                both = ", ".join(f"{key}={given[key]!r}" for key in keys)
                raise ValueError(f"{self.api}: {both} contradict each other; give one of them")
        return changes, notes

    def commit(self, changes: Mapping[str, Any]) -> None:
        self.values.update(changes)
        self.given.update(changes)


_CONTEXT = _Context("set_context", CONTEXT)
_AUTO_PARALLEL = _Context("set_auto_parallel_context", AUTO_PARALLEL)
_PS = _Context("set_ps_context", PS)
_CONTEXTS = (_CONTEXT, _AUTO_PARALLEL, _PS)
#: (key, device_target) pairs already warned about as not honoured.
_WARNED: set[tuple[str, str]] = set()


def _check_rules(changes: Mapping[str, Any]) -> None:
    def value_of(key: str) -> Any:
        if key in changes:
            return changes[key]
        return next(context.values[key] for context in _CONTEXTS if key in context.values)

    for rule in RULES:
        if rule.keys & changes.keys():
            rule.check(value_of)


def _emit(notes: list[_Note]) -> None:
    for category, message in notes:
        warnings.warn(message, category, stacklevel=3)  # the caller of the public function


def _set(context: _Context, kwargs: Mapping[str, Any]) -> list[_Note]:
    with _LOCK:
        changes, notes = context.prepare(kwargs)
        _check_rules(changes)
        context.commit(changes)
    return notes


def set_context(**kwargs: Any) -> None:
    """Set keys of the context that configures execution.

    Every key is validated before any is stored: a wrong key, type or value raises
    (ValueError, TypeError), and so does an unusable device_target (ValueError for an unknown
    one, ember._plugins.BackendError for one whose backend is missing or unusable) or a value
    the backend rejects; nothing is stored then. A key that the device_target in effect after
    the call does not honour is stored, with a UserWarning once per key and device_target.

    Examples:
        >>> set_context(mode=PYNATIVE_MODE, device_target="CPU")
        >>> set_context(save_graphs=True, save_graphs_path="./graphs")
    """
    if not kwargs:
        return
    from ember import _plugins

    with _LOCK:
        changes, notes = _CONTEXT.prepare(kwargs)
        _check_rules(changes)
        target = changes.get("device_target") or _CONTEXT.get("device_target")
        unhonoured = [
            key
            for key in kwargs
            if CONTEXT[key].platforms
            and target not in CONTEXT[key].platforms
            and (key, target) not in _WARNED
        ]
        _plugins.apply_context(changes, target)
        changed = {k: v for k, v in changes.items()
                   if k not in _CONTEXT.values or _CONTEXT.values[k] != v}
        _CONTEXT.commit(changes)
        _WARNED.update((key, target) for key in unhonoured)
        _plugins.context_committed(changed)
    notes += [
        (
            UserWarning,
            f"set_context: {key} is honoured only on device_target "
            f"{' and '.join(CONTEXT[key].platforms)}, not on the current device_target "
            f"{target!r}; it is stored but has no effect there",
        )
        for key in unhonoured
    ]
    _emit(notes)


def get_context(attr_key: str) -> Any:
    """The value of one key of set_context; its default if it was never set.

    device_target, when never set, is chosen among the installed backends on first read.
    """
    with _LOCK:
        return _CONTEXT.get(attr_key)


def reset_context() -> None:
    """Restore every key of set_context to its default, as in a fresh process (an Ember addition).

    device_target is chosen again on its next read. Backends are told through
    ``_plugins.context_committed`` with every key's default value (device_target: None).
    """
    from ember import _plugins

    with _LOCK:
        _CONTEXT.reset()
        _WARNED.clear()
        _plugins.context_committed(_current_values())


def _current_values() -> dict[str, Any]:
    """Every stored key of set_context and its value (device_target None until chosen)."""
    with _LOCK:
        return {
            name: None if value is _UNRESOLVED else copy.deepcopy(value)
            for name, value in _CONTEXT.values.items()
        }


#: device_num and global_rank of the MPI launch, once ``ember.communication.init()`` ran.
_LAUNCH: dict[str, int] = {}


def _launch_conflict(key: str, value: Any, launch: Mapping[str, int]) -> ValueError:
    what = (f"started {launch['device_num']} processes (mpirun -n {launch['device_num']})"
            if key == "device_num" else f"gave this process rank {launch['global_rank']}")
    return ValueError(f"set_auto_parallel_context: {key}={value!r} contradicts the MPI launch, "
                      f"which {what}; leave {key} unset to take the launch's value")


def _set_launch(device_num: int | None, global_rank: int | None) -> None:
    """Take device_num and global_rank from an MPI launch (None: forget them), unless the user
    set them; a user value that contradicts the launch raises ValueError naming both."""
    launch = {} if device_num is None else {"device_num": device_num, "global_rank": global_rank}
    with _LOCK:
        for key, value in launch.items():
            if key in _AUTO_PARALLEL.given and _AUTO_PARALLEL.values[key] != value:
                raise _launch_conflict(key, _AUTO_PARALLEL.values[key], launch)
        _LAUNCH.clear()
        _LAUNCH.update(launch)


def set_auto_parallel_context(**kwargs: Any) -> None:
    """Set keys of the context that configures parallel training.

    Validated whole, like set_context. PYNATIVE_MODE runs only parallel_mode 'stand_alone' and
    'data_parallel': another one raises ValueError while mode is PYNATIVE_MODE. Under an MPI
    launch (after ``ember.communication.init()``), device_num and global_rank default to the
    launch's, and a value that contradicts it raises ValueError.

    Examples:
        >>> set_auto_parallel_context(device_num=8, parallel_mode=ParallelMode.DATA_PARALLEL)
        >>> set_auto_parallel_context(dataset_strategy=((1, 8), (1, 8)))
    """
    for key in _LAUNCH.keys() & kwargs.keys():
        if kwargs[key] != _LAUNCH[key]:
            raise _launch_conflict(key, kwargs[key], _LAUNCH)
    _emit(_set(_AUTO_PARALLEL, kwargs))


def get_auto_parallel_context(attr_key: str) -> Any:
    """The value of one key of set_auto_parallel_context (device_num and global_rank: the MPI
    launch's when the user did not set them)."""
    with _LOCK:
        if attr_key in _LAUNCH and attr_key not in _AUTO_PARALLEL.given:
            return _LAUNCH[attr_key]
        return _AUTO_PARALLEL.get(attr_key)


def reset_auto_parallel_context() -> None:
    """Restore every key of set_auto_parallel_context to its default."""
    with _LOCK:
        _AUTO_PARALLEL.reset()


def set_ps_context(**kwargs: Any) -> None:
    """Set keys of the parameter-server training context.

    Parameter-server training also reads the environment variables MS_SERVER_NUM,
    MS_WORKER_NUM, MS_SCHED_HOST, MS_SCHED_PORT and MS_ROLE (MS_SCHED, MS_WORKER or
    MS_PSERVER/MS_SERVER) when a server starts; enable_ps=True checks those set. get_ps_context
    reports them as server_num, worker_num, scheduler_ip, scheduler_port and ms_role.

    Examples:
        >>> set_ps_context(enable_ssl=True, client_password="...", server_password="...")
    """
    _emit(_set(_PS, kwargs))


def get_ps_context(attr_key: str) -> Any:
    """The value of one key of set_ps_context, or of one of its environment variables."""
    with _LOCK:
        return _PS.get(attr_key)


def reset_ps_context() -> None:
    """Restore every key of set_ps_context to its default."""
    with _LOCK:
        _PS.reset()


def _keys_doc(options: Mapping[str, Option]) -> str:
    """A docstring section listing ``options`` with their type, default and notes."""
    lines = ["", "    Keys:"]
    for option in options.values():
        text = f"{option.name} ({type_name(option.type)}): {option.doc}"
        if option.env:
            text += f" Read from the environment variable {option.env}."
        elif not option.default_factory:
            text += f" Default: {option.default!r}."
        if option.platforms:
            text += f" Honoured on {'/'.join(option.platforms)} only."
        if option.deprecated and not option.stores:
            text += f" Deprecated: {option.deprecated}."
        lines.append(textwrap.fill(text, 100, initial_indent=" " * 8, subsequent_indent=" " * 12))
    return "\n".join(lines) + "\n"


for _function, _table in (
    (set_context, CONTEXT),
    (set_auto_parallel_context, AUTO_PARALLEL),
    (set_ps_context, PS),
):
    _function.__doc__ = (_function.__doc__ or "").rstrip() + "\n" + _keys_doc(_table)
