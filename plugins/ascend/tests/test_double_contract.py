"""The driver double is a contract, not a permissive mock: each class of misuse CANN forbids
is refused, with CANN's error code where CANN reports one."""

from __future__ import annotations

import ctypes

import acl_double
import numpy as np
import pytest
from acl_double import AclDouble, ContractViolation

from ember_ascend import driver as drv
from ember_ascend.driver import DriverError

F32 = drv.DTYPES["float32"]


def started(soc: str = "Ascend910B1") -> tuple[AclDouble, int]:
    d = AclDouble(soc)
    d.init()
    d.set_device(0)
    return d, d.create_stream()


def upload(d: AclDouble, stream: int, array: np.ndarray) -> int:
    ptr = d.malloc(max(array.nbytes, 1))
    host = d.malloc_host(array.nbytes)
    ctypes.memmove(host, array.ctypes.data, array.nbytes)
    d.memcpy(ptr, array.nbytes, host, array.nbytes, drv.H2D)
    d.free_host(host)
    return ptr


def download(d: AclDouble, ptr: int, like: np.ndarray) -> np.ndarray:
    host = d.malloc_host(like.nbytes)
    d.memcpy(host, like.nbytes, ptr, like.nbytes, drv.D2H)
    out = np.empty_like(like)
    ctypes.memmove(out.ctypes.data, host, like.nbytes)
    d.free_host(host)
    return out


def tensor(d: AclDouble, ptr: int, shape: tuple[int, ...]) -> int:
    strides = tuple(int(np.prod(shape[i + 1:])) for i in range(len(shape)))
    return d.make_tensor(shape, F32, strides, 0, drv.FORMAT_ND, (int(np.prod(shape)),), ptr)


def code(call, *args) -> int:
    with pytest.raises(DriverError) as info:
        call(*args)
    return info.value.code


# -- types and enums --------------------------------------------------------------------------
def test_a_bool_is_not_an_int_and_enums_must_be_in_their_header_sets() -> None:
    d, s = started()
    with pytest.raises(TypeError, match="size must be an int"):
        d.malloc(True)
    assert code(d.malloc, 64, 7) == 100000  # no such aclrtMemMallocPolicy
    ptr = d.malloc(64)
    assert code(d.make_tensor, (4,), 99, (1,), 0, drv.FORMAT_ND, (4,), ptr) == 161002
    assert code(d.memcpy_async, ptr, 64, ptr, 16, 9, s) == 100000


def test_operator_arity_and_argument_kinds_are_checked() -> None:
    d, _ = started()
    x = tensor(d, d.malloc(64), (4,))
    assert code(d.aclnn_prepare, "Mul", x, x) == 161002  # 2 arguments for 3 parameters
    ints = d.make_int_array((1, 2))
    assert code(d.aclnn_prepare, "Mul", x, ints, x) == 161001  # an int array for a tensor
    with pytest.raises(TypeError, match="a bool argument"):
        d.aclnn_prepare("ReduceSum", x, d.make_int_array((0,)), 1, drv.DTYPES["float32"], x)


def test_hccl_data_types_use_hccls_own_numbering() -> None:
    d, s = started()
    comm = d.hccl_init(1, d.hccl_root_info(), 0)
    buffer = d.malloc(64)
    assert code(d.hccl_all_reduce, buffer, buffer, 4, drv.DTYPES["bool"], 0, comm, s) == 1
    d.hccl_all_reduce(buffer, buffer, 4, drv.HCCL_DTYPES["float32"], drv.HCCL_OPS["sum"], comm,
                      s)
    assert code(d.hccl_init, 1, b"short", 0) == 1  # root info is exactly 4108 bytes


