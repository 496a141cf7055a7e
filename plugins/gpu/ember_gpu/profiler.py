"""The GPU backend's profiler: TensorFlow's, tracing the host and the device."""

from __future__ import annotations

from pathlib import Path

from ember_gpu.device import import_tensorflow


class TfProfile:
    """A running TensorFlow profiler session; ``stop()`` writes its trace under
    ``<output_path>/plugins/profile/<run>/`` (open it with TensorBoard's profile plugin)."""

    def __init__(self, output_path: str) -> None:
        self.tf = import_tensorflow()
        self.output = Path(output_path)
        self.before = set(self.output.rglob("*"))
        options = self.tf.profiler.experimental.ProfilerOptions(
            host_tracer_level=2, python_tracer_level=0, device_tracer_level=1)
        self.tf.profiler.experimental.start(output_path, options=options)

    def stop(self) -> list[str]:
        self.tf.profiler.experimental.stop()
        return sorted(str(p) for p in set(self.output.rglob("*")) - self.before if p.is_file())
