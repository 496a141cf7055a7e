"""What a backend author imports: the hook marker and the backend declaration."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pluggy

hookimpl = pluggy.HookimplMarker("ember")


class MissingKernelError(RuntimeError):
    """A backend has no kernel for a primitive; raise it from ``kernel(prim)``."""

    def __init__(self, primitive: str, backend: str, why: str = "") -> None:
        super().__init__(f"the {backend} backend has no kernel for primitive {primitive}"
                         + (f"; {why}" if why else ""))
        self.primitive = primitive
        self.backend = backend


def _always_available() -> str | None:
    return None


def _no_details() -> dict[str, str]:
    return {}


@dataclass(frozen=True)
class BackendSpec:
    """One backend a plugin provides, as returned by the ``ember_backends`` hook.

    ``api_version`` is the core API version (``"major.minor"``) the plugin was built for.
    ``check_available`` returns None when the backend can run here, else the reason it
    cannot (for example "no GPU is visible: nvidia-smi lists none"); it is called only when
    the backend is asked for, and may import what it needs to find out.
    ``priority`` orders backends when the user sets no ``device_target``: highest wins.
    ``details`` returns what ``python -m ember info`` shows of the backend beside its
    version: where it runs and the versions of the libraries it uses (``{"runs on":
    "TensorFlow's CPU device", "tensorflow": "2.21.0"}``); it must be cheap and import no
    heavy library (read versions with ``importlib.metadata``).
    """

    device_target: str
    api_version: str
    distribution: str
    priority: int = 0
    check_available: Callable[[], str | None] = _always_available
    details: Callable[[], dict[str, str]] = _no_details


def resolve_kernel(executor: Any, prim: Any) -> Callable[..., Any]:
    """``executor.kernel(prim)``, or, when the backend has no kernel for ``prim`` and the user
    set ``fallback_device_target``, that backend's kernel with the data moved across. Graph
    executors that call kernels should get them through this function."""
    from ember._executor import resolve_kernel as resolve

    return resolve(executor, prim)


def host_communicator() -> Any:
    """The CPU backend's communicator (MPI on NumPy arrays), for a backend that runs its
    collectives by staging its arrays through host memory; ImportError if it is missing."""
    from ember._plugins import registry

    host = registry().call("CPU", "ember_communicator", device_target="CPU")
    if host is None:
        raise ImportError("collectives staged through host memory need the CPU backend's MPI "
                          'communicator: pip install "ember-core[cpu,dist]"')
    return host


def merged_kernel_tables(package: str, path: Any) -> dict[str, Callable[[Any], Any]]:
    """The union of the ``KERNELS`` tables of every module of a backend's kernel package, for
    its ``__init__``: ``KERNELS = merged_kernel_tables(__name__, __path__)``. A primitive that
    two modules claim raises ImportError naming both, so each primitive has one kernel."""
    import importlib
    import pkgutil

    merged: dict[str, Callable[[Any], Any]] = {}
    owners: dict[str, str] = {}
    for found in sorted(pkgutil.iter_modules(path), key=lambda info: info.name):
        module = importlib.import_module(f"{package}.{found.name}")
        for name, factory in getattr(module, "KERNELS", {}).items():
            if name in merged:
                raise ImportError(f"{package}: a kernel for {name} is defined in both "
                                  f"{owners[name]} and {module.__name__}")
            merged[name], owners[name] = factory, module.__name__
    return merged