# -- lifecycle ---------------------------------------------------------------------------------
def test_lifecycle_error_codes() -> None:
    d = AclDouble()
    assert code(d.malloc, 64) == 100001  # before aclInit
    d.init()
    assert code(d.init) == 100002  # twice
    assert code(d.create_stream) == 107002  # no aclrtSetDevice
    assert code(d.set_device, 3) == 107001
    d.set_device(0)
    s = d.create_stream()
    d.destroy_stream(s)
    assert code(d.sync_stream, 0x1234) == 107000  # never a stream
    with pytest.raises(ContractViolation, match="destroyed already"):
        d.sync_stream(s)
    x = tensor(d, d.malloc(64), (4,))
    d.destroy("T", x)
    with pytest.raises(ContractViolation, match="destroyed already"):
        d.destroy("T", x)


# -- memory ------------------------------------------------------------------------------------
def test_copies_stay_inside_live_allocations_on_the_right_side() -> None:
    d, s = started()
    ptr, host = d.malloc(64), d.malloc_host(64)
    assert code(d.memcpy, ptr, 16, host, 32, drv.H2D) == 100000  # count > dmax
    assert code(d.memcpy, ptr, 128, host, 64, drv.H2D) == 107000  # dmax past the allocation
    assert code(d.memcpy, ptr, 64, ptr, 64, drv.H2D) == 107000  # the source is device memory
    assert code(d.memcpy, ptr + 4096, 4, host, 4, drv.H2D) == 107000  # in no allocation
    d.free(ptr)
    assert code(d.memcpy, ptr, 4, host, 4, drv.H2D) == 107000  # freed


def test_tensor_data_is_aligned_and_inside_its_storage() -> None:
    d, _ = started()
    ptr = d.malloc(64)  # 16 float32
    assert code(d.make_tensor, (4,), F32, (1,), 0, drv.FORMAT_ND, (4,), ptr + 4) == 161002
    assert code(d.make_tensor, (4,), F32, (4,), 0, drv.FORMAT_ND, (8,), ptr) == 161002  # 12 >= 8
    assert code(d.make_tensor, (4,), F32, (1,), 0, drv.FORMAT_ND, (32,), ptr) == 107000  # > 64 B
    assert code(d.make_tensor, (4,), F32, (-1,), 0, drv.FORMAT_ND, (4,), ptr) == 161002
    tensor(d, ptr, (4, 4))  # exactly the allocation: fine


# -- operators -----------------------------------------------------------------------------------
def test_an_executor_runs_once_unless_repeatable() -> None:
    d, s = started()
    x = tensor(d, upload(d, s, np.ones(4, np.float32)), (4,))
    ws, ex = d.aclnn_prepare("Mul", x, x, x)
    d.aclnn_launch("Mul", 0, ws, ex, s)
    with pytest.raises(ContractViolation, match="destroyed by its run"):
        d.aclnn_launch("Mul", 0, ws, ex, s)
    ws, ex = d.aclnn_prepare("Mul", x, x, x)
    d.set_repeatable(ex)
    d.aclnn_launch("Mul", 0, ws, ex, s)
    d.aclnn_launch("Mul", 0, ws, ex, s)
    d.destroy_executor(ex)


def test_the_workspace_must_be_device_memory_of_the_size_asked_for() -> None:
    d, s = started()
    a = tensor(d, d.malloc(64), (4, 4))
    ws, ex = d.aclnn_prepare("Matmul", a, a, a, drv.CUBE_KEEP_DTYPE)
    assert ws > 0
    assert code(d.aclnn_launch, "Matmul", d.malloc(ws), ws - 1, ex, s) == 161002
    assert code(d.aclnn_launch, "Matmul", 0, ws, ex, s) == 107000  # NULL workspace
    assert code(d.aclnn_launch, "Matmul", d.malloc_host(ws), ws, ex, s) == 107000
    d.aclnn_launch("Matmul", d.malloc(ws), ws, ex, s)


