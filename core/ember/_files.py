"""Temporary files that are renamed over their target: ``.<name>.<pid>.<random>.tmp`` next to
it. A process killed while writing leaves its temporary behind; the next write of the same
target removes the temporaries of processes that no longer run."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def new_temporary(path: str | os.PathLike[str]) -> tuple[int, str]:
    """``(fd, name)`` of a new temporary file for ``path``, after removing stale ones."""
    path = Path(path)
    remove_stale_temporaries(path)
    return tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp",
                            dir=path.parent)


def remove_stale_temporaries(path: Path) -> None:
    """Remove the temporaries of ``path`` left by processes that are no longer running."""
    prefix = f".{path.name}."
    try:
        names = os.listdir(path.parent)
    except OSError:
        return
    for name in names:
        if not (name.startswith(prefix) and name.endswith(".tmp")):
            continue
        pid = name[len(prefix):].partition(".")[0]
        if pid.isdigit() and not _running(int(pid)):
            try:
                os.remove(path.parent / name)
            except OSError:
                pass


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    if os.name == "nt":  # os.kill cannot probe there: keep the file
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process
        return True
    return True
