"""The Ascend device: memory from ``aclrtMalloc``, one stream, and the calls kernels enqueue.

:class:`AscendDevice` starts from the context (``device_id``, ``max_device_memory``/
``variable_memory_max_size``, ``enable_reduce_precision``) on first use. Every array is a
:class:`DeviceArray` in a block of device memory; blocks freed by Python go back to a cache and
are reused in stream order (every operation runs on the one stream, so a later operation never
overtakes an earlier one that still reads a reused block). ``aclrtFree`` runs only after the
stream is synchronized.

Kernels call :meth:`AscendDevice.aclnn` (one aclnn operator, two phases), :meth:`aclop`,
:meth:`copy` and :meth:`zero`; each launch is asynchronous. While a graph is being recorded
(:meth:`recording`), the same calls keep their executors (made repeatable), argument handles
and buffers, and return the launches so that the graph replays them.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from ember_ascend import driver as drv

#: Blocks are multiples of this many bytes (aclrtMalloc pads to 32 B; async D2D copies want 64).
GRANULE = 512
#: 910 first generation ("Atlas training series"): no aclnnConvolution, fp32 cube = fp16.
FIRST_GENERATION = re.compile(r"Ascend910(A|B|ProA|ProB|PremiumA)?$")


def first_generation(soc: str) -> bool:
    return bool(FIRST_GENERATION.match(soc))


def gigabytes(size: str) -> int:
    """``"3.5GB"`` (the context's memory sizes) in bytes."""
    match = re.fullmatch(r"(\d+(?:\.\d+)?)GB", size)
    if match is None:
        raise ValueError(f"a memory size must be written like '3.5GB', but got {size!r}")
    return int(float(match.group(1)) * 1024 ** 3)


def memory_limit(values: dict[str, Any]) -> tuple[int, str]:
    """The pool's limit in bytes and the key that sets it: ``max_device_memory``, or the
    deprecated ``variable_memory_max_size`` where it is set and smaller."""
    from ember._options import CONTEXT

    def value(key: str) -> str:
        if key in values:
            return values[key]
        from ember import context

        return context.get_context(key)

    limit, key = gigabytes(value("max_device_memory")), "max_device_memory"
    variables = value("variable_memory_max_size")
    if variables != CONTEXT["variable_memory_max_size"].default and gigabytes(variables) < limit:
        limit, key = gigabytes(variables), "variable_memory_max_size"
    return limit, key


class Block:
    """One allocation of the pool; back to the pool's cache when no array uses it."""

    __slots__ = ("ptr", "size", "pool")

    def __init__(self, ptr: int, size: int, pool: Pool) -> None:
        self.ptr, self.size, self.pool = ptr, size, pool

    def __del__(self) -> None:
        self.pool.cache.setdefault(self.size, []).append(self.ptr)


class Pool:
    """Device memory bounded by ``limit`` bytes, cached by block size."""

    def __init__(self, driver: Any, stream: int, limit: int, limit_key: str) -> None:
        self.driver, self.stream, self.limit, self.limit_key = driver, stream, limit, limit_key
        self.cache: dict[int, list[int]] = {}
        self.allocated = 0

    def alloc(self, nbytes: int) -> Block:
        size = max(GRANULE, -(-nbytes // GRANULE) * GRANULE)
        cached = self.cache.get(size)
        if cached:
            return Block(cached.pop(), size, self)
        if self.allocated + size > self.limit:
            self.trim()
            if self.allocated + size > self.limit:
                raise MemoryError(
                    f"the Ascend backend is out of device memory: {nbytes} bytes asked for, "
                    f"{self.allocated} of {self.limit} in use ({self.limit_key}="
                    f"{self.limit / 1024 ** 3:g}GB); raise {self.limit_key} or use smaller "
                    "batches")
        ptr = self.driver.malloc(size, drv.HUGE_FIRST)
        self.allocated += size
        return Block(ptr, size, self)

    def trim(self) -> None:
        """Free every cached block (after the stream has finished with them)."""
        self.driver.sync_stream(self.stream)
        for size, pointers in self.cache.items():
            for ptr in pointers:
                self.driver.free(ptr)
                self.allocated -= size
            pointers.clear()


class DeviceArray:
    """A contiguous array in device memory. NumPy cannot read it: ``to_host`` copies it out."""

    __slots__ = ("block", "shape", "dtype")

    def __init__(self, block: Block, shape: tuple[int, ...], dtype: np.dtype) -> None:
        self.block, self.shape, self.dtype = block, shape, dtype

    @property
    def ptr(self) -> int:
        return self.block.ptr

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __repr__(self) -> str:
        return f"DeviceArray(shape={list(self.shape)}, dtype={self.dtype}) on Ascend"


@dataclass(frozen=True)
class View:
    """An aclTensor over an array's memory: its own shape, strides and offset (in elements)."""

    array: DeviceArray
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    offset: int = 0
    fmt: int = drv.FORMAT_ND


def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step *= max(d, 1)
    return tuple(reversed(strides))


def view(array: DeviceArray, shape: tuple[int, ...] | None = None,
         fmt: int = drv.FORMAT_ND) -> View:
    """``array`` read with another (same-size) shape, or in another format."""
    shape = array.shape if shape is None else tuple(shape)
    return View(array, shape, contiguous_strides(shape), 0, fmt)


def transposed(array: DeviceArray) -> View:
    """The last two axes swapped, as strides (no copy)."""
    shape, strides = list(array.shape), list(contiguous_strides(array.shape))
    shape[-2:], strides[-2:] = shape[:-3:-1], strides[:-3:-1]
    return View(array, tuple(shape), tuple(strides))


@dataclass(frozen=True)
class Scalar:
    value: int | float | bool
    dtype: np.dtype


@dataclass(frozen=True)
class IntArray:
    values: tuple[int, ...]


@dataclass(frozen=True)
class BoolArray:
    values: tuple[bool, ...]


@dataclass(frozen=True)
class TensorList:
    items: tuple[DeviceArray | View, ...]


@dataclass(frozen=True)
class DType:
    """An aclDataType argument."""

    dtype: np.dtype


class Recording:
    """What a graph keeps to replay its operators: launches, handles, executors and buffers."""

    def __init__(self) -> None:
        self.launches: list[Callable[[], None]] = []
        self.keep: list[Any] = []
        self.handles: list[tuple[str, int]] = []
        self.executors: list[int] = []

    def release(self, driver: Any) -> None:
        for executor in self.executors:
            driver.destroy_executor(executor)
        for kind, handle in self.handles:
            driver.destroy(kind, handle)
        self.executors.clear()
        self.handles.clear()


class AscendDevice:
    """Where every Ascend array lives: the ``device`` of both executors."""

    def __init__(self, driver: Any, context: dict[str, Any]) -> None:
        self.driver = driver
        self.device_id = context["device_id"]
        self.started_with = initialize(driver, context)
        count = driver.device_count()
        if self.device_id >= count:
            raise ValueError(f"device_id {self.device_id} names no Ascend device: "
                             f"{count} visible (device_id 0 to {count - 1})")
        self.started_with["device_id"] = self.device_id
        driver.set_device(self.device_id)
        self.soc = driver.soc_name()
        self.stream = driver.create_stream()
        self.pool = Pool(driver, self.stream, *memory_limit(context))
        self.constants: dict[tuple, DeviceArray] = {}
        self.name = f"Ascend {self.soc} (device {self.device_id})"
        self.recording_now: Recording | None = None
        #: recordings of dropped graphs, released at the next synchronization (a finalizer
        #: must not call the driver: it can run in the middle of any other call)
        self.retired: list[Recording] = []
        self.cube = drv.CUBE_KEEP_DTYPE
        self.apply({"enable_reduce_precision": context["enable_reduce_precision"]})

    def apply(self, values: dict[str, Any]) -> None:
        """Apply the context keys that can change while the device runs."""
        if "enable_reduce_precision" in values:
            reduce = values["enable_reduce_precision"]
            if first_generation(self.soc) and not reduce:
                raise ValueError(
                    f"set_context(enable_reduce_precision=False): {self.soc} computes float32 "
                    "matrix products and convolutions in float16 only (cubeMathType "
                    "ALLOW_FP32_DOWN); it accepts only enable_reduce_precision=True")
            self.cube = (drv.CUBE_ALLOW_FP32_DOWN if first_generation(self.soc)
                         else drv.CUBE_KEEP_DTYPE)

        if "max_device_memory" in values or "variable_memory_max_size" in values:
            limit, key = memory_limit(values)
            if limit < self.pool.allocated:
                self.pool.trim()
            if limit < self.pool.allocated:
                raise ValueError(f"set_context({key}={values[key]!r}): the Ascend backend "
                                 f"already holds {self.pool.allocated} bytes of device memory")
            self.pool.limit, self.pool.limit_key = limit, key

    def profile(self, path: str, metrics: int, mask: int) -> int:
        """Start aclprof on this device, writing under ``path``: its configuration handle."""
        return self.driver.prof_start(path, (self.device_id,), metrics, mask)

    # -- memory and moves ------------------------------------------------------------------
    def constant(self, value: Any, dtype: Any) -> DeviceArray:
        """A constant array on the device, moved there once."""
        host = np.asarray(value, dtype)
        key = (host.dtype.str, host.shape, host.tobytes())
        if key not in self.constants:
            self.constants[key] = self.from_host(host)
        return self.constants[key]

    def empty(self, shape: tuple[int, ...], dtype: Any) -> DeviceArray:
        dtype = np.dtype(dtype)
        shape = tuple(int(d) for d in shape)
        array = DeviceArray(self.pool.alloc(int(np.prod(shape, dtype=np.int64)) * dtype.itemsize),
                            shape, dtype)
        if self.recording_now is not None:
            self.recording_now.keep.append(array)
        return array

    def from_host(self, array: np.ndarray) -> DeviceArray:
        """Copy a host array to the device (through pinned memory; waits until it is there)."""
        host = np.asarray(array, order="C")  # (keeps 0-d arrays 0-d)
        out = self.empty(host.shape, host.dtype)
        if host.nbytes:
            self._through_pinned(host.nbytes, lambda pinned: (
                ctypes.memmove(pinned, host.ctypes.data, host.nbytes),
                self.driver.memcpy_async(out.ptr, out.block.size, pinned, host.nbytes,
                                         drv.H2D, self.stream)))
        return out

    def to_host(self, array: DeviceArray) -> np.ndarray:
        """Copy a device array to host memory, after the work queued before it."""
        if not isinstance(array, DeviceArray):
            raise TypeError(f"Ascend to_host expects a DeviceArray, but got {type(array).__name__}")
        host = np.empty(array.shape, array.dtype)
        if host.nbytes:
            self._through_pinned(host.nbytes, lambda pinned: self.driver.memcpy_async(
                pinned, host.nbytes, array.ptr, host.nbytes, drv.D2H, self.stream),
                lambda pinned: ctypes.memmove(host.ctypes.data, pinned, host.nbytes))
        return host

    def _through_pinned(self, nbytes: int, enqueue: Callable[[int], Any],
                        after: Callable[[int], Any] | None = None) -> None:
        pinned = self.driver.malloc_host(nbytes)
        try:
            enqueue(pinned)
            self.synchronize()
            if after is not None:
                after(pinned)
        finally:
            self.driver.free_host(pinned)

    def synchronize(self) -> None:
        """Wait for the stream; then release the recordings of graphs dropped since."""
        self.driver.sync_stream(self.stream)
        while self.retired:
            self.retired.pop().release(self.driver)

    def retire(self, recording: Recording) -> None:
        """Release ``recording`` once the stream has finished with it (safe in a finalizer)."""
        self.retired.append(recording)

    # -- enqueued work ---------------------------------------------------------------------
    def _enqueue(self, launch: Callable[[], None]) -> None:
        launch()
        if self.recording_now is not None:
            self.recording_now.launches.append(launch)

    def copy(self, dst: DeviceArray, src: DeviceArray) -> None:
        """dst <- src, device to device, on the stream."""
        if src.nbytes:
            self._enqueue(partial(self.driver.memcpy_async, dst.ptr, dst.block.size, src.ptr,
                                  src.nbytes, drv.D2D, self.stream))

    def zero(self, array: DeviceArray) -> DeviceArray:
        if array.nbytes:
            self._enqueue(partial(self.driver.memset_async, array.ptr, array.block.size, 0,
                                  array.nbytes, self.stream))
        return array

    def all_reduce(self, comm: int, src: DeviceArray, dst: DeviceArray, dtype: int,
                   op: int) -> None:
        """``HcclAllReduce`` of ``src`` into ``dst`` on the stream (HCCL's dtype and op
        numbers)."""
        if src.size:
            self._enqueue(partial(self.driver.hccl_all_reduce, src.ptr, dst.ptr, src.size,
                                  dtype, op, comm, self.stream))

    def aclnn(self, op: str, *args: Any) -> None:
        """Run aclnn operator ``op`` on ``args`` (arrays, views, Scalar, IntArray, ..., plain
        ints and bools) on the stream: both phases, with a workspace from the pool."""
        handles: list[tuple[str, int]] = []
        rec = self.recording_now
        try:
            values = [self._argument(a, handles) for a in args]
            size, executor = self.driver.aclnn_prepare(op, *values)
            if rec is not None:
                self.driver.set_repeatable(executor)
                rec.executors.append(executor)
            work = self.pool.alloc(size) if size else None
            if rec is not None and work is not None:
                rec.keep.append(work)
            self._enqueue(partial(self.driver.aclnn_launch, op, work.ptr if work else 0, size,
                                  executor, self.stream))
        finally:
            if rec is not None:
                rec.handles.extend(handles)
            else:
                for kind, handle in reversed(handles):
                    self.driver.destroy(kind, handle)

    def aclop(self, op: str, inputs: list[DeviceArray], outputs: list[DeviceArray],
              attrs: dict[str, Any]) -> None:
        """Run aclop operator ``op`` (compiled for these static shapes) on the stream."""
        def described(a: DeviceArray) -> tuple[int, tuple[int, ...], int, int]:
            fmt = drv.FORMAT_NCHW if a.ndim == 4 else drv.FORMAT_ND
            return drv.DTYPES[a.dtype.name], a.shape, fmt, a.ptr

        self._enqueue(partial(self.driver.aclop_run, op, [described(a) for a in inputs],
                              [described(a) for a in outputs], attrs, self.stream))

    def _argument(self, arg: Any, handles: list[tuple[str, int]]) -> Any:
        d = self.driver
        if isinstance(arg, DeviceArray):
            arg = view(arg)
        if isinstance(arg, View):
            a = arg.array
            handle = d.make_tensor(arg.shape, drv.DTYPES[a.dtype.name], arg.strides, arg.offset,
                                   arg.fmt, (a.size,), a.ptr)
            kind = "T"
        elif isinstance(arg, Scalar):
            handle, kind = d.make_scalar(arg.value, drv.DTYPES[np.dtype(arg.dtype).name]), "S"
        elif isinstance(arg, IntArray):
            handle, kind = d.make_int_array(tuple(int(v) for v in arg.values)), "IA"
        elif isinstance(arg, BoolArray):
            handle, kind = d.make_bool_array(tuple(bool(v) for v in arg.values)), "BA"
        elif isinstance(arg, TensorList):
            items = [self._argument(t, handles) for t in arg.items]
            handle, kind = d.make_tensor_list(tuple(items)), "TL"
        elif isinstance(arg, DType):
            return drv.DTYPES[np.dtype(arg.dtype).name]
        else:
            return arg  # an int, a bool, or None for an absent optional tensor
        handles.append((kind, handle))
        return handle

    @contextlib.contextmanager
    def recording(self) -> Iterator[Recording]:
        """Keep what the calls made inside need to be replayed."""
        rec = Recording()
        self.recording_now = rec
        try:
            yield rec
        finally:
            self.recording_now = None

    def __repr__(self) -> str:
        return f"<{self.name}>"


_DEVICE: AscendDevice | None = None


def current() -> AscendDevice | None:
    return _DEVICE


def start(context: dict[str, Any]) -> AscendDevice:
    """The device, started from ``context`` on first call."""
    global _DEVICE
    if _DEVICE is None:
        _DEVICE = AscendDevice(drv.get(), context)
    return _DEVICE


#: id(driver) -> the context values its aclInit fixed.
_INITIALIZED: dict[int, dict[str, Any]] = {}


def initialize(driver: Any, values: dict[str, Any]) -> dict[str, Any]:
    """aclInit, once per process and driver (with a dump configuration when ``values`` has
    ``enable_dump`` on): returns the context values it fixed."""
    if id(driver) not in _INITIALIZED:
        dump = {key: values[key] for key in ("enable_dump", "save_dump_path")}
        config = None
        if dump["enable_dump"]:
            path = os.path.abspath(dump["save_dump_path"])
            config = os.path.join(tempfile.mkdtemp(prefix="ember-acl-"), "acl.json")
            with open(config, "w") as f:
                json.dump({"dump": {"dump_path": path, "dump_mode": "all",
                                    "dump_list": []}}, f)
        driver.init(config)
        atexit.register(driver.finalize)
        _INITIALIZED[id(driver)] = dump
    return dict(_INITIALIZED[id(driver)])


def unavailable_reason() -> str | None:
    """None when an Ascend device can be used here, else why not and what to do."""
    try:
        driver = drv.get()
    except (RuntimeError, OSError) as exc:
        return str(exc)
    if _DEVICE is not None:
        return None
    from ember import context

    try:
        initialize(driver, context._current_values())
        count = driver.device_count()
    except drv.DriverError as exc:
        return f"CANN is installed ({driver.describe()}) but its runtime fails: {exc}"
    if count == 0:
        return (f"CANN is installed ({driver.describe()}) but no Ascend device is visible: "
                "check `npu-smi info`, the driver under /usr/local/Ascend/driver and "
                "ASCEND_RT_VISIBLE_DEVICES")
    return None