def test_output_shapes_and_dtypes_are_recomputed_from_the_inputs() -> None:
    d, _ = started()
    x, wrong = tensor(d, d.malloc(64), (2, 3)), tensor(d, d.malloc(64), (3, 2))
    assert code(d.aclnn_prepare, "Add", x, x, d.make_scalar(1.0, F32), wrong) == 161002
    ptr = d.malloc(512)
    image = d.make_tensor((1, 1, 4, 4), F32, (16, 16, 4, 1), 0, drv.FORMAT_NCHW, (16,), ptr)
    out = d.make_tensor((1, 1, 2, 2), F32, (4, 4, 2, 1), 0, drv.FORMAT_NCHW, (4,), ptr)
    bad_mask = d.make_tensor((1, 1, 4, 8), drv.DTYPES["int8"], (32, 32, 8, 1), 0, drv.FORMAT_ND,
                             (32,), ptr)
    window = [d.make_int_array(v) for v in ((2, 2), (2, 2), (0, 0), (1, 1))]
    # the mask is [N, C, kh*kw, (ceil(Ho*Wo/16)+1)*32] = [1, 1, 4, 64]
    assert code(d.aclnn_prepare, "MaxPool2dWithMask", image, *window, False, out,
                bad_mask) == 161002


def test_the_soc_table_refuses_what_the_first_generation_910_lacks() -> None:
    d, _ = started("Ascend910A")
    x = tensor(d, d.malloc(512), (1, 1, 4, 4))
    w = tensor(d, d.malloc(64), (1, 1, 1, 1))
    ia = [d.make_int_array(v) for v in ((1, 1), (0, 0), (1, 1))]
    assert code(d.aclnn_prepare, "Convolution", x, w, None, *ia, False, d.make_int_array((0, 0)),
                1, x, 1) == 561103
    a = tensor(d, d.malloc(64), (4, 4))
    assert code(d.aclnn_prepare, "Matmul", a, a, a, drv.CUBE_KEEP_DTYPE) == 161002  # fp32
    d.aclnn_prepare("Matmul", a, a, a, drv.CUBE_ALLOW_FP32_DOWN)


# -- asynchrony ---------------------------------------------------------------------------------
def test_results_land_only_when_the_stream_is_synchronized() -> None:
    d, s = started()
    ones = np.ones(4, np.float32)
    ptr = upload(d, s, ones)
    x = tensor(d, ptr, (4,))
    ws, ex = d.aclnn_prepare("Add", x, x, d.make_scalar(1.0, F32), x)
    d.aclnn_launch("Add", 0, ws, ex, s)
    host = d.malloc_host(16)
    d.memcpy_async(host, 16, ptr, 16, drv.D2H, s)  # queued after the Add: not run yet
    early = np.frombuffer(ctypes.string_at(host, 16), np.float32)
    np.testing.assert_array_equal(early, np.zeros(4))  # stale: nothing has run
    d.sync_stream(s)
    np.testing.assert_array_equal(np.frombuffer(ctypes.string_at(host, 16), np.float32),
                                  2 * ones)


def test_freeing_memory_that_queued_work_uses_is_flagged() -> None:
    d, s = started()
    ptr = d.malloc(64)
    d.memset_async(ptr, 64, 0, 64, s)
    with pytest.raises(ContractViolation, match="still uses it"):
        d.free(ptr)
    d.sync_stream(s)
    d.free(ptr)


