"""``ember.log``: the logger MindSpore scripts import as ``from mindspore import log as logger``.

Levels follow MindSpore's ``GLOG_v`` environment variable (0 DEBUG, 1 INFO, 2 WARNING, the
default, 3 ERROR); messages go to stderr as ``[LEVEL] EMBER(pid,...):time [file:line] message``.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

_LEVELS = {"0": logging.DEBUG, "1": logging.INFO, "2": logging.WARNING, "3": logging.ERROR}
_NAMES = {logging.DEBUG: "DEBUG", logging.INFO: "INFO", logging.WARNING: "WARNING",
          logging.ERROR: "ERROR", logging.CRITICAL: "CRITICAL"}


def _level() -> int:
    value = os.environ.get("GLOG_v", "2")
    if value not in _LEVELS:
        raise ValueError(f"GLOG_v must be one of 0 (DEBUG), 1 (INFO), 2 (WARNING), 3 (ERROR), "
                         f"but got {value!r}")
    return _LEVELS[value]


def _make_logger() -> logging.Logger:
    log = logging.getLogger("ember")
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(
            "[%(levelname)s] EMBER(%(process)d,%(threadName)s):%(asctime)s "
            "[%(filename)s:%(lineno)d] %(message)s"))
        log.addHandler(handler)
        log.propagate = False
    log.setLevel(_level())
    return log


_logger = _make_logger()


def debug(msg: Any, *args: Any, **kwargs: Any) -> None:
    _logger.debug(msg, *args, stacklevel=2, **kwargs)


def info(msg: Any, *args: Any, **kwargs: Any) -> None:
    _logger.info(msg, *args, stacklevel=2, **kwargs)


def warning(msg: Any, *args: Any, **kwargs: Any) -> None:
    _logger.warning(msg, *args, stacklevel=2, **kwargs)


def error(msg: Any, *args: Any, **kwargs: Any) -> None:
    _logger.error(msg, *args, stacklevel=2, **kwargs)


def critical(msg: Any, *args: Any, **kwargs: Any) -> None:
    _logger.critical(msg, *args, stacklevel=2, **kwargs)


exception = error


def get_level() -> str:
    """The level in effect, as the ``GLOG_v`` digit MindSpore returns ('2' for WARNING)."""
    return {v: k for k, v in _LEVELS.items()}[_logger.getEffectiveLevel()]


def get_log_config() -> dict[str, str]:
    """The logging configuration, keyed as MindSpore's (``GLOG_v``)."""
    return {"GLOG_v": get_level()}


__all__ = ["critical", "debug", "error", "exception", "get_level", "get_log_config", "info",
           "warning"]
