"""The CPU backend's profiler session: NumPy kernels run synchronously on the host, so the
core's timing of each op is already its whole cost; nothing to wait for, nothing more to write."""

from __future__ import annotations


class HostProfile:
    """A profiling session on the host (see ``ember_profiler_start``)."""

    synchronize = None  # each kernel has finished when it returns

    def stop(self) -> list[str]:
        return []
