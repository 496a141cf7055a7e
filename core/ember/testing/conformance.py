"""The tests of ember's conformance kit; a backend's test module runs them all with::

    from ember.testing.conformance import *  # noqa: F403

Per case of the table (``ember.testing.cases.registry``) and dtype, one test
``test_primitive[Add/broadcast-float32]`` checks, on the backend under test:

1. PyNative: the primitive's outputs against the case's NumPy reference: dtype, shape and
   values (within the dtype's tolerance, NaN and inf where the reference has them), with no
   NumPy floating-point warning escaping the kernels;
2. Graph mode: the same call compiled with ``ember.ms_function`` equals PyNative;
3. for the ``grad`` positions, in float64: ``ops.GradOperation`` (with a random sensitivity)
   against central finite differences, and the compiled gradient against PyNative's.

Backend-level checks (``test_backend_*``): the declared API version, MissingKernelError for a
primitive the backend does not run, invalid attributes and inputs rejected before any kernel
is asked for, context options accepted by the backend's hook, switching device_target
to the backend and back, and control flow (``ember.testing.control_flow``: ``Switch`` and
``WhileLoop`` nodes, values and gradients, Graph vs PyNative). The pytest plugin
``ember.testing.plugin`` chooses the backend, applies the known gaps and writes the report.
"""

from __future__ import annotations

import contextlib
import warnings
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from ember import _executor, _plugins, context
from ember.backend import MissingKernelError
from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.graph.compiler import ms_function
from ember.ops import operations as P
from ember.ops.primitive import Primitive
from ember.testing import gradcheck, statistics
from ember.testing.cases import OpCase
from ember.testing.cases.registry import all_cases
from ember.testing.control_flow import CONTROL_FLOW_CASES, check_control_flow_case
from ember_pytest import FALLBACK, PLUGIN_NAME

__all__ = [
    "BACKEND_CHECKS", "ember_conformance_context", "ember_conformance_test", "ember_target",
    "test_backend_api_version", "test_backend_communicator", "test_backend_context_hook",
    "test_backend_control_flow", "test_backend_device_target_switch", "test_backend_missing_kernel",
    "test_backend_random_seeds", "test_backend_random_statistics",
    "test_backend_rejects_bad_input_before_kernels", "test_primitive",
]

#: The backend-level checks, by the names known gaps and the report use (``backend/<name>``).
BACKEND_CHECKS = ("api-version", "missing-kernel", "bad-input", "context-hook",
                  "device-target-switch", "random-statistics", "random-seeds",
                  "control-flow", "communicator")
#: Gradients: finite differences in float64 against the backward rules.
GRAD_TOLERANCE = (1e-5, 1e-6)


# -- fixtures -------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def ember_target(request: pytest.FixtureRequest) -> str:
    """The device_target under test: ``--ember-backend``, else the ``ember_backend`` fixture
    (a backend's conftest overrides it), else CPU. Fails when its backend cannot run here."""
    if not request.config.pluginmanager.has_plugin(PLUGIN_NAME):
        pytest.fail("the ember conformance kit needs its pytest plugin: install ember-core "
                    "(it registers the plugin) or run pytest with -p ember.testing.plugin",
                    pytrace=False)
    target = request.config.getoption("ember_backend") or request.getfixturevalue(
        "ember_backend")
    try:
        _plugins.check_device_target(target)
    except (ValueError, _plugins.BackendError) as exc:
        pytest.fail(f"ember conformance: device_target {target!r} cannot be tested here: "
                    f"{exc}", pytrace=False)
    return target


@pytest.fixture(scope="module", autouse=True)
def ember_conformance_context(ember_target: str,
                              request: pytest.FixtureRequest) -> Iterator[None]:
    """The module's tests run on the backend under test in PyNative mode (with
    ``--ember-fallback`` as fallback_device_target); the context before is restored after."""
    keys = ("device_target", "mode", "fallback_device_target")
    saved = {key: context.get_context(key) for key in keys}
    context.set_context(device_target=ember_target, mode=context.PYNATIVE_MODE,
                        fallback_device_target=request.config.getoption("ember_fallback"))
    yield
    context.set_context(**saved)


@pytest.fixture(autouse=True)
def ember_conformance_test(request: pytest.FixtureRequest, ember_target: str) -> None:
    """Tells the report which backend ran the test."""
    request.node.user_properties.append(("ember_backend", ember_target))


# -- running one case -----------------------------------------------------------------------
def as_tensors(value: Any) -> Any:
    """NumPy arrays (also inside tuples and lists) as Tensors; other values as they are."""
    if isinstance(value, np.ndarray):
        return Tensor(value)
    if isinstance(value, tuple | list) and any(isinstance(v, np.ndarray) for v in value):
        return type(value)(as_tensors(v) for v in value)
    return value


