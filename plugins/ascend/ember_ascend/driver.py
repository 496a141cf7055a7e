"""The only module that touches CANN: ctypes bindings of its C libraries behind a small interface.

:class:`CannDriver` binds the runtime (``libascendcl``), aclnn's two-phase operators
(``libnnopbase`` + ``libopapi``), the aclop fallback (``aclopCompileAndExecuteV2``), HCCL and
aclprof. Handles are Python ints (0 is NULL); a failing call raises :class:`DriverError` with the
ACL code and ``aclGetRecentErrMsg()``. Everything above this module speaks only this interface,
so tests put a strict double of it in place with :func:`use` where there is no Ascend device.

The argtypes/restype tables below are written from the public headers; the plugin's tests check
each one against the C prototypes recorded in ``tests/prototypes.h``.
"""

from __future__ import annotations

import ctypes
from ctypes import (
    POINTER,
    c_bool,
    c_char_p,
    c_double,
    c_float,
    c_int,
    c_int8,
    c_int32,
    c_int64,
    c_size_t,
    c_uint8,
    c_uint32,
    c_uint64,
    c_void_p,
)
from typing import Any

import numpy as np

from ember_ascend import cann

P = c_void_p
INT64S = POINTER(c_int64)

# ---- enums (acl_base.h, acl_rt.h, aclnn, hccl_types.h, acl_prof.h) ---------------------------
ACL_SUCCESS = 0
DTYPES = {"float32": 0, "float16": 1, "int8": 2, "int32": 3, "uint8": 4, "int16": 6,
          "uint16": 7, "uint32": 8, "int64": 9, "uint64": 10, "float64": 11, "bool": 12}
NUMPY_DTYPES = {code: np.dtype(name) for name, code in DTYPES.items()}
FORMAT_NCHW, FORMAT_ND, FORMAT_NCDHW, FORMAT_UNDEFINED = 0, 2, 30, -1
H2H, H2D, D2H, D2D = 0, 1, 2, 3
HUGE_FIRST, HUGE_ONLY, NORMAL_ONLY = 0, 1, 2
HBM_MEM = 1
CUBE_KEEP_DTYPE, CUBE_ALLOW_FP32_DOWN = 0, 1
ENGINE_SYS, COMPILE_SYS = 0, 0
HCCL_DTYPES = {"int8": 0, "int16": 1, "int32": 2, "float16": 3, "float32": 4, "int64": 5}
HCCL_OPS = {"sum": 0, "prod": 1, "max": 2, "min": 3}
HCCL_ROOT_INFO_BYTES = 4108
PROF_BITS = {"acl_api": 0x1, "task_time": 0x2, "aicore_metrics": 0x4, "aicpu": 0x8,
             "training_trace": 0x40}
PROF_METRICS = {"ArithmeticUtilization": 0, "PipeUtilization": 1, "Memory": 2, "MemoryL0": 3,
                "ResourceConflictRatio": 4, "None": 0xFF}