def test_calling_the_driver_while_it_runs_queued_work_is_flagged(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What a finalizer run by the garbage collector inside the double's work would do: the
    call is refused and kept in ``violations`` (a finalizer swallows the exception)."""
    d, s = started()
    x = tensor(d, upload(d, s, np.ones(4, np.float32)), (4,))
    reentering = acl_double.Op(lambda a: (d.sync_stream(s),), (1,))
    monkeypatch.setitem(acl_double.OPS, "Neg", reentering)
    ws, ex = d.aclnn_prepare("Neg", x, x)
    d.aclnn_launch("Neg", 0, ws, ex, s)
    with pytest.raises(ContractViolation, match="while the device runs aclnnNeg"):
        d.sync_stream(s)
    assert len(d.violations) == 1


def test_crossing_streams_needs_an_event() -> None:
    d, s = started()
    other = d.create_stream()
    ptr = d.malloc(64)
    d.memset_async(ptr, 64, 1, 64, s)
    with pytest.raises(ContractViolation, match="no event between them"):
        d.memset_async(ptr, 64, 2, 64, other)
    event = d.create_event()
    d.record_event(event, s)
    d.wait_event(other, event)
    d.memset_async(ptr, 64, 2, 64, other)
    d.sync_stream(other)  # runs s's work up to the event first
    assert download(d, ptr, np.zeros(64, np.uint8)).tolist() == [2] * 64


def test_a_failing_operator_reports_at_the_synchronize_with_its_code() -> None:
    d, s = started()
    ptr = upload(d, s, np.array([[0.0, 1.0]], np.float32))
    logp = tensor(d, ptr, (1, 2))
    target = d.make_tensor((1,), drv.DTYPES["int32"], (1,), 0, drv.FORMAT_ND, (1,),
                           upload(d, s, np.array([5], np.int32)))
    weight = tensor(d, upload(d, s, np.ones(2, np.float32)), (2,))
    loss, total = tensor(d, d.malloc(4), ()), tensor(d, d.malloc(4), ())
    ws, ex = d.aclnn_prepare("NLLLoss", logp, target, weight, 1, -100, loss, total)
    d.aclnn_launch("NLLLoss", 0, ws, ex, s)  # the bad target is seen when it runs
    assert code(d.sync_stream, s) == 507011
    assert "aclnnNLLLoss" in d.last_error()


# -- random operators -------------------------------------------------------------------------
def test_random_operators_check_their_documented_arguments_and_repeat_at_a_seed_and_offset(
        ) -> None:
    d, s = started()
    ptr = d.malloc(64)
    x = tensor(d, ptr, (4,))
    assert code(d.aclnn_prepare, "InplaceUniform", x, 1.0, 0.0, 0, 0) == 161002  # from > to
    assert code(d.aclnn_prepare, "InplaceUniform", x, 0.0, 1.0, -1, 0) == 161002  # uint64
    assert code(d.aclnn_prepare, "InplaceNormal", x, 0.0, -1.0, 0, 0) == 161002  # std < 0
    prob = d.make_scalar(0.5, F32)
    assert code(d.aclnn_prepare, "InplaceBernoulli", x, prob, 0, 2) == 161002  # offset % 4
    with pytest.raises(TypeError):
        d.aclnn_prepare("InplaceNormal", x, 0, 1.0, 0, 0)  # float parameters take floats

    def draw(seed: int, offset: int) -> np.ndarray:
        ws, ex = d.aclnn_prepare("InplaceUniform", x, 0.0, 1.0, seed, offset)
        d.aclnn_launch("InplaceUniform", 0, ws, ex, s)
        return download(d, ptr, np.zeros(4, np.float32))

    first = draw(7, 0)
    assert np.array_equal(draw(7, 0), first) and not np.array_equal(draw(7, 4), first)
    assert ((0 <= first) & (first < 1)).all()


def test_multinomial_needs_non_negative_weights_with_a_positive_sum() -> None:
    d, s = started()
    weights = tensor(d, upload(d, s, np.array([[1.0, -1.0]], np.float32)), (1, 2))
    out = d.make_tensor((1, 3), drv.DTYPES["int64"], (3, 1), 0, drv.FORMAT_ND, (3,),
                        d.malloc(64))
    assert code(d.aclnn_prepare, "Multinomial", weights, 3, False, 0, 0, out) == 161002
    ws, ex = d.aclnn_prepare("Multinomial", weights, 3, True, 0, 0, out)
    d.aclnn_launch("Multinomial", ws and d.malloc(ws), ws, ex, s)
    assert code(d.sync_stream, s) == 507011
