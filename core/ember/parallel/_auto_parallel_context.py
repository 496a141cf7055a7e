"""``mindspore.parallel._auto_parallel_context``: the auto-parallel context as an object.

``auto_parallel_context()`` is the process's one ``_AutoParallelContext``, whose ``set_<key>``
and ``get_<key>`` methods read and write the keys of :func:`ember.context.set_auto_parallel_context`
(same validation, same store), under 1.6's method names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ember import context
from ember._options import AUTO_PARALLEL

__all__ = ["auto_parallel_context"]

#: 1.6's method names that differ from the key they set and get.
_RENAMED = {"strategy_search_mode": "search_mode",
            "all_reduce_fusion_split_indices": "all_reduce_fusion_config"}
#: The keys whose ``get_<key>_is_set`` says whether the user set them since the last reset.
_TRACKED = ("device_num", "global_rank", "parameter_broadcast")
_WORLD_GROUPS = ("", "hccl_world_group", "nccl_world_group")


class _AutoParallelContext:
    """``set_<key>(value)``, ``get_<key>()`` for every key of set_auto_parallel_context;
    ``get_<key>_is_set()`` for device_num, global_rank and parameter_broadcast; ``reset()``."""

    def __getattr__(self, name: str) -> Callable[..., Any]:
        verb, _, key = name.partition("_")
        key = _RENAMED.get(key, key)
        if verb == "get" and key.endswith("_is_set") and key[:-len("_is_set")] in _TRACKED:
            return lambda: _is_set(key[:-len("_is_set")])
        if verb in ("get", "set") and key in AUTO_PARALLEL:
            return _getter(key) if verb == "get" else _setter(key)
        raise AttributeError(f"'_AutoParallelContext' object has no attribute {name!r}")

    def __dir__(self) -> list[str]:
        renamed = {key: name for name, key in _RENAMED.items()}
        keys = [renamed.get(key, key) for key in AUTO_PARALLEL]
        return sorted({*object.__dir__(self), *(f"{verb}_{key}" for key in keys
                                                for verb in ("get", "set")),
                       *(f"get_{key}_is_set" for key in _TRACKED)})

    def get_grad_accumulation_shard(self) -> bool:
        return context.get_auto_parallel_context(
            "parallel_optimizer_config")["gradient_accumulation_shard"]

    def reset(self) -> None:
        context.reset_auto_parallel_context()


def _world_only(api: str, group: str) -> None:
    if group not in _WORLD_GROUPS:
        raise ValueError(f"{api}: ember keeps one list of AllReduce fusion indices, for the "
                         f"world group; got group {group!r}")


def _getter(key: str) -> Callable[..., Any]:
    if key != "all_reduce_fusion_config":
        return lambda: context.get_auto_parallel_context(key)

    def get(group: str = "") -> Any:
        _world_only("get_all_reduce_fusion_split_indices", group)
        return context.get_auto_parallel_context(key)
    return get


def _setter(key: str) -> Callable[..., None]:
    if key == "all_reduce_fusion_config":
        def set_indices(indices: list, group: str = "") -> None:
            _world_only("set_all_reduce_fusion_split_indices", group)
            context.set_auto_parallel_context(**{key: indices})
        return set_indices

    def set_(*args: Any, **kwargs: Any) -> None:
        """Set the key to the one value given, by position or under 1.6's argument name."""
        values = (*args, *kwargs.values())
        if len(values) != 1:
            raise TypeError(f"set_{key} takes one value, but got {len(values)}")
        context.set_auto_parallel_context(**{key: values[0]})
    return set_


def _is_set(key: str) -> bool:
    with context._LOCK:
        return key in context._AUTO_PARALLEL.given


_CONTEXT = _AutoParallelContext()


def auto_parallel_context() -> _AutoParallelContext:
    """The process's auto-parallel context object."""
    return _CONTEXT


_set_auto_parallel_context = context.set_auto_parallel_context
_get_auto_parallel_context = context.get_auto_parallel_context
_reset_auto_parallel_context = context.reset_auto_parallel_context