# ---- bindings: name -> (restype, argtypes) --------------------------------------------------
RUNTIME: dict[str, tuple[Any, list[Any]]] = {
    "aclInit": (c_int, [c_char_p]),
    "aclFinalize": (c_int, []),
    "aclGetRecentErrMsg": (c_char_p, []),
    "aclrtGetSocName": (c_char_p, []),
    "aclrtGetDeviceCount": (c_int, [POINTER(c_uint32)]),
    "aclrtSetDevice": (c_int, [c_int32]),
    "aclrtResetDevice": (c_int, [c_int32]),
    "aclrtCreateStream": (c_int, [POINTER(P)]),
    "aclrtDestroyStream": (c_int, [P]),
    "aclrtSynchronizeStream": (c_int, [P]),
    "aclrtCreateEvent": (c_int, [POINTER(P)]),
    "aclrtDestroyEvent": (c_int, [P]),
    "aclrtRecordEvent": (c_int, [P, P]),
    "aclrtStreamWaitEvent": (c_int, [P, P]),
    "aclrtSynchronizeEvent": (c_int, [P]),
    "aclrtEventElapsedTime": (c_int, [POINTER(c_float), P, P]),
    "aclrtMalloc": (c_int, [POINTER(P), c_size_t, c_int]),
    "aclrtFree": (c_int, [P]),
    "aclrtMallocHost": (c_int, [POINTER(P), c_size_t]),
    "aclrtFreeHost": (c_int, [P]),
    "aclrtMemcpy": (c_int, [P, c_size_t, P, c_size_t, c_int]),
    "aclrtMemcpyAsync": (c_int, [P, c_size_t, P, c_size_t, c_int, P]),
    "aclrtMemsetAsync": (c_int, [P, c_size_t, c_int32, c_size_t, P]),
    "aclrtGetMemInfo": (c_int, [c_int, POINTER(c_size_t), POINTER(c_size_t)]),
}
NNOPBASE: dict[str, tuple[Any, list[Any]]] = {
    "aclnnInit": (c_int, [c_char_p]),
    "aclCreateTensor": (P, [INT64S, c_uint64, c_int, INT64S, c_int64, c_int, INT64S, c_uint64,
                            P]),
    "aclCreateScalar": (P, [P, c_int]),
    "aclCreateIntArray": (P, [INT64S, c_uint64]),
    "aclCreateBoolArray": (P, [POINTER(c_bool), c_uint64]),
    "aclCreateTensorList": (P, [POINTER(P), c_uint64]),
    "aclDestroyTensor": (c_int, [P]),
    "aclDestroyScalar": (c_int, [P]),
    "aclDestroyIntArray": (c_int, [P]),
    "aclDestroyBoolArray": (c_int, [P]),
    "aclDestroyTensorList": (c_int, [P]),
    "aclSetAclOpExecutorRepeatable": (c_int, [P]),
    "aclDestroyAclOpExecutor": (c_int, [P]),
}
ACLOP: dict[str, tuple[Any, list[Any]]] = {
    "aclCreateTensorDesc": (P, [c_int, c_int, INT64S, c_int]),
    "aclDestroyTensorDesc": (None, [P]),
    "aclCreateDataBuffer": (P, [P, c_size_t]),
    "aclDestroyDataBuffer": (c_int, [P]),
    "aclopCreateAttr": (P, []),
    "aclopDestroyAttr": (None, [P]),
    "aclopSetAttrInt": (c_int, [P, c_char_p, c_int64]),
    "aclopSetAttrBool": (c_int, [P, c_char_p, c_uint8]),
    "aclopSetAttrString": (c_int, [P, c_char_p, c_char_p]),
    "aclopSetAttrListInt": (c_int, [P, c_char_p, c_int, INT64S]),
    "aclopCompileAndExecuteV2": (c_int, [c_char_p, c_int, POINTER(P), POINTER(P), c_int,
                                         POINTER(P), POINTER(P), P, c_int, c_int, c_char_p, P]),
}
HCCL: dict[str, tuple[Any, list[Any]]] = {
    "HcclGetRootInfo": (c_int, [P]),
    "HcclCommInitRootInfo": (c_int, [c_uint32, P, c_uint32, POINTER(P)]),
    "HcclAllReduce": (c_int, [P, P, c_uint64, c_int, c_int, P, P]),
    "HcclCommDestroy": (c_int, [P]),
}
PROFILER: dict[str, tuple[Any, list[Any]]] = {
    "aclprofInit": (c_int, [c_char_p, c_size_t]),
    "aclprofCreateConfig": (P, [POINTER(c_uint32), c_uint32, c_int, P, c_uint64]),
    "aclprofStart": (c_int, [P]),
    "aclprofStop": (c_int, [P]),
    "aclprofDestroyConfig": (c_int, [P]),
    "aclprofFinalize": (c_int, []),
}

