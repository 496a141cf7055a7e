"""The GPU backend's profiler session: TensorFlow runs kernels asynchronously, so after each
op the session waits for the device; the op's time span then covers its device time."""

from __future__ import annotations

from typing import Any


class TfProfile:
    """A profiling session on the backend's device (see ``ember_profiler_start``)."""

    def __init__(self, tf: Any) -> None:
        self.synchronize = tf.test.experimental.sync_devices

    def stop(self) -> list[str]:
        return []
