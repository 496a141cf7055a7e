"""A strict double of ``ember_ascend.driver``: CANN's contract, computed with NumPy.

Test-only (never installed). It implements the driver interface and enforces what the C API
requires (see /work/shared/notes/ascend-driver.md): argument types and enum values, the
lifecycle's error codes, every pointer+length inside one live allocation on the side the copy
kind names, 32-byte aligned tensor data inside its storage, executors that run once unless
repeatable, workspaces, output shapes recomputed from the inputs, per-SoC operator tables, and
asynchrony: launched work runs only when its stream is synchronized (or a synchronous copy
runs), so results read early are stale; freeing memory that queued work uses, touching on
one stream what another stream's queued work uses without an event between them, or calling
the driver while it runs queued work (a finalizer that Python's garbage collector runs there),
is a :class:`ContractViolation`; the last kind is also kept in ``violations``, since a finalizer
swallows exceptions. Errors CANN reports as codes raise ``DriverError`` with that code.
"""

from __future__ import annotations

import bisect
import contextlib
import itertools
import math
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ember_ascend import driver as drv
from ember_ascend.driver import DriverError

FIRST_GENERATION_MISSING = frozenset({"Convolution"})
DEVICE_BASE = 0x1000_0000_0000


class ContractViolation(AssertionError):
    """Undefined behaviour on the hardware, which CANN would not report."""


@dataclass
class Allocation:
    base: int
    data: np.ndarray  # uint8
    side: str  # "device" or "host"


@dataclass
class Tensor:
    shape: tuple[int, ...]
    dtype: np.dtype
    strides: tuple[int, ...]
    offset: int
    data: int


@dataclass
class Executor:
    op: str
    workspace: int
    run: Callable[[], None]
    touches: list[int]
    repeatable: bool = False


@dataclass
class Stream:
    #: (sequence number, task, allocations it touches, the call that queued it)
    queue: list[tuple[int, Callable[[], None], list[int], str]] = field(default_factory=list)
    done: int = 0  # sequence number of the last item run
    waited: dict[int, int] = field(default_factory=dict)  # stream -> seq it waits for


@dataclass
class Event:
    stream: int = 0
    seq: int = 0


def _require(ok: bool, call: str, code: int, message: str) -> None:
    if not ok:
        raise DriverError(call, code, message)


def _int(call: str, name: str, value: Any) -> int:
    if type(value) is not int:
        raise TypeError(f"{call}: {name} must be an int (not {type(value).__name__}), "
                        f"got {value!r}")
    return value