#: aclnn operators: the arguments of ``aclnn<Op>GetWorkspaceSize`` before (workspaceSize,
#: executor). Kinds: T tensor (NULL allowed where optional), S scalar, IA int array, BA bool
#: array, TL tensor list, i64/i32/i8/u64 integers, f64 double, f32 float, b bool, dt
#: aclDataType, str a C string (bytes).
UNARY_OPS = (
    "Abs", "Neg", "Exp", "Log", "Rsqrt", "Reciprocal", "Tanh",
    "Expm1", "Log1p", "Sin", "Cos", "Tan", "Sinh", "Cosh", "Asin", "Acos", "Atan", "Asinh",
    "Acosh", "Atanh", "Erf", "Erfc", "Floor", "Ceil", "Round", "IsFinite", "IsInf", "Softsign",
    "BitwiseNot", "Hardswish", "Hardsigmoid", "Sigmoid", "Sqrt", "Square", "Sign", "LogicalNot",
    "Relu",
)
BINARY_OPS = (
    "Mul", "Div", "PowTensorTensor", "Atan2", "FloorDivide", "RemainderTensorTensor",
    "FmodTensor", "TruncateDiv", "XLogYTensor", "BitwiseAndTensor", "BitwiseOrTensor",
    "BitwiseXorTensor", "Maximum", "Minimum", "EqTensor", "NeTensor", "GtTensor", "GeTensor",
    "LtTensor", "LeTensor", "LogicalAnd", "LogicalOr", "HardswishBackward", "HardsigmoidBackward",
    "SigmoidBackward", "TanhBackward",
)
ACLNN: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(UNARY_OPS, ("T", "T")),  # (input, out)
    **dict.fromkeys(BINARY_OPS, ("T", "T", "T")),  # (two inputs, out)
    "InplaceMul": ("T", "T"),  # (selfRef, other)
    "InplaceCopy": ("T", "T"),  # (selfRef, src)
    "Add": ("T", "T", "S", "T"),
    "Sub": ("T", "T", "S", "T"),
    "InplaceAdd": ("T", "T", "S"),
    "InplaceFillScalar": ("T", "S"),
    "Elu": ("T", "S", "S", "S", "T"),
    "EluBackward": ("T", "S", "S", "S", "b", "T", "T"),
    "Softplus": ("T", "S", "S", "T"),
    "SoftplusBackward": ("T", "T", "S", "S", "T"),
    "ThresholdBackward": ("T", "T", "S", "T"),
    "Hardtanh": ("T", "S", "S", "T"),
    "HardtanhBackward": ("T", "T", "S", "S", "T"),
    "GeluV2": ("T", "i64", "T"),
    "GeluBackwardV2": ("T", "T", "str", "T"),
    "Softmax": ("T", "i64", "T"),
    "LogSoftmax": ("T", "i64", "T"),
    "SoftmaxBackward": ("T", "T", "i64", "T"),
    "LogSoftmaxBackward": ("T", "T", "i64", "T"),
    "ReduceSum": ("T", "IA", "b", "dt", "T"),
    "Mean": ("T", "IA", "b", "dt", "T"),
    "Amax": ("T", "IA", "b", "T"),
    "Amin": ("T", "IA", "b", "T"),
    "ArgMax": ("T", "i64", "b", "T"),
    "ArgMin": ("T", "i64", "b", "T"),
    "All": ("T", "IA", "b", "T"),
    "Any": ("T", "IA", "b", "T"),
    "Cast": ("T", "dt", "T"),
    "Permute": ("T", "IA", "T"),
    "Expand": ("T", "IA", "T"),
    "Repeat": ("T", "IA", "T"),
    "Cat": ("TL", "i64", "T"),
    "Stack": ("TL", "i64", "T"),
    "SWhere": ("T", "T", "T", "T"),
    "OneHot": ("T", "i32", "T", "T", "i64", "T"),
    "Matmul": ("T", "T", "T", "i8"),
    "BatchMatMul": ("T", "T", "T", "i8"),
    "Inverse": ("T", "T"),
    "Convolution": ("T", "T", "T", "IA", "IA", "IA", "b", "IA", "i64", "T", "i8"),
    "ConvolutionBackward": ("T", "T", "T", "IA", "IA", "IA", "IA", "b", "IA", "i32", "BA", "i8",
                          "T", "T", "T"),
    "AvgPool2d": ("T", "IA", "IA", "IA", "b", "b", "i64", "i8", "T"),
    "AvgPool2dBackward": ("T", "T", "IA", "IA", "IA", "b", "b", "i64", "i8", "T"),
    "GatherV2": ("T", "i64", "T", "T"),
    "GatherNd": ("T", "T", "b", "T"),
    "IndexPutImpl": ("T", "TL", "T", "b", "b"),
    "MaxPool2dWithMask": ("T", "IA", "IA", "IA", "IA", "b", "T", "T"),
    "MaxPool2dWithMaskBackward": ("T", "T", "T", "IA", "IA", "IA", "IA", "b", "T"),
    "MaxPool3dWithArgmax": ("T", "IA", "IA", "IA", "IA", "b", "T", "T"),
    "MaxPool3dWithArgmaxBackward": ("T", "T", "T", "IA", "IA", "IA", "IA", "b", "T"),
    "AvgPool3d": ("T", "IA", "IA", "IA", "b", "b", "i64", "T"),
    "AvgPool3dBackward": ("T", "T", "IA", "IA", "IA", "b", "b", "i64", "T"),
    "SoftmaxCrossEntropyWithLogits": ("T", "T", "T", "T"),
    "NLLLoss": ("T", "T", "T", "i64", "i64", "T", "T"),
    "NLLLossBackward": ("T", "T", "T", "T", "i64", "i64", "T", "T"),
    "Flip": ("T", "IA", "T"),
    "Arange": ("S", "S", "S", "T"),
    "MaskedSelect": ("T", "T", "T"),
    "InplaceMaskedScatter": ("T", "T", "T"),
    "ProdDim": ("T", "i64", "b", "dt", "T"),
    "Cumsum": ("T", "i64", "dt", "T"),
    "Cumprod": ("T", "S", "dt", "T"),
    "Topk": ("T", "i64", "i64", "b", "b", "T", "T"),
    "Sort": ("T", "b", "i64", "b", "T", "T"),
    "Gather": ("T", "i64", "T", "T"),
    "ScatterAdd": ("T", "i64", "T", "T", "T"),
    "IndexAdd": ("T", "i64", "T", "T", "S", "T"),
    "LayerNorm": ("T", "IA", "T", "T", "f64", "T", "T", "T"),
    "LayerNormBackward": ("T", "T", "IA", "T", "T", "T", "T", "BA", "T", "T", "T"),
    "BatchNorm": ("T", "T", "T", "T", "T", "b", "f64", "f64", "T", "T", "T"),
    "BatchNormBackward": ("T", "T", "T", "T", "T", "T", "T", "b", "f64", "BA", "T", "T", "T"),
    # random draws: (..., seed, offset) of the Philox stream
    "InplaceUniform": ("T", "f64", "f64", "u64", "u64"),
    "InplaceNormal": ("T", "f32", "f32", "i64", "i64"),
    "InplaceBernoulli": ("T", "S", "i64", "i64"),
    "Multinomial": ("T", "i64", "b", "i64", "i64", "T"),
}
KIND_CTYPES = {"T": P, "S": P, "IA": P, "BA": P, "TL": P, "i64": c_int64, "i32": c_int,
               "i8": c_int8, "u64": c_uint64, "f64": c_double, "f32": c_float, "b": c_bool,
               "dt": c_int, "str": c_char_p}