def _holds_tensor(value: Any) -> bool:
    return isinstance(value, Tensor) or (
        isinstance(value, tuple | list) and any(isinstance(v, Tensor) for v in value))


def staged(prim: Any, args: tuple) -> Any:
    """``prim(*args)`` compiled with ``ms_function``: the tensor arguments are the graph's
    inputs, the others (axes, dtypes, shapes) are part of the graph."""
    dynamic = [i for i, a in enumerate(args) if _holds_tensor(a)]

    def call(*tensors: Any) -> Any:
        full = list(args)
        for i, t in zip(dynamic, tensors):
            full[i] = t
        return prim(*full)

    call.__name__ = getattr(prim, "name", getattr(prim, "__name__", "call"))
    return ms_function(call)(*(args[i] for i in dynamic))


def assert_outputs(got: Any, want: Any, tolerance: Callable[[type], tuple[float, float]],
                   what: str) -> None:
    """``got`` (a Tensor or tuple of Tensors) has the dtypes, shapes and values of ``want``
    (arrays); floats within ``tolerance(dtype)``, NaN and inf at the same places."""
    got_all = got if isinstance(got, tuple) else (got,)
    want_all = want if isinstance(want, tuple) else (want,)
    assert len(got_all) == len(want_all), (
        f"{what}: {len(got_all)} outputs, expected {len(want_all)}")
    for i, (g, w) in enumerate(zip(got_all, want_all)):
        label = f"{what}, output {i}" if len(want_all) > 1 else what
        w = np.asarray(w.asnumpy() if isinstance(w, Tensor) else w)
        assert isinstance(g, Tensor), f"{label}: got {type(g).__name__}, expected a Tensor"
        expected = mstype.from_numpy(w.dtype)
        assert g.dtype == expected, f"{label}: dtype {g.dtype}, expected {expected}"
        assert g.shape == w.shape, f"{label}: shape {list(g.shape)}, expected {list(w.shape)}"
        values = np.asarray(g.asnumpy())
        assert values.dtype == w.dtype and values.shape == w.shape, (
            f"{label}: asnumpy() gives {values.dtype} {list(values.shape)}, but the Tensor "
            f"says {g.dtype} {list(g.shape)}")
        if w.dtype.kind == "f":
            rtol, atol = tolerance(w.dtype.type)
            np.testing.assert_allclose(values, w, rtol=rtol, atol=atol, err_msg=label)
        else:
            np.testing.assert_array_equal(values, w, err_msg=label)


def _grad_leaves(case: OpCase, args: tuple) -> list[tuple[int, int | None]]:
    """(argument position, index in a tuple argument or None) of every tensor whose gradient
    the case checks."""
    leaves: list[tuple[int, int | None]] = []
    for p in case.grad:
        arg = args[p] if p < len(args) else None
        if isinstance(arg, Tensor):
            leaves.append((p, None))
        elif isinstance(arg, tuple | list) and arg and all(isinstance(a, Tensor) for a in arg):
            leaves.extend((p, j) for j in range(len(arg)))
        else:
            raise TypeError(f"case {case.id}: grad position {p} is not a tensor argument "
                            f"(the call has {len(args)} arguments)")
    return leaves


def check_gradients(case: OpCase, prim: Any, args: tuple, seed: int) -> None:
    """Backward rules of ``prim`` at ``args`` against finite differences, in PyNative; the
    compiled gradient against PyNative's."""
    leaves = _grad_leaves(case, args)

    def fn(*xs: Tensor) -> Any:
        full = [list(a) if isinstance(a, tuple | list) else a for a in args]
        for (p, j), x in zip(leaves, xs):
            if j is None:
                full[p] = x
            else:
                full[p][j] = x
        return prim(*(tuple(a) if isinstance(args[i], tuple) else a
                      for i, a in enumerate(full)))

    points = [args[p] if j is None else args[p][j] for p, j in leaves]
    sens = gradcheck.sensitivity(fn(*points), seed)
    numeric = gradcheck.numeric_grads(fn, points, sens)
    analytic = gradcheck.analytic_grads(fn, points, sens)
    compiled = (gradcheck.analytic_grads(fn, points, sens, staged=True) if case.graph
                else analytic)
    rtol, atol = GRAD_TOLERANCE
    for (p, j), want, got, graph in zip(leaves, numeric, analytic, compiled):
        assert want is not None and got is not None and graph is not None  # float leaves
        where = f"gradient of argument {p}" + ("" if j is None else f"[{j}]")
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol,
                                   err_msg=f"{where}: backward rule vs finite differences")
        np.testing.assert_allclose(graph, got, rtol=rtol, atol=atol,
                                   err_msg=f"{where}: Graph mode vs PyNative")