class AclDouble:
    """The driver interface over NumPy memory, for one host with ``devices`` devices."""

    uses_double = True

    def __init__(self, soc: str = "Ascend910B1", devices: int = 1) -> None:
        self.soc, self.devices = soc, devices
        self.initialized = False
        self.config: str | None = None  # aclInit's configuration file
        self.device: int | None = None
        self.handles: dict[int, Any] = {}
        self.streams: dict[int, Stream] = {}
        self.destroyed: set[int] = set()
        self.allocations: dict[int, Allocation] = {}
        self.bases: list[int] = []  # sorted starts of the live allocations
        self.host_buffers: dict[int, np.ndarray] = {}
        self.next_handle = itertools.count(0x7000_0000)
        self.next_device = DEVICE_BASE
        self.seq = itertools.count(1)
        self.message = ""
        self.launches: list[str] = []  # operators launched, in order (for tests)
        self.prepared = 0  # aclnn executors made
        self.profiles: list[dict[str, Any]] = []
        self.running: str | None = None  # the call whose queued task runs now
        self.violations: list[str] = []  # re-entrant calls (raised too, but maybe swallowed)

    def describe(self) -> str:
        return (f"TEST DOUBLE in place of CANN ({self.soc}, {self.devices} device(s)): "
                "no Ascend hardware is used")

    # -- errors and state -------------------------------------------------------------------
    def last_error(self) -> str:
        return self.message

    def _fail(self, call: str, code: int, message: str) -> None:
        self.message = message
        raise DriverError(call, code, message)

    def _reentrant(self, call: str) -> None:
        """A call made while queued work runs: on the hardware the host cannot call in there,
        so the double would run the rest of the stream under a half-done task."""
        if self.running is not None:
            message = (f"{call} was called while the device runs {self.running} (from a "
                       "finalizer the garbage collector ran there?): release in a finalizer "
                       "must be deferred to the next synchronization")
            self.violations.append(message)
            raise ContractViolation(message)

    def _ready(self, call: str, device: bool = True) -> None:
        self._reentrant(call)
        if not self.initialized:
            self._fail(call, 100001, "aclInit has not been called")
        if device and self.device is None:
            self._fail(call, 107002, "no device is set in this thread (aclrtSetDevice)")

    def _new(self, obj: Any) -> int:
        handle = next(self.next_handle) * 16
        self.handles[handle] = obj
        return handle

    def _get(self, call: str, handle: Any, kind: type, code: int = 107000) -> Any:
        self._reentrant(call)
        _int(call, "handle", handle)
        if handle in self.destroyed:
            raise ContractViolation(f"{call}: handle {handle:#x} was destroyed already (an "
                                    "aclnn executor is destroyed by its run unless repeatable)")
        obj = self.handles.get(handle)
        if not isinstance(obj, kind):
            self._fail(call, code, f"{handle:#x} is not a live {kind.__name__}")
        return obj

    def _drop(self, call: str, handle: int, kind: type, code: int = 107000) -> Any:
        obj = self._get(call, handle, kind, code)
        del self.handles[handle]
        self.destroyed.add(handle)
        return obj

    # -- 1. lifecycle ------------------------------------------------------------------------
    def init(self, config: str | None = None) -> None:
        if self.initialized:
            self._fail("aclInit", 100002, "aclInit was called already")
        if config is not None and not isinstance(config, str):
            raise TypeError("aclInit: the configuration is a path (str) or None")
        self.initialized, self.config = True, config

    def finalize(self) -> None:
        self._ready("aclFinalize", device=False)
        self.initialized, self.device = False, None

    def device_count(self) -> int:
        self._ready("aclrtGetDeviceCount", device=False)
        return self.devices

    def set_device(self, device: int) -> None:
        self._ready("aclrtSetDevice", device=False)
        _int("aclrtSetDevice", "device", device)
        if not 0 <= device < self.devices:
            self._fail("aclrtSetDevice", 107001, f"device {device} does not exist")
        self.device = device

    def reset_device(self, device: int) -> None:
        self._ready("aclrtResetDevice")
        self.device = None

    def soc_name(self) -> str:
        return self.soc

    # -- 2. streams and events ---------------------------------------------------------------
    def create_stream(self) -> int:
        self._ready("aclrtCreateStream")
        handle = self._new(Stream())
        self.streams[handle] = self.handles[handle]
        return handle

    def destroy_stream(self, stream: int) -> None:
        self.sync_stream(stream)
        self._drop("aclrtDestroyStream", stream, Stream)
        del self.streams[stream]

    def sync_stream(self, stream: int) -> None:
        self._ready("aclrtSynchronizeStream")
        self._drain(self._get("aclrtSynchronizeStream", stream, Stream))

    def _drain(self, s: Stream, upto: int | None = None) -> None:
        for other, seq in list(s.waited.items()):
            self._drain(self.handles[other], seq)
        while s.queue and (upto is None or s.queue[0][0] <= upto):
            seq, run, _, call = s.queue.pop(0)
            s.done = seq
            self.running = call
            try:
                run()
            except DriverError:
                s.queue.clear()  # a failed task discards the rest of its stream's work
                raise
            finally:
                self.running = None

    def _drain_all(self) -> None:
        for s in list(self.streams.values()):
            self._drain(s)

    def create_event(self) -> int:
        self._ready("aclrtCreateEvent")
        return self._new(Event())

    def destroy_event(self, event: int) -> None:
        self._drop("aclrtDestroyEvent", event, Event)

    def record_event(self, event: int, stream: int) -> None:
        e = self._get("aclrtRecordEvent", event, Event)
        s = self._get("aclrtRecordEvent", stream, Stream)
        e.stream, e.seq = stream, (s.queue[-1][0] if s.queue else s.done)

    def wait_event(self, stream: int, event: int) -> None:
        s = self._get("aclrtStreamWaitEvent", stream, Stream)
        e = self._get("aclrtStreamWaitEvent", event, Event)
        if e.stream and e.stream != stream:
            s.waited[e.stream] = max(s.waited.get(e.stream, 0), e.seq)

    def sync_event(self, event: int) -> None:
        e = self._get("aclrtSynchronizeEvent", event, Event)
        if e.stream:
            self._drain(self.handles[e.stream], e.seq)

    def elapsed_ms(self, start: int, end: int) -> float:
        self._get("aclrtEventElapsedTime", start, Event)
        self._get("aclrtEventElapsedTime", end, Event)
        return 0.0

    def _enqueue(self, call: str, stream: int, run: Callable[[], None],
                 touches: list[int]) -> None:
        s = self._get(call, stream, Stream)
        for handle, other in self.streams.items():
            if handle == stream:
                continue
            for seq, _, used, _ in other.queue:
                if set(used) & set(touches) and s.waited.get(handle, 0) < seq:
                    raise ContractViolation(
                        f"{call} on stream {stream:#x} touches memory that queued work on "
                        f"stream {handle:#x} uses, with no event between them")
        s.queue.append((next(self.seq), run, touches, call))

    # -- 3. memory ---------------------------------------------------------------------------
    def malloc(self, size: int, policy: int = drv.HUGE_FIRST) -> int:
        self._ready("aclrtMalloc")
        _int("aclrtMalloc", "size", size)
        _int("aclrtMalloc", "policy", policy)
        _require(policy in (0, 1, 2), "aclrtMalloc", 100000, f"bad policy {policy}")
        _require(size > 0, "aclrtMalloc", 100000, "size must be positive")
        padded = -(-size // 32) * 32
        base = self.next_device
        self.next_device += -(-padded // 512) * 512 + 512
        self._add(Allocation(base, np.zeros(padded, np.uint8), "device"))
        return base

    def free(self, pointer: int) -> None:
        self._ready("aclrtFree")
        alloc = self.allocations.get(_int("aclrtFree", "pointer", pointer))
        if alloc is None or alloc.side != "device":
            self._fail("aclrtFree", 107000, f"{pointer:#x} is not the start of a live "
                                            "device allocation")
        for handle, s in self.streams.items():
            if any(pointer in used for _, _, used, _ in s.queue):
                raise ContractViolation(f"aclrtFree({pointer:#x}) while work queued on stream "
                                        f"{handle:#x} still uses it")
        self._remove(pointer)

    def malloc_host(self, size: int) -> int:
        self._ready("aclrtMallocHost")
        _int("aclrtMallocHost", "size", size)
        buffer = np.zeros(max(size, 1), np.uint8)
        address = buffer.ctypes.data
        self.host_buffers[address] = buffer
        self._add(Allocation(address, buffer, "host"))
        return address

    def free_host(self, pointer: int) -> None:
        alloc = self.allocations.get(pointer)
        if alloc is None or alloc.side != "host":
            self._fail("aclrtFreeHost", 107000, f"{pointer:#x} is not live pinned memory")
        for handle, s in self.streams.items():
            if any(pointer in used for _, _, used, _ in s.queue):
                raise ContractViolation(f"aclrtFreeHost({pointer:#x}) while work queued on "
                                        f"stream {handle:#x} still uses it")
        self._remove(pointer)
        del self.host_buffers[pointer]

    def _add(self, alloc: Allocation) -> None:
        self.allocations[alloc.base] = alloc
        bisect.insort(self.bases, alloc.base)

    def _remove(self, base: int) -> None:
        del self.allocations[base]
        self.bases.remove(base)

    def _find(self, pointer: int) -> Allocation | None:
        """The live allocation that holds ``pointer`` (or starts at it)."""
        i = bisect.bisect_right(self.bases, pointer) - 1
        if i < 0:
            return None
        alloc = self.allocations[self.bases[i]]
        return alloc if pointer < alloc.base + max(len(alloc.data), 1) else None

    def _region(self, call: str, pointer: int, nbytes: int, side: str) -> tuple[Allocation, int]:
        """The allocation holding [pointer, pointer + nbytes) on ``side``, and the offset."""
        _int(call, "pointer", pointer)
        alloc = self._find(pointer)
        if alloc is None:
            self._fail(call, 107000, f"{pointer:#x} is in no live {side} allocation")
        if alloc.side != side:
            self._fail(call, 107000, f"{pointer:#x} is {alloc.side} memory, but the call needs "
                                     f"{side} memory")
        if pointer + nbytes > alloc.base + len(alloc.data):
            self._fail(call, 107000, f"[{pointer:#x}, +{nbytes}) runs past the end of its "
                                     f"allocation of {len(alloc.data)} bytes")
        return alloc, pointer - alloc.base

    def _copy_checks(self, call: str, dst: int, dmax: int, src: int, count: int,
                     kind: int) -> Callable[[], None]:
        for name, value in (("dmax", dmax), ("count", count), ("kind", kind)):
            _int(call, name, value)
        _require(kind in (0, 1, 2, 3), call, 100000, f"bad memcpy kind {kind}")
        if count > dmax:
            self._fail(call, 100000, f"count {count} is larger than dmax {dmax}")
        dst_side = "device" if kind in (drv.H2D, drv.D2D) else "host"
        src_side = "device" if kind in (drv.D2H, drv.D2D) else "host"
        d, do = self._region(call, dst, dmax, dst_side)
        s, so = self._region(call, src, count, src_side)

        def run() -> None:
            d.data[do:do + count] = s.data[so:so + count]

        return run

    def memcpy(self, dst: int, dmax: int, src: int, count: int, kind: int) -> None:
        self._ready("aclrtMemcpy")
        run = self._copy_checks("aclrtMemcpy", dst, dmax, src, count, kind)
        self._drain_all()
        run()

    def memcpy_async(self, dst: int, dmax: int, src: int, count: int, kind: int,
                     stream: int) -> None:
        self._ready("aclrtMemcpyAsync")
        run = self._copy_checks("aclrtMemcpyAsync", dst, dmax, src, count, kind)
        if kind == drv.D2D and (dst % 64 or src % 64):
            self._fail("aclrtMemcpyAsync", 107000, "asynchronous device-to-device copies need "
                                                   "64-byte aligned addresses")
        self._enqueue("aclrtMemcpyAsync", stream, run, [self._base(dst), self._base(src)])

    def memset_async(self, pointer: int, dmax: int, value: int, count: int,
                     stream: int) -> None:
        self._ready("aclrtMemsetAsync")
        _int("aclrtMemsetAsync", "value", value)
        _int("aclrtMemsetAsync", "count", count)
        if count > dmax:
            self._fail("aclrtMemsetAsync", 100000, f"count {count} > dmax {dmax}")
        alloc, offset = self._region("aclrtMemsetAsync", pointer, dmax, "device")

        def run() -> None:
            alloc.data[offset:offset + count] = value & 0xFF

        self._enqueue("aclrtMemsetAsync", stream, run, [alloc.base])

    def _base(self, pointer: int) -> int:
        return self._find(pointer).base

    def mem_info(self) -> tuple[int, int]:
        self._ready("aclrtGetMemInfo")
        used = sum(len(a.data) for a in self.allocations.values() if a.side == "device")
        total = 32 * 1024 ** 3
        return total - used, total

    # -- 4. aclnn argument objects -----------------------------------------------------------
    def make_tensor(self, shape: tuple[int, ...], dtype: int, strides: tuple[int, ...],
                    offset: int, fmt: int, storage: tuple[int, ...], data: int) -> int:
        call = "aclCreateTensor"
        self._ready(call)
        for name, values in (("shape", shape), ("strides", strides), ("storage", storage)):
            for v in values:
                _int(call, name, v)
        for name, value in (("dtype", dtype), ("offset", offset), ("format", fmt)):
            _int(call, name, value)
        _require(dtype in drv.NUMPY_DTYPES, call, 161002, f"dtype {dtype} is no aclDataType")
        _require(fmt in (drv.FORMAT_NCHW, 1, drv.FORMAT_ND, 27, drv.FORMAT_NCDHW), call, 161002,
                 f"bad format {fmt}")
        _require(len(shape) == len(strides), call, 161002, "strides and shape differ in rank")
        _require(offset >= 0 and min(strides, default=0) >= 0, call, 161002,
                 "strides and offset must be >= 0")
        _require(data % 32 == 0, call, 161002, f"data {data:#x} is not 32-byte aligned")
        np_dtype = drv.NUMPY_DTYPES[dtype]
        capacity = int(np.prod(storage, dtype=np.int64))
        self._region(call, data, capacity * np_dtype.itemsize, "device")
        if all(shape):
            last = offset + sum((d - 1) * s for d, s in zip(shape, strides))
            _require(last < capacity, call, 161002, f"the view reaches element {last} of a "
                                                    f"storage of {capacity}")
        return self._new(Tensor(tuple(shape), np_dtype, tuple(strides), offset, data))

    def make_scalar(self, value: Any, dtype: int) -> int:
        _require(dtype in drv.NUMPY_DTYPES, "aclCreateScalar", 161002, f"bad dtype {dtype}")
        if not isinstance(value, int | float | bool):
            raise TypeError(f"aclCreateScalar: a number, got {type(value).__name__}")
        return self._new(np.asarray(value, drv.NUMPY_DTYPES[dtype]))

    def make_int_array(self, values: tuple[int, ...]) -> int:
        return self._new(tuple(_int("aclCreateIntArray", "value", v) for v in values))

    def make_bool_array(self, values: tuple[bool, ...]) -> int:
        if any(type(v) is not bool for v in values):
            raise TypeError("aclCreateBoolArray: bools only")
        return self._new(list(values))

    def make_tensor_list(self, tensors: tuple[int, ...]) -> int:
        return self._new([self._get("aclCreateTensorList", t, Tensor, 161001) for t in tensors])

    def destroy(self, kind: str, handle: int) -> None:
        kinds = {"T": Tensor, "S": np.ndarray, "IA": tuple, "BA": list, "TL": list}
        self._drop(f"aclDestroy[{kind}]", handle, kinds[kind], 161001)

    # -- memory views of tensors -------------------------------------------------------------
    def _array(self, t: Tensor) -> np.ndarray:
        """The tensor's elements as a (strided) NumPy view of its allocation's bytes."""
        alloc, start = self._region("read", t.data, 0, "device")
        flat = alloc.data[start:].view(np.uint8)
        usable = len(flat) // t.dtype.itemsize * t.dtype.itemsize
        elements = flat[:usable].view(t.dtype)
        item = t.dtype.itemsize
        return np.lib.stride_tricks.as_strided(
            elements[t.offset:], t.shape, tuple(s * item for s in t.strides))

    # -- 5. operators ------------------------------------------------------------------------
    def aclnn_prepare(self, op: str, *args: Any) -> tuple[int, int]:
        call = f"aclnn{op}GetWorkspaceSize"
        self._ready(call)
        kinds = drv.ACLNN.get(op)
        if kinds is None or op not in OPS:
            self._fail(call, 100024, f"no operator aclnn{op}")
        if op in FIRST_GENERATION_MISSING and first_generation(self.soc):
            self._fail(call, 561103, f"aclnn{op} is not supported on {self.soc}")
        _require(len(args) == len(kinds), call, 161002,
                 f"{len(args)} arguments for {len(kinds)} parameters")
        values = [self._argument(call, k, a) for k, a in zip(kinds, args)]
        spec = OPS[op]
        self.prepared += 1
        if "i8" in kinds:
            cube = values[kinds.index("i8")]
            _require(cube in (0, 1, 2, 3), call, 161002, f"bad cubeMathType {cube}")
            first = next(v for v in values if isinstance(v, Tensor))
            if first_generation(self.soc) and first.dtype == np.float32 and cube in (0, 3):
                self._fail(call, 161002, f"{self.soc} computes float32 only with "
                                         f"cubeMathType ALLOW_FP32_DOWN (1), got {cube}")
        outs = [values[i] for i in spec.outputs]
        ins = [_read(v, lambda t: np.zeros(t.shape, t.dtype))
               for i, v in enumerate(values) if i not in spec.outputs or i in spec.inplace]
        with _quiet():
            expected = (spec.infer or spec.compute)(*ins)
        for i, (out, want) in enumerate(zip(outs, expected)):
            if out is None or want is None:
                continue
            if out.shape != want.shape or out.dtype != want.dtype:
                self._fail(call, 161002, f"output {i} is {out.dtype}{list(out.shape)}, but the "
                                         f"inputs make it {want.dtype}{list(want.shape)}")
        tensors = [v for v in values if isinstance(v, Tensor)] + [
            t for v in values if isinstance(v, list) and v and isinstance(v[0], Tensor)
            for t in v]

        def run() -> None:
            now = [_read(v, lambda t: self._array(t).copy())
                   for i, v in enumerate(values) if i not in spec.outputs or i in spec.inplace]
            try:
                with _quiet():
                    results = spec.compute(*now)
            except (ValueError, IndexError) as exc:
                self._fail("aclrtSynchronizeStream", 507011,
                           f"aclnn{op} failed on the device: {exc}")
            for out, result in zip(outs, results):
                if out is not None and result is not None:
                    self._array(out)[...] = result

        workspace = spec.workspace
        executor = Executor(op, workspace, run, [self._base(t.data) for t in tensors])
        return workspace, self._new(executor)

    def _argument(self, call: str, kind: str, value: Any) -> Any:
        if kind == "T":
            return None if value is None else self._get(call, value, Tensor, 161001)
        if kind == "S":
            return self._get(call, value, np.ndarray, 161001)
        if kind == "IA":
            return self._get(call, value, tuple, 161001)
        if kind in ("BA", "TL"):
            return self._get(call, value, list, 161001)
        if kind == "str":
            if not isinstance(value, bytes):
                raise TypeError(f"{call}: a C string (bytes), got {value!r}")
            return value.decode()
        if kind in ("f64", "f32"):
            if type(value) is not float:
                raise TypeError(f"{call}: a {'double' if kind == 'f64' else 'float'} argument, "
                                f"got {value!r}")
            return value
        if kind == "b":
            if type(value) is not bool:
                raise TypeError(f"{call}: a bool argument, got {value!r}")
            return value
        _int(call, kind, value)
        if kind == "u64":
            _require(0 <= value < 2 ** 64, call, 161002, f"{value} is no uint64_t")
        if kind == "dt":
            _require(value in drv.NUMPY_DTYPES, call, 161002, f"dtype {value} is no aclDataType")
            return drv.NUMPY_DTYPES[value]
        return value

    def aclnn_launch(self, op: str, workspace: int, size: int, executor: int,
                     stream: int) -> None:
        call = f"aclnn{op}"
        self._ready(call)
        ex = self._get(call, executor, Executor, 161001)
        _require(ex.op == op, call, 161002, f"the executor was prepared for aclnn{ex.op}")
        _int(call, "workspaceSize", size)
        _require(size >= ex.workspace, call, 161002,
                 f"workspace of {size} bytes, {ex.workspace} needed")
        touches = list(ex.touches)
        if ex.workspace:
            self._region(call, workspace, ex.workspace, "device")
            touches.append(self._base(workspace))
        else:
            _require(workspace == 0 or size == 0 or workspace in self.allocations, call,
                     161002, "a workspace pointer without size")
        self._enqueue(call, stream, ex.run, touches)
        self.launches.append(op)
        if not ex.repeatable:  # aclnn destroys it after its run
            self._drop(call, executor, Executor, 161001)

    def set_repeatable(self, executor: int) -> None:
        self._get("aclSetAclOpExecutorRepeatable", executor, Executor, 161001).repeatable = True

    def destroy_executor(self, executor: int) -> None:
        self._drop("aclDestroyAclOpExecutor", executor, Executor, 161001)

    def aclop_run(self, op: str, inputs: list[tuple], outputs: list[tuple],
                  attrs: dict[str, Any], stream: int) -> None:
        call = f"aclopCompileAndExecuteV2({op})"
        self._ready(call)
        if op not in ACLOP:
            self._fail(call, 100024, f"no aclop operator {op} in the double")
        tensors = []
        for dtype, dims, fmt, data in (*inputs, *outputs):
            handle = self.make_tensor(tuple(dims), dtype, _contiguous(dims), 0, fmt,
                                      (int(np.prod(dims, dtype=np.int64)),), data)
            tensors.append(self._drop(call, handle, Tensor))
        ins, outs = tensors[:len(inputs)], tensors[len(inputs):]
        with _quiet():
            expected = ACLOP[op](*(np.zeros(t.shape, t.dtype) for t in ins), **attrs)
        _require(expected.shape == outs[0].shape and expected.dtype == outs[0].dtype, call,
                 161002, f"output {outs[0].dtype}{list(outs[0].shape)} for "
                         f"{expected.dtype}{list(expected.shape)}")

        def run() -> None:
            with _quiet():
                self._array(outs[0])[...] = ACLOP[op](*(self._array(t).copy() for t in ins),
                                                      **attrs)

        self._enqueue(call, stream, run, [self._base(t.data) for t in tensors])
        self.launches.append(f"aclop:{op}")

    # -- 6. HCCL and profiling ---------------------------------------------------------------
    def hccl_root_info(self) -> bytes:
        self._ready("HcclGetRootInfo")
        return b"ember-double-root".ljust(drv.HCCL_ROOT_INFO_BYTES, b"\0")

    def hccl_init(self, ranks: int, root_info: bytes, rank: int) -> int:
        call = "HcclCommInitRootInfo"
        self._ready(call)
        _int(call, "nRanks", ranks)
        _int(call, "rank", rank)
        _require(len(root_info) == drv.HCCL_ROOT_INFO_BYTES, call, 1,
                 f"root info of {len(root_info)} bytes, not {drv.HCCL_ROOT_INFO_BYTES}")
        _require(ranks == 1 and rank == 0, call, 1, "the double runs one rank")
        return self._new(("comm", ranks, rank))

    def hccl_all_reduce(self, send: int, recv: int, count: int, dtype: int, op: int,
                        comm: int, stream: int) -> None:
        call = "HcclAllReduce"
        self._ready(call)
        self._get(call, comm, tuple)
        for name, value in (("count", count), ("dataType", dtype), ("op", op)):
            _int(call, name, value)
        sizes = {0: 1, 1: 2, 2: 4, 3: 2, 4: 4, 5: 8}
        _require(dtype in sizes, call, 1, f"{dtype} is no HcclDataType (HCCL numbers its "
                                          "types apart from aclDataType)")
        _require(op in (0, 1, 2, 3), call, 1, f"{op} is no HcclReduceOp")
        nbytes = count * sizes[dtype]
        src, so = self._region(call, send, nbytes, "device")
        dst, do = self._region(call, recv, nbytes, "device")

        def run() -> None:  # one rank: every reduction is the identity
            dst.data[do:do + nbytes] = src.data[so:so + nbytes]

        self._enqueue(call, stream, run, [src.base, dst.base])

    def hccl_destroy(self, comm: int) -> None:
        self._drop("HcclCommDestroy", comm, tuple)

    def prof_start(self, path: str, devices: tuple[int, ...], metrics: int, mask: int) -> int:
        call = "aclprofCreateConfig"
        self._ready(call)
        _require(metrics in drv.PROF_METRICS.values(), call, 100000, f"bad metrics {metrics}")
        _require(mask & ~sum(drv.PROF_BITS.values()) == 0, call, 100000, f"bad mask {mask:#x}")
        _require(all(0 <= d < self.devices for d in devices), call, 100000, "bad device id")
        config = {"path": path, "devices": devices, "metrics": metrics, "mask": mask,
                  "running": True}
        self.profiles.append(config)
        return self._new(config)

    def prof_stop(self, config: int) -> None:
        self._drop("aclprofStop", config, dict)["running"] = False


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """NumPy's floating-point warnings off: the device computes inf and NaN silently."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def _read(value: Any, read: Callable[[Tensor], np.ndarray]) -> Any:
    """An operator argument as the computation sees it: tensors (and lists) read."""
    if isinstance(value, Tensor):
        return read(value)
    if isinstance(value, list) and value and isinstance(value[0], Tensor):
        return [read(t) for t in value]
    return value


def first_generation(soc: str) -> bool:
    from ember_ascend.device import first_generation as first

    return first(soc)


def _contiguous(dims: tuple[int, ...]) -> tuple[int, ...]:
    from ember_ascend.device import contiguous_strides

    return contiguous_strides(tuple(dims))


# -- the operators, in NumPy ------------------------------------------------------------------
@dataclass(frozen=True)
class Op:
    """``compute(*inputs) -> outputs``: inputs are the non-output arguments in order (in-place
    tensors included); ``outputs`` the positions of the output tensors."""

    compute: Callable[..., tuple]
    outputs: tuple[int, ...]
    inplace: tuple[int, ...] = ()
    workspace: int = 0
    #: what compute gives on zeros, for operators whose inputs must hold other values
    infer: Callable[..., tuple] | None = None


def _elementwise(fn: Callable[..., Any], nargs: int, out_dtype: Any = None) -> Op:
    """An operator of ``nargs`` arguments then its output, of the first argument's dtype."""
    def compute(*xs: Any) -> tuple:
        return (np.asarray(fn(*xs), out_dtype or xs[0].dtype),)

    return Op(compute, (nargs,))


def _inplace(fn: Callable[..., Any]) -> Op:
    return Op(lambda *xs: (np.asarray(fn(*xs), xs[0].dtype),), (0,), (0,))


def _reduce(fn: Callable[..., Any], with_dtype: bool) -> Op:
    """Reductions over dims; sums and means of float16 accumulate in float32."""
    def compute(x: np.ndarray, dims: tuple, keep: bool, *rest: Any) -> tuple:
        dtype = rest[0] if with_dtype else x.dtype
        wide = {"dtype": np.float32} if with_dtype and x.dtype == np.float16 else {}
        return (np.asarray(fn(x, axis=dims, keepdims=keep, **wide), dtype),)

    return Op(compute, (4,) if with_dtype else (3,), workspace=1024)


def _windows(x: np.ndarray, k: tuple, s: tuple, p: tuple, d: tuple, fill: float) -> np.ndarray:
    """(N, C, *out, *k) windows of the padded image, of any number of spatial axes."""
    n = len(k)
    xp = np.pad(x, ((0, 0), (0, 0), *((q, q) for q in p)), constant_values=fill)
    span = tuple((ki - 1) * di + 1 for ki, di in zip(k, d))
    w = np.lib.stride_tricks.sliding_window_view(xp, span, axis=tuple(range(2, 2 + n)))
    return w[(slice(None), slice(None), *(slice(None, None, si) for si in s),
              *(slice(None, None, di) for di in d))]


def _unwindow(cols: np.ndarray, shape: tuple, k: tuple, s: tuple, p: tuple,
              d: tuple) -> np.ndarray:
    """The adjoint of :func:`_windows`: each element of the windows (A, B, *out, *k) added
    back at its place in an image of ``shape`` (A, B, *spatial)."""
    out = cols.shape[2:2 + len(k)]
    padded = np.zeros((*shape[:2], *(m + 2 * q for m, q in zip(shape[2:], p))))
    for tap in itertools.product(*(range(m) for m in k)):
        at = tuple(slice(t * di, t * di + o * si, si) for t, di, o, si in zip(tap, d, out, s))
        padded[(slice(None), slice(None), *at)] += cols[(Ellipsis, *tap)]
    return padded[(slice(None), slice(None), *(slice(q, q + m) for q, m in zip(p, shape[2:])))]


def _grouped(x: np.ndarray, w: np.ndarray, s: tuple, p: tuple, d: tuple,
             groups: int) -> tuple[np.ndarray, np.ndarray, str, str]:
    """The windows of ``x`` as (N, g, C/g, *out, *k), ``w`` as (g, oc/g, C/g, *k), and the
    einsum letters of the output and kernel axes."""
    k = len(s)
    cols = _windows(x, w.shape[2:], s, p, d, 0)
    n, c = cols.shape[:2]
    cols = cols.reshape(n, groups, c // groups, *cols.shape[2:])
    return (cols, w.reshape(groups, w.shape[0] // groups, *w.shape[1:]), "pqr"[:k],
            "ijl"[:k])


def _conv(x: np.ndarray, w: np.ndarray, s: tuple, p: tuple, d: tuple, groups: int) -> np.ndarray:
    cols, wg, out, taps = _grouped(x, w, s, p, d, groups)
    y = np.einsum(f"ngc{out}{taps},goc{taps}->ngo{out}", cols, wg, optimize=True)
    return y.reshape(x.shape[0], w.shape[0], *y.shape[3:]).astype(x.dtype)


def _convolution(x, w, bias, stride, pad, dil, transposed, out_pad, groups, cube) -> tuple:
    if transposed:
        raise ValueError("transposed convolutions are not in the double")
    out = _conv(x, w, stride, pad, dil, groups)
    if bias is not None:
        out = out + bias.reshape(1, -1, *(1,) * len(stride))
    return (out.astype(x.dtype),)


def _convolution_backward(dout, x, w, bias_sizes, stride, pad, dil, transposed, out_pad,
                          groups, mask, cube) -> tuple:
    """Gradients by the adjoint of the windowed product (float64 accumulation), of any number
    of spatial axes."""
    cols, wg, out, taps = _grouped(x.astype(np.float64), w.astype(np.float64), stride, pad, dil,
                                   groups)
    dy = dout.astype(np.float64).reshape(cols.shape[0], groups, wg.shape[1], *dout.shape[2:])
    grad_w = grad_x = None
    if mask[1]:
        grad_w = np.einsum(f"ngo{out},ngc{out}{taps}->goc{taps}", dy, cols,
                           optimize=True).reshape(w.shape)
    if mask[0]:
        dcols = np.einsum(f"ngo{out},goc{taps}->ngc{out}{taps}", dy, wg, optimize=True)
        grad_x = _unwindow(dcols.reshape(x.shape[:2] + dcols.shape[3:]), x.shape, w.shape[2:],
                           stride, pad, dil)
    grad_b = dout.sum(axis=(0, *range(2, dout.ndim))) if mask[2] else None
    return tuple(None if a is None else a.astype(dout.dtype) for a in (grad_x, grad_w, grad_b))


def _pool_out(x, k, s, p) -> tuple[int, int]:
    return tuple((x.shape[2 + i] + 2 * p[i] - k[i]) // s[i] + 1 for i in range(2))


def _mask_shape(x, k, out_hw) -> tuple[int, ...]:
    cells = out_hw[0] * out_hw[1]
    return (x.shape[0], x.shape[1], k[0] * k[1], (-(-cells // 16) + 1) * 32)


def _max_pool_mask(x, k, s, p, d, ceil) -> tuple:
    if ceil or tuple(d) != (1, 1):
        raise ValueError("ceil mode and dilation are not in the double")
    win = _windows(x, k, s, p, (1, 1), -np.inf)
    n, c, ho, wo = win.shape[:4]
    flat = win.reshape(n, c, ho, wo, k[0] * k[1])
    first = flat.argmax(axis=-1) if flat.size else np.zeros(flat.shape[:4], int)
    mask = np.zeros(_mask_shape(x, k, (ho, wo)), np.int8)
    taps = np.moveaxis(np.eye(k[0] * k[1], dtype=np.int8)[first], -1, 2)
    mask[:, :, :, :ho * wo] = taps.reshape(n, c, k[0] * k[1], ho * wo)
    return flat.max(axis=-1, initial=-np.inf).astype(x.dtype), mask


def _max_pool_mask_backward(dout, x, mask, k, s, p, d, ceil) -> tuple:
    n, c, ho, wo = dout.shape
    taps = mask[:, :, :, :ho * wo].reshape(n, c, k[0], k[1], ho, wo).astype(np.float64)
    padded = np.zeros((n, c, x.shape[2] + 2 * p[0], x.shape[3] + 2 * p[1]))
    for i in range(k[0]):
        for j in range(k[1]):
            padded[:, :, i:i + ho * s[0]:s[0], j:j + wo * s[1]:s[1]] += taps[:, :, i, j] * dout
    return (padded[:, :, p[0]:p[0] + x.shape[2], p[1]:p[1] + x.shape[3]].astype(dout.dtype),)


def _erf(x: np.ndarray) -> np.ndarray:
    return np.vectorize(math.erf, otypes=[float])(x.astype(np.float64))


_GELU_C, _GELU_A = np.sqrt(2 / np.pi), 0.044715


def _gelu(x: np.ndarray, approximate: int) -> np.ndarray:
    """x * Phi(x); approximate 1: Phi by tanh, 0: by erf (aclnnGeluV2's modes)."""
    if approximate not in (0, 1):
        raise ValueError(f"approximate must be 0 or 1, got {approximate}")
    w = x.astype(np.float64)
    if approximate:
        return 0.5 * w * (1 + np.tanh(_GELU_C * (w + _GELU_A * w ** 3)))
    return 0.5 * w * (1 + _erf(w / np.sqrt(2)))


def _gelu_backward(g: np.ndarray, x: np.ndarray, approximate: str) -> np.ndarray:
    if approximate != "tanh":
        raise ValueError(f"the double models approximate='tanh' only, got {approximate!r}")
    w = x.astype(np.float64)
    t = np.tanh(_GELU_C * (w + _GELU_A * w ** 3))
    return g * (0.5 * (1 + t) + 0.5 * w * (1 - t * t) * _GELU_C * (1 + 3 * _GELU_A * w * w))


def _pool_counts(x: np.ndarray, k: tuple, s: tuple, p: tuple) -> np.ndarray:
    """How many elements of each window lie inside the image."""
    ones = _windows(np.ones((1, 1, *x.shape[2:])), k, s, p, (1,) * len(k), 0)
    return ones.sum(axis=tuple(range(-len(k), 0)))


def _avg_pool(x, k, s, p, ceil, include_pad, divisor, *cube) -> tuple:
    """aclnnAvgPool2d (which takes a cubeMathType) and aclnnAvgPool3d (which does not)."""
    if ceil or include_pad or divisor:
        raise ValueError("the double models ceilMode, countIncludePad and divisorOverride off")
    _half_window_pads(k, p)
    sums = _windows(x.astype(np.float64), k, s, p, (1,) * len(k), 0)
    return ((sums.sum(axis=tuple(range(-len(k), 0))) / _pool_counts(x, k, s, p)).astype(
        x.dtype),)


def _avg_pool_backward(dout, x, k, s, p, ceil, include_pad, divisor, *cube) -> tuple:
    share = dout.astype(np.float64) / _pool_counts(x, k, s, p)
    cols = np.broadcast_to(share[(Ellipsis, *(None,) * len(k))], (*share.shape, *k))
    return (_unwindow(cols, x.shape, k, s, p, (1,) * len(k)).astype(dout.dtype),)


def _half_window_pads(k: tuple, p: tuple) -> None:
    _require(all(0 <= q <= m // 2 for q, m in zip(p, k)), "aclnn pool", 161002,
             f"padding {list(p)} must lie in [0, kernelSize/2] of {list(k)}")


def _max_pool_argmax(x, k, s, p, d, ceil) -> tuple:
    """Each window's maximum (padding -inf) and the int32 index, in x's flattened D*H*W, of
    its first maximum."""
    _require(tuple(d) == (1, 1, 1), "aclnnMaxPool3dWithArgmax", 161002,
             f"dilation {list(d)}: only 1 is supported")
    if ceil:
        raise ValueError("the double models ceilMode off")
    _half_window_pads(k, p)
    win = _windows(x, k, s, p, d, -np.inf)
    out_shape = win.shape[:5]
    flat = win.reshape(*out_shape, -1)
    first = flat.argmax(axis=-1) if flat.size else np.zeros(out_shape, np.int64)
    taps = np.unravel_index(first, k)
    starts = np.meshgrid(*(np.arange(o) * si - q for o, si, q in zip(out_shape[2:], s, p)),
                         indexing="ij")
    index = np.ravel_multi_index(tuple(a + t for a, t in zip(starts, taps)), x.shape[2:],
                                 mode="clip")
    return flat.max(axis=-1, initial=-np.inf).astype(x.dtype), index.astype(np.int32)


def _max_pool_argmax_backward(dout, x, index, k, s, p, d, ceil) -> tuple:
    """``dout`` added at each window's index (equal indices accumulate)."""
    _require(index.dtype == np.int32, "aclnnMaxPool3dWithArgmaxBackward", 161002,
             f"indices of {index.dtype}: A2/A3 take int32")
    _require(tuple(d) == (1, 1, 1), "aclnnMaxPool3dWithArgmaxBackward", 161002,
             f"dilation {list(d)}: only 1 is supported")
    n, c = x.shape[:2]
    flat_index = index.reshape(n, c, -1).astype(np.int64)
    if ((flat_index < 0) | (flat_index >= int(np.prod(x.shape[2:])))).any():
        raise IndexError("an index outside the input")
    grad = np.zeros((n, c, int(np.prod(x.shape[2:]))))
    np.add.at(grad, (np.arange(n)[:, None, None], np.arange(c)[None, :, None], flat_index),
              dout.reshape(n, c, -1))
    return (grad.reshape(x.shape).astype(dout.dtype),)


def _elu_backward(g, alpha, scale, input_scale, is_result, y) -> tuple:
    if not is_result:
        raise ValueError("the double models EluBackward from its result only")
    negative = input_scale * (y / scale + alpha) * scale  # d/dx of scale*alpha*expm1(s x)
    return (np.where(y > 0, g * scale, g * negative).astype(g.dtype),)


def _nd_index(index: np.ndarray, negative: bool) -> tuple:
    if not negative and index.size and index.min() < 0:
        raise IndexError("a negative index with negativeIndexSupport false")
    return tuple(np.moveaxis(index, -1, 0))


def _index_put(x: np.ndarray, indices: list, values: np.ndarray, accumulate: bool,
               unsafe: bool) -> tuple:
    out = x.copy()
    where = tuple(i.astype(np.int64) for i in indices)
    if accumulate:
        np.add.at(out, where, values)
    else:
        out[where] = values
    return (out,)


def _log_softmax(x: np.ndarray, dim: int) -> np.ndarray:
    shifted = x - x.max(axis=dim, keepdims=True, initial=-np.inf)
    return shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))


def _nll_weights(logp, target, weight, ignore) -> np.ndarray:
    """weight[target] per sample, 0 where the target is ``ignore``; a target out of range
    fails the operator."""
    n = logp.shape[0]
    kept = target != ignore
    if n and (target[kept].min(initial=0) < 0 or target[kept].max(initial=0) >= logp.shape[1]):
        raise IndexError("a target is out of range")
    return np.where(kept, weight[np.where(kept, target, 0)], 0)


def _nll(logp, target, weight, reduction, ignore) -> tuple:
    """aclnnNLLLoss, reduction 0 none, 1 mean, 2 sum; totalWeight (the weights' sum) is
    written by the reducing modes only."""
    if reduction not in (0, 1, 2):
        raise ValueError(f"reduction {reduction} is not 0, 1 or 2")
    w = _nll_weights(logp, target, weight, ignore)
    picked = -logp[np.arange(logp.shape[0]), target] * w
    if reduction == 0:
        return picked.astype(logp.dtype), None
    total = w.sum()
    loss = picked.sum() / total if reduction == 1 else picked.sum()
    return np.asarray(loss, logp.dtype), np.asarray(total, logp.dtype)


def _nll_backward(grad, logp, target, weight, reduction, ignore, total) -> tuple:
    """aclnnNLLLossBackward: -weight[target] * grad at each sample's target (divided by
    totalWeight under the mean reduction), 0 elsewhere."""
    w = _nll_weights(logp, target, weight, ignore)
    scale = grad / total if reduction == 1 else grad
    out = np.zeros(logp.shape, logp.dtype)
    out[np.arange(logp.shape[0]), target] = -w * scale
    return (out,)


def _one_hot(x, classes, on, off, axis) -> tuple:
    hot = np.expand_dims(x, axis) == np.arange(classes).reshape(
        (classes,) + (1,) * (x.ndim - axis))
    return (np.where(hot, on, off).astype(on.dtype),)


def _channel_axes(x: np.ndarray) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The axes batch norm reduces (all but 1) and the shape that broadcasts a (C,) vector."""
    return (0, *range(2, x.ndim)), (1, x.shape[1]) + (1,) * (x.ndim - 2)


def _batch_norm(x, weight, bias, running_mean, running_var, training, momentum, eps) -> tuple:
    """aclnnBatchNorm: training normalizes by the batch's mean and biased variance (saved as
    saveMean, saveInvstd = 1/sqrt(var + eps)) and moves the running statistics given by
    ``momentum`` (unbiased variance); inference normalizes by the running statistics."""
    axes, column = _channel_axes(x)
    stats = x.dtype if weight is None else weight.dtype  # of saveMean and saveInvstd
    w = x.astype(np.float64)
    channels = x.shape[1]
    weight = np.ones(channels) if weight is None else weight.astype(np.float64)
    bias = np.zeros(channels) if bias is None else bias.astype(np.float64)
    new_mean = new_var = None
    if training:
        mean, var = w.mean(axis=axes), w.var(axis=axes)
        if running_mean is not None:
            n = x.size // max(channels, 1)
            new_mean = ((1 - momentum) * running_mean + momentum * mean).astype(running_mean.dtype)
            new_var = ((1 - momentum) * running_var + momentum * var * n / max(n - 1, 1)
                       ).astype(running_var.dtype)
    else:
        if running_mean is None or running_var is None:
            raise ValueError("inference needs runningMean and runningVar")
        mean, var = running_mean.astype(np.float64), running_var.astype(np.float64)
    invstd = 1 / np.sqrt(var + eps)
    y = (w - mean.reshape(column)) * (invstd * weight).reshape(column) + bias.reshape(column)
    return new_mean, new_var, y.astype(x.dtype), mean.astype(stats), invstd.astype(stats)


def _batch_norm_backward(dy, x, weight, running_mean, running_var, save_mean, save_invstd,
                         training, eps, mask) -> tuple:
    """aclnnBatchNormBackward: training from saveMean/saveInvstd (the batch's), inference from
    the running statistics (then the mean and variance do not depend on x)."""
    axes, column = _channel_axes(x)
    if training:
        mean, invstd = save_mean.astype(np.float64), save_invstd.astype(np.float64)
    else:
        mean = running_mean.astype(np.float64)
        invstd = 1 / np.sqrt(running_var.astype(np.float64) + eps)
    g, w = dy.astype(np.float64), x.astype(np.float64)
    gain = np.ones(x.shape[1]) if weight is None else weight.astype(np.float64)
    x_hat = (w - mean.reshape(column)) * invstd.reshape(column)
    grad_bias, grad_weight = g.sum(axis=axes), (g * x_hat).sum(axis=axes)
    scale = (gain * invstd).reshape(column)
    if training:
        n = x.size // max(x.shape[1], 1)
        grad_x = scale * (g - (grad_bias.reshape(column) + x_hat * grad_weight.reshape(column)) / n)
    else:
        grad_x = g * scale
    stats = weight.dtype if weight is not None else x.dtype
    return tuple(a.astype(d) if m else None for a, d, m in
                 ((grad_x, x.dtype, mask[0]), (grad_weight, stats, mask[1]),
                  (grad_bias, stats, mask[2])))


def _normalized_axes(x: np.ndarray, normalized: tuple) -> tuple[int, ...]:
    k = len(normalized)
    if not 0 < k <= x.ndim or x.shape[x.ndim - k:] != tuple(normalized):
        raise ValueError(f"normalizedShape {list(normalized)} is not the end of the input's "
                         f"shape {list(x.shape)}")
    return tuple(range(x.ndim - k, x.ndim))


def _layer_norm(x, normalized, weight, bias, eps) -> tuple:
    """aclnnLayerNorm over the last len(normalizedShape) axes; mean and rstd = 1/sqrt(var +
    eps) keep those axes as 1."""
    axes = _normalized_axes(x, normalized)
    w = x.astype(np.float64)
    mean, var = w.mean(axis=axes, keepdims=True), w.var(axis=axes, keepdims=True)
    rstd = 1 / np.sqrt(var + eps)
    y = (w - mean) * rstd
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y.astype(x.dtype), mean.astype(x.dtype), rstd.astype(x.dtype)


def _layer_norm_backward(dy, x, normalized, mean, rstd, weight, bias, mask) -> tuple:
    """aclnnLayerNormBackward from the forward's mean and rstd."""
    axes = _normalized_axes(x, normalized)
    outer = tuple(range(x.ndim - len(axes)))
    g, x_hat = dy.astype(np.float64), (x.astype(np.float64) - mean) * rstd
    scaled = g if weight is None else g * weight
    dx = rstd * (scaled - scaled.mean(axis=axes, keepdims=True)
                 - x_hat * (scaled * x_hat).mean(axis=axes, keepdims=True))
    stats = x.dtype if weight is None else weight.dtype
    return tuple(a.astype(d) if m else None for a, d, m in
                 ((dx, x.dtype, mask[0]), ((g * x_hat).sum(axis=outer), stats, mask[1]),
                  (g.sum(axis=outer), stats, mask[2])))


def _topk(x, k, dim, largest, ordered) -> tuple:
    """aclnnTopk: ties keep the lower index first (a stable sort); unsorted, the k in the
    order of their positions."""
    if not 0 <= k <= x.shape[dim]:
        raise ValueError(f"k {k} is out of [0, {x.shape[dim]}]")
    order = np.argsort(-x if largest else x, axis=dim, kind="stable")
    order = np.take(order, np.arange(k), axis=dim)
    if not ordered:
        order = np.sort(order, axis=dim)
    return np.take_along_axis(x, order, dim), order.astype(np.int64)


def _sort(x, stable, dim, descending) -> tuple:
    """aclnnSort; stable keeps equal elements in their order (descending too)."""
    if descending:
        n = x.shape[dim]
        order = n - 1 - np.flip(np.argsort(np.flip(x, dim), dim, kind="stable"), dim)
    else:
        order = np.argsort(x, dim, kind="stable")
    return np.take_along_axis(x, order, dim), order.astype(np.int64)


def _along_index(index: np.ndarray, dim: int, shape: tuple) -> tuple:
    """NumPy coordinates of ``index`` (positions along ``dim``) in an array of ``shape``."""
    if index.size and (index.min() < 0 or index.max() >= shape[dim]):
        raise IndexError("an index is out of range")
    grid = list(np.indices(index.shape, sparse=True))
    grid[dim] = index
    return tuple(grid)


def _scatter_add(x, dim, index, src) -> tuple:
    out = x.copy()
    np.add.at(out, _along_index(index, dim, x.shape), src[tuple(slice(0, d) for d in
                                                                 index.shape)])
    return (out,)


def _index_add(x, dim, index, source, alpha) -> tuple:
    out = x.copy()
    if index.size and (index.min() < 0 or index.max() >= x.shape[dim]):
        raise IndexError("an index is out of range")
    np.add.at(np.moveaxis(out, dim, 0), index, np.moveaxis(source * alpha, dim, 0))
    return (out.astype(x.dtype),)


def _philox(seed: int, offset: int) -> np.random.Generator:
    """The double's random stream at (seed, offset): NumPy's Philox keyed by the seed with its
    counter at the offset. The device's bits differ; equal arguments draw equal numbers."""
    return np.random.Generator(np.random.Philox(key=seed % 2 ** 64, counter=offset))


def _random_dtype(call: str, x: np.ndarray, dtypes: tuple) -> None:
    _require(x.dtype in tuple(np.dtype(d) for d in dtypes), call, 161002,
             f"selfRef of {x.dtype}; the operator takes {', '.join(map(str, dtypes))}")


def _uniform(x, low, high, seed, offset) -> tuple:
    """[low, high): integers for integer tensors, else floats (never ``high`` once rounded)."""
    call = "aclnnInplaceUniformGetWorkspaceSize"
    _random_dtype(call, x, ("float16", "float32", "float64", "int8", "uint8", "int16",
                            "int32", "int64"))
    _require(low <= high, call, 161002, f"from {low} is greater than to {high}")
    rng = _philox(seed, offset)
    if x.dtype.kind in "iu":
        info = np.iinfo(x.dtype)
        _require(info.min <= low < high <= info.max + 1 and high - low <= info.max, call,
                 161002, f"[{low}, {high}) is empty or beyond {x.dtype}")
        return (rng.integers(int(low), int(high), x.shape, dtype=x.dtype),)
    u = rng.random(x.shape, np.float64 if x.dtype == np.float64 else np.float32)
    out = (low + (high - low) * u).astype(x.dtype)
    below = np.nextafter(x.dtype.type(high), x.dtype.type(low))
    return (np.where(out >= high, below, out).astype(x.dtype),)


def _normal(x, mean, std, seed, offset) -> tuple:
    call = "aclnnInplaceNormalGetWorkspaceSize"
    _random_dtype(call, x, ("float16", "float32", "float64"))  # training series: floats only
    _require(std >= 0, call, 161002, f"std {std} is negative")
    return ((mean + std * _philox(seed, offset).standard_normal(x.shape)).astype(x.dtype),)


def _bernoulli(x, prob, seed, offset) -> tuple:
    call = "aclnnInplaceBernoulliGetWorkspaceSize"
    _random_dtype(call, x, ("float16", "float32", "float64", "uint8", "int8", "int16", "int32",
                            "int64", "bool"))
    _require(prob.dtype.kind == "f" and 0 <= prob <= 1, call, 161002,
             f"prob must be a floating aclScalar in [0, 1], got {prob.dtype} {prob}")
    _require(offset % 4 == 0, call, 161002, f"offset {offset} is not a multiple of 4")
    return ((_philox(seed, offset).random(x.shape) < prob).astype(x.dtype),)


def _multinomial_shape(x, n, replacement, seed, offset) -> tuple:
    call = "aclnnMultinomialGetWorkspaceSize"
    _random_dtype(call, x, ("float16", "float32", "float64"))
    _require(x.ndim in (1, 2), call, 161002, f"self must be (N, C) or (C), got {list(x.shape)}")
    _require(n > 0 and (replacement or n <= x.shape[-1]), call, 161002,
             f"{n} samples of {x.shape[-1]} classes, replacement {replacement}")
    return (np.zeros(x.shape[:-1] + (n,), np.int64),)


def _multinomial(x, n, replacement, seed, offset) -> tuple:
    """``n`` classes a row, each with probability proportional to the row's weights, which
    must be non-negative with a positive sum (and enough of them non-zero without
    replacement)."""
    rows = x.reshape(-1, x.shape[-1]).astype(np.float64)
    if (rows < 0).any() or not (rows.sum(axis=1) > 0).all():
        raise ValueError("weights must be non-negative with a positive sum in each row")
    if not replacement and ((rows > 0).sum(axis=1) < n).any():
        raise ValueError(f"fewer than {n} classes of non-zero weight")
    rng = _philox(seed, offset)
    out = [rng.choice(len(w), n, replace=replacement, p=w / w.sum()) for w in rows]
    return (np.asarray(out, np.int64).reshape(x.shape[:-1] + (n,)),)


def _inverse_shape(x) -> tuple:
    """The square matrices' shape (the values must be invertible only when it runs)."""
    _require(x.ndim >= 2 and x.shape[-1] == x.shape[-2] and x.size > 0,
             "aclnnInverseGetWorkspaceSize", 161002,
             f"self must hold square matrices and no empty tensor, got {list(x.shape)}")
    return (x,)


def _mask(call: str, mask: np.ndarray, shape: tuple) -> np.ndarray:
    """A BOOL (or UINT8 of 0 and 1) mask broadcast to ``shape``."""
    _require(mask.dtype == np.bool_ or (mask.dtype == np.uint8 and mask.max(initial=0) <= 1),
             call, 161002, f"mask of {mask.dtype}: BOOL or UINT8 of 0 and 1")
    return np.broadcast_to(mask, shape).astype(bool)


def _masked_select(x, mask) -> tuple:
    """The selected elements first in a 1-d output of the broadcast size (the rest zeros
    here; what a device leaves there is not known)."""
    shape = np.broadcast_shapes(x.shape, mask.shape)
    chosen = np.broadcast_to(x, shape)[_mask("aclnnMaskedSelect", mask, shape)]
    out = np.zeros(int(np.prod(shape, dtype=np.int64)), x.dtype)
    out[:chosen.size] = chosen
    return (out,)


def _masked_scatter(x, mask, source) -> tuple:
    """source's elements, in order, at the True positions of mask (broadcast to x)."""
    call = "aclnnInplaceMaskedScatter"
    _require(source.dtype == x.dtype, call, 161002, f"source of {source.dtype}, self {x.dtype}")
    where = _mask(call, mask, x.shape)
    if where.sum() > source.size:
        raise ValueError(f"{where.sum()} True elements, {source.size} in source")
    out = x.copy()
    out[where] = source.reshape(-1)[:where.sum()]
    return (out,)


def _arange(start, end, step) -> tuple:
    """[start, end) in steps of step (which must lead from start to end), in start's dtype."""
    _require(step != 0 and (end - start) * step > 0, "aclnnArangeGetWorkspaceSize", 161002,
             f"step {step} does not lead from {start} to {end}")
    return (np.arange(start.item(), end.item(), step.item()).astype(start.dtype),)


def _pos_mod(dims: tuple, ndim: int) -> tuple:
    return tuple(d % ndim for d in dims)


OPS: dict[str, Op] = {
    "Add": _elementwise(lambda a, b, alpha: a + alpha * b, 3),
    "Sub": _elementwise(lambda a, b, alpha: a - alpha * b, 3),
    "Mul": _elementwise(np.multiply, 2),
    "Div": _elementwise(np.true_divide, 2),
    "PowTensorTensor": _elementwise(np.power, 2),
    "Atan2": _elementwise(np.arctan2, 2),
    "FloorDivide": _elementwise(np.floor_divide, 2),
    "RemainderTensorTensor": _elementwise(np.remainder, 2),
    "FmodTensor": _elementwise(np.fmod, 2),
    "TruncateDiv": _elementwise(lambda x, y: np.trunc(x / y) if x.dtype.kind == "f" else
                                np.fix(np.true_divide(x, y)), 2),
    "XLogYTensor": _elementwise(lambda x, y: np.where(x == 0, 0, x * np.log(y)), 2),
    "BitwiseAndTensor": _elementwise(np.bitwise_and, 2),
    "BitwiseOrTensor": _elementwise(np.bitwise_or, 2),
    "BitwiseXorTensor": _elementwise(np.bitwise_xor, 2),
    "Maximum": _elementwise(np.maximum, 2),
    "Minimum": _elementwise(np.minimum, 2),
    "EqTensor": _elementwise(np.equal, 2, np.bool_),
    "NeTensor": _elementwise(np.not_equal, 2, np.bool_),
    "GtTensor": _elementwise(np.greater, 2, np.bool_),
    "GeTensor": _elementwise(np.greater_equal, 2, np.bool_),
    "LtTensor": _elementwise(np.less, 2, np.bool_),
    "LeTensor": _elementwise(np.less_equal, 2, np.bool_),
    "LogicalAnd": _elementwise(np.logical_and, 2),
    "LogicalOr": _elementwise(np.logical_or, 2),
    "LogicalNot": _elementwise(np.logical_not, 1),
    "SWhere": Op(lambda c, a, b: (np.where(c, a, b).astype(a.dtype),), (3,)),
    "InplaceAdd": _inplace(lambda a, b, alpha: a + alpha * b),
    "InplaceMul": _inplace(np.multiply),
    "InplaceCopy": _inplace(lambda a, b: np.broadcast_to(b, a.shape)),
    "InplaceFillScalar": _inplace(lambda a, v: np.full(a.shape, v)),
    "Abs": _elementwise(np.abs, 1),
    "Neg": _elementwise(np.negative, 1),
    "Exp": _elementwise(np.exp, 1),
    "Log": _elementwise(np.log, 1),
    "Sqrt": _elementwise(np.sqrt, 1),
    "Rsqrt": _elementwise(lambda x: 1 / np.sqrt(x), 1),
    "Reciprocal": _elementwise(np.reciprocal, 1),
    "Square": _elementwise(np.square, 1),
    "Sign": _elementwise(np.sign, 1),
    "Tanh": _elementwise(np.tanh, 1),
    "Expm1": _elementwise(np.expm1, 1),
    "Log1p": _elementwise(np.log1p, 1),
    "Sin": _elementwise(np.sin, 1),
    "Cos": _elementwise(np.cos, 1),
    "Tan": _elementwise(np.tan, 1),
    "Sinh": _elementwise(np.sinh, 1),
    "Cosh": _elementwise(np.cosh, 1),
    "Asin": _elementwise(np.arcsin, 1),
    "Acos": _elementwise(np.arccos, 1),
    "Atan": _elementwise(np.arctan, 1),
    "Asinh": _elementwise(np.arcsinh, 1),
    "Acosh": _elementwise(np.arccosh, 1),
    "Atanh": _elementwise(np.arctanh, 1),
    "Erf": _elementwise(lambda x: _erf(x), 1),
    "Erfc": _elementwise(lambda x: 1 - _erf(x), 1),
    "Floor": _elementwise(np.floor, 1),
    "Ceil": _elementwise(np.ceil, 1),
    "Round": _elementwise(np.round, 1),  # half to even (assumed, as torch.round)
    "IsFinite": _elementwise(np.isfinite, 1, np.bool_),
    "IsInf": _elementwise(np.isinf, 1, np.bool_),
    "Softsign": _elementwise(lambda x: x / (1 + np.abs(x)), 1),
    "BitwiseNot": _elementwise(np.invert, 1),
    "Elu": _elementwise(lambda x, alpha, scale, input_scale: scale * np.where(
        x > 0, x, alpha * np.expm1(np.minimum(x, 0) * input_scale)), 4),
    "EluBackward": Op(_elu_backward, (6,)),
    "Softplus": _elementwise(lambda x, beta, threshold: np.where(
        x * beta > threshold, x, np.logaddexp(0, x * beta) / beta), 3),
    "SoftplusBackward": _elementwise(lambda g, x, beta, threshold: np.where(
        x * beta > threshold, g, g / (1 + np.exp(-x * beta))), 4),
    "Hardswish": _elementwise(lambda x: x * np.clip(x + 3, 0, 6) / 6, 1),
    "HardswishBackward": _elementwise(
        lambda g, x: g * np.where(x <= -3, 0, np.where(x >= 3, 1, (2 * x + 3) / 6)), 2),
    "Hardsigmoid": _elementwise(lambda x: np.clip(x + 3, 0, 6) / 6, 1),
    "HardsigmoidBackward": _elementwise(lambda g, x: g * ((x > -3) & (x < 3)) / 6, 2),
    "Sigmoid": _elementwise(lambda x: 1 / (1 + np.exp(-x)), 1),
    "Relu": _elementwise(lambda x: np.maximum(x, 0), 1),
    "ThresholdBackward": _elementwise(lambda g, x, t: np.where(x > t, g, 0), 3),
    "Hardtanh": _elementwise(lambda x, low, high: np.clip(x, low, high), 3),
    "HardtanhBackward": _elementwise(lambda g, x, low, high: np.where((x < low) | (x > high),
                                                                     0, g), 4),
    "GeluV2": _elementwise(_gelu, 2),
    "GeluBackwardV2": _elementwise(_gelu_backward, 3),
    "AvgPool2d": Op(_avg_pool, (8,)),
    "AvgPool2dBackward": Op(_avg_pool_backward, (9,)),
    "GatherV2": Op(lambda x, dim, index: (np.take(x, index, axis=dim),), (3,)),
    "GatherNd": Op(lambda x, index, negative: (x[_nd_index(index, negative)],), (3,)),
    "IndexPutImpl": Op(_index_put, (0,), (0,)),
    "SigmoidBackward": _elementwise(lambda g, y: g * y * (1 - y), 2),
    "TanhBackward": _elementwise(lambda g, y: g * (1 - y * y), 2),
    "Softmax": _elementwise(lambda x, d: np.exp(_log_softmax(x, d)), 2),
    "LogSoftmax": _elementwise(_log_softmax, 2),
    "SoftmaxBackward": _elementwise(
        lambda g, y, d: y * (g - (g * y).sum(axis=d, keepdims=True)), 3),
    "LogSoftmaxBackward": _elementwise(
        lambda g, y, d: g - np.exp(y) * g.sum(axis=d, keepdims=True), 3),
    "ReduceSum": _reduce(np.sum, True),
    "Mean": _reduce(np.mean, True),
    "Amax": _reduce(np.max, False),
    "Amin": _reduce(np.min, False),
    "ArgMax": Op(lambda x, d, keep: (np.asarray(np.argmax(x, axis=d, keepdims=keep),
                                                np.int64),), (3,)),
    "ArgMin": Op(lambda x, d, keep: (np.asarray(np.argmin(x, axis=d, keepdims=keep),
                                                np.int64),), (3,)),
    "All": _reduce(np.all, False),
    "Any": _reduce(np.any, False),
    "Cast": Op(lambda x, dtype: (x.astype(dtype),), (2,)),
    "Permute": Op(lambda x, dims: (np.transpose(x, dims),), (2,)),
    "Expand": Op(lambda x, size: (np.broadcast_to(x, size).copy(),), (2,)),
    "Repeat": Op(lambda x, reps: (np.tile(x, reps),), (2,)),
    "Cat": Op(lambda xs, d: (np.concatenate(xs, axis=d),), (2,)),
    "Stack": Op(lambda xs, d: (np.stack(xs, axis=d),), (2,)),
    "OneHot": Op(_one_hot, (5,)),
    "Matmul": Op(lambda a, b, cube: (np.matmul(a, b).astype(a.dtype),), (2,), workspace=4096),
    "BatchMatMul": Op(lambda a, b, cube: (np.matmul(a, b).astype(a.dtype),), (2,),
                      workspace=4096),
    "Convolution": Op(_convolution, (9,), workspace=8192),
    "ConvolutionBackward": Op(_convolution_backward, (12, 13, 14), workspace=8192),
    "MaxPool2dWithMask": Op(_max_pool_mask, (6, 7)),
    "MaxPool2dWithMaskBackward": Op(_max_pool_mask_backward, (8,)),
    "MaxPool3dWithArgmax": Op(_max_pool_argmax, (6, 7)),
    "MaxPool3dWithArgmaxBackward": Op(_max_pool_argmax_backward, (8,)),
    "AvgPool3d": Op(_avg_pool, (7,)),
    "AvgPool3dBackward": Op(_avg_pool_backward, (8,)),
    "SoftmaxCrossEntropyWithLogits": Op(
        lambda f, lab: ((-(lab * _log_softmax(f, 1)).sum(axis=1)).astype(f.dtype),
                        (np.exp(_log_softmax(f, 1)) - lab).astype(f.dtype)), (2, 3)),
    "NLLLoss": Op(_nll, (5, 6)),
    "Flip": Op(lambda x, dims: (np.flip(x, dims).copy(),), (2,)),
    "ProdDim": Op(lambda x, dim, keep, dtype: (
        np.asarray(np.prod(x, axis=dim, keepdims=keep)).astype(dtype),), (4,)),
    "Cumsum": Op(lambda x, dim, dtype: (np.cumsum(x, axis=dim, dtype=dtype),), (3,)),
    "Cumprod": Op(lambda x, dim, dtype: (np.cumprod(x, axis=int(dim), dtype=dtype),), (3,)),
    "NLLLossBackward": Op(_nll_backward, (7,)),
    "Topk": Op(_topk, (5, 6), workspace=1024),
    "Sort": Op(_sort, (4, 5), workspace=1024),
    "Gather": Op(lambda x, dim, index: (x[_along_index(index, dim, x.shape)],), (3,)),
    "ScatterAdd": Op(_scatter_add, (4,)),
    "IndexAdd": Op(_index_add, (5,)),
    "LayerNorm": Op(_layer_norm, (5, 6, 7), workspace=1024),
    "LayerNormBackward": Op(_layer_norm_backward, (8, 9, 10), workspace=1024),
    "BatchNorm": Op(_batch_norm, (3, 4, 8, 9, 10), (3, 4), workspace=1024),
    "BatchNormBackward": Op(_batch_norm_backward, (10, 11, 12), workspace=1024),
    "Arange": Op(_arange, (3,)),
    "MaskedSelect": Op(_masked_select, (2,), workspace=1024),
    "InplaceMaskedScatter": Op(_masked_scatter, (0,), (0,)),
    "Inverse": Op(lambda x: (np.linalg.inv(x).astype(x.dtype),), (1,), workspace=1024,
                  infer=_inverse_shape),
    "InplaceUniform": Op(_uniform, (0,), (0,)),
    "InplaceNormal": Op(_normal, (0,), (0,)),
    "InplaceBernoulli": Op(_bernoulli, (0,), (0,)),
    "Multinomial": Op(_multinomial, (5,), workspace=1024, infer=_multinomial_shape),
}


def _aclop_conv2d(x, w, *, strides, pads, dilations, groups, data_format) -> np.ndarray:
    if data_format != "NCHW" or pads[0] != pads[1] or pads[2] != pads[3]:
        raise ValueError("the double's Conv2D takes NCHW and symmetric pads")
    return _conv(x, w, strides[2:], (pads[0], pads[2]), dilations[2:], groups)


ACLOP: dict[str, Callable[..., np.ndarray]] = {"Conv2D": _aclop_conv2d}