HANDLE_KINDS = ("T", "S", "IA", "BA", "TL")


def aclnn_bindings() -> dict[str, tuple[Any, list[Any]]]:
    """``aclnn<Op>GetWorkspaceSize`` and ``aclnn<Op>`` for every operator in :data:`ACLNN`."""
    table: dict[str, tuple[Any, list[Any]]] = {}
    for op, kinds in ACLNN.items():
        table[f"aclnn{op}GetWorkspaceSize"] = (
            c_int, [*(KIND_CTYPES[k] for k in kinds), POINTER(c_uint64), POINTER(P)])
        table[f"aclnn{op}"] = (c_int, [P, c_uint64, P, P])
    return table


def bind(library: Any, table: dict[str, tuple[Any, list[Any]]]) -> None:
    """Declare restype and argtypes of each function of ``table`` on ``library``."""
    for name, (restype, argtypes) in table.items():
        function = getattr(library, name)
        function.restype = restype
        function.argtypes = argtypes


class DriverError(RuntimeError):
    """A CANN call failed: ``code`` is the ACL/aclnn/HCCL error code, ``message`` the text
    ``aclGetRecentErrMsg()`` gave."""

    def __init__(self, call: str, code: int, message: str) -> None:
        super().__init__(f"{call} failed with ACL error {code}: {message or '(no message)'}")
        self.call, self.code, self.message = call, code, message


def _int64s(values: Any) -> Any:
    values = list(values)
    return (c_int64 * max(len(values), 1))(*values)


