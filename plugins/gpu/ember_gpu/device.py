"""The GPU backend's device: one TensorFlow device, set up from the context on first use.

TensorFlow fixes its devices when its runtime starts: which GPUs it sees and how much memory
each may take. So the first GPU operation of a process starts :class:`TfDevice` with the
context's ``device_id`` and ``max_device_memory``, and a later change of either raises an error
that says so (see ``plugin.ember_context_changed``). Switches TensorFlow can flip at any time
(``pynative_synchronize``, ``enable_graph_kernel``, ``deterministic``) are applied at start and
again whenever they change.

With no GPU visible the backend is unavailable, unless the environment variable
``EMBER_GPU_ON_CPU=1`` asks to run it on TensorFlow's CPU device (XLA included): that is how
CI, and anyone without a GPU, runs this backend's tests.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
from typing import Any

import numpy as np

from ember._options import CONTEXT

#: Environment variable: ``1`` runs the GPU backend on TensorFlow's CPU device.
ON_CPU_ENV = "EMBER_GPU_ON_CPU"


def import_tensorflow() -> Any:
    """TensorFlow, imported on first use with its C++ info logs off (unless the user set
    ``TF_CPP_MIN_LOG_LEVEL``)."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf

    return tf


def on_cpu_requested() -> bool:
    return os.environ.get(ON_CPU_ENV, "") == "1"


def nvidia_driver_found() -> bool:
    """Whether an NVIDIA driver is installed: a cheap test that imports nothing."""
    return os.path.exists("/proc/driver/nvidia/version") or shutil.which("nvidia-smi") is not None


def unavailable_reason() -> str | None:
    """None when the backend can run here, else why not and what to do. Where no NVIDIA
    driver is installed it says so without importing TensorFlow (seconds saved when ember
    picks a default device_target on a machine without a GPU)."""
    hint = f"or set {ON_CPU_ENV}=1 to run this backend on TensorFlow's CPU device"
    if not on_cpu_requested() and not nvidia_driver_found():
        return f"no NVIDIA driver is installed (no nvidia-smi, no /proc/driver/nvidia); {hint}"
    if on_cpu_requested() and importlib.util.find_spec("tensorflow") is not None:
        return None  # TensorFlow's CPU device is always there: no need to import it to know
    try:
        tf = import_tensorflow()
    except Exception as exc:  # ImportError, or a broken CUDA library loaded by TensorFlow
        return (f"TensorFlow cannot be imported ({type(exc).__name__}: {exc}): "
                'pip install "ember-core[gpu]"')
    if tf.config.list_physical_devices("GPU") or on_cpu_requested():
        return None
    built = "with" if tf.test.is_built_with_cuda() else "WITHOUT"
    return (f"TensorFlow {tf.__version__} (built {built} CUDA) sees no GPU: check that "
            "nvidia-smi lists one, that CUDA_VISIBLE_DEVICES does not hide it, and that the "
            f'CUDA libraries are installed (pip install "ember-gpu[cuda]"); {hint}')


def megabytes(size: str) -> int:
    """``"3.5GB"`` (the context's memory sizes) in whole megabytes."""
    match = re.fullmatch(r"(\d+(?:\.\d+)?)GB", size)
    if match is None:
        raise ValueError(f"a memory size must be written like '3.5GB', but got {size!r}")
    return int(float(match.group(1)) * 1024)


