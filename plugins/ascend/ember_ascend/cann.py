"""Where CANN is installed: found from the environment and the usual paths, loading nothing.

``source <cann>/set_env.sh`` sets ``ASCEND_HOME_PATH`` (older toolkits ``ASCEND_TOOLKIT_HOME``);
without it the default install directories are tried. The libraries sit in ``<home>/lib64`` or
``<home>/<arch>-linux/lib64``; the driver's in ``/usr/local/Ascend/driver/lib64``.
"""

from __future__ import annotations

import os
import platform
from dataclasses import dataclass
from pathlib import Path

HOME_VARIABLES = ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME")
DEFAULT_HOMES = ("/usr/local/Ascend/ascend-toolkit/latest", "/usr/local/Ascend/cann",
                 "/usr/local/Ascend/latest")
DRIVER_DIRS = ("/usr/local/Ascend/driver/lib64/driver", "/usr/local/Ascend/driver/lib64/common",
               "/usr/local/Ascend/driver/lib64")
#: The shared libraries the backend binds, by role.
LIBRARIES = {"runtime": "libascendcl.so", "nnopbase": "libnnopbase.so",
             "opapi": "libopapi.so", "aclop": "libacl_op_compiler.so", "hccl": "libhccl.so",
             "profiler": "libmsprofiler.so"}
#: Needed to run at all; the others are bound when a feature needs them.
REQUIRED = ("runtime", "nnopbase", "opapi")
SET_ENV_HINT = ("install the CANN toolkit (hiascend.com) and run "
                "`source /usr/local/Ascend/ascend-toolkit/set_env.sh` (CANN 9: "
                "`source /usr/local/Ascend/cann/set_env.sh`) before starting Python")


@dataclass(frozen=True)
class Installation:
    """A CANN toolkit found on disk: its home and the paths of its libraries."""

    home: Path
    libraries: dict[str, Path]

    def missing(self) -> list[str]:
        return [LIBRARIES[role] for role in REQUIRED if role not in self.libraries]


def homes() -> list[Path]:
    """Candidate CANN homes, the environment's first."""
    found = [os.environ[v] for v in HOME_VARIABLES if os.environ.get(v)]
    return [Path(p) for p in dict.fromkeys([*found, *DEFAULT_HOMES])]


def library_dirs(home: Path) -> list[Path]:
    arch = f"{platform.machine()}-linux"
    return [home / "lib64", home / arch / "lib64", *map(Path, DRIVER_DIRS)]


def find() -> Installation | None:
    """The first candidate home that exists, with the libraries found for it; None if none."""
    for home in homes():
        if not home.is_dir():
            continue
        libraries: dict[str, Path] = {}
        for role, name in LIBRARIES.items():
            hit = next((d / name for d in library_dirs(home) if (d / name).exists()), None)
            if hit is not None:
                libraries[role] = hit
        return Installation(home, libraries)
    return None


def not_found_reason() -> str:
    """Why no usable CANN is installed, and what to do."""
    tried = ", ".join(str(h) for h in homes())
    return (f"the CANN toolkit is not found (ASCEND_HOME_PATH and ASCEND_TOOLKIT_HOME are unset "
            f"or wrong; tried {tried}): {SET_ENV_HINT}")