def run_case(case: OpCase, dtype: type) -> None:
    """Every check of one case in one dtype, on the device_target in effect."""
    seed = zlib.crc32(f"{case.id}-{np.dtype(dtype).name}".encode())
    raw = case.inputs(np.random.default_rng(seed), dtype)
    want = case.reference(*raw)
    args = tuple(as_tensors(a) for a in raw)
    prim = case.make()
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # NumPy's overflow, invalid, ...
        got = prim(*args)

    def tolerance(out: type) -> tuple[float, float]:
        """The looser of the case's bounds for its dtype and for the output's."""
        return max(case.tol(dtype), case.tol(out))

    assert_outputs(got, want, tolerance, f"{case.id} in PyNative mode vs the NumPy reference")
    if case.graph:
        assert_outputs(staged(prim, args), got, tolerance,
                       f"{case.id} in Graph mode (ms_function) vs PyNative mode")
    else:
        with pytest.raises(RuntimeError, match=f"{case.primitive} cannot be compiled"):
            staged(prim, args)
    if case.grad and np.dtype(dtype) == np.float64:
        check_gradients(case, prim, args, seed)


def case_params() -> list[Any]:
    return [pytest.param(case, dtype, id=f"{case.id}-{np.dtype(dtype).name}")
            for case in all_cases() for dtype in case.dtypes]


@pytest.mark.ember_conformance
@pytest.mark.parametrize("case, dtype", case_params())
def test_primitive(case: OpCase, dtype: type, request: pytest.FixtureRequest) -> None:
    before = _executor.fallback_report()
    try:
        run_case(case, dtype)
    finally:  # the report counts a case passed by another backend's kernel apart
        ran = sorted(name for name, calls in _executor.fallback_report().items()
                     if calls > before.get(name, 0))
        request.node.user_properties.append((FALLBACK, ran))


# -- backend-level checks -------------------------------------------------------------------
@pytest.mark.ember_conformance(check="api-version")
def test_backend_api_version(ember_target: str) -> None:
    from ember.version import API_VERSION

    spec = _plugins.registry().specs[ember_target]
    core = f"{API_VERSION[0]}.{API_VERSION[1]}"
    assert _plugins._api_compatible(spec.api_version), (
        f"{spec.distribution} declares backend API {spec.api_version!r}; ember-core "
        f"provides {core}: it must be 'major.minor' with major {API_VERSION[0]} and minor "
        f"<= {API_VERSION[1]}")


class _NoKernelAnywhere(Primitive):
    """A primitive no backend has a kernel for (private: not among ember's primitives)."""

    def infer(self, x: Tensor) -> tuple:
        return x.shape, x.dtype


@contextlib.contextmanager
def _context(**changes: Any) -> Iterator[None]:
    """``set_context(**changes)`` for a block; the values before are restored after it."""
    saved = {key: context.get_context(key) for key in changes}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "honoured only on ..." where it is not
        context.set_context(**changes)
    try:
        yield
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            context.set_context(**saved)


@pytest.mark.ember_conformance(check="missing-kernel")
@_context(fallback_device_target="")  # the error, not another backend's kernel
def test_backend_missing_kernel(ember_target: str) -> None:
    prim = _NoKernelAnywhere()
    x = Tensor(np.ones((2, 2), np.float32))
    with pytest.raises(MissingKernelError) as raised:
        (_executor.state.eager or _executor.load_eager()).kernel(prim)
    error = raised.value
    assert error.primitive == prim.name, f"MissingKernelError names {error.primitive!r}"
    assert ember_target in error.backend and prim.name in str(error), (
        f"MissingKernelError must name the backend {ember_target!r} and the primitive: {error}")
    with pytest.raises(MissingKernelError, match=prim.name):
        prim(x)
    with pytest.raises(MissingKernelError, match=prim.name):
        staged(prim, (x,))


class _KernelRequests:
    """Stands in for the PyNative executor and records the kernels asked of it."""

    def __init__(self, executor: Any) -> None:
        self.executor = executor
        self.device = executor.device
        self.requested: list[str] = []

    def kernel(self, prim: Any) -> Any:
        self.requested.append(prim.name)
        return self.executor.kernel(prim)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.executor, name)


#: Invalid attributes and inputs, with the error each must raise before any kernel runs.
BAD_INPUT: list[tuple[Callable[[], Any], type, str]] = [
    (lambda: P.ReduceSum(keep_dims=1),  # type: ignore[arg-type]
     TypeError, r"ReduceSum: keep_dims must be a bool"),
    (lambda: P.Argmax(output_type=mstype.float32), TypeError, r"Argmax: output_type must"),
    (lambda: P.MatMul(transpose_a="no"),  # type: ignore[arg-type]
     TypeError, r"MatMul: transpose_a must be a bool"),
    (lambda: P.Add()(Tensor(np.ones((2, 3))), Tensor(np.ones(4))), ValueError,
     r"Add: shapes \[2, 3\] and \[4\] cannot be broadcast"),
    (lambda: P.Log()(Tensor(np.ones(2, np.int32))), TypeError,
     r"Log: input 'x' must have dtype in \[Float16, Float32, Float64\], but got Int32"),
    (lambda: P.ReduceSum()(Tensor(np.ones((2, 3))), 2), ValueError,
     r"ReduceSum: axis 2 is out of range"),
]