class TfDevice:
    """Where every array of the GPU backend lives: the ``device`` of both its executors.

    Arrays are ``tf.Tensor`` s on one TensorFlow device; Parameters are ``tf.Variable`` s
    there, which the in-place kernels (Assign, ApplyMomentum, ...) update.
    """

    def __init__(self, tf: Any, spec: str, started_with: dict[str, Any]) -> None:
        self.tf = tf
        self.spec = spec  # "/GPU:0", or "/CPU:0" under EMBER_GPU_ON_CPU=1
        #: The context values TensorFlow fixed at start, which cannot change afterwards.
        self.started_with = started_with
        self.name = f"GPU (TensorFlow {spec[1:]})"

    def from_host(self, array: np.ndarray) -> Any:
        """Copy a host array to the device."""
        with self.tf.device(self.spec):
            return self.tf.constant(array)

    def parameter_from_host(self, array: np.ndarray) -> Any:
        """A Parameter's storage on the device: a variable the in-place kernels update."""
        with self.tf.device(self.spec):
            return self.tf.Variable(array, trainable=False)

    def to_host(self, array: Any) -> np.ndarray:
        """Copy a device array (a tf.Tensor or tf.Variable) to host memory."""
        return array.numpy()

    def __repr__(self) -> str:
        return f"<{self.name}>"


_DEVICE: TfDevice | None = None
#: The context keys TensorFlow reads once, when it starts.
FIXED_AT_START = ("device_id", "max_device_memory")


def current() -> TfDevice | None:
    """The device, if this process has started it."""
    return _DEVICE


def start(context: dict[str, Any]) -> TfDevice:
    """The device, started from ``context`` (device_id, memory) on first call."""
    global _DEVICE
    if _DEVICE is not None:
        return _DEVICE
    tf = import_tensorflow()
    gpus = tf.config.list_physical_devices("GPU")
    device_id = context["device_id"]
    if gpus:
        if device_id >= len(gpus):
            raise ValueError(f"device_id {device_id} names no GPU: TensorFlow sees "
                             f"{len(gpus)} (device_id 0 to {len(gpus) - 1})")
        gpu = gpus[device_id]
        tf.config.set_visible_devices([gpu], "GPU")
        if context["max_device_memory"] == CONTEXT["max_device_memory"].default:  # no limit
            tf.config.experimental.set_memory_growth(gpu, True)
        else:
            limit = megabytes(context["max_device_memory"])
            tf.config.set_logical_device_configuration(
                gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=limit)])
        spec = "/GPU:0"
    elif on_cpu_requested():
        spec = "/CPU:0"
    else:
        raise RuntimeError(f"device_target 'GPU' cannot start: {unavailable_reason()}")
    # Float32 matmuls and convolutions in float32, not TF32 (10-bit mantissa on Ampere and
    # later): results agree with the CPU backend within float32 tolerance, as promised.
    tf.config.experimental.enable_tensor_float_32_execution(False)
    _DEVICE = TfDevice(tf, spec, {key: context[key] for key in FIXED_AT_START})
    apply_switches(context)
    return _DEVICE


def apply_switches(values: dict[str, Any]) -> None:
    """Apply the context keys TensorFlow can change at any time, where ``values`` has them."""
    tf = import_tensorflow()
    if "pynative_synchronize" in values:
        # True: each op finishes before the next starts, so an error points at its own line.
        tf.config.experimental.set_synchronous_execution(
            True if values["pynative_synchronize"] else None)
    if "deterministic" in values:
        from tensorflow.python.framework import config

        if values["deterministic"] == "ON":
            config.enable_op_determinism()
        else:
            config.disable_op_determinism()
    if "enable_graph_kernel" in values or "graph_kernel_flags" in values:
        tf.config.optimizer.set_jit(auto_clustering(values) or False)


def auto_clustering(values: dict[str, Any]) -> str | None:
    """XLA auto-clustering for graphs that cannot compile whole (those calling Python):
    ``"autoclustering"`` when ``enable_graph_kernel`` is on and ``graph_kernel_flags`` does not
    set ``--opt_level=0``, else None."""
    from ember import context

    def value(key: str) -> Any:
        return values[key] if key in values else context.get_context(key)

    if not value("enable_graph_kernel"):
        return None
    level = re.search(r"--opt_level=(\d+)", value("graph_kernel_flags"))
    return None if level and int(level.group(1)) == 0 else "autoclustering"
