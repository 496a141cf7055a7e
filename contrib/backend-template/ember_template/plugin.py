"""The entry point of the Template backend: the module named in ``pyproject.toml``::

    [project.entry-points."ember.backends"]
    template = "ember_template.plugin"

ember imports it when it first looks for backends, so it imports nothing heavy: the executors
(and NumPy, and on real hardware the device's runtime) are imported inside the hooks that
create them. Each hook is one of ``ember.hookspecs``; a backend implements the ones it needs.
This one has no ``ember_communicator`` (collectives for data-parallel training) and no
``ember_profiler_start``: see the CPU backend's plugin for both.
"""

from __future__ import annotations

from typing import Any

from ember.backend import BackendSpec, hookimpl

DEVICE_TARGET = "Template"
DISTRIBUTION = "ember-template"
#: The core API this plugin is built for ("major.minor"); ember refuses to load it, naming both
#: versions, when the installed ember-core provides another major or an older minor.
API_VERSION = "1.0"
#: Below the CPU backend's 0: installing the template never changes the default device_target.
PRIORITY = -10


def check_available() -> str | None:
    """None: the Template device (host memory) is always there.

    Called only when device_target "Template" is asked for. A real backend finds out here,
    importing what it needs, and returns the reason it cannot run, which ember shows as
    "device_target 'X' is installed (dist) but unavailable: <reason>". For example::

        try:
            import acl
        except ImportError as exc:
            return f"the CANN runtime (pyACL) cannot be imported: {exc}; install CANN"
        count, status = acl.rt.get_device_count()
        if status != 0 or count == 0:
            return "no Ascend device is visible (npu-smi info lists none)"
        return None
    """
    return None


@hookimpl
def ember_backends() -> list[BackendSpec]:
    return [BackendSpec(DEVICE_TARGET, api_version=API_VERSION, distribution=DISTRIBUTION,
                        priority=PRIORITY, check_available=check_available)]


@hookimpl
def ember_eager_executor(device_target: str, context: dict[str, Any]) -> Any:
    if device_target != DEVICE_TARGET:
        return None  # another plugin's: the first non-None result wins
    from ember_template.executor import TemplateExecutor

    return TemplateExecutor()


@hookimpl
def ember_graph_executor(device_target: str, context: dict[str, Any]) -> Any:
    if device_target != DEVICE_TARGET:
        return None
    from ember_template.graph import GraphExecutor

    return GraphExecutor()


#: Context options this backend cannot honour, each with the only value it accepts.
UNSUPPORTED = {
    "enable_graph_kernel": (False, "it has no graph kernel fusion: its graphs run node by node"),
}


@hookimpl
def ember_context_changed(device_target: str, changes: dict[str, Any]) -> None:
    """Reject what the Template device cannot do; accept the rest.

    Accepted without action: ``pynative_synchronize`` (kernels run synchronously anyway),
    ``max_device_memory`` and ``mempool_block_size`` (the device's memory is host memory; the
    core warns that they have no effect here), and every key the core itself applies (mode,
    save_graphs, ...). Rejected: ``enable_graph_kernel=True``, set in this call or stored
    earlier when this call makes "Template" the device_target.
    """
    if device_target != DEVICE_TARGET:
        return  # not in use after this call: nothing to apply or reject
    from ember import context

    for key, (accepted, why) in UNSUPPORTED.items():
        value = changes[key] if key in changes else context.get_context(key)
        if value != accepted:
            when = "" if key in changes else f" (set earlier; pass {key}={accepted!r} too)"
            raise ValueError(
                f"device_target '{DEVICE_TARGET}' ({DISTRIBUTION}) cannot honour "
                f"{key}={value!r}: {why}; it accepts only {key}={accepted!r}{when}")