@pytest.mark.ember_conformance(check="bad-input")
def test_backend_rejects_bad_input_before_kernels(ember_target: str) -> None:
    spy = _KernelRequests(_executor.state.eager or _executor.load_eager())
    _executor.state.eager = spy
    try:
        for call, error, match in BAD_INPUT:
            with pytest.raises(error, match=match):
                call()
        assert spy.requested == [], f"kernels were asked for before the error: {spy.requested}"
        out = P.ReduceSum(keep_dims=True)(Tensor(np.ones((2, 3), np.float32)), 1)
        assert spy.requested == ["ReduceSum"]
    finally:
        _executor.state.eager = spy.executor
    np.testing.assert_array_equal(out.asnumpy(), [[3], [3]])


@pytest.mark.ember_conformance(check="context-hook")
def test_backend_context_hook(ember_target: str) -> None:
    x = Tensor(np.array([1.0, 2.0], np.float32))
    with _context(pynative_synchronize=True):
        assert context.get_context("pynative_synchronize") is True
        np.testing.assert_array_equal(P.Square()(x).asnumpy(), [1, 4])
    assert context.get_context("pynative_synchronize") is False
    assert context.get_context("device_target") == ember_target


@pytest.mark.ember_conformance(check="device-target-switch")
def test_backend_device_target_switch(ember_target: str) -> None:
    registry = _plugins.registry()
    others = [t for t in registry.specs
              if t != ember_target and registry.unavailable_reason(t) is None]
    other = others[0] if others else ember_target  # alone: leave and re-enter the same one
    x = Tensor(np.array([1.0, -2.0, 3.0], np.float32))
    y = P.Neg()(x)
    context.set_context(device_target=other)
    try:
        z = P.Square()(y)  # the data moves from the backend under test
        np.testing.assert_array_equal(z.asnumpy(), [1, 4, 9])
    finally:
        context.set_context(device_target=ember_target)
    assert context.get_context("device_target") == ember_target
    np.testing.assert_array_equal(P.Neg()(z).asnumpy(), [-1, -4, -9])  # and back
    np.testing.assert_array_equal(staged(P.Neg(), (z,)).asnumpy(), [-1, -4, -9])


@pytest.mark.ember_conformance(check="random-statistics")
def test_backend_random_statistics() -> None:
    statistics.check_statistics()


@pytest.mark.ember_conformance(check="random-seeds")
def test_backend_random_seeds() -> None:
    statistics.check_seeds()


@pytest.mark.ember_conformance(check="control-flow")
def test_backend_control_flow(ember_target: str) -> None:
    for case in CONTROL_FLOW_CASES:
        for dtype in (np.float32, np.float64):
            check_control_flow_case(case, dtype)


@pytest.mark.ember_conformance(check="communicator")
def test_backend_communicator(ember_target: str) -> None:
    """The ``ember_communicator`` hook, in this process alone (a launch of one): every
    collective returns the backend's arrays with the right shape, dtype and values."""
    try:
        comm = _plugins.registry().call(ember_target, "ember_communicator",
                                        device_target=ember_target)
    except ImportError as exc:
        pytest.skip(f"the communicator's library is not installed here: {exc}")
    assert comm is not None, f"the backend of {ember_target!r} implements no ember_communicator"
    assert (comm.rank, comm.size, comm.local_rank, comm.local_size) == (0, 1, 0, 1)
    executor = _executor.state.eager or _executor.load_eager()
    host = np.arange(12, dtype=np.float32).reshape(4, 3)
    on_device = host if executor.device is None else executor.from_host(host)
    calls = comm.calls
    results = [comm.all_reduce(on_device, op) for op in ("sum", "max", "min", "prod")]
    results += [comm.all_gather(on_device), comm.reduce_scatter(on_device, "sum"),
                comm.broadcast(on_device, 0), comm.all_to_all(on_device, 0, 1),
                *comm.neighbor_exchange((on_device,), (0,), (0,), [((4, 3), np.float32)])]
    want = [host] * len(results)  # one process: every collective gives back its input
    for result, expected in zip(results, want, strict=True):
        got = result if executor.device is None else executor.to_host(result)
        assert isinstance(got, np.ndarray) and got.dtype == np.float32
        np.testing.assert_array_equal(got, expected)
    assert comm.calls == calls + len(results), "calls must count the collectives run"