class CannDriver:
    """The driver interface on the real CANN libraries (see the module docstring)."""

    uses_double = False

    def __init__(self, installation: cann.Installation) -> None:
        mode = getattr(ctypes, "RTLD_GLOBAL", 0)
        libs = {role: ctypes.CDLL(str(path), mode=mode)
                for role, path in installation.libraries.items()}
        self.home = installation.home
        self.rt, self.nn, self.api = libs["runtime"], libs["nnopbase"], libs["opapi"]
        self.aclop, self.hccl, self.prof = (libs.get(r) for r in ("aclop", "hccl", "profiler"))
        bind(self.rt, RUNTIME)
        bind(self.nn, NNOPBASE)
        bind(self.api, aclnn_bindings())
        for lib, table in ((self.aclop, ACLOP), (self.hccl, HCCL), (self.prof, PROFILER)):
            if lib is not None:
                bind(lib, table)

    def describe(self) -> str:
        return f"CANN at {self.home}"

    # -- errors ----------------------------------------------------------------------------
    def last_error(self) -> str:
        message = self.rt.aclGetRecentErrMsg()
        return message.decode(errors="replace") if message else ""

    def _check(self, call: str, code: int) -> None:
        if code != ACL_SUCCESS:
            raise DriverError(call, code, self.last_error())

    def _call(self, lib: Any, name: str, *args: Any) -> None:
        if lib is None:
            raise DriverError(name, 100024, "the library that provides it was not found "
                                            f"under {self.home}")
        self._check(name, getattr(lib, name)(*args))

    def _out(self, lib: Any, name: str, *args: Any) -> int:
        handle = P()
        self._call(lib, name, ctypes.byref(handle), *args)
        return handle.value or 0

    # -- 1. lifecycle ----------------------------------------------------------------------
    def init(self, config: str | None = None) -> None:
        self._call(self.rt, "aclInit", config.encode() if config else None)
        self._call(self.nn, "aclnnInit", None)

    def finalize(self) -> None:
        self._call(self.rt, "aclFinalize")

    def device_count(self) -> int:
        count = c_uint32()
        self._call(self.rt, "aclrtGetDeviceCount", ctypes.byref(count))
        return count.value

    def set_device(self, device: int) -> None:
        self._call(self.rt, "aclrtSetDevice", device)

    def reset_device(self, device: int) -> None:
        self._call(self.rt, "aclrtResetDevice", device)

    def soc_name(self) -> str:
        name = self.rt.aclrtGetSocName()
        return name.decode() if name else ""

    # -- 2. streams and events -------------------------------------------------------------
    def create_stream(self) -> int:
        return self._out(self.rt, "aclrtCreateStream")

    def destroy_stream(self, stream: int) -> None:
        self._call(self.rt, "aclrtDestroyStream", stream)

    def sync_stream(self, stream: int) -> None:
        self._call(self.rt, "aclrtSynchronizeStream", stream)

    def create_event(self) -> int:
        return self._out(self.rt, "aclrtCreateEvent")

    def destroy_event(self, event: int) -> None:
        self._call(self.rt, "aclrtDestroyEvent", event)

    def record_event(self, event: int, stream: int) -> None:
        self._call(self.rt, "aclrtRecordEvent", event, stream)

    def wait_event(self, stream: int, event: int) -> None:
        self._call(self.rt, "aclrtStreamWaitEvent", stream, event)

    def sync_event(self, event: int) -> None:
        self._call(self.rt, "aclrtSynchronizeEvent", event)

    def elapsed_ms(self, start: int, end: int) -> float:
        ms = c_float()
        self._call(self.rt, "aclrtEventElapsedTime", ctypes.byref(ms), start, end)
        return ms.value

    # -- 3. memory -------------------------------------------------------------------------
    def malloc(self, size: int, policy: int = HUGE_FIRST) -> int:
        return self._out(self.rt, "aclrtMalloc", size, policy)

    def free(self, pointer: int) -> None:
        self._call(self.rt, "aclrtFree", pointer)

    def malloc_host(self, size: int) -> int:
        return self._out(self.rt, "aclrtMallocHost", size)

    def free_host(self, pointer: int) -> None:
        self._call(self.rt, "aclrtFreeHost", pointer)

    def memcpy(self, dst: int, dmax: int, src: int, count: int, kind: int) -> None:
        self._call(self.rt, "aclrtMemcpy", dst, dmax, src, count, kind)

    def memcpy_async(self, dst: int, dmax: int, src: int, count: int, kind: int,
                     stream: int) -> None:
        self._call(self.rt, "aclrtMemcpyAsync", dst, dmax, src, count, kind, stream)

    def memset_async(self, pointer: int, dmax: int, value: int, count: int,
                     stream: int) -> None:
        self._call(self.rt, "aclrtMemsetAsync", pointer, dmax, value, count, stream)

    def mem_info(self) -> tuple[int, int]:
        free, total = c_size_t(), c_size_t()
        self._call(self.rt, "aclrtGetMemInfo", HBM_MEM, ctypes.byref(free), ctypes.byref(total))
        return free.value, total.value

    # -- 4. aclnn argument objects ---------------------------------------------------------
    def make_tensor(self, shape: tuple[int, ...], dtype: int, strides: tuple[int, ...],
                    offset: int, fmt: int, storage: tuple[int, ...], data: int) -> int:
        handle = self.nn.aclCreateTensor(_int64s(shape), len(shape), dtype, _int64s(strides),
                                         offset, fmt, _int64s(storage), len(storage), data)
        return self._made("aclCreateTensor", handle)

    def make_scalar(self, value: int | float | bool, dtype: int) -> int:
        box = np.array(value, dtype=NUMPY_DTYPES[dtype])  # aclCreateScalar copies the value
        return self._made("aclCreateScalar", self.nn.aclCreateScalar(box.ctypes.data, dtype))

    def make_int_array(self, values: tuple[int, ...]) -> int:
        return self._made("aclCreateIntArray",
                          self.nn.aclCreateIntArray(_int64s(values), len(values)))

    def make_bool_array(self, values: tuple[bool, ...]) -> int:
        array = (c_bool * len(values))(*values)
        return self._made("aclCreateBoolArray", self.nn.aclCreateBoolArray(array, len(values)))

    def make_tensor_list(self, tensors: tuple[int, ...]) -> int:
        array = (P * len(tensors))(*tensors)
        return self._made("aclCreateTensorList",
                          self.nn.aclCreateTensorList(array, len(tensors)))

    def _made(self, call: str, handle: int | None) -> int:
        if not handle:
            raise DriverError(call, 161001, self.last_error())
        return handle

    def destroy(self, kind: str, handle: int) -> None:
        name = {"T": "aclDestroyTensor", "S": "aclDestroyScalar", "IA": "aclDestroyIntArray",
                "BA": "aclDestroyBoolArray", "TL": "aclDestroyTensorList"}[kind]
        self._call(self.nn, name, handle)

    # -- 5. operators ----------------------------------------------------------------------
    def aclnn_prepare(self, op: str, *args: Any) -> tuple[int, int]:
        """Phase 1: ``aclnn<op>GetWorkspaceSize(args..., &ws, &executor)`` -> (ws, executor)."""
        size, executor = c_uint64(), P()
        self._call(self.api, f"aclnn{op}GetWorkspaceSize", *args, ctypes.byref(size),
                   ctypes.byref(executor))
        return size.value, executor.value or 0

    def aclnn_launch(self, op: str, workspace: int, size: int, executor: int,
                     stream: int) -> None:
        """Phase 2: ``aclnn<op>(workspace, size, executor, stream)``, asynchronous."""
        self._call(self.api, f"aclnn{op}", workspace or None, size, executor, stream)

    def set_repeatable(self, executor: int) -> None:
        self._call(self.nn, "aclSetAclOpExecutorRepeatable", executor)

    def destroy_executor(self, executor: int) -> None:
        self._call(self.nn, "aclDestroyAclOpExecutor", executor)

    def aclop_run(self, op: str, inputs: list[tuple[int, tuple[int, ...], int, int]],
                  outputs: list[tuple[int, tuple[int, ...], int, int]],
                  attrs: dict[str, Any], stream: int) -> None:
        """``aclopCompileAndExecuteV2`` of ``op`` (static shapes). Each tensor is (dtype, dims,
        format, device pointer); attrs are ints, bools, strings or tuples of ints."""
        lib = self.aclop
        if lib is None:
            raise DriverError(f"aclop {op}", 100024, "libacl_op_compiler.so was not found")
        made: list[tuple[str, int]] = []
        try:
            def desc_and_buffer(dtype: int, dims: tuple[int, ...], fmt: int,
                                data: int) -> tuple[int, int]:
                desc = lib.aclCreateTensorDesc(dtype, len(dims), _int64s(dims), fmt)
                made.append(("aclDestroyTensorDesc", desc))
                nbytes = int(_product(dims)) * _itemsize(dtype)
                buffer = lib.aclCreateDataBuffer(data, nbytes)
                made.append(("aclDestroyDataBuffer", buffer))
                return desc, buffer

            ins = [desc_and_buffer(*t) for t in inputs]
            outs = [desc_and_buffer(*t) for t in outputs]
            attr = lib.aclopCreateAttr()
            made.append(("aclopDestroyAttr", attr))
            for name, value in attrs.items():
                key = name.encode()
                if isinstance(value, bool):
                    self._call(lib, "aclopSetAttrBool", attr, key, int(value))
                elif isinstance(value, int):
                    self._call(lib, "aclopSetAttrInt", attr, key, value)
                elif isinstance(value, str):
                    self._call(lib, "aclopSetAttrString", attr, key, value.encode())
                else:
                    self._call(lib, "aclopSetAttrListInt", attr, key, len(value),
                               _int64s(value))

            def array(items: list[int]) -> Any:
                return (P * max(len(items), 1))(*items)

            self._call(lib, "aclopCompileAndExecuteV2", op.encode(), len(ins),
                       array([d for d, _ in ins]), array([b for _, b in ins]), len(outs),
                       array([d for d, _ in outs]), array([b for _, b in outs]), attr,
                       ENGINE_SYS, COMPILE_SYS, None, stream)
        finally:
            for name, handle in reversed(made):
                if handle:
                    getattr(lib, name)(handle)

    # -- 6. HCCL and profiling -------------------------------------------------------------
    def hccl_root_info(self) -> bytes:
        info = ctypes.create_string_buffer(HCCL_ROOT_INFO_BYTES)
        self._call(self.hccl, "HcclGetRootInfo", info)
        return info.raw

    def hccl_init(self, ranks: int, root_info: bytes, rank: int) -> int:
        if len(root_info) != HCCL_ROOT_INFO_BYTES:
            raise DriverError("HcclCommInitRootInfo", 1, "the root info must be "
                              f"{HCCL_ROOT_INFO_BYTES} bytes, got {len(root_info)}")
        info = ctypes.create_string_buffer(root_info, HCCL_ROOT_INFO_BYTES)
        comm = P()
        self._call(self.hccl, "HcclCommInitRootInfo", ranks, info, rank, ctypes.byref(comm))
        return comm.value or 0

    def hccl_all_reduce(self, send: int, recv: int, count: int, dtype: int, op: int,
                        comm: int, stream: int) -> None:
        self._call(self.hccl, "HcclAllReduce", send, recv, count, dtype, op, comm, stream)

    def hccl_destroy(self, comm: int) -> None:
        self._call(self.hccl, "HcclCommDestroy", comm)

    def prof_start(self, path: str, devices: tuple[int, ...], metrics: int, mask: int) -> int:
        raw = path.encode()
        self._call(self.prof, "aclprofInit", raw, len(raw))
        ids = (c_uint32 * len(devices))(*devices)
        config = self.prof.aclprofCreateConfig(ids, len(devices), metrics, None, mask)
        if not config:
            raise DriverError("aclprofCreateConfig", 100000, self.last_error())
        self._call(self.prof, "aclprofStart", config)
        return config

    def prof_stop(self, config: int) -> None:
        self._call(self.prof, "aclprofStop", config)
        self._call(self.prof, "aclprofDestroyConfig", config)
        self._call(self.prof, "aclprofFinalize")


def _itemsize(dtype: int) -> int:
    return NUMPY_DTYPES[dtype].itemsize


def _product(dims: tuple[int, ...]) -> int:
    n = 1
    for d in dims:
        n *= d
    return n


_INSTALLED: Any = None


def use(driver: Any) -> None:
    """Put ``driver`` (an object with this module's interface) in place of CANN for this process;
    None goes back to CANN. Only tests do this, with their double."""
    global _INSTALLED
    _INSTALLED = driver


def get() -> Any:
    """The driver in use: the one :func:`use` installed, else :class:`CannDriver` on the CANN
    found on disk (raising RuntimeError that says what to install when there is none)."""
    global _INSTALLED
    if _INSTALLED is None:
        installation = cann.find()
        if installation is None:
            raise RuntimeError(cann.not_found_reason())
        if installation.missing():
            raise RuntimeError(f"CANN at {installation.home} lacks "
                               f"{', '.join(installation.missing())}: {cann.SET_ENV_HINT}")
        _INSTALLED = CannDriver(installation)
    return _INSTALLED


def installed() -> Any:
    """The driver in place, or None when none is loaded yet (loads nothing)."""
    return _INSTALLED
