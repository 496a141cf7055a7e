"""``mindspore.parallel._cost_model_context``: the cost model of auto_parallel's strategy search.

Ember validates and stores these values (a call with one bad key or value changes nothing) but
runs no strategy search and no AllReduce fusion search: they change no result. The keys, their
defaults and checks are :data:`ember._options.COST_MODEL`.
"""

from __future__ import annotations

from typing import Any

from ember import context
from ember._options import COST_MODEL

__all__ = ["get_cost_model_context", "reset_cost_model_context", "set_cost_model_context"]

_COST_MODEL = context._Context("set_cost_model_context", COST_MODEL)
#: The flags 1.6 sets through its private helpers only, with their defaults.
_FLAG_DEFAULTS = {"multi_subgraphs": False, "dp_algo_single_loop": False}
_FLAGS = dict(_FLAG_DEFAULTS)


def set_cost_model_context(**kwargs: Any) -> None:
    """Set keys of the cost model (``device_memory_capacity``, ``costmodel_alpha``, ...)."""
    context._emit(context._set(_COST_MODEL, kwargs))


def get_cost_model_context(attr_key: str) -> Any:
    """The value of one key of :func:`set_cost_model_context`."""
    with context._LOCK:
        return _COST_MODEL.get(attr_key)


def reset_cost_model_context() -> None:
    """Restore every key, and the multi-subgraph and single-loop flags, to its default."""
    with context._LOCK:
        _COST_MODEL.reset()
        _FLAGS.update(_FLAG_DEFAULTS)


def _set_flag(name: str, api: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"For '{api}', the argument must be bool, but got the type : "
                        f"{type(value).__name__}")
    _FLAGS[name] = value


def _set_multi_subgraphs(multi_subgraph: bool = True) -> None:
    """Mark the graph as made of several subgraphs (a loop body or cell reused)."""
    _set_flag("multi_subgraphs", "set_multi_subgraphs", multi_subgraph)


def _get_multi_subgraphs() -> bool:
    return _FLAGS["multi_subgraphs"]


def _set_algo_single_loop(single_loop: bool = True) -> None:
    """Search one set of strategies for all the iterations of a for-loop."""
    _set_flag("dp_algo_single_loop", "set_dp_algo_single_loop", single_loop)


def _get_algo_single_loop() -> bool:
    return _FLAGS["dp_algo_single_loop"]
